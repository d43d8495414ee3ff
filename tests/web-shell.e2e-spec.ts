import type { Locator, Page, Request } from 'playwright-core';
import { zhCN } from '@sc/i18n/locales/zh-CN';
import { enUS } from '@sc/i18n/locales/en-US';
import { common as zhCommon } from '../apps/web/src/i18n/locales/zh/common';
import { common as enCommon } from '../apps/web/src/i18n/locales/en/common';
import { common as esCommon } from '../apps/web/src/i18n/locales/es/common';
import { common as jaCommon } from '../apps/web/src/i18n/locales/ja/common';
import { energy as jaEnergy } from '../apps/web/src/i18n/locales/ja/energy';
import { energy as zhEnergy } from '../apps/web/src/i18n/locales/zh/energy';
import { strategy as jaStrategy } from '../apps/web/src/i18n/locales/ja/strategy';
import { strategy as zhStrategy } from '../apps/web/src/i18n/locales/zh/strategy';
import { waitFor } from '@sc/testing';
import type { RunningGateway } from './support/gateway-process';
import {
  browserSuite,
  DESKTOP,
  goInApp,
  PHONE,
  WALL_SCREEN,
  cookie,
  localStorageItem,
  pageErrors,
  pathOf,
  recordApiRequests,
  tableFit,
  toasts,
  waitForPath,
  type NewPageOptions,
  type Viewport,
  type StorageState,
  settled,
} from './support/browser';

/** The entries of the console's route table (apps/web/src/navigation/route-table.ts) that the tests read. */
interface RouteEntry {
  path: string;
  hidden?: boolean;
  children?: readonly RouteEntry[];
}

/**
 * The console's route table, loaded as Jest loads it (the console's sources are typed against the browser and the
 * console's own aliases, not this project's settings).
 */
function routeTable(): readonly RouteEntry[] {
  return jest.requireActual<{ ROUTE_TABLE: readonly RouteEntry[] }>('../apps/web/src/navigation/route-table').ROUTE_TABLE;
}

/**
 * Every page of the administrator's menu, with its section, as the console's route table lists them: a page joins
 * the tests below once it is in the menu.
 */
const MENU_PAGES = routeTable().flatMap((section) =>
  (section.children ?? []).filter((child) => !child.hidden).map((child) => ({ section: section.path, path: child.path })),
);

/** Whether any part of the element lies inside the viewport (an off-canvas navbar has a box, just not on screen). */
async function onScreen(locator: Locator, viewport: Viewport): Promise<boolean> {
  if ((await locator.count()) === 0 || !(await locator.first().isVisible())) return false;
  const box = await locator.first().boundingBox();
  return !!box && box.x + box.width > 0 && box.x < viewport.width && box.y + box.height > 0 && box.y < viewport.height;
}

/** Waits out a slide-in or slide-out transition: true once the element is (or is no longer) on screen. */
async function settlesOnScreen(locator: Locator, viewport: Viewport, expected: boolean): Promise<boolean> {
  return waitFor(async () => ((await onScreen(locator, viewport)) === expected ? expected : undefined), 5000, 50).catch(() => !expected);
}

/** Pages of the menu that show no list. */
const NO_LIST = new Set(['/profile/inforManage', '/realVideo/video']);
/** Every list of the console: each menu page with a list, the equipment page once per tab. */
const LIST_PAGES = MENU_PAGES.filter(({ path }) => !NO_LIST.has(path)).flatMap(({ path }) =>
  path === '/smartLamp/equipmentManage' ? ['lamps', 'gateways', 'loops', 'groups'].map((tab) => `${path}?tab=${tab}`) : [path],
);

/** What the operator chose in a table's column chooser, as stored (undefined: the defaults). */
async function columnChoice(page: Page, table: string): Promise<Record<string, boolean> | undefined> {
  const stored = JSON.parse((await localStorageItem(page, 'sc-columns')) ?? '{}') as { state?: { tables?: Record<string, Record<string, boolean>> } };
  return stored.state?.tables?.[table];
}

/** Opens a list page and waits until its tables are on screen and its data has arrived. */
async function openList(page: Page, baseUrl: string, path: string, tables: readonly string[]): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  for (const table of tables) await page.getByTestId(table).first().waitFor();
  await settled(page);
}

interface ChartText {
  /** The page's base size (the root font size) in px. */
  base: number;
  /** Font sizes of the charts' axis labels in px. */
  sizes: number[];
  /** The most lines any axis label takes. */
  lines: number;
  /** Axis labels that stick out of their chart on the left. */
  cut: number;
}

