// LED screens end to end: gateway and LED worker as their own processes, a simulated screen as a process of its own on
// the real broker, and /ledManage/ledEquipmentManage in a real browser, in Chinese: a screen added in
// its dialog (its login shown once) comes online, takes a brightness that shows on its row live from the screen, refuses
// an empty brightness with the spec's message changing nothing, and reboots: offline, then back with its settings.
import type { Browser, Page } from 'playwright-core';
import { zhCN } from '@sc/i18n/locales/zh-CN';
import { led as zhTexts } from '../apps/web/src/i18n/locales/zh/led';
import { closePage, launchBrowser, login, newPage, pageErrors, socketConnected, waitForPath } from './support/browser';
import { startSimulatorProcess, type RunningSimulator } from './support/device-sim-process';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';
import { LED_WORKER, startWorkerProcess, uniqueCodePrefix, type RunningWorker } from './support/pipeline';

describe('LED screens: the equipment page with a simulated screen', () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let browser: Browser;

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGatewayProcess(), launchBrowser()]);
    worker = await startWorkerProcess(gw, {}, LED_WORKER);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await gw?.stop();
  });

  it.each([['zh', zhTexts, zhCN.messages.brightnessEmpty]] as const)(
    'adds a screen, sets its brightness live, refuses an empty one and reboots it (%s)',
    async (language, texts, brightnessEmpty) => {
      const prefix = uniqueCodePrefix('L');
      // The simulator's one generated screen (--family led --count 1 --prefix P) is P00001.
      const sn = `${prefix}00001`;
      const page: Page = await newPage(browser, undefined, { language, baseUrl: gw.baseUrl });
      let sim: RunningSimulator | undefined;
      try {
        await login(page, gw.baseUrl, 'admin');
        await page.addInitScript("localStorage.setItem('isAutoRefresh', 'false')");
        // The section leads to its equipment page, listed in the menu.
        await page.goto(`${gw.baseUrl}/ledManage`);
        await waitForPath(page, '/ledManage/ledEquipmentManage');
        await page.locator('a[href="/ledManage/ledEquipmentManage"]').first().waitFor();
        const connected = socketConnected(page);
        await page.goto(`${gw.baseUrl}/ledManage/ledEquipmentManage?name=${encodeURIComponent(prefix)}`);
        await page.getByTestId('led-table').getByText(texts.list.empty).waitFor();
        await connected;

        // Added in the dialog; its MQTT login is shown once.
        await page.getByTestId('led-add').click();
        const form = page.getByTestId('led-form');
        await form.locator('input[name="name"]').fill(`${prefix} square`);
        await form.locator('input[name="sn"]').fill(sn);
        await form.locator('input[name="IPAddress"]').fill('10.30.9.7');
        await form.locator('input[name="width"]').fill('1920');
        await form.locator('input[name="height"]').fill('1080');
        await page.getByTestId('led-form-save').click();
        expect(await page.getByTestId('mqtt-username').textContent({ timeout: 10_000 })).toBe(`led/${sn}`);
        await page.getByTestId('mqtt-credentials-done').click();
        const row = page.getByTestId(`led-row-${sn}`);
        await row.locator('[data-testid="led-network"][data-network="0"]').waitFor();
        expect(await row.getByTestId('led-network').textContent()).toBe(texts.network[0]);

        // From here on the rows move by pushed events only: the list is not fetched again.
        const listRequests: string[] = [];
        page.on('request', (request) => {
          if (new URL(request.url()).pathname === '/api/led/ledPage') listRequests.push(request.url());
        });
        sim = await startSimulatorProcess(['--family', 'led', '--count', '1', '--prefix', prefix, '--ack-latency', '20-50']);
        await row.locator('[data-testid="led-network"][data-network="1"]').waitFor({ timeout: 15_000 });
        expect(await row.getByTestId('led-network').textContent()).toBe(texts.network[1]);
        expect(await row.getByTestId('led-brightness').textContent()).toBe('100 %');
        expect(await row.getByTestId('led-heartbeat').textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

        // A brightness, confirmed for the one screen selected, reaches the screen; its report changes the row.
        await row.getByRole('checkbox').check();
        const brightness = page.getByTestId('led-brightness-input');
        await brightness.fill('35');
        await page.getByTestId('led-brightness-send').click();
        await page.getByTestId('led-brightness-confirm').click();
        await row.getByTestId('led-brightness').getByText('35 %', { exact: true }).waitFor({ timeout: 10_000 });
        await page.getByTestId('dispatch-panel').waitFor();

        // An empty brightness is refused in the spec's words, and nothing is sent.
        const commands: string[] = [];
        page.on('request', (request) => {
          if (new URL(request.url()).pathname.startsWith('/api/led/led')) commands.push(request.url());
        });
        await brightness.fill('');
        await page.getByTestId('led-brightness-send').click();
        expect(await page.getByTestId('led-brightness-error').textContent()).toBe(brightnessEmpty);
        expect(await page.getByTestId('led-brightness-confirm').count()).toBe(0);
        expect(commands.filter((url) => !url.includes('/ledPage'))).toEqual([]);
        expect(await row.getByTestId('led-brightness').textContent()).toBe('35 %');

        // A reboot, confirmed: the screen drops off and comes back as it was.
        await page.getByTestId('led-reboot').click();
        await page.getByTestId('led-reboot-confirm').click();
        await row.locator('[data-testid="led-network"][data-network="0"]').waitFor({ timeout: 10_000 });
        await row.locator('[data-testid="led-network"][data-network="1"]').waitFor({ timeout: 15_000 });
        expect(await row.getByTestId('led-brightness').textContent()).toBe('35 %');
        expect(listRequests).toEqual([]);
        expect(pageErrors(page)).toEqual([]);
      } finally {
        await sim?.stop();
        await closePage(page);
      }
    },
    90_000,
  );
});
