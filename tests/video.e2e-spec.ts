// Video monitoring end to end: the gateway and the video worker as their own processes, simulated cameras over RTSP
// (a picture drawn per camera while watched, behind a login), and the console in Chromium. The equipment page follows
// the probe live; the video wall plays a camera (its frames advance), takes its snapshot and stops the stream when the
// cell is cleared; an alarm incident near the camera shows its live picture; a browser without Media Source
// Extensions says 'Your browser does not support video tags'. Every camera call is refused to an editor by the server.
import type { Browser, Page } from 'playwright-core';
import { DeviceType, OnlineState, VIDEO_DEVICE_CATEGORIES, VideoVendor, type CameraRow, type PageResult } from '@sc/contracts';
import { waitFor, type ApiClient } from '@sc/testing';
import { video as texts } from '../apps/web/src/i18n/locales/en/video';
import { video as zhTexts } from '../apps/web/src/i18n/locales/zh/video';
import { RtspCameraServer } from '../apps/device-sim/src/kit/rtsp-cameras';
import { closePage, launchBrowser, login, newPage, pageErrors, settled, socketConnected } from './support/browser';
import { freePort, startGatewayProcess, type RunningGateway } from './support/gateway-process';
import { VIDEO_WORKER, signIn, startWorkerProcess, uniqueCodePrefix, type RunningWorker } from './support/pipeline';

const { encoding } = VIDEO_DEVICE_CATEGORIES;
const LOGIN = { username: 'viewer', password: 'e2e pass' };

