import type { Request } from 'playwright-core';
import { DEMO_PASSWORD } from '../apps/gateway/src/demo/demo-data';
import type { RunningGateway } from './support/gateway-process';
import {
  browserSuite,
  cookie,
  localStorageItem,
  nextFrame,
  login,
  pageErrors,
  pathOf,
  recordApiRequests,
  socketConnected,
  socketFrame,
  toasts,
  waitForPath,
  type StorageState,
  settled,
} from './support/browser';

/** The console in a real browser: who may open what, and how a session starts and ends (spec sections 2, 4 and 8). */
describe('web console: access and session', () => {
  const suite = browserSuite();
  let gw: RunningGateway;
  let asAdmin: StorageState;
  let asVisitor: StorageState;
  const open = (storageState?: StorageState) => suite.open(storageState);

  /** Ends a session from outside the browser, as logging out elsewhere does; answers the envelope's code. */
  async function endSession(token: string | undefined): Promise<number> {
    return (
      await gw
        .client()
        .as(token ?? '')
        .get('/api/user/logout')
    ).body.code;
  }

  beforeAll(async () => {
    gw = suite.gw;
    [asAdmin, asVisitor] = await Promise.all([suite.signedIn('admin'), suite.signedIn('visitor')]);
  }, 60_000);

  it('sends a visitor without a session to the login page, then back to the page asked for, with the user name trimmed', async () => {
    const page = await open();
    const calls = recordApiRequests(page);
    await page.goto(`${gw.baseUrl}/systemSetting/log`);
    await waitForPath(page, '/login?redirect=%2FsystemSetting%2Flog');

    await login(page, gw.baseUrl, '  admin  ');
    await waitForPath(page, '/systemSetting/log');
    const sent = calls.find((request) => request.url().endsWith('/api/user/login'));
    expect(sent?.postDataJSON()).toEqual({ username: 'admin', password: DEMO_PASSWORD });
    await page.waitForFunction("document.title === 'Smart City - Operation Log'");
    expect(await page.title()).toBe('Smart City - Operation Log');
    expect(await cookie(page, 'Token')).toMatch(/\S{20,}/);
    expect(pageErrors(page)).toEqual([]);
  });

  it('refuses a wrong password on the login form with the reason on screen', async () => {
    const page = await open();
    await page.goto(`${gw.baseUrl}/login`);
    await page.locator('input[name=username]').fill('admin');
    await page.locator('input[name=password]').fill(`${DEMO_PASSWORD}-wrong`);
    const refused = page.waitForResponse((res) => res.url().endsWith('/api/user/login'));
    await page.getByTestId('login-submit').click();
    const answer = (await (await refused).json()) as { code: number; message: string };
    expect(answer.code).not.toBe(200);
    await toasts(page).filter({ hasText: answer.message }).waitFor();
    expect(pathOf(page)).toBe('/login');
    expect(await cookie(page, 'Token')).toBeUndefined();
    expect(pageErrors(page)).toEqual([]);
  });

  it('logs out from the user menu: session ended on the server, token, menu list and tabs forgotten; the next user gets their own menu', async () => {
    const page = await open();
    // No live events here (see the next test for those): only the logout itself is under test.
    await page.routeWebSocket(/\/socket\.io\//, () => undefined);
    await page.goto(`${gw.baseUrl}/login?redirect=%2FregionManage%2FregionManage`);
    await login(page, gw.baseUrl, 'visitor');
    await waitForPath(page, '/regionManage/regionManage');
    await page.getByTestId('tag-/regionManage/regionManage').waitFor();
    const token = await cookie(page, 'Token');

    await page.getByTestId('user-menu').click();
    // The page leaves for the login page without waiting for the server's answer; the test waits for it.
    const loggedOut = page.waitForResponse((res) => res.url().endsWith('/api/user/logout'));
    await page.getByTestId('logout').click();
    await waitForPath(page, '/login?redirect=%2FregionManage%2FregionManage');
    await loggedOut;
    expect(await cookie(page, 'Token')).toBeUndefined();
    expect(await localStorageItem(page, 'menuList')).toBeNull();
    expect(JSON.parse((await localStorageItem(page, 'sc-visited-tags')) ?? '{}').state?.tags).toEqual([]);
    const afterwards = await gw
      .client()
      .as(token ?? '')
      .get('/api/user/info');
    expect(afterwards.body.code).toBe(-1);

    // Another user in the same tab, without a reload: their roles, not the previous user's.
    await login(page, gw.baseUrl, 'admin');
    await waitForPath(page, '/regionManage/regionManage');
    await page.getByTestId('sidebar').getByTestId('menu-/systemSetting').waitFor();
    expect(pageErrors(page)).toEqual([]);
  });

  it.each([
    ['en', '/systemSetting/userManage', '/api/user/userPage'],
    ['zh', '/systemSetting/userManage', '/api/user/userPage'],
    // A page with a live feed: its list is read once the lamps' feed is joined, and read again on the feed's events.
    ['ja', '/smartLamp/lampControl', '/api/light/lampPage'],
  ] as const)(
    'logs out from a list page whose calls are still in flight without any red message, back to that page after sign-in (%s, %s)',
    async (language, path, listCall) => {
      const page = await suite.open(undefined, undefined, { language });
      await page.goto(`${gw.baseUrl}/login?redirect=${encodeURIComponent(path)}`);
      await login(page, gw.baseUrl, 'admin');
      await waitForPath(page, path);
      await page.getByTestId('user-menu').waitFor();
      // The next list call is still on its way when the user logs out; it then fails (the network dropped it).
      let release: () => void = () => undefined;
      const loggedOut = new Promise<void>((resolve) => (release = resolve));
      await page.route(`**${listCall}`, async (route) => {
        await loggedOut;
        await route.abort('failed');
      });
      const listCalled = page.waitForRequest(`**${listCall}`);
      const connected = socketConnected(page);
      await page.reload();
      await Promise.all([listCalled, connected]);
      // Once logged out, the page being left sends nothing more in the ended session's name (nor without a token).
      const unsigned: string[] = [];
      const noteUnsigned = (req: Request) => {
        if (new URL(req.url()).pathname.startsWith('/api/') && !req.headers().authorization) unsigned.push(req.url());
      };
      page.on('request', noteUnsigned);
      await page.getByTestId('user-menu').click();
      await page.getByTestId('logout').click();
      await waitForPath(page, `/login?redirect=${encodeURIComponent(path)}`);
      release();
      // Nothing of the ended session shows: no toast, no "Confirm logout".
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await toasts(page).allInnerTexts()).toEqual([]);
      expect(await page.getByRole('dialog').count()).toBe(0);
      page.off('request', noteUnsigned);
      expect(unsigned).toEqual([]);
      await page.unroute(`**${listCall}`);
      await login(page, gw.baseUrl, 'admin');
      await waitForPath(page, path);
      expect(pageErrors(page)).toEqual([]);
    },
  );

  it('does not offer "Confirm logout" after the user logged out themselves, even when the socket hears of it first', async () => {
    const page = await open();
    const sessionEnded = socketFrame(page, 'SessionEnded');
    const connected = socketConnected(page);
    await page.goto(`${gw.baseUrl}/login?redirect=%2FregionManage%2FregionManage`);
    await login(page, gw.baseUrl, 'editor');
    await waitForPath(page, '/regionManage/regionManage');
    await connected;
    // The server ends the session and tells the socket; its answer to the logout call reaches the page after that.
    await page.route('**/api/user/logout', async (route) => {
      const response = await route.fetch();
      await Promise.race([sessionEnded, new Promise((resolve) => setTimeout(resolve, 3000))]);
      await route.fulfill({ response });
    });

    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await waitForPath(page, '/login?redirect=%2FregionManage%2FregionManage');
    await nextFrame(page);
    expect(await page.getByRole('dialog', { name: 'Confirm logout' }).count()).toBe(0);
    await login(page, gw.baseUrl, 'editor');
    await waitForPath(page, '/regionManage/regionManage');
    expect(pageErrors(page)).toEqual([]);
  });

  it('opens the home page instead of /401 when the page left in the redirect is not for the user signing in', async () => {
    const page = await open();
    // An administrator logged out from the operation log; the visitor on the next shift signs in on that screen.
    await page.goto(`${gw.baseUrl}/login?redirect=%2FsystemSetting%2Flog`);
    await login(page, gw.baseUrl, 'visitor');
    await waitForPath(page, '/entry');
    expect(pageErrors(page)).toEqual([]);
  });

  it('follows another user signing in in another tab: the next navigation shows their menu, and the old tabs are gone', async () => {
    // A session of its own (logging out ends it for every tab), and no socket in this tab: it must notice the change
    // by itself at its next navigation, as when the push was missed.
    const first = await open(await suite.signedIn('admin'));
    await first.routeWebSocket(/\/socket\.io\//, () => undefined);
    await first.goto(`${gw.baseUrl}/systemSetting/userManage`);
    await first.getByTestId('user-add').waitFor();
    // A second tab of the same browser (same cookies) signs out and in as the visitor.
    const second = await first.context().newPage();
    await second.goto(`${gw.baseUrl}/regionManage/regionManage`);
    await second.getByTestId('user-menu').click();
    await second.getByTestId('logout').click();
    await waitForPath(second, '/login?redirect=%2FregionManage%2FregionManage');
    await login(second, gw.baseUrl, 'visitor');
    await waitForPath(second, '/regionManage/regionManage');

    await first.getByTestId('sidebar').getByTestId('menu-/regionManage/regionManage').click();
    await waitForPath(first, '/regionManage/regionManage');
    await first.getByTestId('user-menu').getByText('visitor').waitFor();
    expect(await first.getByTestId('sidebar').getByTestId('menu-/systemSetting').count()).toBe(0);
    expect(await first.getByTestId('tag-/systemSetting/userManage').count()).toBe(0);
    expect(pageErrors(first)).toEqual([]);
  });

  describe('access rules (spec section 2)', () => {
    it('lets a signed-in user opening /login go straight through', async () => {
      const page = await open(asVisitor);
      await page.goto(`${gw.baseUrl}/login`);
      await waitForPath(page, '/entry');
      await page.goto(`${gw.baseUrl}/login?redirect=%2FregionManage%2FregionManage`);
      await waitForPath(page, '/regionManage/regionManage');
      await page.getByTestId('sidebar').waitFor();
      // Never to another site.
      await page.goto(`${gw.baseUrl}/login?redirect=%2F%2Fexample.com%2Fentry`);
      await waitForPath(page, '/entry');
      expect(new URL(page.url()).origin).toBe(gw.baseUrl);
      expect(await page.locator('input[name=password]').count()).toBe(0);
      expect(pageErrors(page)).toEqual([]);
    });

    it('sends / to /entry when the stored menu list has Admin or Home', async () => {
      const page = await open(asAdmin);
      await page.goto(`${gw.baseUrl}/`);
      await waitForPath(page, '/entry');
      expect(JSON.parse((await localStorageItem(page, 'menuList')) ?? '[]')).toEqual(expect.arrayContaining(['Admin', 'Home']));
      await page.getByTestId('entry-tiles').waitFor();
      expect(await page.getByTestId('tile-/systemSetting').count()).toBe(1);
      expect(pageErrors(page)).toEqual([]);
    });

    it('sends / to /profile/inforManage for a user whose group grants visit but not Home', async () => {
      const admin = await gw.client().login('admin', DEMO_PASSWORD);
      const group = await admin.post<{ id: number }>('/api/user/groupAddOrEdit', { groupName: 'Look only', isAdmin: 0, permissionMenu: ['visit'] });
      expect(group.body.code).toBe(200);
      const user = await admin.post('/api/user/createUser', { username: 'onlooker', password: 'Onlooker2026', groupId: group.body.data.id });
      expect(user.body.code).toBe(200);

      const page = await open();
      await login(page, gw.baseUrl, 'onlooker', 'Onlooker2026');
      await waitForPath(page, '/profile/inforManage');
      expect(JSON.parse((await localStorageItem(page, 'menuList')) ?? '[]')).toEqual(['visit']);
      await page.goto(`${gw.baseUrl}/`);
      await waitForPath(page, '/profile/inforManage');
      expect(await page.getByTestId('menu-/systemSetting').count()).toBe(0);
      expect(pageErrors(page)).toEqual([]);
    });

    it("lists on the profile only the operations the user can reach: an editor, the region, terminal, floor-screen and radar pages' add, refresh (screenshots), edit, delete, radar imports and playback (ja, zh)", async () => {
      for (const [language, expected] of [
        ['ja', ['追加', '更新', '編集', '削除', 'データのインポート', '点灯・消灯']],
        ['zh', ['新增', '刷新', '编辑', '删除', '导入数据', '开关灯']],
      ] as const) {
        const page = await suite.open(undefined, undefined, { language });
        await login(page, gw.baseUrl, 'editor');
        await page.goto(`${gw.baseUrl}/profile/inforManage`);
        const badges = page.getByTestId('profile-buttons').locator('.mantine-Badge-label');
        await badges.first().waitFor();
        expect(await badges.allTextContents()).toEqual(expected);
        expect(pageErrors(page)).toEqual([]);
      }
    });

    it('sends unknown paths to /404', async () => {
      const page = await open(asAdmin);
      await page.goto(`${gw.baseUrl}/no/such/page?x=1`);
      await waitForPath(page, '/404');
      expect(await page.getByTestId('error-code').textContent()).toBe('404');
      // A section's own path is not unknown: it opens the section's first page.
      await page.goto(`${gw.baseUrl}/systemSetting`);
      await waitForPath(page, '/systemSetting/userManage');
      expect(pageErrors(page)).toEqual([]);
    });

    it('sends a visitor opening an administrator page to /401', async () => {
      const page = await open(asVisitor);
      await page.goto(`${gw.baseUrl}/systemSetting/userManage`);
      await waitForPath(page, '/401');
      expect(await page.getByTestId('error-code').textContent()).toBe('401');
      // A section with no page for the visitor answers alike, whether or not the section names the visitor.
      for (const section of ['/smartLamp', '/systemSetting']) {
        await page.goto(`${gw.baseUrl}${section}`);
        await waitForPath(page, '/401');
      }
      // One it has a page in opens that page.
      await page.goto(`${gw.baseUrl}/lampPole`);
      await waitForPath(page, '/lampPole/poleManage');
      expect(pageErrors(page)).toEqual([]);
    });

    it('reopens a page through /redirect/{path}', async () => {
      const page = await open(asAdmin);
      await page.goto(`${gw.baseUrl}/redirect/regionManage/regionManage`);
      await waitForPath(page, '/regionManage/regionManage');
      await page.getByTestId('tag-/regionManage/regionManage').waitFor();
      await page.waitForFunction("document.title === 'Smart City - Region Manage'");
      expect(pageErrors(page)).toEqual([]);
    });

    it('sends a token the server rejects back to the login page with a redirect and an error toast', async () => {
      const page = await open();
      await page.context().addCookies([{ name: 'Token', value: 'garbage-token', url: gw.baseUrl }]);
      await page.goto(`${gw.baseUrl}/regionManage/regionManage`);
      await waitForPath(page, '/login?redirect=%2FregionManage%2FregionManage');
      await toasts(page).filter({ hasText: 'Your session has ended, please log in again' }).waitFor();
      expect(await cookie(page, 'Token')).toBeUndefined();
      expect(pageErrors(page)).toEqual([]);
    });

    it('signs in from /auth-redirect with a valid token and opens the page asked for', async () => {
      const { token } = await gw.client().login('editor', DEMO_PASSWORD);
      const page = await open();
      await page.goto(`${gw.baseUrl}/auth-redirect?token=${encodeURIComponent(token)}&redirect=/regionManage/regionManage`);
      await waitForPath(page, '/regionManage/regionManage');
      await page.getByTestId('menu-/regionManage/regionManage').waitFor();
      expect(await cookie(page, 'Token')).toBe(token);
      expect(pageErrors(page)).toEqual([]);
    });

    it('sends an administrator arriving through /auth-redirect without a page to /entry, as a form sign-in would', async () => {
      const { token } = await gw.client().login('admin', DEMO_PASSWORD);
      const page = await open();
      await page.goto(`${gw.baseUrl}/auth-redirect?token=${encodeURIComponent(token)}`);
      await page.waitForURL((url) => !url.pathname.startsWith('/auth-redirect') && url.pathname !== '/');
      await page.getByTestId('entry-tiles').or(page.getByTestId('sidebar')).first().waitFor();
      expect(pathOf(page)).toBe('/entry');
      expect(pageErrors(page)).toEqual([]);
    });
  });

  describe('a session ended on the server (spec section 8, code -1)', () => {
    it('pushes the Confirm logout dialog: Cancel stays on the page, Re-Login ends on the login page with a redirect', async () => {
      const page = await open();
      let connected = socketConnected(page);
      await page.goto(`${gw.baseUrl}/regionManage/regionManage`);
      await waitForPath(page, '/login?redirect=%2FregionManage%2FregionManage');
      // The page is shown and has made its first calls (the alarm roles' agent read comes last) before the session ends.
      const agentRead = page.waitForResponse((res) => res.url().includes('/api/alarm/agentMe'));
      await login(page, gw.baseUrl, 'admin');
      await waitForPath(page, '/regionManage/regionManage');
      await connected;
      await page.getByTestId('sidebar').waitFor();
      await agentRead;
      await settled(page);

      const token = await cookie(page, 'Token');
      expect(await endSession(token)).toBe(200);
      const dialog = page.getByRole('dialog', { name: 'Confirm logout' });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('You have been logged out, you can cancel to stay on this page, or log in again');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(pathOf(page)).toBe('/regionManage/regionManage');
      expect(await page.getByTestId('sidebar').isVisible()).toBe(true);

      // A second session in the same tab, ended the same way: Re-Login this time.
      const again = await gw.client().login('admin', DEMO_PASSWORD);
      await page.context().addCookies([{ name: 'Token', value: again.token, url: gw.baseUrl }]);
      connected = socketConnected(page);
      await page.reload();
      await connected;
      expect((await again.get('/api/user/logout')).body.code).toBe(200);
      await dialog.waitFor();
      await page.getByTestId('relogin').click();
      await waitForPath(page, '/login?redirect=%2FregionManage%2FregionManage');
      expect(await cookie(page, 'Token')).toBeUndefined();
      expect(pageErrors(page)).toEqual([]);
    });

    it('opens the dialog at the next API call when no socket told the page (navbar refresh on User Manage)', async () => {
      const page = await open();
      // No live events in this tab: the page learns of the end only from the answer to its next call.
      await page.routeWebSocket(/\/socket\.io\//, () => undefined);
      await page.goto(`${gw.baseUrl}/systemSetting/userManage`);
      await waitForPath(page, '/login?redirect=%2FsystemSetting%2FuserManage');
      // Without a socket the agent read waits out the feed gate (1.5 s): it is answered before the session ends.
      const agentRead = page.waitForResponse((res) => res.url().includes('/api/alarm/agentMe'));
      await login(page, gw.baseUrl, 'admin');
      await waitForPath(page, '/systemSetting/userManage');
      await page.getByTestId('user-add').waitFor();
      await agentRead;
      await settled(page);

      const token = await cookie(page, 'Token');
      expect(await endSession(token)).toBe(200);
      const refused = page.waitForResponse((res) => res.url().includes('/api/') && res.status() === 401);
      await page.getByTestId('refresh').click();
      await refused;
      const dialog = page.getByRole('dialog', { name: 'Confirm logout' });
      await dialog.waitFor();
      await page.getByTestId('relogin').click();
      await waitForPath(page, '/login?redirect=%2FsystemSetting%2FuserManage');
      expect(pageErrors(page)).toEqual([]);
    });
  });
});
