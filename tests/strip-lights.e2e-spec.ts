// Strip lights end to end: gateway and lighting worker as their own processes, simulated strips on the real broker,
// and the /smartLamp/lightManage page in a real browser: status labels, an effect with its dispatch progress, and the
// strips' reported state arriving live.
import type { Browser, Page } from 'playwright-core';
import { DispatchStatus, FaultCode, LampStatus, OnlineState, type PageResult, type StripRow } from '@sc/contracts';
import { waitFor, type ApiClient } from '@sc/testing';
import { startStripFleet, type StripFleet } from '../apps/device-sim/src';
import { closePage, launchBrowser, login, newPage, pageErrors, socketConnected } from './support/browser';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';
import { MQTT_URL, signIn, startWorkerProcess, uniqueCodePrefix, waitForDispatchDone, type RunningWorker } from './support/pipeline';

describe('strip lights: the light manage page with simulated strips', () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let fleet: StripFleet;
  let admin: ApiClient;
  let browser: Browser;
  let page: Page;
  const prefix = uniqueCodePrefix('S');
  const codes = [1, 2, 3].map((n) => `${prefix}${n}`);

  const stripPage = async () =>
    (await admin.post<PageResult<StripRow>>('/api/light/stripPage', { pageNum: 1, pageSize: 20, lampName: prefix })).body.data.list;

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGatewayProcess(), launchBrowser()]);
    admin = await signIn(gw);
    for (const code of codes) {
      const answer = await admin.post('/api/light/stripAddOrEdit', { lampName: `${prefix}facade ${code.slice(-1)}`, clientId: code });
      expect(answer.status).toBe(200);
    }
    worker = await startWorkerProcess(gw);
    fleet = await startStripFleet({
      mqttUrl: MQTT_URL,
      strips: codes,
      gatewayPrefix: `${prefix}SGW-`,
      ackLatencyMs: { min: 20, max: 100 },
      syncMs: 300,
      telemetryIntervalMs: 0,
    });
    await waitFor(async () => {
      const rows = await stripPage();
      return rows.length === codes.length && rows.every((r) => r.networkStatus === OnlineState.Online && r.status === LampStatus.Normal)
        ? true
        : undefined;
    }, 15_000);
    page = await newPage(browser);
    await login(page, gw.baseUrl, 'admin');
  }, 90_000);

  afterAll(async () => {
    if (page) await closePage(page);
    await browser?.close();
    await fleet?.stop({ clearRetained: true });
    await worker?.stop();
    await gw?.stop();
  });

  const row = (code: string) => page.getByTestId(`strip-row-${code}`);

  it('lists the strips with their status labels, runs a colour on both zones of two of them, and shows it live', async () => {
    await page.addInitScript("localStorage.setItem('isAutoRefresh', 'false')");
    const connected = socketConnected(page);
    await page.goto(`${gw.baseUrl}/smartLamp/lightManage?lampName=${encodeURIComponent(prefix)}`);
    await row(codes[2]).waitFor();
    await connected;
    for (const code of codes) expect(await row(code).getByTestId('strip-labels').getAttribute('data-labels')).toBe('normal');
    // In the menu, under Smart Lighting.
    await page.locator('a[href="/smartLamp/lightManage"]').first().waitFor();

    await row(codes[0]).click();
    await row(codes[1]).click();
    await page.getByTestId('strip-effect-type').click();
    await page.getByRole('option', { name: '6 · Set colour', exact: true }).click();
    await page.getByTestId('strip-effect-color').fill('#ff8800');
    // A click elsewhere closes the colour picker.
    await page.getByTestId('strip-effect').getByRole('heading').click();
    await page.getByTestId('strip-effect-send').click();
    await page.getByTestId('strip-effect-confirm').click();

    await page
      .locator('[data-testid="dispatch-panel"][data-status="allSuccessful"]')
      .waitFor({ timeout: 30_000 })
      .catch(async (error: Error) => {
        // Which side stopped: the ledger (rows still open) or the page (finished rows, stale panel).
        const ledger = await gw.db.query(
          `SELECT d.status, json_agg(json_build_object('state', i.state, 'attempts', i.attempts) ORDER BY i.device_id) AS items
             FROM dispatch d JOIN dispatch_item i ON i.dispatch_id = d.id GROUP BY d.id, d.created_at ORDER BY d.created_at DESC LIMIT 1`,
        );
        const panel = await page.getByTestId('dispatch-panel').getAttribute('data-status');
        throw new Error(`${error.message}\npanel: ${panel}; latest dispatch: ${JSON.stringify(ledger)}`);
      });
    for (const code of codes.slice(0, 2)) {
      for (const zone of ['L', 'R']) await row(code).locator(`[data-testid="strip-zone-${zone}"][data-color="#ff8800"][data-on="true"]`).waitFor();
      expect(fleet.strip(code)?.zones.L).toEqual({ on: true, type: 6, effect: null, color: '#ff8800' });
    }
    expect(fleet.strip(codes[2])?.applied).toBe(0);
    const dispatchId = new URL(page.url()).searchParams.get('dispatch')!;
    const detail = await waitForDispatchDone(admin, dispatchId);
    expect({ status: detail.status, family: detail.family, action: detail.action, params: detail.params }).toEqual({
      status: DispatchStatus.AllSuccessful,
      family: 'strip',
      action: 'colour',
      params: { type: 6, color: '#ff8800', zones: ['L', 'R'] },
    });
  }, 60_000);

  it('shows a fault the strip reports as its status label, live', async () => {
    await fleet.raiseFault(codes[2], FaultCode.BLedFailure);
    await row(codes[2]).locator('[data-testid="strip-labels"][data-labels="bLightFailure"]').waitFor({ timeout: 10_000 });
    await fleet.clearFault(codes[2], FaultCode.BLedFailure);
    await row(codes[2]).locator('[data-testid="strip-labels"][data-labels="normal"]').waitFor({ timeout: 10_000 });
    expect(pageErrors(page)).toEqual([]);
  }, 30_000);

  it('distributes a strip strategy from /smartLamp/lightStrategy: the strips run it and report its level', async () => {
    const saved = await admin.post<{ id: number }>('/api/light/stripStrategyAddOrEdit', {
      name: `${prefix}always`,
      mode: 2,
      modeData: { weekdays: [] },
      // Noon to noon: the level holds whatever the time of the run.
      periods: [{ start: '12:00', end: '12:00', level: 60 }],
    });
    expect(saved.body.code).toBe(200);
    const connected = socketConnected(page);
    await page.goto(`${gw.baseUrl}/smartLamp/lightStrategy`);
    await connected;
    await page.getByTestId(`strip-strategy-distribute-${prefix}always`).click();
    const picker = page.getByTestId('strip-distribute-strips');
    await picker.click();
    await picker.fill(prefix);
    await page.getByRole('option', { name: `${prefix}facade 3 · ${codes[2]}`, exact: true }).click();
    // The option list closes, as a click elsewhere would close it.
    await page.keyboard.press('Escape');
    await page.getByTestId('strip-distribute-send').click();
    await page.getByRole('dialog', { name: 'Send the command?' }).getByText('to 1 strip light?').waitFor();
    await page.getByTestId('command-confirm').click();
    await page.locator('[data-testid="dispatch-panel"][data-status="allSuccessful"]').waitFor({ timeout: 15_000 });
    await waitFor(async () => ((await stripPage()).find((r) => r.clientId === codes[2])?.bri === 60 ? true : undefined), 10_000);
    expect(fleet.strip(codes[2])).toMatchObject({ strategyId: saved.body.data.id, bri: 60 });
    await page.locator(`[data-testid="strip-strategy-row-${prefix}always"] [data-testid="strip-strategy-count"]`, { hasText: '1' }).waitFor();
    expect(pageErrors(page)).toEqual([]);
  }, 60_000);
});