describe('Video monitoring in the browser: equipment live, the wall plays and snapshots, an incident opens its camera', () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let browser: Browser;
  let cameras: RtspCameraServer;
  let admin: ApiClient;
  let page: Page;
  const prefix = uniqueCodePrefix('V');
  const code = `${prefix}CAM`;
  let cameraId: number;
  let poleId: number;

  /** Seconds of picture the wall's player of the camera has shown. */
  const shownSeconds = (p: Page) =>
    p
      .locator(`video[data-camera-id="${cameraId}"]`)
      .first()
      .evaluate((el) => {
        const v = el as unknown as { readyState: number; currentTime: number };
        return v.readyState >= 2 ? v.currentTime : -1;
      });

  beforeAll(async () => {
    // Three distinct ports, chosen before anything listens on them (the gateway would otherwise choose its own, which
    // could be the video worker's).
    const ports = new Set<number>();
    while (ports.size < 3) ports.add(await freePort());
    const [videoPort, port, uploadPort] = [...ports];
    [cameras, browser] = await Promise.all([RtspCameraServer.start({ width: 320, height: 180, fps: 10, idleStopMs: 1000 }), launchBrowser()]);
    cameras.setCamera(code, { title: `${prefix} gate camera`, ...LOGIN, online: true });
    gw = await startGatewayProcess({ VIDEO_SERVICE_URLS: `http://127.0.0.1:${videoPort}`, PORT: String(port), UPLOAD_PORT: String(uploadPort) });
    worker = await startWorkerProcess(
      gw,
      { VIDEO_HTTP_PORT: String(videoPort), VIDEO_PROBE_INTERVAL_MS: '500', VIDEO_PROBE_TIMEOUT_MS: '1000', VIDEO_IDLE_STOP_MS: '3000' },
      VIDEO_WORKER,
    );
    admin = await signIn(gw);
    // On a demo pole near which an alarm column stands (the demo's first column).
    [{ poleId }] = await gw.db.query<{ poleId: number }>(
      `SELECT pole_id AS "poleId" FROM device WHERE type = $1 AND pole_id IS NOT NULL ORDER BY code LIMIT 1`,
      [DeviceType.OneKeyAlarm],
    );
    const saved = await admin.post<{ id: number }>('/api/video/equipmentAddOrEdit', {
      name: `${prefix} gate camera`,
      code,
      vendor: VideoVendor.Other,
      category: encoding.code,
      subType: encoding.types.IPC,
      rtspUrl: `${cameras.url}/${code}`,
      ...LOGIN,
      poleId,
    });
    expect(saved.body.code).toBe(200);
    cameraId = saved.body.data.id;
    await waitFor(async () => {
      const [row] = (await admin.post<PageResult<CameraRow>>('/api/video/equipmentPage', { pageNum: 1, pageSize: 5, name: code })).body.data.list;
      return row?.networkStatus === OnlineState.Online ? true : undefined;
    }, 20_000);
  }, 90_000);

  afterAll(async () => {
    if (page) await closePage(page);
    await browser?.close();
    await worker?.stop();
    await gw?.stop();
    await cameras?.stop();
  });

  it('lists the camera under its category, and follows it going dark and coming back without reloading', async () => {
    page = await newPage(browser, undefined, { language: 'en', baseUrl: gw.baseUrl });
    await login(page, gw.baseUrl, 'admin');
    const connected = socketConnected(page);
    await page.goto(`${gw.baseUrl}/realVideo/equipment`);
    await connected;
    await page.getByTestId(`video-category-${encoding.code}`).click();
    await page.getByTestId(`video-subtype-${encoding.code}-${encoding.types.IPC}`).click();
    const row = page.getByTestId(`video-row-${code}`);
    await row.locator(`[data-testid="video-network"][data-network="${OnlineState.Online}"]`).waitFor();
    // The page's own reads (the list, and again once its feed is confirmed) are over before the camera changes.
    await settled(page);
    const reads = { n: 0 };
    page.on('request', (r) => {
      if (r.url().includes('/api/video/equipmentPage')) reads.n++;
    });
    cameras.setCamera(code, { title: `${prefix} gate camera`, ...LOGIN, online: false });
    await row.locator(`[data-testid="video-network"][data-network="${OnlineState.Offline}"]`).waitFor({ timeout: 15_000 });
    cameras.setCamera(code, { title: `${prefix} gate camera`, ...LOGIN, online: true });
    await row.locator(`[data-testid="video-network"][data-network="${OnlineState.Online}"]`).waitFor({ timeout: 15_000 });
    // Pushed, not polled.
    expect(reads.n).toBe(0);
  });

  it('plays the camera on the wall (its frames advance), takes a snapshot, and stops the stream when the cell is cleared', async () => {
    await page.goto(`${gw.baseUrl}/realVideo/video`);
    await page.getByTestId('video-grid-size').getByText('4', { exact: true }).click();
    await page.locator('[data-testid="video-wall"][data-size="4"]').waitFor();
    const opened = Date.now();
    await page.getByTestId(`video-wall-camera-${code}`).click();
    const cell = page.locator('[data-testid="video-cell"]', { has: page.locator(`video[data-camera-id="${cameraId}"]`) });
    await cell.locator('[data-testid="live-player"][data-phase="playing"]').waitFor({ timeout: 15_000 });
    const firstFrameMs = Date.now() - opened;
    const first = await shownSeconds(page);
    await waitFor(async () => ((await shownSeconds(page)) > first + 1 ? true : undefined), 10_000, 200);
    process.stdout.write(`video e2e: first frame ${firstFrameMs} ms after the click (docs/benchmarks.md has the figures)\n`);

    await cell.getByTestId('live-player-snapshot').click();
    const image = page.getByTestId('video-snapshot-image');
    await image.waitFor();
    await waitFor(
      async () =>
        (await image.evaluate((el) => (el as unknown as { complete: boolean; naturalWidth: number }).naturalWidth)) === 320 ? true : undefined,
      15_000,
    );
    await page.keyboard.press('Escape');
    await image.waitFor({ state: 'detached' });

    expect(cameras.stats().sources).toBe(1);
    await cell.getByTestId('live-player-close').click();
    // Nobody watches: the worker stops its transcoder, and the camera's source ends with it.
    await waitFor(() => (cameras.stats().sources === 0 ? true : undefined), 20_000, 200);
    expect(pageErrors(page)).toEqual([]);
  });

  it('opens the camera near a pressed alarm column in the incident view', async () => {
    const [column] = await gw.db.query<{ id: number; code: string }>(
      `SELECT id, code FROM device WHERE type = $1 AND pole_id = $2 ORDER BY code LIMIT 1`,
      [DeviceType.OneKeyAlarm, poleId],
    );
    const [{ pressId }] = await gw.db.query<{ pressId: string }>(
      `INSERT INTO alarm_press (device_id, device_code, level, pressed_at) VALUES ($1, $2, 1, now()) RETURNING id::text AS "pressId"`,
      [column.id, column.code],
    );
    await gw.db.query(
      `INSERT INTO alarm_incident (press_id, device_id, device_code, device_name, level, state, pressed_at)
       VALUES ($1, $2, $3, 'Column near the camera', 1, 'open', now())`,
      [pressId, column.id, column.code],
    );
    await page.goto(`${gw.baseUrl}/alarmManage/alarmManage?view=incidents`);
    await page.locator('[data-testid^="incident-row-"]', { hasText: 'Column near the camera' }).first().click();
    const player = page.getByTestId('incident-nearby-cameras').locator(`video[data-camera-id="${cameraId}"]`);
    await player.waitFor({ timeout: 15_000 });
    await page
      .getByTestId('incident-nearby-cameras')
      .locator('[data-testid="live-player"][data-phase="playing"]')
      .first()
      .waitFor({ timeout: 15_000 });
  });

  it("says the browser cannot play video where it has neither Media Source Extensions nor HLS of its own, in the user's language", async () => {
    const bare = await newPage(browser, undefined, { language: 'zh', baseUrl: gw.baseUrl });
    try {
      // A browser that plays neither: no Media Source Extensions for hls.js, and no HLS in its video element.
      await bare.addInitScript(
        "delete window.MediaSource; delete window.ManagedMediaSource; delete window.WebKitMediaSource; HTMLMediaElement.prototype.canPlayType = () => '';",
      );
      await login(bare, gw.baseUrl, 'admin');
      await bare.goto(`${gw.baseUrl}/realVideo/video`);
      await bare.getByTestId(`video-wall-camera-${code}`).click();
      const unsupported = bare.getByTestId('live-player-unsupported');
      await unsupported.waitFor({ timeout: 15_000 });
      expect(await unsupported.textContent()).toBe(zhTexts.player.noVideoSupport);
      expect(texts.player.noVideoSupport).toBe('Your browser does not support video tags');
    } finally {
      await closePage(bare);
    }
  });

  it('refuses the camera calls to an editor, whose menu has no video pages', async () => {
    const editor = await signIn(gw, 'editor');
    expect((await editor.get(`/api/video/live?id=${cameraId}`)).status).toBe(403);
    expect((await editor.post('/api/video/equipmentPage', { pageNum: 1, pageSize: 5 })).status).toBe(403);
    const editorPage = await newPage(browser, undefined, { language: 'en', baseUrl: gw.baseUrl });
    try {
      await login(editorPage, gw.baseUrl, 'editor');
      await editorPage.goto(`${gw.baseUrl}/regionManage/regionManage`);
      await editorPage.getByTestId('sidebar').waitFor();
      expect(await editorPage.getByTestId('sidebar').locator('[data-testid^="menu-/realVideo"]').count()).toBe(0);
    } finally {
      await closePage(editorPage);
    }
  });
});
