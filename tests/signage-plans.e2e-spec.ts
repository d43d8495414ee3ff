// Ad Plan Management in a real browser on the built gateway, with the signage worker as its own process and two
// simulated floor screens on the real broker: /floor-screen leads to the page; a plan is made in the editor for a group
// (the empty group is offered but cannot be chosen), published ('Published successfully'), and each screen's receive
// status moves on screen to download completed as the screens report, pushed over the socket. On Device Management, a
// player's volume, mute and reboot show on its row as it reports them (no list read), and its screenshot in its dialog.
import pino from 'pino';
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { AdReceiveStatus, ScreenOrientation, type MaterialRow } from '@sc/contracts';
import { ApiClient } from '@sc/testing';
import { startSignageFleet, type SignageFleet } from '../apps/device-sim/src/families/signage.sim';
import { signagePlans as texts } from '../apps/web/src/i18n/locales/en/signagePlans';
import { closePage, launchBrowser, login, newPage, pageErrors, screenshot, socketConnected, socketFrame, waitForPath } from './support/browser';
import { freePort, startGatewayProcess, type RunningGateway } from './support/gateway-process';
import { MQTT_URL, signIn, startWorkerProcess, uniqueCodePrefix, type RunningWorker } from './support/pipeline';

const SIGNAGE_WORKER = require.resolve('../dist/apps/worker-signage/main.js');
const PLACED = { cMark: 'CM', address: 'Station hall', latitude: 22.5, longitude: 114.1 };

