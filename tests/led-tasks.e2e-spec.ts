// LED media and tasks end to end: the built gateway and LED worker as their own processes, two simulated LED screens
// as a process of their own on the real broker, and the console in a real browser: a picture uploaded to the media
// library (upload port), a task made with it for both screens and published; each screen's receive status moves live
// in the task's drawer (no polling) until both report playing it. A picture played now from Real-time Play shows on
// the screens' rows, live, until it is stopped.
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import type { LedMediaRow } from '@sc/contracts';
import { ApiClient } from '@sc/testing';
import { led as texts } from '../apps/web/src/i18n/locales/en/led';
import { DEMO_PASSWORD } from '../apps/gateway/src/demo/demo-data';
import { closePage, launchBrowser, login, newPage, pageErrors, socketConnected } from './support/browser';
import { startSimulatorProcess, type RunningSimulator } from './support/device-sim-process';
import { freePort, startGatewayProcess, type RunningGateway } from './support/gateway-process';
import { LED_WORKER, startWorkerProcess, uniqueCodePrefix, type RunningWorker } from './support/pipeline';

describe('LED media library and tasks in the browser with simulated screens', () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let browser: Browser;
  let png: Buffer;

  beforeAll(async () => {
    const port = await freePort();
    [gw, browser, png] = await Promise.all([
      // The screens fetch the file from the gateway's signed link.
      startGatewayProcess({ PORT: String(port), MEDIA_LINK_BASE_URL: `http://127.0.0.1:${port}` }),
      launchBrowser(),
      sharp({ create: { width: 640, height: 320, channels: 3, background: '#1366ec' } })
        .png()
        .toBuffer(),
    ]);
    worker = await startWorkerProcess(gw, {}, LED_WORKER);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await gw?.stop();
  });

  it('uploads a picture, publishes a task to two screens and follows their receive status live to playing', async () => {
    const prefix = uniqueCodePrefix('T');
    const codes = [`${prefix}00001`, `${prefix}00002`];
    const admin = await gw.client().login('admin', DEMO_PASSWORD);
    for (const [i, sn] of codes.entries()) {
      await admin.post('/api/led/ledAddOrEdit', { name: `${prefix} screen ${i + 1}`, sn, IPAddress: `10.30.8.${i + 1}`, width: 640, height: 320 });
    }
    const page: Page = await newPage(browser, undefined, { language: 'en', baseUrl: gw.baseUrl });
    let sim: RunningSimulator | undefined;
    try {
      sim = await startSimulatorProcess(['--family', 'led', '--count', '2', '--prefix', prefix, '--ack-latency', '20-50']);
      await login(page, gw.baseUrl, 'admin');

      // The media library: a picture uploaded to the upload port, listed with the resolution read from it.
      await page.goto(`${gw.baseUrl}/ledManage/ledMediaLib`);
      await page.getByTestId('led-media-upload-open').click();
      await page
        .getByTestId('led-media-upload-form')
        .locator('input[type=file]')
        .setInputFiles({ name: 'welcome.png', mimeType: 'image/png', buffer: png });
      await page.getByTestId('led-media-upload-submit').click();
      const media = page.getByTestId('led-media-row-welcome');
      await media.waitFor({ timeout: 20_000 });
      expect(await media.getByTestId('led-media-resolution').textContent()).toBe('640×320');

      // A task with it for both screens, all day this week (the form's default periods).
      const connected = socketConnected(page);
      await page.goto(`${gw.baseUrl}/ledManage/ledTaskManage`);
      await connected;
      await page.getByTestId('led-task-add').click();
      await page.getByTestId('led-task-name').fill(`${prefix} welcome`);
      await page.getByTestId('led-task-file').click();
      await page.getByRole('option', { name: /welcome/ }).click();
      await page.getByTestId('led-task-name').click();
      await page.getByTestId('led-task-screens').click();
      for (const i of [1, 2]) await page.getByRole('option', { name: new RegExp(`${prefix} screen ${i}`) }).click();
      await page.getByTestId('led-task-name').click();
      await page.getByTestId('led-task-save').click();
      const row = page.getByTestId(`led-task-row-${prefix} welcome`);
      await row.waitFor({ timeout: 10_000 });
      expect(await row.getByTestId('led-task-time-status').textContent()).toBe(texts.task.timeStatus.inProgress);

      // Published: the drawer's rows move by pushed events, from to be sent to playing; it reads its first page of 50
      // (again only when the publication's totals move), and shows the totals over all the task's screens.
      const reads: unknown[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/led/taskScreens') reads.push(request.postDataJSON());
      });
      await row.getByTestId('led-task-publish').click();
      const drawer = page.getByTestId('led-task-screens-table');
      for (const sn of codes) {
        await drawer
          .getByTestId(`led-task-screen-${sn}`)
          .locator('[data-testid="led-task-receive"][data-status="playing"]')
          .waitFor({ timeout: 20_000 });
      }
      expect(await drawer.getByTestId(`led-task-screen-${codes[0]}`).getByTestId('led-task-receive').textContent()).toBe(texts.task.receive.playing);
      await page.getByTestId('led-task-receive-counts').locator('[data-status="playing"][data-count="2"]').waitFor({ timeout: 10_000 });
      expect(reads.length).toBeGreaterThanOrEqual(1);
      expect(reads.every((body) => JSON.stringify(body).includes('"pageNum":1,"pageSize":50'))).toBe(true);
      expect(pageErrors(page)).toEqual([]);
    } finally {
      await sim?.stop();
      await closePage(page);
    }
  }, 60_000);

  it('aims a task at a region picked from the region tree and at a screen found by search; the list counts all their screens', async () => {
    const prefix = uniqueCodePrefix('R');
    const admin = await gw.client().login('admin', DEMO_PASSWORD);
    const region = await admin.post<{ id: number }>('/api/bi/area/add', { regionName: `${prefix} square` });
    expect(region.status).toBe(200);
    for (const i of [1, 2, 3]) {
      await admin.post('/api/led/ledAddOrEdit', {
        name: `${prefix} square ${i}`,
        sn: `${prefix}0000${i}`,
        IPAddress: `10.30.9.${i}`,
        width: 640,
        height: 320,
        regionId: region.body.data.id,
      });
    }
    await admin.post('/api/led/ledAddOrEdit', { name: `${prefix} lone`, sn: `${prefix}00009`, IPAddress: '10.30.9.9', width: 640, height: 320 });
    const form = new FormData();
    form.append('file', new Blob([png]), 'square.png');
    await new ApiClient(gw.uploadUrl).as(admin.token).post<LedMediaRow>('/api/led/mediaUpload', form);
    const page: Page = await newPage(browser, undefined, { language: 'en', baseUrl: gw.baseUrl });
    try {
      await login(page, gw.baseUrl, 'admin');
      await page.goto(`${gw.baseUrl}/ledManage/ledTaskManage`);
      await page.getByTestId('led-task-add').click();
      await page.getByTestId('led-task-name').fill(`${prefix} square task`);
      await page.getByTestId('led-task-file').fill('square');
      await page.getByRole('option', { name: /square/ }).click();
      await page.getByTestId('led-task-regions').fill(`${prefix} square`);
      await page.getByRole('option', { name: `${prefix} square` }).click();
      // The screen picker asks the server: the lone screen is found by its serial number.
      await page.getByTestId('led-task-screens').fill(`${prefix}00009`);
      await page.getByRole('option', { name: new RegExp(`${prefix} lone`) }).click();
      await page.getByTestId('led-task-name').click();
      await page.getByTestId('led-task-save').click();
      const row = page.getByTestId(`led-task-row-${prefix} square task`);
      await row.waitFor({ timeout: 10_000 });
      expect(await row.getByTestId('led-task-screen-count').textContent()).toBe('4');
      expect(pageErrors(page)).toEqual([]);
    } finally {
      await closePage(page);
    }
  }, 60_000);

  it('plays a picture now on two screens from Real-time Play: their rows show it live, and stop takes it off', async () => {
    const prefix = uniqueCodePrefix('P');
    const codes = [`${prefix}00001`, `${prefix}00002`];
    const admin = await gw.client().login('admin', DEMO_PASSWORD);
    for (const [i, sn] of codes.entries()) {
      await admin.post('/api/led/ledAddOrEdit', { name: `${prefix} now ${i + 1}`, sn, IPAddress: `10.30.10.${i + 1}`, width: 640, height: 320 });
    }
    const form = new FormData();
    form.append('file', new Blob([png]), 'breaking.png');
    const media = (await new ApiClient(gw.uploadUrl).as(admin.token).post<LedMediaRow>('/api/led/mediaUpload', form)).body.data;
    const page: Page = await newPage(browser, undefined, { language: 'en', baseUrl: gw.baseUrl });
    let sim: RunningSimulator | undefined;
    try {
      sim = await startSimulatorProcess(['--family', 'led', '--count', '2', '--prefix', prefix, '--ack-latency', '20-50']);
      await login(page, gw.baseUrl, 'admin');
      await page.addInitScript("localStorage.setItem('isAutoRefresh', 'false')");
      const connected = socketConnected(page);
      await page.goto(`${gw.baseUrl}/ledManage/ledRealTimePlay?name=${encodeURIComponent(prefix)}`);
      await connected;
      const rows = codes.map((sn) => page.getByTestId(`led-rt-row-${sn}`));
      for (const row of rows) await row.locator('[data-testid="led-playing"][data-media=""]').waitFor();
      expect(await rows[0].getByTestId('led-playing').textContent()).toBe(texts.realtime.nothing);

      // From here on the rows move by pushed events only: the list is not fetched again.
      const reads: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/led/ledPage') reads.push(request.url());
      });
      for (const row of rows) await row.getByRole('checkbox').check();
      expect(await page.getByTestId('led-play-count').textContent()).toBe('2 screens selected');
      await page.getByTestId('led-play-media').click();
      await page.getByRole('option', { name: /^breaking/ }).click();
      await page.getByTestId('led-play-now').click();
      for (const row of rows) await row.locator(`[data-testid="led-playing"][data-media="${media.id}"]`).waitFor({ timeout: 20_000 });
      expect(await rows[0].getByTestId('led-playing').textContent()).toContain(texts.realtime.source.realtime);
      expect(await rows[0].getByTestId('led-playing').textContent()).toContain('breaking');
      await page.getByTestId('dispatch-panel').waitFor();

      // Stop: the screens go back to their tasks (none here), and say so.
      await page.getByTestId('led-play-stop').click();
      for (const row of rows) await row.locator('[data-testid="led-playing"][data-media=""]').waitFor({ timeout: 20_000 });
      expect(reads).toEqual([]);
      expect(pageErrors(page)).toEqual([]);
    } finally {
      await sim?.stop();
      await closePage(page);
    }
  }, 60_000);
});
