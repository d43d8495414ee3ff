// Wi-Fi end to end: gateway and Wi-Fi worker as their own processes, simulated access controllers and access points on
// the real broker, and /wifiManage in a real browser: the section leads to its controllers, an access point comes
// online from its heartbeat with its ratios, a client joining shows in its client count live (the list is not fetched
// again), its load is charted once it is chosen, the client is in the online tab (beside the clients chart) and, once
// it leaves, in the session history. A controller is imported through the list's dialog (no group asked), and the
// clients of a region are charted on the By region tab.
import type { Browser, Page } from 'playwright-core';
import pino from 'pino';
import { waitFor, workbookBuffer } from '@sc/testing';
import { wifi as texts } from '../apps/web/src/i18n/locales/en/wifi';
import { startWifiFleet, type WifiFleet } from '../apps/device-sim/src/families/wifi.sim';
import { closePage, launchBrowser, login, newPage, pageErrors, socketConnected, waitForPath } from './support/browser';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';
import { MQTT_URL, WIFI_WORKER, signIn, startWorkerProcess, uniqueCodePrefix, type RunningWorker } from './support/pipeline';

describe('Wi-Fi: access points and their clients in the browser', () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let browser: Browser;

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGatewayProcess(), launchBrowser()]);
    worker = await startWorkerProcess(gw, {}, WIFI_WORKER);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await gw?.stop();
  });

  it('shows an access point online with its ratios, a client joining live, then its session in the history', async () => {
    const prefix = uniqueCodePrefix('W');
    const api = await signIn(gw);
    const ac = await api.post<{ id: number }>('/api/wifi/acAddOrEdit', { devName: `${prefix}AC`, devSN: `${prefix}AC`, devMac: '58:2A:F7:EE:00:01' });
    const ap = await api.post<{ id: number }>('/api/wifi/apAddOrEdit', {
      devName: `${prefix}AP`,
      devSN: `${prefix}AP`,
      devMac: '58:2A:F7:EE:01:01',
      acId: ac.body.data.id,
    });
    expect(ap.body.code).toBe(200);
    const page: Page = await newPage(browser, undefined, { language: 'en', baseUrl: gw.baseUrl });
    let fleet: WifiFleet | undefined;
    try {
      await login(page, gw.baseUrl, 'admin');
      await page.addInitScript("localStorage.setItem('isAutoRefresh', 'false')");
      await page.goto(`${gw.baseUrl}/wifiManage`);
      await waitForPath(page, '/wifiManage/acManage');
      await page.locator('a[href="/wifiManage/apManage"]').first().waitFor();
      const connected = socketConnected(page);
      await page.goto(`${gw.baseUrl}/wifiManage/apManage?name=${encodeURIComponent(prefix)}`);
      const row = page.getByTestId(`wifi-row-${prefix}AP`);
      await row.locator('[data-testid="wifi-network"][data-network="0"]').waitFor();
      await connected;

      // From here on the row moves by pushed events only.
      const listRequests: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/wifi/apPage') listRequests.push(request.url());
      });
      fleet = await startWifiFleet({
        mqttUrl: MQTT_URL,
        acs: [`${prefix}AC`],
        aps: [`${prefix}AP`],
        ackLatencyMs: { min: 5, max: 20 },
        scheduleTickMs: 200,
        telemetryIntervalMs: 1000,
        logger: pino({ level: 'silent' }),
      });
      await row.locator('[data-testid="wifi-network"][data-network="1"]').waitFor({ timeout: 15_000 });
      expect(await row.getByTestId('wifi-network').textContent()).toBe(texts.network[1]);
      // The ratios come with the access point's first telemetry, which may follow its state.
      const cpu = await waitFor(async () => {
        const text = (await row.getByTestId('wifi-cpu').textContent()) ?? '';
        return /^\d+\.\d %$/.test(text) ? text : undefined;
      }, 15_000);
      expect(cpu).toMatch(/^\d+\.\d %$/);
      const client = fleet.aps.join(`${prefix}AP`, { mac: '02:EE:00:00:00:07', ip: '10.77.0.7', ssid: 'SmartCity-Free', signal: -61 });
      const count = String(fleet.aps.ap(`${prefix}AP`)!.clients.size);
      await row.getByTestId('wifi-clients').getByText(count, { exact: true }).waitFor({ timeout: 15_000 });
      expect(listRequests).toEqual([]);
      // Chosen alone, its load over the last day is charted beside the list.
      await row.getByRole('checkbox').check();
      await page.getByTestId('wifi-load-chart').locator('.recharts-wrapper').waitFor({ timeout: 15_000 });

      // The online tab lists it with its SSID and signal; once it leaves, it is in the history.
      await page.goto(`${gw.baseUrl}/wifiManage/terminalManage?client=${encodeURIComponent(client.mac)}`);
      const online = page.getByTestId(`wifi-client-${client.mac}`);
      await online.waitFor({ timeout: 15_000 });
      expect(await online.textContent()).toContain('SmartCity-Free');
      // It joined at -61 dBm; the simulated client's signal moves as it reports again, so any reading in dBm is its own.
      expect(await online.getByTestId('wifi-signal').textContent()).toMatch(/^-\d+ dBm$/);
      await page.getByTestId('wifi-client-chart').waitFor();
      fleet.aps.leave(`${prefix}AP`, client.mac);
      await online.waitFor({ state: 'detached', timeout: 15_000 });
      await page.getByTestId('wifi-tab-history').click();
      const session = page.getByTestId(`wifi-session-${client.mac}`);
      await session.waitFor({ timeout: 15_000 });
      expect(await session.textContent()).toContain('10.77.0.7');
      expect(pageErrors(page)).toEqual([]);
    } finally {
      await fleet?.stop({ clearRetained: true });
      await closePage(page);
    }
  }, 120_000);

  it("imports a controller through the list's dialog, and charts the clients of a region on the By region tab", async () => {
    const prefix = uniqueCodePrefix('WI');
    const api = await signIn(gw);
    const [{ id: regionId }] = await gw.db.query<{ id: number }>(`SELECT id FROM region WHERE region_name = 'Lianhua Subdistrict'`);
    const page: Page = await newPage(browser, undefined, { language: 'en', baseUrl: gw.baseUrl });
    try {
      await login(page, gw.baseUrl, 'admin');
      await page.goto(`${gw.baseUrl}/wifiManage/acManage?name=${encodeURIComponent(prefix)}`);
      await page.getByTestId('import-ac').click();
      const dialog = page.getByTestId('import-dialog');
      await dialog.getByTestId('import-file').waitFor();
      expect(await dialog.getByTestId('import-group').count()).toBe(0);
      await dialog.locator('input[type=file]').setInputFiles({
        name: 'controllers.xlsx',
        mimeType: 'application/octet-stream',
        buffer: workbookBuffer([
          ['Device name', 'Serial number', 'MAC address', 'Region name'],
          [`${prefix} AC`, `${prefix}AC`, '58:2A:F7:EF:00:01', 'Lianhua Subdistrict'],
        ]),
      });
      await dialog.getByTestId('import-submit').click();
      await dialog.getByText('1 row imported').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId(`wifi-row-${prefix}AC`).waitFor();

      // An access point of the region under it, with a reading an hour ago: the region's line.
      const [{ id: acId }] = await gw.db.query<{ id: number }>(`SELECT id FROM device WHERE code = $1`, [`${prefix}AC`]);
      const ap = await api.post<{ id: number }>('/api/wifi/apAddOrEdit', {
        devName: `${prefix} AP`,
        devSN: `${prefix}AP`,
        devMac: '58:2A:F7:EF:01:01',
        acId,
        regionId,
      });
      await gw.db.query(
        `INSERT INTO wifi_load_sample (device_id, minute, client_count) VALUES ($1, date_trunc('minute', now()) - interval '1 hour', 9)`,
        [ap.body.data.id],
      );
      await page.goto(`${gw.baseUrl}/wifiManage/terminalManage?tab=regions&regions=${regionId}`);
      const chart = page.getByTestId('wifi-region-chart');
      await chart.locator('.recharts-wrapper').waitFor({ timeout: 15_000 });
      expect(await chart.textContent()).toContain('Lianhua Subdistrict');
      expect(pageErrors(page)).toEqual([]);
    } finally {
      await closePage(page);
    }
  }, 60_000);
});
