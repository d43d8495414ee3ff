// Radars end to end: gateway, radar worker and lighting worker as their own processes, a simulated radar and simulated
// lamps on the real broker, and /radarManage in a real browser: the radar comes online on its row, a detection shows
// on the page with the lamps it raised while the lamps rise through the ledger and return after the close interval (the
// page shows them return);
// a strategy without a group or an event ID is refused with the spec's messages, nothing sent.
import type { Browser, Page } from 'playwright-core';
import { RadarEventId } from '@sc/contracts';
import { enUS } from '@sc/i18n/locales/en-US';
import { radar as enTexts } from '../apps/web/src/i18n/locales/en/radar';
import { startRadarFleet, type RadarFleet } from '../apps/device-sim/src/families/radar.sim';
import type { Fleet } from '../apps/device-sim/src/families/lamp.sim';
import { closePage, launchBrowser, login, newPage, pageErrors, socketConnected, waitForPath } from './support/browser';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';
import {
  MQTT_URL,
  RADAR_WORKER,
  fleetFor,
  insertLamps,
  signIn,
  startWorkerProcess,
  uniqueCodePrefix,
  waitForDispatchDone,
  type RunningWorker,
} from './support/pipeline';
import { waitFor } from '@sc/testing';

describe('Radars: detections raise lamps, seen in the browser', () => {
  let gw: RunningGateway;
  let lighting: RunningWorker;
  let radarWorker: RunningWorker;
  let browser: Browser;

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGatewayProcess(), launchBrowser()]);
    [lighting, radarWorker] = await Promise.all([startWorkerProcess(gw), startWorkerProcess(gw, {}, RADAR_WORKER)]);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await radarWorker?.stop();
    await lighting?.stop();
    await gw?.stop();
  });

  it('shows a detection and the lamps it raised live; the lamps rise and return; a strategy without group or event ID is refused', async () => {
    const prefix = uniqueCodePrefix('R');
    const code = `${prefix}00001`;
    const api = await signIn(gw);
    const lamps = await insertLamps(gw.db, 2, `${prefix}L`);
    const radarId = (await api.post<{ id: number }>('/api/radar/radarAddOrEdit', { radarName: `${prefix} radar`, code })).body.data.id;
    const group = (await api.post<{ id: number }>('/api/radar/groupAddOrEdit', { name: `${prefix} street`, radarIds: [radarId], lampIds: lamps.ids }))
      .body.data.id;
    await api.post('/api/radar/strategyAddOrEdit', {
      name: `${prefix} walkers`,
      groupId: group,
      radarEventInfos: [{ event: RadarEventId.Pedestrian, brightness: 100, openInterval: 0, closeInterval: 3 }],
    });
    // Every lamp starts off (the draws that decide a simulated lamp's first state say so).
    const lampFleet: Fleet = await fleetFor(lamps.codes, { random: () => 0.9, ackLatencyMs: { min: 5, max: 20 } });
    let radars: RadarFleet | undefined;
    const page: Page = await newPage(browser, undefined, { language: 'en', baseUrl: gw.baseUrl });
    try {
      await login(page, gw.baseUrl, 'admin');
      await page.addInitScript("localStorage.setItem('isAutoRefresh', 'false')");
      await page.goto(`${gw.baseUrl}/radarManage`);
      await waitForPath(page, '/radarManage/radarTerminalManagement');
      const connected = socketConnected(page);
      await page.goto(`${gw.baseUrl}/radarManage/radarTerminalManagement?radarName=${encodeURIComponent(prefix)}`);
      const row = page.getByTestId(`radar-row-${code}`);
      await row.locator('[data-testid="radar-network"][data-network="0"]').waitFor();
      await connected;
      expect(await page.getByTestId('radar-detections').textContent()).toContain(enTexts.detections.waiting);

      radars = await startRadarFleet({ mqttUrl: MQTT_URL, radars: [code] });
      await row.locator('[data-testid="radar-network"][data-network="1"]').waitFor({ timeout: 15_000 });
      await radars.detect(code, RadarEventId.Pedestrian);
      const detection = page.locator(`[data-testid="radar-detection"][data-code="${code}"]`);
      await detection.waitFor({ timeout: 10_000 });
      expect(await detection.getByTestId('radar-raised-lamp').allTextContents()).toEqual(lamps.codes.map((c) => `${c} → 100 %`));
      await row.getByTestId('radar-count').getByText('1', { exact: true }).waitFor({ timeout: 10_000 });
      // The lamps rose through the ledger, and return after the close interval.
      const [{ id: dispatchId }] = await gw.db.query<{ id: string }>(
        `SELECT id FROM dispatch WHERE created_by = 'radar strategy' ORDER BY created_at LIMIT 1`,
      );
      await waitForDispatchDone(api, dispatchId);
      expect(lamps.codes.map((c) => lampFleet.lamp(c)?.level)).toEqual([100, 100]);
      await waitFor(async () => (lamps.codes.every((c) => lampFleet.lamp(c)?.level === 0) ? true : undefined), 15_000);
      // The page shows them return, live, with the level they went back to.
      const back = detection.locator('[data-testid="radar-raised-lamp"][data-state="returned"]');
      await back.nth(lamps.codes.length - 1).waitFor({ timeout: 10_000 });
      const backTexts = await back.allTextContents();
      expect(
        backTexts.map((text, i) =>
          text.startsWith(enTexts.detections.lampReturned.split('{{time}}')[0].replace('{{code}}', lamps.codes[i]).replace('{{level}}', '0')),
        ),
      ).toEqual(lamps.codes.map(() => true));

      // A strategy without its group or an event's ID is refused in the spec's words, and nothing is sent.
      const saves: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/radar/strategyAddOrEdit') saves.push(request.url());
      });
      await page.goto(`${gw.baseUrl}/radarManage/radarStrategyManagement`);
      await page.getByTestId('radar-strategy-add').click();
      const form = page.getByTestId('radar-strategy-form');
      await form.locator('input[name="name"]').fill(`${prefix} refused`);
      await page.getByTestId('radar-strategy-form-save').click();
      await form.getByText(enUS.messages.selectGroup, { exact: true }).last().waitFor();
      await form.getByText(enUS.messages.selectEventId, { exact: true }).last().waitFor();
      expect(saves).toEqual([]);
      expect(pageErrors(page)).toEqual([]);
    } finally {
      await radars?.stop({ clearRetained: true });
      await lampFleet.stop({ clearRetained: true });
      await closePage(page);
    }
  }, 120_000);
});