describe('floor screens: an ad plan published from the browser, its receive status live', () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let browser: Browser;
  let fleet: SignageFleet | undefined;

  beforeAll(async () => {
    const port = await freePort();
    [gw, browser] = await Promise.all([
      startGatewayProcess({ PORT: String(port), MEDIA_LINK_BASE_URL: `http://127.0.0.1:${port}` }),
      launchBrowser(),
    ]);
    worker = await startWorkerProcess(gw, {}, SIGNAGE_WORKER);
  }, 90_000);

  afterAll(async () => {
    await fleet?.stop({ clearRetained: true });
    await browser?.close();
    await worker?.stop();
    await gw?.stop();
  });

  it('makes a plan for a group, publishes it and shows each screen reach download completed', async () => {
    const prefix = uniqueCodePrefix('AP');
    const codes = [`${prefix}1`, `${prefix}2`];
    const admin = await signIn(gw);
    const png = await sharp({ create: { width: 360, height: 640, channels: 3, background: '#1366ec' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([png]), 'poster.png');
    const image = (await new ApiClient(gw.uploadUrl, 'en-US').as(admin.token).post<MaterialRow>('/api/signage/material/upload', form)).body.data;
    const ad = await admin.post<{ id: number }>('/api/signage/ad/add', {
      name: `${prefix} poster`,
      coverMaterialId: image.id,
      orientation: ScreenOrientation.Portrait,
      totalDuration: 10,
      splitCount: 1,
      zones: [[{ materialId: image.id, seconds: 10 }]],
      music: [],
      auditRequired: false,
    });
    expect(ad.status).toBe(200);
    const group = `${prefix} hall`;
    const groupId = (await admin.post<{ id: number }>('/api/signage/groupAddOrEdit', { name: group })).body.data.id;
    await admin.post('/api/signage/groupAddOrEdit', { name: `${prefix} nobody` });
    const ids: number[] = [];
    for (const code of codes)
      ids.push((await admin.post<{ id: number }>('/api/signage/deviceAddOrEdit', { name: code, code, ...PLACED })).body.data.id);
    expect((await admin.post('/api/signage/bind', { ids, groupId })).status).toBe(200);
    fleet = await startSignageFleet({
      mqttUrl: MQTT_URL,
      players: codes.map((code) => ({ code, record: { name: code, orientation: ScreenOrientation.Portrait } })),
      ackLatencyMs: { min: 5, max: 20 },
      logger: pino({ level: 'silent' }),
    });

    const page = await newPage(browser, undefined, { language: 'en', baseUrl: gw.baseUrl });
    const errors = pageErrors(page);
    // The rows move by what the socket pushes: the screens' ledger rows (DispatchRowsChanged).
    const rowsPushed = socketFrame(page, '["DispatchRowsChanged",');
    const rowsWatched = socketFrame(page, '"event":"DispatchRowsChanged"');
    try {
      await login(page, gw.baseUrl, 'admin');
      const connected = socketConnected(page);
      // Spec section 2: the section leads to Ad Plan Management.
      await page.goto(`${gw.baseUrl}/floor-screen`);
      await waitForPath(page, '/floor-screen/ad-plan');
      await page.getByTestId('plan-table').waitFor();
      await connected;

      await page.getByTestId('plan-add').click();
      await page.getByTestId('plan-name').fill(`${prefix} winter`);
      await page.getByTestId('plan-mode').getByText(texts.publishMode.group).click();
      await page.getByTestId('plan-group').click();
      // The empty group is listed, but cannot be chosen.
      const empty = page.getByRole('option', { name: texts.emptyGroup.replace('{{name}}', `${prefix} nobody`) });
      expect(await empty.getAttribute('data-combobox-disabled')).toBe('true');
      await page.getByRole('option', { name: new RegExp(`^${group}`) }).click();
      await page.getByTestId('plan-ads').click();
      await page.getByRole('option', { name: `${prefix} poster` }).click();
      await page.keyboard.press('Escape');
      // It plays from today (the browser's date) for a year: a plan whose last day is over at the default place is
      // expired, and that place may already be on tomorrow.
      await page.getByTestId('plan-end-date').fill(`${new Date().getUTCFullYear() + 1}-12-31`);
      await page.getByTestId('plan-name').click();
      await screenshot(page, 'signage-plan-editor');
      await page.getByTestId('plan-save').click();
      const row = page.getByTestId(`plan-row-${prefix} winter`);
      await row.locator('[data-status="unpublished"]').waitFor();

      // Its receive-status view, open before it is published: the screens it will go to, then each taking it.
      await row.getByTestId('plan-receivers').click();
      const view = page.getByTestId('plan-receivers-view');
      for (const code of codes) await view.locator(`[data-testid="plan-receiver-${code}"][data-status="${AdReceiveStatus.NotPublished}"]`).waitFor();
      await rowsWatched;
      await view.getByTestId('plan-receivers-publish').click();
      await page.getByTestId('plan-publish-confirm').click();
      await page.getByText(texts.published).first().waitFor();
      // Its rows move as the screens report.
      for (const code of codes)
        await view.locator(`[data-testid="plan-receiver-${code}"][data-status="${AdReceiveStatus.DownloadCompleted}"]`).waitFor({ timeout: 20_000 });
      await view.locator(`[data-status="${AdReceiveStatus.DownloadCompleted}"][data-count="2"]`).waitFor();
      expect(await rowsPushed).toContain('"dispatchId"');
      await screenshot(page, 'signage-plan-receivers');
      expect(await view.getByTestId('plan-receive-status').first().textContent()).toBe(texts.receiveStatus.downloadCompleted);
      await page.keyboard.press('Escape');
      await row.locator('[data-status="published"]').waitFor();
      // The calendar shows this week's plans: this one plays from today, all day, with no other plan on its screens.
      await page.getByTestId('plan-tab-calendar').click();
      const week = page.getByTestId(`plan-calendar-${prefix} winter`);
      await week.getByText('00:00–24:00').first().waitFor();
      expect(await week.getAttribute('data-conflicts')).toBe('0');
      await screenshot(page, 'signage-plan-calendar');
      expect(errors).toEqual([]);
    } finally {
      await closePage(page);
    }
  }, 60_000);

  it("sets a player's volume, mutes and reboots it, and takes its screenshot from Device Management, each shown as the player reports it", async () => {
    const prefix = uniqueCodePrefix('DV');
    const code = `${prefix}1`;
    const admin = await signIn(gw);
    expect((await admin.post('/api/signage/deviceAddOrEdit', { name: code, code, ...PLACED })).status).toBe(200);
    const players = await startSignageFleet({
      mqttUrl: MQTT_URL,
      players: [{ code, record: { name: code, orientation: ScreenOrientation.Portrait } }],
      ackLatencyMs: { min: 5, max: 20 },
      logger: pino({ level: 'silent' }),
    });
    const page = await newPage(browser, undefined, { language: 'en', baseUrl: gw.baseUrl });
    try {
      await login(page, gw.baseUrl, 'admin');
      await page.addInitScript("localStorage.setItem('isAutoRefresh', 'false')");
      const connected = socketConnected(page);
      await page.goto(`${gw.baseUrl}/floor-screen/device?name=${encodeURIComponent(prefix)}`);
      await connected;
      const row = page.getByTestId(`signage-row-${code}`);
      await row.locator('[data-testid="lamp-network"][data-network="1"]').waitFor({ timeout: 15_000 });
      // From here on the row moves by pushed events only: the list is not fetched again.
      const reads: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/signage/devicePage') reads.push(request.url());
      });

      await row.getByRole('checkbox').check();
      await page.getByTestId('signage-commands').locator('input[name="volume"]').fill('35');
      await page.getByTestId('signage-volume-send').click();
      await page.getByTestId('signage-volume-confirm').click();
      await row.getByTestId('signage-volume').getByText('35 %', { exact: true }).waitFor({ timeout: 15_000 });
      expect(players.player(code)?.volume).toBe(35);
      await page.getByTestId('signage-mute').click();
      await page.getByTestId('signage-mute-confirm').click();
      await row.getByTestId('signage-muted').waitFor({ timeout: 15_000 });

      // A reboot: the player drops off and comes back, still muted at 35 %.
      await page.getByTestId('signage-reboot').click();
      await page.getByTestId('signage-reboot-confirm').click();
      await row.locator('[data-testid="lamp-network"][data-network="0"]').waitFor({ timeout: 15_000 });
      await row.locator('[data-testid="lamp-network"][data-network="1"]').waitFor({ timeout: 20_000 });
      expect(await row.getByTestId('signage-volume').textContent()).toContain('35 %');
      expect(reads).toEqual([]);

      // The dialog asks for a screenshot as it opens: the player uploads it to its signed link and the dialog shows it.
      await row.getByTestId('signage-screenshot').click();
      const image = page.getByTestId('signage-screenshot-image');
      await image.waitFor({ timeout: 20_000 });
      expect(players.player(code)?.screenshots).toBe(1);
      // Asked again on demand (the button waits while a request is out): a new picture replaces the shown one.
      const first = await image.getAttribute('src');
      await page.getByTestId('signage-screenshot-take').click();
      await page.locator(`[data-testid="signage-screenshot-image"]:not([src=${JSON.stringify(first)}])`).waitFor({ timeout: 20_000 });
      expect(players.player(code)?.screenshots).toBe(2);
      expect(pageErrors(page)).toEqual([]);
    } finally {
      await players.stop({ clearRetained: true });
      await closePage(page);
    }
  }, 90_000);
});
