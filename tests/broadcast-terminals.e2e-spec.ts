// Broadcast terminals end to end: gateway and broadcast worker as their own processes, simulated terminals on the real
// broker, and /broadcastManage/terminalManagement in a real browser: a terminal turns occupied and back on the open
// list with no request of the page's own, in English.
import type { Browser, Page } from 'playwright-core';
import { TerminalOccupancy, type PageResult, type TerminalRow } from '@sc/contracts';
import type { ApiClient } from '@sc/testing';
import { startBroadcastFleet, type BroadcastFleet } from '../apps/device-sim/src';
import { broadcast as esTexts } from '../apps/web/src/i18n/locales/es/broadcast';
import { broadcast as jaTexts } from '../apps/web/src/i18n/locales/ja/broadcast';
import { closePage, launchBrowser, login, newPage, pageErrors, socketConnected, settled } from './support/browser';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';
import { BROADCAST_WORKER, MQTT_URL, signIn, startWorkerProcess, terminalsOnline, uniqueCodePrefix, type RunningWorker } from './support/pipeline';

describe('broadcast terminals: occupancy live on the terminal list', () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let fleet: BroadcastFleet;
  let admin: ApiClient;
  let browser: Browser;
  const prefix = uniqueCodePrefix('B');
  const codes = [1, 2, 3].map((n) => `${prefix}${n}`);

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGatewayProcess(), launchBrowser()]);
    admin = await signIn(gw);
    for (const [i, code] of codes.entries()) {
      const answer = await admin.post('/api/broadcast/terminalAddOrEdit', {
        terminalName: `${prefix}square ${i + 1}`,
        terminalId: code,
        terminalIP: `10.9.0.${i + 1}`,
      });
      expect(answer.status).toBe(200);
    }
    worker = await startWorkerProcess(gw, {}, BROADCAST_WORKER);
    fleet = await startBroadcastFleet({ mqttUrl: MQTT_URL, terminals: codes, ackLatencyMs: { min: 20, max: 50 } });
    await terminalsOnline(admin, prefix, codes.length);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await fleet?.stop({ clearRetained: true });
    await worker?.stop();
    await gw?.stop();
  });

  it.each([['en', 'Occupied', 'Online']] as const)(
    'shows a terminal turning occupied and idle again without a request (%s)',
    async (language, occupied, online) => {
      const page: Page = await newPage(browser, undefined, { language, baseUrl: gw.baseUrl });
      try {
        await login(page, gw.baseUrl, 'admin');
        await page.addInitScript("localStorage.setItem('isAutoRefresh', 'false')");
        const connected = socketConnected(page);
        await page.goto(`${gw.baseUrl}/broadcastManage/terminalManagement?terminalName=${encodeURIComponent(prefix)}`);
        const status = page.getByTestId(`terminal-row-${codes[1]}`).getByTestId('terminal-status');
        await status.locator(`text=${online}`).waitFor();
        await connected;
        // In the menu, under Broadcast.
        await page.locator('a[href="/broadcastManage/terminalManagement"]').first().waitFor();
        // What the console's frame reads beside the page (the alarm agent's mode, read again once its feed is joined) is
        // answered before the window.
        await settled(page);

        const requests: string[] = [];
        page.on('request', (request) => {
          if (new URL(request.url()).pathname.startsWith('/api/')) requests.push(request.url());
        });
        await fleet.occupy(codes[1], { occupancy: TerminalOccupancy.Task, title: `Notice ${language}` });
        await page
          .locator(`[data-testid="terminal-row-${codes[1]}"] [data-testid="terminal-status"][data-status="occupy"]`)
          .waitFor({ timeout: 5000 });
        expect(await status.textContent()).toBe(occupied);
        expect(await page.getByTestId(`terminal-row-${codes[1]}`).getByTestId('terminal-playing').textContent()).toContain(`Notice ${language}`);
        await fleet.release(codes[1]);
        await page
          .locator(`[data-testid="terminal-row-${codes[1]}"] [data-testid="terminal-status"][data-status="online"]`)
          .waitFor({ timeout: 5000 });
        expect(requests).toEqual([]);
        expect(pageErrors(page)).toEqual([]);
      } finally {
        await closePage(page);
      }
    },
    60_000,
  );

  it.each([
    ['ja', jaTexts],
    ['es', esTexts],
  ] as const)(
    "keeps the terminal page's day as the terminal plays, read again on each pushed change (%s)",
    async (language, texts) => {
      // A terminal of its own, with nothing played on it today.
      const code = language === 'ja' ? codes[0] : codes[2];
      const page: Page = await newPage(browser, undefined, { language, baseUrl: gw.baseUrl });
      try {
        await login(page, gw.baseUrl, 'admin');
        await page.addInitScript("localStorage.setItem('isAutoRefresh', 'false')");
        const { list } = (await admin.post<PageResult<TerminalRow>>('/api/broadcast/terminalPage', { pageNum: 1, pageSize: 20, terminalName: code }))
          .body.data;
        const connected = socketConnected(page);
        await page.goto(`${gw.baseUrl}/broadcastManage/terminalDetail?id=${list[0].id}`);
        await page.getByTestId('terminal-history').getByText(texts.history.empty).waitFor();
        await connected;
        expect(await page.getByTestId('terminal-busy-hours').locator('[data-minutes]').count()).toBeGreaterThanOrEqual(23);
        await fleet.occupy(code, { occupancy: TerminalOccupancy.Intercom, title: `Call 81${language}` });
        const row = page.getByTestId('terminal-history-table').locator('tr', { hasText: `Call 81${language}` });
        await row.getByText(texts.history.still, { exact: true }).waitFor({ timeout: 5000 });
        await row.getByText(texts.occupancy.intercom).waitFor();
        await fleet.release(code);
        await row.getByText(texts.history.still, { exact: true }).waitFor({ state: 'detached', timeout: 5000 });
        expect(pageErrors(page)).toEqual([]);
      } finally {
        await closePage(page);
      }
    },
    60_000,
  );
});