/** The axis labels of the energy page's charts, as drawn. */
async function chartText(page: Page): Promise<ChartText> {
  return (await page.evaluate(`(() => {
    const labels = [...document.querySelectorAll('[data-testid^="energy-chart"] .recharts-cartesian-axis-tick-value')];
    return {
      base: parseFloat(getComputedStyle(document.documentElement).fontSize),
      sizes: labels.map((label) => parseFloat(getComputedStyle(label).fontSize)),
      lines: Math.max(...labels.map((label) => Math.max(1, label.querySelectorAll('tspan').length))),
      cut: labels.filter((label) => label.getBoundingClientRect().left < label.closest('svg').getBoundingClientRect().left - 1).length,
    };
  })()`)) as ChartText;
}

/** The console's frame in a real browser: menu, language, header search, visited tabs, phone layout (spec sections 1 and 2). */
describe('web console: shell', () => {
  const suite = browserSuite();
  let gw: RunningGateway;
  let asAdmin: StorageState;
  let asVisitor: StorageState;
  const open = (storageState?: StorageState, viewport?: Viewport, options: Omit<NewPageOptions, 'storageState' | 'baseUrl'> = {}) =>
    suite.open(storageState, viewport, options);

  beforeAll(async () => {
    gw = suite.gw;
    [asAdmin, asVisitor] = await Promise.all([suite.signedIn('admin'), suite.signedIn('visitor')]);
  }, 60_000);

  it('keeps the session token where the spec keeps it, in a cookie scripts read, sent only to this site', () => {
    // The server authenticates from the Authorization header alone; the cookie is the console's own store.
    const state = asAdmin as Exclude<StorageState, string | undefined>;
    const token = state.cookies.find((cookie) => cookie.name === 'Token');
    expect(token).toMatchObject({ sameSite: 'Strict', httpOnly: false, secure: false });
  });

  describe('menu built from the permitted routes', () => {
    it('gives the administrator System Setting with its three pages, and Region Manage', async () => {
      const page = await open(asAdmin);
      await page.goto(`${gw.baseUrl}/regionManage/regionManage`);
      const sidebar = page.getByTestId('sidebar');
      await sidebar.getByTestId('menu-/systemSetting').waitFor();
      await sidebar.getByTestId('menu-/regionManage/regionManage').waitFor();
      expect(await sidebar.getByTestId('menu-/systemSetting').textContent()).toContain(enCommon.route.systemSetting);
      await sidebar.getByTestId('menu-/systemSetting').click();
      for (const child of ['userManage', 'permission', 'log']) await sidebar.getByTestId(`menu-/systemSetting/${child}`).waitFor();
      expect(pageErrors(page)).toEqual([]);
    });

    it('gives the demo visitor Region Manage and Profile but no System Setting', async () => {
      const page = await open(asVisitor);
      await page.goto(`${gw.baseUrl}/regionManage/regionManage`);
      const sidebar = page.getByTestId('sidebar');
      await sidebar.getByTestId('menu-/regionManage/regionManage').waitFor();
      await sidebar.getByTestId('menu-/profile/inforManage').waitFor();
      expect(await sidebar.getByTestId('menu-/systemSetting').count()).toBe(0);
      expect(await sidebar.textContent()).not.toContain(enCommon.route.systemSetting);
      expect(pageErrors(page)).toEqual([]);
    });

    it('collapses a section with a single visible page into one direct link', async () => {
      const page = await open(asAdmin);
      await page.goto(`${gw.baseUrl}/systemSetting/log`);
      const sidebar = page.getByTestId('sidebar');
      const link = sidebar.getByTestId('menu-/regionManage/regionManage');
      await link.waitFor();
      expect(await sidebar.getByTestId('menu-/regionManage').count()).toBe(0);
      expect(await link.evaluate((el) => el.tagName)).toBe('A');
      expect(await link.getAttribute('href')).toBe('/regionManage/regionManage');
      await link.click();
      await waitForPath(page, '/regionManage/regionManage');
      expect(pageErrors(page)).toEqual([]);
    });
  });

  it('switches the language: reload, toast, Chinese menu, language cookie, Accept-Language zh-CN; and back to English', async () => {
    const page = await open(asAdmin);
    await page.goto(`${gw.baseUrl}/regionManage/regionManage`);
    const regionLink = page.getByTestId('sidebar').getByTestId('menu-/regionManage/regionManage');
    await regionLink.waitFor();
    expect(await regionLink.textContent()).toBe(enCommon.route.regionManage);
    // What the first page asks for after it shows (the alarm agent's dock loads beside it) is answered before the switch.
    await settled(page);

    const calls = recordApiRequests(page);
    const reloaded = page.waitForEvent('load');
    await page.getByTestId('language-select').click();
    await page.getByTestId('language-zh').click();
    await reloaded;
    await toasts(page).filter({ hasText: zhCN.messages.switchLanguageSuccess }).waitFor();
    await page.waitForFunction(`document.title === 'Smart City - ${zhCommon.route.regionManage}'`);
    expect(await regionLink.textContent()).toBe(zhCommon.route.regionManage);
    expect(await page.getByTestId('sidebar').getByTestId('menu-/systemSetting').textContent()).toContain(zhCommon.route.systemSetting);
    expect(await cookie(page, 'language')).toBe('zh');
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    // The reloaded page loads the user info again: that call, and any other, speaks Chinese.
    expect(calls.map((request) => new URL(request.url()).pathname)).toContain('/api/user/info');
    for (const request of calls) expect(await request.headerValue('accept-language')).toBe('zh-CN');

    // The Chinese page's own late calls (the alarm agent's dock) are answered before the switch back.
    await settled(page);
    calls.length = 0;
    const back = page.waitForEvent('load');
    await page.getByTestId('language-select').click();
    await page.getByTestId('language-en').click();
    await back;
    await toasts(page).filter({ hasText: enUS.messages.switchLanguageSuccess }).waitFor();
    expect(await regionLink.textContent()).toBe(enCommon.route.regionManage);
    expect(await cookie(page, 'language')).toBe('en');
    expect(calls.map((request) => new URL(request.url()).pathname)).toContain('/api/user/info');
    for (const request of calls) expect(await request.headerValue('accept-language')).toBe('en-US');
    expect(pageErrors(page)).toEqual([]);
  });

  it('finds a Chinese menu title by pinyin in the header search, and not once pinyin search is off', async () => {
    const page = await open(asAdmin, undefined, { language: 'zh' });
    await page.goto(`${gw.baseUrl}/regionManage/regionManage`);
    const search = page.getByTestId('header-search');
    const userManage = `${zhCommon.route.systemSetting} > ${zhCommon.route.userManage}`;
    const log = `${zhCommon.route.systemSetting} > ${zhCommon.route.log}`;

    await search.click();
    await search.fill('caozuorizhi');
    await page.getByRole('option', { name: log, exact: true }).waitFor();
    await search.fill('yonghu');
    await page.getByRole('option', { name: userManage, exact: true }).click();
    await waitForPath(page, '/systemSetting/userManage');

    await page.getByTestId('open-settings').click();
    const pinyin = page.getByRole('switch', { name: zhCommon.settings.pinyinSearch });
    expect(await pinyin.isChecked()).toBe(true);
    await pinyin.setChecked(false, { force: true });
    expect(await pinyin.isChecked()).toBe(false);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: zhCommon.settings.title }).waitFor({ state: 'hidden' });

    await search.click();
    await search.fill('yonghu');
    await page.getByText(zhCommon.nav.noMatch).waitFor();
    expect(await page.getByRole('option').count()).toBe(0);
    // The Chinese title itself still matches.
    await search.fill('用户');
    await page.getByRole('option', { name: userManage, exact: true }).waitFor();
    expect(pageErrors(page)).toEqual([]);
  });

  it('keeps the visited tabs and the collapsed sidebar across a reload; close all empties the tabs', async () => {
    const page = await open(asAdmin);
    await page.goto(`${gw.baseUrl}/regionManage/regionManage`);
    const sidebar = page.getByTestId('sidebar');
    const tags = page.getByTestId('tags-view');
    const tagPaths = async () =>
      (await tags.locator('[data-testid^="tag-/"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')))).map((id) =>
        String(id).slice('tag-'.length),
      );

    await sidebar.getByTestId('menu-/systemSetting').click();
    await sidebar.getByTestId('menu-/systemSetting/userManage').click();
    await waitForPath(page, '/systemSetting/userManage');
    await sidebar.getByTestId('menu-/systemSetting/log').click();
    await waitForPath(page, '/systemSetting/log');
    await tags.getByTestId('tag-/systemSetting/log').waitFor();
    expect(await tagPaths()).toEqual(['/regionManage/regionManage', '/systemSetting/userManage', '/systemSetting/log']);

    await tags.getByTestId('tag-/systemSetting/userManage').getByLabel(enCommon.tags.close).click();
    await tags.getByTestId('tag-/systemSetting/userManage').waitFor({ state: 'detached' });
    expect(await tagPaths()).toEqual(['/regionManage/regionManage', '/systemSetting/log']);
    expect(await tags.getByTestId('tag-/systemSetting/log').getAttribute('data-active')).not.toBeNull();

    expect(await sidebar.getAttribute('data-collapsed')).toBeNull();
    await page.getByTestId('sidebar-toggle').click();
    await page.locator('[data-testid="sidebar"][data-collapsed]').waitFor();

    await page.reload();
    await tags.getByTestId('tag-/systemSetting/log').waitFor();
    expect(await tagPaths()).toEqual(['/regionManage/regionManage', '/systemSetting/log']);
    expect(await sidebar.getAttribute('data-collapsed')).not.toBeNull();
    const navbar = await sidebar.boundingBox();
    expect(navbar?.width).toBeLessThan(100);

    await page.getByTestId('tags-menu').click();
    await page.getByTestId('tags-close-all').click();
    await page.waitForURL((url) => url.pathname !== '/systemSetting/log');
    expect(JSON.parse((await localStorageItem(page, 'sc-visited-tags')) ?? '{}').state?.tags).toEqual([]);
    await page.goto(`${gw.baseUrl}/regionManage/regionManage`);
    await tags.getByTestId('tag-/regionManage/regionManage').waitFor();
    expect(await tagPaths()).toEqual(['/regionManage/regionManage']);
    expect(await sidebar.getAttribute('data-collapsed')).not.toBeNull();
    expect(pageErrors(page)).toEqual([]);
  });

  it('collects uncaught errors of the page in the navbar error log (production build)', async () => {
    const page = await open(asAdmin);
    await page.goto(`${gw.baseUrl}/regionManage/regionManage`);
    await page.getByTestId('sidebar').waitFor();
    expect(await page.getByTestId('error-log').count()).toBe(0);
    await page.evaluate(() =>
      setTimeout(() => {
        throw new Error('Lamp layer failed to draw');
      }),
    );
    await page.getByTestId('error-log').click();
    const table = page.getByTestId('error-log-table');
    await table.waitFor();
    expect(await table.textContent()).toContain('Lamp layer failed to draw');
    expect(await table.textContent()).toContain('/regionManage/regionManage');
  });

  it('shows a crashed page as such, and the next page opens normally', async () => {
    const page = await open(asAdmin);
    // An answer the page cannot draw (a row that is not a user).
    await page.route('**/api/user/userPage', (route) => route.fulfill({ json: { code: 200, data: { list: [null], total: 1 }, message: 'success' } }));
    await page.goto(`${gw.baseUrl}/systemSetting/userManage`);
    await page.getByText(enCommon.errors.crashed).waitFor();
    await page.getByTestId('sidebar').getByTestId('menu-/regionManage/regionManage').click();
    await page.getByTestId('region-add').waitFor();
    expect(await page.getByText(enCommon.errors.crashed).count()).toBe(0);
  });

  it('says "network error, please retry" when a call gets no answer, and changes nothing on screen', async () => {
    const page = await open(asAdmin);
    await page.route('**/api/user/userPage', (route) => route.abort('connectionrefused'));
    await page.goto(`${gw.baseUrl}/systemSetting/userManage`);
    await toasts(page).filter({ hasText: enUS.messages.networkError }).first().waitFor();
    expect(pathOf(page)).toBe('/systemSetting/userManage');
    expect(await page.getByTestId('user-add').isVisible()).toBe(true);
  });

  it('shows the sidebar as a drawer on a 375 px phone, closed again after choosing a page', async () => {
    const page = await open(asAdmin, PHONE);
    await page.goto(`${gw.baseUrl}/regionManage/regionManage`);
    await page.getByTestId('sidebar-toggle').waitFor();
    await page.locator('[data-device="mobile"]').waitFor();
    expect(await onScreen(page.getByTestId('sidebar'), PHONE)).toBe(false);

    await page.getByTestId('sidebar-toggle').click();
    const drawer = page.getByRole('dialog').filter({ has: page.getByTestId('sidebar') });
    await drawer.waitFor();
    expect(await settlesOnScreen(drawer.getByTestId('sidebar'), PHONE, true)).toBe(true);
    await drawer.getByTestId('menu-/systemSetting').click();
    await drawer.getByTestId('menu-/systemSetting/log').click();
    await waitForPath(page, '/systemSetting/log');
    await drawer.waitFor({ state: 'hidden' });
    expect(await settlesOnScreen(page.getByTestId('sidebar'), PHONE, false)).toBe(false);

    // Widened past the breakpoint, the fixed sidebar is back.
    await page.setViewportSize(DESKTOP);
    await page.locator('[data-device="desktop"]').waitFor();
    expect(await settlesOnScreen(page.getByTestId('sidebar'), DESKTOP, true)).toBe(true);
    expect(pageErrors(page)).toEqual([]);
  });

  it('sends each request of a page once per navigation, none cancelled, on every page of the menu (zh)', async () => {
    const report: string[] = [];
    // One language: every language loads its texts the same way, on demand with each page's code (the other browser
    // tests walk the console in English).
    for (const language of ['zh'] as const) {
      const page = await open(asAdmin, DESKTOP, { language });
      // Auto refresh would run the lists again on its own timer.
      await page.addInitScript("localStorage.setItem('isAutoRefresh', 'false')");
      // From the profile (it has no list of its own to load again) through every other page of the menu, and back.
      const start = '/profile/inforManage';
      await page.goto(`${gw.baseUrl}${start}`);
      await page.getByTestId('sidebar').waitFor();
      const pages = [...MENU_PAGES.filter(({ path }) => path !== start), ...MENU_PAGES.filter(({ path }) => path === start)];
      for (const { section, path } of pages) {
        const link = page.getByTestId('sidebar').getByTestId(`menu-${path}`);
        if (!(await link.isVisible())) await page.getByTestId('sidebar').getByTestId(`menu-${section}`).click();
        // The page's own requests: from the click until none has started or ended for 0.5 s (a doubled request follows
        // the first within milliseconds). The page's code and texts loading count as activity too, so a page whose list
        // is asked for once they arrive is waited for; a page whose data is already cached may send nothing at all.
        const keys: string[] = [];
        const cancelled: string[] = [];
        let last = Date.now();
        const api = (request: Request) => new URL(request.url()).pathname.startsWith('/api/');
        const activity = (request: Request) => {
          if (!new URL(request.url()).pathname.startsWith('/socket.io/')) last = Date.now();
        };
        const sent = (request: Request) => {
          activity(request);
          if (api(request))
            keys.push(`${request.method()} ${new URL(request.url()).pathname}${new URL(request.url()).search} ${request.postData() ?? ''}`);
        };
        const failed = (request: Request) => {
          activity(request);
          if (api(request)) cancelled.push(`${request.method()} ${new URL(request.url()).pathname}`);
        };
        page.on('request', sent);
        page.on('requestfinished', activity);
        page.on('requestfailed', failed);
        await link.click();
        await waitForPath(page, path);
        const quiet = await waitFor(() => (Date.now() - last > 500 ? true : undefined), 15_000, 100).catch(() => false);
        page.off('request', sent);
        page.off('requestfinished', activity);
        page.off('requestfailed', failed);
        const twice = keys.filter((key, i) => keys.indexOf(key) !== i);
        if (!quiet) report.push(`${language} ${path}: requests without end for 15 s: ${JSON.stringify(keys)}`);
        if (twice.length > 0 || cancelled.length > 0)
          report.push(`${language} ${path}: twice ${JSON.stringify(twice)}, cancelled ${JSON.stringify(cancelled)}`);
      }
      expect(pageErrors(page)).toEqual([]);
    }
    expect(report).toEqual([]);
  }, 150_000);

  it('shows the auto-refresh choice whole in Spanish and in Japanese', async () => {
    for (const [language, off, every] of [
      ['es', esCommon.nav.autoRefreshOff, esCommon.nav.everySeconds],
      ['ja', jaCommon.nav.autoRefreshOff, jaCommon.nav.everySeconds],
    ] as const) {
      const page = await open(asAdmin, DESKTOP, { language });
      await page.goto(`${gw.baseUrl}/regionManage/regionManage`);
      const select = page.getByTestId('auto-refresh');
      await select.waitFor();
      expect(await select.inputValue()).toBe(off);
      // The text fits its box: nothing is cut off.
      expect(await select.evaluate((input) => input.scrollWidth <= input.clientWidth)).toBe(true);
      await select.click();
      const longest = every.replace('{{seconds}}', '60');
      await page.getByRole('option', { name: longest }).click();
      expect(await select.inputValue()).toBe(longest);
      expect(await select.evaluate((input) => input.scrollWidth <= input.clientWidth)).toBe(true);
      expect(pageErrors(page)).toEqual([]);
    }
  });
  describe('tables at 1440 × 900', () => {
    it('fit their box by default on every list page, with the actions column whole and names on one line, in Spanish and in Japanese, and on a 4K wall', async () => {
      const misfits: string[] = [];
      /** The tables measured on each page, by their test id (a page walked to in the console shows its own). */
      const measured = new Map<string, string[]>();
      let cut = 0;
      const check = async (page: Page, label: string, tables: Locator) => {
        for (let i = 0; i < (await tables.count()); i += 1) {
          const fit = await tableFit(tables.nth(i));
          cut += fit.cut;
          const testId = (await tables.nth(i).getAttribute('data-testid')) ?? `table ${i}`;
          measured.set(`${label} ${pathOf(page)}`, [...(measured.get(`${label} ${pathOf(page)}`) ?? []), testId]);
          const name = `${label} ${pathOf(page)} ${testId}`;
          if (fit.tableWidth > fit.boxWidth || !fit.lastColumnShown) misfits.push(`${name}: ${JSON.stringify(fit)}`);
          // Long names keep to one line, their whole text on hover.
          if (fit.wrapped.length > 0 || fit.untitled.length > 0)
            misfits.push(`${name}: wrapped ${JSON.stringify(fit.wrapped)}, no title ${JSON.stringify(fit.untitled)}`);
        }
      };
      // A lamp named longer than its column: cut short, the whole name in its title.
      const longName = 'Shennan Boulevard eastbound lamp beside the Civic Centre north entrance';
      const [lamp] = await gw.db.query<{ id: number; name: string }>(`SELECT id, name FROM device WHERE code = 'LAMP-00001'`);
      await gw.db.query(`UPDATE device SET name = $2 WHERE id = $1`, [lamp.id, longName]);
      try {
        for (const language of ['es', 'ja'] as const) {
          const page = await open(asAdmin, DESKTOP, { language });
          await page.goto(`${gw.baseUrl}/profile/inforManage`);
          await page.getByTestId('sidebar').waitFor();
          for (const path of LIST_PAGES) {
            await goInApp(page, path);
            const tables = page.locator('main table:visible');
            await tables.first().waitFor();
            await check(page, language, tables);
          }
          expect(pageErrors(page)).toEqual([]);
        }
        // The widest table on the wall's larger base size (24 px).
        const wall = await open(asAdmin, WALL_SCREEN, { language: 'es' });
        await openList(wall, gw.baseUrl, '/smartLamp/equipmentManage?tab=lamps', ['lamp-table']);
        await check(wall, 'es wall', wall.getByTestId('lamp-table'));
        await wall.getByTestId('lamp-table').getByTitle(longName, { exact: true }).waitFor();
      } finally {
        await gw.db.query(`UPDATE device SET name = $2 WHERE id = $1`, [lamp.id, lamp.name]);
      }
      expect(misfits).toEqual([]);
      expect(cut).toBeGreaterThan(0);
      // Each list page's own tables were measured, not those of the page before it.
      const walk = [...measured.entries()].filter(([key]) => key.startsWith('es /')).map(([, ids]) => ids.join());
      expect(walk).toHaveLength(LIST_PAGES.length);
      expect(walk.filter((ids, i) => i > 0 && ids === walk[i - 1])).toEqual([]);
      // Every list page twice and the wall: it grows with the families.
    }, 180_000);

    it('shows and hides a column from the column chooser, remembered per table across a reload', async () => {
      const page = await open(asAdmin);
      await openList(page, gw.baseUrl, '/smartLamp/equipmentManage?tab=lamps', ['lamp-table']);
      const table = page.getByTestId('lamp-table');
      const header = (key: string) => table.locator(`thead th[data-column="${key}"]`);
      expect(await header('mac').count()).toBe(0);
      expect(await header('region').count()).toBe(1);

      await page.getByTestId('columns-lamps').click();
      const menu = page.getByTestId('columns-lamps-menu');
      await menu.getByTestId('column-mac').click();
      await menu.getByTestId('column-region').click();
      await header('mac').waitFor();
      await header('region').waitFor({ state: 'detached' });
      expect(await columnChoice(page, 'lamps')).toEqual({ mac: true, region: false });

      await page.reload();
      await header('mac').waitFor();
      expect(await header('region').count()).toBe(0);
      // Another table keeps its own choice: the gateways still show their region.
      await openList(page, gw.baseUrl, '/smartLamp/equipmentManage?tab=gateways', ['gateway-table']);
      expect(await page.getByTestId('gateway-table').locator('thead th[data-column="region"]').count()).toBe(1);

      // Back to the defaults.
      await openList(page, gw.baseUrl, '/smartLamp/equipmentManage?tab=lamps', ['lamp-table']);
      await page.getByTestId('columns-lamps').click();
      await page.getByTestId('columns-lamps-reset').click();
      await header('region').waitFor();
      expect(await header('mac').count()).toBe(0);
      expect(await columnChoice(page, 'lamps')).toBeUndefined();
      expect(pageErrors(page)).toEqual([]);
    });
  });
  it('draws chart text at the base size: half as large again on a 4K wall screen, every axis label on one line and whole (en, zh)', async () => {
    for (const language of ['en', 'zh'] as const) {
      const seen: ChartText[] = [];
      for (const viewport of [DESKTOP, WALL_SCREEN]) {
        const page = await open(asAdmin, viewport, { language });
        await page.goto(`${gw.baseUrl}/smartLamp/energy`);
        await page.getByTestId('energy-chart-regions').locator('.recharts-cartesian-axis-tick-value').first().waitFor();
        seen.push(await chartText(page));
        expect(pageErrors(page)).toEqual([]);
      }
      const [desk, wall] = seen;
      expect([desk.base, wall.base]).toEqual([16, 24]);
      // Mantine's xs: 0.75 of the base size.
      expect(new Set(desk.sizes)).toEqual(new Set([12]));
      expect(new Set(wall.sizes)).toEqual(new Set([18]));
      expect(seen.map(({ lines, cut }) => ({ lines, cut }))).toEqual([
        { lines: 1, cut: 0 },
        { lines: 1, cut: 0 },
      ]);
    }
  });

  describe('dates, times and narrow screens in every language', () => {
    it('writes dates in the console language, not the browser one, and times on the 24-hour clock (zh, ja)', async () => {
      for (const [language, written, month, dateMode] of [
        ['zh', '2026/11/21', '十一月', zhStrategy.mode[1]],
        ['ja', '2026/11/21', '11月', jaStrategy.mode[1]],
      ] as const) {
        // The browser itself is American English: a native date input would say 11/21/2026 and 06:00 PM.
        const page = await open(asAdmin, DESKTOP, { language });
        await page.goto(`${gw.baseUrl}/smartLamp/energy?date=2026-11-21`);
        const day = page.getByTestId('energy-date');
        await day.waitFor();
        expect(await day.inputValue()).toBe(written);
        await day.click();
        expect(await page.locator('.mantine-DateInput-calendarHeaderLevel').first().textContent()).toContain(month);
        await page.keyboard.press('Escape');
        // The month is named as the language names it, and is sent as its first day.
        await page.getByTestId('energy-period').locator('label').nth(1).click();
        await page.waitForURL((url) => url.searchParams.get('period') === 'month' && url.searchParams.get('date') === '2026-11-21');
        expect(await page.getByTestId('energy-month').textContent()).toBe('2026年11月');

        await page.goto(`${gw.baseUrl}/smartLamp/lampStrategy`);
        await page.getByTestId('strategy-add').click();
        // A new strategy's first period runs 18:00 to 06:00: the hour reads 18, with no AM/PM beside it.
        const start = page.getByTestId('strategy-period-0-start');
        expect(await start.locator('input').nth(0).inputValue()).toBe('18');
        expect(await start.locator('input').nth(1).inputValue()).toBe('00');
        expect(await page.getByTestId('strategy-period-0').locator('select, input[type=time]').count()).toBe(0);

        // A date strategy's days are typed as YYYY-MM-DD or as the language writes them, and sent as YYYY-MM-DD.
        await page.getByTestId('strategy-mode').click();
        await page.getByRole('option', { name: dateMode, exact: true }).click();
        const from = page.getByTestId('strategy-start-date');
        await from.fill('2026-12-01');
        await page.getByTestId('strategy-end-date').fill('2026/12/24');
        await page.getByTestId('strategy-form').locator('input[name=name]').click();
        expect([await from.inputValue(), await page.getByTestId('strategy-end-date').inputValue()]).toEqual(['2026/12/01', '2026/12/24']);
        await page.getByTestId('strategy-form').locator('input[name=name]').fill('Dates');
        // The answer is made up here: the test reads what is sent and leaves the strategies alone.
        await page.route('**/api/light/strategyAddOrEdit', (route) => route.fulfill({ json: { code: 200, data: { id: 1 }, message: 'success' } }));
        const sent = page.waitForRequest((request) => request.url().endsWith('/api/light/strategyAddOrEdit'));
        await page.getByTestId('strategy-save').click();
        expect((await sent).postDataJSON()).toMatchObject({
          modeData: { startDate: '2026-12-01', endDate: '2026-12-24' },
          periods: [{ start: '18:00', end: '06:00', level: 100 }],
        });
        expect(pageErrors(page)).toEqual([]);
      }
    }, 60_000);

    it('keeps the date filters sending what they always sent, date-times typed on a 24-hour clock (ja)', async () => {
      const page = await open(asAdmin, DESKTOP, { language: 'ja' });
      await page.goto(`${gw.baseUrl}/systemSetting/log?startTime=2026-11-01T09:30`);
      const start = page.getByTestId('log-filter-start');
      await start.waitFor();
      expect(await start.textContent()).toBe('2026/11/01 09:30');
      await start.click();
      const dropdown = page.getByRole('dialog');
      await dropdown.waitFor();
      await dropdown.getByLabel(jaCommon.dates.hours, { exact: true }).fill('21');
      await dropdown.getByLabel(jaCommon.dates.minutes, { exact: true }).fill('45');
      await dropdown.locator('.mantine-DateTimePicker-submitButton').click();
      expect(await start.textContent()).toBe('2026/11/01 21:45');
      await page.getByTestId('log-search').click();
      await page.waitForURL((url) => url.searchParams.get('startTime') === '2026-11-01T21:45');

      // The last-login range of User Manage, typed as YYYY-MM-DD and as Japanese writes days.
      await page.goto(`${gw.baseUrl}/systemSetting/userManage`);
      await page.getByTestId('user-filter-login-from').fill('2026-11-01');
      await page.getByTestId('user-filter-login-to').fill('2026/11/20');
      await page.getByTestId('user-search').click();
      await page.waitForURL((url) => url.searchParams.get('loginFrom') === '2026-11-01' && url.searchParams.get('loginTo') === '2026-11-20');
      expect(await page.getByTestId('user-filter-login-from').inputValue()).toBe('2026/11/01');
      expect(pageErrors(page)).toEqual([]);
    });

    it('labels energy by hour on the clock of the region, whatever the time zone of the browser (zh, ja)', async () => {
      const [{ id: futian }] = await gw.db.query<{ id: number }>(`SELECT id FROM region WHERE region_name = 'Futian District'`);
      await gw.db.query(`UPDATE region SET time_zone = 'Asia/Tokyo' WHERE id = $1`, [futian]);
      try {
        for (const [language, timezoneId, label] of [
          ['zh', 'UTC', zhEnergy.charts.timeZone],
          ['ja', 'America/New_York', jaEnergy.charts.timeZone],
        ] as const) {
          const page = await open(asAdmin, DESKTOP, { language, timezoneId });
          await page.goto(`${gw.baseUrl}/smartLamp/energy?date=2026-11-21&regionId=${futian}`);
          const chart = page.getByTestId('energy-chart-time');
          await chart.getByTestId('energy-chart-zone').filter({ hasText: 'Asia/Tokyo' }).waitFor();
          expect(await chart.getByTestId('energy-chart-zone').textContent()).toBe(label.replace('{{zone}}', 'Asia/Tokyo'));
          // The day starts at midnight in Tokyo, not at 15:00 (UTC) or 10:00 (New York) of the day before.
          const ticks = chart.locator('.recharts-cartesian-axis-tick-value').filter({ hasText: /^\d\d:\d\d$/ });
          await ticks.first().waitFor();
          expect(await ticks.first().textContent()).toBe('00:00');
          expect(pageErrors(page)).toEqual([]);
        }
      } finally {
        await gw.db.query(`UPDATE region SET time_zone = NULL WHERE id = $1`, [futian]);
      }
    });

    it('scrolls no page sideways on a 375 px phone and shows the product name whole (es; zh and ja on the roles page)', async () => {
      // How far the page itself scrolls sideways (a table scrolling inside its own box does not count).
      const sideways = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      const checkPage = async (page: Page, path: string) => {
        await goInApp(page, path);
        return { path, sideways: await sideways(page) };
      };
      const page = await open(asAdmin, PHONE, { language: 'es' });
      await page.goto(`${gw.baseUrl}/profile/inforManage`);
      await page.getByTestId('sidebar-toggle').waitFor();
      const results = [];
      for (const { path } of MENU_PAGES) results.push(await checkPage(page, path));
      expect(results.filter((r) => r.sideways > 0)).toEqual([]);

      await page.getByTestId('sidebar-toggle').click();
      const name = page.getByRole('dialog').getByTestId('sidebar-logo-name');
      await name.waitFor();
      expect(await name.textContent()).toBe(esCommon.appName);
      expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight)).toBe(true);
      expect(pageErrors(page)).toEqual([]);

      for (const language of ['zh', 'ja'] as const) {
        const other = await open(asAdmin, PHONE, { language });
        await other.goto(`${gw.baseUrl}/profile/inforManage`);
        await other.getByTestId('sidebar-toggle').waitFor();
        expect(await checkPage(other, '/systemSetting/permission')).toEqual({ path: '/systemSetting/permission', sideways: 0 });
        expect(pageErrors(other)).toEqual([]);
      }
    }, 90_000);
  });
});
