import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { AUDITED_ACTIONS, type AuditDescription } from '@sc/contracts';
import { waitFor } from '@sc/testing';
import { common as enCommon } from '../apps/web/src/i18n/locales/en/common';
import { system as jaSystem } from '../apps/web/src/i18n/locales/ja/system';
import { DEMO_PASSWORD } from '../apps/gateway/src/demo/demo-data';
import type { RunningGateway } from './support/gateway-process';
import {
  browserSuite,
  DESKTOP,
  PHONE,
  WALL_SCREEN,
  pageErrors,
  screenshot,
  waitForPath,
  type Viewport,
  type StorageState,
  settled,
} from './support/browser';

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(path: string): Viewport {
  const png = readFileSync(path);
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Administration through the console's own pages, and a picture of every main page (spec sections 2 and 3). */
describe('web console: administration pages', () => {
  const suite = browserSuite();
  let gw: RunningGateway;
  let asAdmin: StorageState;
  const open = (storageState?: StorageState, viewport?: Viewport) => suite.open(storageState, viewport);

  /** Opens a console page and waits until it has its title and has finished loading its data. */
  async function show(page: Page, path: string, title: string): Promise<void> {
    await page.goto(`${gw.baseUrl}${path}`);
    await waitForPath(page, path);
    await page.waitForFunction(
      (expected) => (globalThis as unknown as { document: { title: string } }).document.title === expected,
      `Smart City - ${title}`,
    );
    await settled(page);
  }

  beforeAll(async () => {
    gw = suite.gw;
    asAdmin = await suite.signedIn('admin');
  }, 60_000);

  it('creates a user through the User Manage form, and the Operation Log shows the creation by admin', async () => {
    const page = await open(asAdmin);
    await show(page, '/systemSetting/userManage', enCommon.route.userManage);

    await page.getByTestId('user-add').click();
    await page.locator('input[name=username]').fill('night-owl');
    await page.locator('input[name=password]').fill('NightOwl2026');
    await page.locator('input[name=confirmPassword]').fill('NightOwl2026');
    await page.getByTestId('user-group').click();
    await page.getByRole('option', { name: 'Editors', exact: true }).click();
    const created = page.waitForResponse((res) => res.url().endsWith('/api/user/createUser'));
    await page.getByTestId('user-save').click();
    expect(((await (await created).json()) as { code: number }).code).toBe(200);
    await page.getByTestId('user-row-night-owl').waitFor();
    // The account is real: it signs in.
    await gw.client().login('night-owl', 'NightOwl2026');

    await show(page, '/systemSetting/log', enCommon.route.log);
    const row = page.getByTestId('log-row').filter({ hasText: 'Create user' }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain('admin');
    expect(pageErrors(page)).toEqual([]);
  });

  it('shows every operation log description in Japanese, and offers every audited action in its filter', async () => {
    const ja = (recorded: string) => jaSystem.log.actions[AUDITED_ACTIONS[recorded as AuditDescription]] ?? `untranslated: ${recorded}`;
    // A pole saved and deleted: actions the log once showed in English whatever the language.
    const admin = await gw.client().login('admin', DEMO_PASSWORD);
    const pole = await admin.post<{ id: number }>('/api/lamp/poleAddOrEdit', { name: 'Logged pole', code: `LOG-${Date.now()}` });
    expect((await admin.get(`/api/lamp/poleDel?id=${pole.body.data.id}`)).body.code).toBe(200);
    const page = await suite.open(asAdmin, DESKTOP, { language: 'ja' });
    await page.goto(`${gw.baseUrl}/systemSetting/log`);
    const descriptions = page.getByTestId('log-description');
    await descriptions.filter({ hasText: jaSystem.log.actions.deletePole }).first().waitFor();
    // Each row shows the Japanese label of the description it recorded (kept as the cell's title).
    const shown = await descriptions.evaluateAll((cells) => cells.map((cell) => [cell.getAttribute('title') ?? '', cell.textContent ?? '']));
    expect(shown.map(([recorded]) => recorded)).toEqual(expect.arrayContaining(['Delete lamp pole', 'Save lamp pole', 'Sign in']));
    expect(shown).toEqual(shown.map(([recorded]) => [recorded, ja(recorded)]));

    // The filter offers every audited action, in Japanese, not only those on this page.
    await page.getByTestId('log-filter-description').click();
    await page.getByRole('listbox').waitFor();
    const offered = await page.getByRole('option').allTextContents();
    expect(offered.sort()).toEqual(Object.keys(AUDITED_ACTIONS).map(ja).sort());
    await page.getByRole('option', { name: jaSystem.log.actions.deletePole, exact: true }).click();
    await page.getByTestId('log-search').click();
    await page.waitForURL((url) => url.searchParams.get('description') === 'Delete lamp pole');
    await waitFor(async () => {
      const rows = await descriptions.allTextContents();
      return rows.length > 0 && rows.every((text) => text === jaSystem.log.actions.deletePole) ? rows : undefined;
    });
    expect(pageErrors(page)).toEqual([]);
  });

  it('puts a taken region name under its field, in Chinese, and creates nothing', async () => {
    const name = `Taken-${Date.now()}`;
    const admin = await gw.client().login('admin', DEMO_PASSWORD);
    expect((await admin.post('/api/bi/area/add', { regionName: name })).body.code).toBe(200);
    const count = async () =>
      (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM region WHERE lower(region_name) = lower($1)`, [name]))[0].n;
    const page = await suite.open(asAdmin, DESKTOP, { language: 'zh' });
    await page.goto(`${gw.baseUrl}/regionManage/regionManage`);
    await page.getByTestId('region-add').click();
    const dialog = page.getByTestId('region-dialog');
    await dialog.locator('input[name=regionName]').fill(name.toUpperCase());
    const refused = page.waitForResponse((res) => res.url().endsWith('/api/bi/area/add'));
    await page.getByTestId('region-save').click();
    expect((await refused).status()).toBe(409);
    const field = dialog.locator('.mantine-InputWrapper-root', { has: page.locator('input[name=regionName]') });
    await field.getByText(`同一层级下已存在名为“${name.toUpperCase()}”的区域`).waitFor();
    expect(await count()).toBe(1);
    expect(pageErrors(page)).toEqual([]);
  });

  it('saves screenshots of the main pages, on a phone and on a 4K wall screen', async () => {
    const anonymous = await open();
    await show(anonymous, '/login', enCommon.route.login);
    expect(pngSize(await screenshot(anonymous, 'login'))).toEqual(DESKTOP);

    const page = await open(asAdmin);
    await show(page, '/entry', enCommon.route.entry);
    await page.getByTestId('entry-tiles').waitFor();
    expect(pngSize(await screenshot(page, 'entry'))).toEqual(DESKTOP);
    const shots: [string, string, string][] = [
      ['region-manage', '/regionManage/regionManage', enCommon.route.regionManage],
      ['user-manage', '/systemSetting/userManage', enCommon.route.userManage],
      ['permission', '/systemSetting/permission', enCommon.route.permission],
      ['log', '/systemSetting/log', enCommon.route.log],
      ['profile', '/profile/inforManage', enCommon.route.inforManage],
    ];
    for (const [name, path, title] of shots) {
      await show(page, path, title);
      await page.getByTestId('sidebar').waitFor();
      expect(pngSize(await screenshot(page, name))).toEqual(DESKTOP);
    }

    const phone = await open(asAdmin, PHONE);
    await show(phone, '/regionManage/regionManage', enCommon.route.regionManage);
    expect(pngSize(await screenshot(phone, 'phone-region-manage'))).toEqual(PHONE);

    const wall = await open(asAdmin, WALL_SCREEN);
    await show(wall, '/systemSetting/log', enCommon.route.log);
    expect(pngSize(await screenshot(wall, 'wall-screen-log'))).toEqual(WALL_SCREEN);
    for (const p of [anonymous, page, phone, wall]) expect(pageErrors(p)).toEqual([]);
  }, 120_000);
});
