// The lamp strategy page in a real browser on the real services: a strategy saved through the form (the period
// editor's catalogue message first), distributed to lamps with the live dispatch panel, and a lamp that disagrees
// with its schedule flagged and explained.
import type { Browser, Page } from 'playwright-core';
import { DispatchStatus, type ScheduleMismatches } from '@sc/contracts';
import { waitFor, type ApiClient } from '@sc/testing';
import type { Fleet } from '../apps/device-sim/src';
import { common as enCommon } from '../apps/web/src/i18n/locales/en/common';
import { closePage, fillTime, launchBrowser, login, newPage, pageErrors, socketConnected, type StorageState } from './support/browser';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';
import {
  control,
  fleetFor,
  insertLamps,
  signIn,
  startWorkerProcess,
  uniqueCodePrefix,
  waitForDispatchDone,
  type InsertedLamps,
  type RunningWorker,
} from './support/pipeline';

describe('web console: lamp strategies', () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let fleet: Fleet;
  let lamps: InsertedLamps;
  let admin: ApiClient;
  let browser: Browser;
  let asAdmin: StorageState;
  let page: Page;
  const prefix = uniqueCodePrefix('W');
  const name = `All day ${prefix}`;

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGatewayProcess(), launchBrowser()]);
    lamps = await insertLamps(gw.db, 6, prefix, `Strategy page ${prefix}`);
    // The demo lamps of this database run the demo strategy. The broker is shared and may still hold states retained
    // by a demo fleet (LAMP-00001 …) from an earlier `npm start`, which would bring them online here and into the
    // disagreement count: only this test's lamps keep a schedule.
    await gw.db.query(`UPDATE lamp SET strategy_id = NULL, mode = NULL, mode_data = NULL, job_list = NULL WHERE device_id <> ALL($1::int[])`, [
      lamps.ids,
    ]);
    [worker, admin] = await Promise.all([startWorkerProcess(gw), signIn(gw)]);
    fleet = await fleetFor(lamps.codes);
    await waitFor(async () => {
      const [{ n }] = await gw.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM lamp l JOIN device d ON d.id = l.device_id WHERE d.code LIKE $1 AND l.network_status = 1`,
        [`${prefix}%`],
      );
      return n === lamps.codes.length ? true : undefined;
    }, 20_000);
    const loginPage = await newPage(browser);
    await login(loginPage, gw.baseUrl, 'admin');
    asAdmin = await loginPage.context().storageState();
    await closePage(loginPage);
    page = await newPage(browser, undefined, { storageState: asAdmin });
    await page.addInitScript("localStorage.setItem('isAutoRefresh', 'false')");
  }, 90_000);

  afterAll(async () => {
    if (page) await closePage(page);
    await browser?.close();
    await fleet?.stop({ clearRetained: true });
    await worker?.stop();
    await gw?.stop();
  });

  async function pickLevel(scope: ReturnType<Page['getByTestId']>, level: number): Promise<void> {
    await scope.getByPlaceholder('Brightness').click();
    await page.getByRole('option', { name: `${level} %`, exact: true }).click();
  }

  it('saves a strategy through the form: an empty or overlapping period is named under its field and nothing is sent; a taken name under the name', async () => {
    const connected = socketConnected(page);
    await page.goto(`${gw.baseUrl}/smartLamp/lampStrategy`);
    await page.waitForFunction(
      (title) => (globalThis as unknown as { document: { title: string } }).document.title === title,
      `Smart City - ${enCommon.route.lampStrategy}`,
    );
    await connected;
    const saves: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/light/strategyAddOrEdit')) saves.push(request.postData() ?? '');
    });
    await page.getByTestId('strategy-add').click();
    const form = page.getByTestId('strategy-form');
    await form.locator('input[name=name]').fill(name);
    // The default mode is week, with one period: make it noon to noon at 60 %, so the lamps' level is known at any time.
    const first = page.getByTestId('strategy-period-0');
    await fillTime(page.getByTestId('strategy-period-0-start'), '12:00');
    await fillTime(page.getByTestId('strategy-period-0-end'), '12:00');
    await pickLevel(first, 60);
    // An added period left empty: the catalogue's messages under its own fields, no raw path, nothing sent.
    await page.getByTestId('strategy-add-period').click();
    const second = page.getByTestId('strategy-period-1');
    await page.getByTestId('strategy-save').click();
    await second.getByText('The time cannot be empty').first().waitFor();
    expect(await second.getByText('Brightness cannot be empty').count()).toBe(1);
    expect(await page.getByText(/periods\[/).count()).toBe(0);
    // Overlapping: the server's own rule, checked in the browser.
    await fillTime(page.getByTestId('strategy-period-1-start'), '13:00');
    await fillTime(page.getByTestId('strategy-period-1-end'), '14:00');
    await pickLevel(second, 20);
    await page.getByTestId('strategy-save').click();
    await second.getByText('Time Repeats').waitFor();
    expect(saves).toEqual([]);
    expect(await gw.db.query(`SELECT id FROM strategy WHERE name = $1`, [name])).toEqual([]);

    await second.getByRole('button', { name: 'Remove period' }).click();
    const saved = page.waitForResponse((res) => res.url().endsWith('/api/light/strategyAddOrEdit'));
    await page.getByTestId('strategy-save').click();
    expect((await saved).status()).toBe(200);
    const row = page.getByTestId(`strategy-row-${name}`);
    await row.waitFor();
    expect(await row.textContent()).toContain('12:00–12:00 60 %');

    // The same name again: the server's refusal stands under the name.
    await page.getByTestId('strategy-add').click();
    await form.locator('input[name=name]').fill(name.toUpperCase());
    const refused = page.waitForResponse((res) => res.url().endsWith('/api/light/strategyAddOrEdit'));
    await page.getByTestId('strategy-save').click();
    expect((await refused).status()).toBe(409);
    const nameField = form.locator('.mantine-InputWrapper-root', { has: page.locator('input[name=name]') });
    await nameField.getByText(`A strategy named "${name.toUpperCase()}" already exists`).waitFor();
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'hidden' });
    expect(pageErrors(page)).toEqual([]);
  });

  it('names an empty period under its own fields in Japanese too, and sends nothing', async () => {
    const ja = await newPage(browser, undefined, { storageState: asAdmin, language: 'ja', baseUrl: gw.baseUrl });
    try {
      const saves: string[] = [];
      ja.on('request', (request) => {
        if (request.url().endsWith('/api/light/strategyAddOrEdit')) saves.push(request.url());
      });
      await ja.goto(`${gw.baseUrl}/smartLamp/lampStrategy`);
      await ja.getByTestId('strategy-add').click();
      await ja.getByTestId('strategy-form').locator('input[name=name]').fill(`${name} ja`);
      await ja.getByTestId('strategy-add-period').click();
      await ja.getByTestId('strategy-save').click();
      const second = ja.getByTestId('strategy-period-1');
      await second.getByText('時刻を入力してください').first().waitFor();
      expect(await second.getByText('明るさを入力してください').count()).toBe(1);
      expect(await ja.getByText(/periods\[|The time cannot be empty/).count()).toBe(0);
      expect(saves).toEqual([]);
      expect(pageErrors(ja)).toEqual([]);
    } finally {
      await closePage(ja);
    }
  });

  it('distributes it to the selected lamps and follows the dispatch live to all successful', async () => {
    await page.getByTestId(`strategy-distribute-${name}`).click();
    await page.getByTestId('distribute-search').fill(prefix);
    await page.getByTestId(`distribute-row-${lamps.codes[lamps.codes.length - 1]}`).waitFor();
    await page.getByTestId('distribute-select-page').click();
    expect(await page.getByTestId('distribute-selected').textContent()).toBe(`${lamps.codes.length} selected`);
    await page.getByTestId('distribute-confirm').click();
    // Confirmed with the number of lamps it reaches before anything is sent.
    const confirm = page.getByRole('dialog', { name: 'Send the command?' });
    await confirm.getByText(`Distribute "${name}" for ${lamps.codes.length} lamps.`).waitFor();
    const sent = page.waitForResponse((res) => res.url().endsWith('/api/light/strategyDistribute'));
    await page.getByTestId('command-confirm').click();
    const { data } = (await (await sent).json()) as { data: { dispatchId: string } };
    await page.locator(`[data-testid=dispatch-panel][data-status=${DispatchStatus.AllSuccessful}]`).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('dispatch-progress').textContent()).toBe(`${lamps.codes.length} of ${lamps.codes.length} answered`);
    expect((await waitForDispatchDone(admin, data.dispatchId)).status).toBe(DispatchStatus.AllSuccessful);
    for (const code of lamps.codes) expect(fleet.lamp(code)).toMatchObject({ on: true, level: 60 });
    await page.locator('[data-testid=schedule-mismatches][data-total="0"]').waitFor({ timeout: 10_000 });
    expect(pageErrors(page)).toEqual([]);
  });

  it('flags a lamp switched off against its schedule and shows its effective schedule', async () => {
    const code = lamps.codes[0];
    await waitForDispatchDone(admin, await control(admin, { ids: [lamps.idByCode.get(code)!], action: 'off' }));
    await waitFor(async () => {
      const answer = await admin.get<ScheduleMismatches>('/api/light/scheduleMismatches');
      return answer.body.data.total === 1 ? true : undefined;
    }, 10_000);
    // The page learns it from the lamp's live state event, without polling.
    const flagged = page.getByTestId(`mismatch-${code}`);
    await flagged.waitFor({ timeout: 10_000 });
    expect(await page.getByTestId(`strategy-disagree-${name}`).textContent()).toBe('1 lamp disagrees');
    await flagged.click();
    const schedule = page.getByTestId('lamp-schedule');
    await schedule.waitFor();
    expect(await schedule.getAttribute('data-mismatch')).toBe('true');
    expect(await page.getByTestId('lamp-schedule-strategy').textContent()).toBe(name);
    expect(await page.getByTestId('lamp-schedule-level').textContent()).toBe('60 %');
    expect(await page.getByTestId('lamp-schedule-agreement').textContent()).toBe('Disagrees with its schedule');
    expect(pageErrors(page)).toEqual([]);
  });
});
