// Floor screens' Device Management page in a real browser on the built gateway: a group added, a complete player
// added (its MQTT login shown once) and bound to the group, which lists it; a player without what binding needs refused
// with the server's message and left unbound. In Chinese.
import type { Browser, Page } from 'playwright-core';
import { zhCNAnswers } from '@sc/i18n/locales/zh-CN';
import { closePage, launchBrowser, login, newPage, pageErrors } from './support/browser';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';
import { uniqueCodePrefix } from './support/pipeline';

describe('floor screens: groups, adding and binding in the browser', () => {
  let gw: RunningGateway;
  let browser: Browser;

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGatewayProcess(), launchBrowser()]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
  });

  /** Fills and saves the add dialog; `complete` fills what binding needs. */
  const addDevice = async (page: Page, name: string, code: string, complete: boolean) => {
    await page.getByTestId('signage-add').click();
    const form = page.getByTestId('signage-form');
    await form.locator('input[name=name]').fill(name);
    await form.locator('input[name=code]').fill(code);
    if (complete) {
      await form.locator('input[name=cMark]').fill(`CM-${code}`);
      await form.locator('input[name=address]').fill('1 Station Road');
      await form.locator('input[name=latitude]').fill('31.2');
      await form.locator('input[name=longitude]').fill('121.4');
    }
    await page.getByTestId('signage-form-save').click();
    // The new player's MQTT login, shown once.
    await page.getByText(`signage/${code}`).first().waitFor();
    await page.keyboard.press('Escape');
  };

  const bind = async (page: Page, code: string, group: string) => {
    await page.getByTestId(`signage-row-${code}`).locator('input[type=checkbox]').check();
    await page.getByTestId('signage-bind').click();
    await page.getByTestId('signage-bind-group').click();
    await page.getByRole('option', { name: group }).click();
    await page.getByTestId('signage-bind-save').click();
  };

  it.each([['zh' as const, zhCNAnswers.signageBindingIncomplete, '设备绑定成功']])(
    'adds a group and a complete device, binds it, and refuses binding an incomplete one with its message (%s)',
    async (language, incomplete, bound) => {
      const prefix = uniqueCodePrefix(`S${language}`);
      const group = `${prefix} Metro`;
      const page = await newPage(browser, undefined, { language, baseUrl: gw.baseUrl });
      const errors = pageErrors(page);
      try {
        await login(page, gw.baseUrl, 'admin');
        await page.goto(`${gw.baseUrl}/floor-screen/device`);
        await page.getByTestId('signage-table').waitFor();

        await page.getByTestId('signage-group-add').click();
        await page.getByTestId('signage-group-form').locator('input[name=name]').fill(group);
        await page.getByTestId('signage-group-form-save').click();
        await page.getByTestId(`signage-group-${group}`).waitFor();

        await page.locator('input[name=name]').first().fill(prefix);
        await page.locator('input[name=name]').first().press('Enter');
        await addDevice(page, `${prefix} hall`, `${prefix}1`, true);
        await addDevice(page, `${prefix} gate`, `${prefix}2`, false);

        await bind(page, `${prefix}1`, group);
        await page.getByText(bound).first().waitFor();
        await page.getByTestId(`signage-row-${prefix}1`).getByTestId('signage-group-cell').filter({ hasText: group }).waitFor();
        expect(await page.getByTestId(`signage-group-${group}`).getByTestId('signage-group-count').textContent()).toBe('0/1');

        await bind(page, `${prefix}2`, group);
        await page
          .getByText(incomplete.replace('{{names}}', `${prefix} gate`))
          .first()
          .waitFor();
        const [row] = await gw.db.query<{ group_id: number | null }>(`SELECT group_id FROM signage_device WHERE code = $1`, [`${prefix}2`]);
        expect(row.group_id).toBeNull();
        expect(errors).toEqual([]);
      } finally {
        await closePage(page);
      }
    },
    90_000,
  );
});
