// Broadcast groups in a real browser on the built gateway: a group created with terminals chosen from the searched
// terminal list, edited (renamed, a terminal swapped) and listed with its count, in English; the list fitting its box
// and the create form's required name in Japanese.
import type { Browser, Page } from 'playwright-core';
import { OnlineState, TerminalOccupancy } from '@sc/contracts';
import { ja } from '@sc/i18n/locales/ja';
import { closePage, launchBrowser, login, newPage, pageErrors, tableFit, waitForPath } from './support/browser';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';
import { signIn, uniqueCodePrefix } from './support/pipeline';

describe('broadcast groups: create, edit and list in the browser', () => {
  let gw: RunningGateway;
  let browser: Browser;
  const prefix = uniqueCodePrefix('G');
  const codes = [1, 2, 3].map((n) => `${prefix}${n}`);

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGatewayProcess(), launchBrowser()]);
    const admin = await signIn(gw);
    for (const [i, code] of codes.entries()) {
      const answer = await admin.post('/api/broadcast/terminalAddOrEdit', {
        terminalName: `${prefix}square ${i + 1}`,
        terminalId: code,
        terminalIP: `10.8.0.${i + 1}`,
      });
      expect(answer.status).toBe(200);
    }
    // As the broadcast worker stores reports: the first terminal online and playing, the others offline.
    await gw.db.query(`UPDATE broadcast_terminal t SET network_status = $2, occupancy = $3 FROM device d WHERE d.id = t.device_id AND d.code = $1`, [
      codes[0],
      OnlineState.Online,
      TerminalOccupancy.Task,
    ]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
  });

  /** Searches the form's terminal list by the test's prefix and ticks the given terminals. */
  const tick = async (page: Page, ...which: string[]) => {
    const form = page.getByTestId('group-form');
    await form.locator('input[name=terminalName]').fill(prefix);
    await form.getByTestId('group-terminal-search').click();
    for (const code of which) await page.getByTestId(`group-terminal-row-${code}`).click();
  };
  const chosen = (page: Page) => page.locator(`[data-testid^="group-chosen-${prefix}"]`);

  it('creates a group with two terminals, edits its name and members, and lists it with its terminal count (en)', async () => {
    const page = await newPage(browser);
    try {
      await login(page, gw.baseUrl, 'admin');
      await page.goto(`${gw.baseUrl}/broadcastManage/groupManagement`);
      await page.getByTestId('group-table').waitFor();
      // In the menu, under Broadcast.
      await page.locator('a[href="/broadcastManage/groupManagement"]').first().waitFor();

      await page.getByTestId('group-add').click();
      await waitForPath(page, '/broadcastManage/groupManagementCreate');
      const form = page.getByTestId('group-form');
      await form.locator('input[name=groupName]').fill(`${prefix} squares`);
      await form.locator('input[name=remark]').fill('Evening notices');
      await tick(page, codes[0], codes[1]);
      await chosen(page).nth(1).waitFor();
      // Each chosen terminal with its status.
      expect(await page.getByTestId(`group-chosen-${codes[0]}`).getByTestId('terminal-status').getAttribute('data-status')).toBe('occupy');
      expect(await page.getByTestId(`group-chosen-${codes[1]}`).getByTestId('terminal-status').getAttribute('data-status')).toBe('offline');
      await page.getByTestId('group-form-save').click();

      await waitForPath(page, '/broadcastManage/groupManagement');
      const created = page.getByTestId(`group-row-${prefix} squares`);
      await created.waitFor();
      expect(await created.getByTestId('group-member-count').textContent()).toBe('2');

      await created.getByTestId('group-edit').click();
      await page.waitForURL((url) => url.pathname === '/broadcastManage/groupManagementEdit' && url.searchParams.has('id'));
      await page.getByTestId(`group-chosen-${codes[1]}`).waitFor();
      expect(await chosen(page).count()).toBe(2);
      await form.locator('input[name=groupName]').fill(`${prefix} plazas`);
      // Unticking one in the list takes it out; ticking another puts it in.
      await tick(page, codes[1], codes[2]);
      await page.getByTestId(`group-chosen-${codes[2]}`).waitFor();
      expect(await page.getByTestId(`group-chosen-${codes[1]}`).count()).toBe(0);
      await page.getByTestId('group-form-save').click();

      await waitForPath(page, '/broadcastManage/groupManagement');
      const edited = page.getByTestId(`group-row-${prefix} plazas`);
      await edited.waitFor();
      expect(await edited.getByTestId('group-member-count').textContent()).toBe('2');
      expect(await page.getByTestId(`group-row-${prefix} squares`).count()).toBe(0);
      // Searching by name finds it.
      await page.locator('input[name=groupName]').fill('PLAZAS');
      await page.getByTestId('group-search').click();
      await page.waitForURL((url) => url.searchParams.get('groupName') === 'PLAZAS');
      await edited.waitFor();
      expect(pageErrors(page)).toEqual([]);
    } finally {
      await closePage(page);
    }
  }, 60_000);

  it("fits the list in its box and asks for the group's name before saving, saving nothing (ja)", async () => {
    const page = await newPage(browser, undefined, { language: 'ja', baseUrl: gw.baseUrl });
    try {
      await login(page, gw.baseUrl, 'admin');
      await page.goto(`${gw.baseUrl}/broadcastManage/groupManagement`);
      // The list fits its box in Japanese, the actions column whole.
      const table = page.getByTestId('group-table');
      await page.getByTestId(`group-row-${prefix} plazas`).waitFor();
      const fit = await tableFit(table);
      expect(fit.tableWidth <= fit.boxWidth && fit.lastColumnShown).toBe(true);
      await page.getByTestId('group-add').click();
      await page.getByTestId('group-form').waitFor();
      const requests: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/broadcast/groupAddOrEdit') requests.push(request.url());
      });
      await page.getByTestId('group-form-save').click();
      const message = page.getByText(ja.messages.enterGroupName);
      await message.waitFor();
      expect(await page.locator('input[name=groupName]').getAttribute('aria-invalid')).toBe('true');
      expect(requests).toEqual([]);
      expect(pageErrors(page)).toEqual([]);
    } finally {
      await closePage(page);
    }
  }, 60_000);
});
