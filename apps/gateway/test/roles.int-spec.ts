import { ALL_BUTTONS, GRANTABLE_PERMISSIONS, ROLE_BUTTONS, Role } from '@sc/contracts';
import type { ApiAnswer, ApiClient } from '@sc/testing';
import { DEMO_PASSWORD, startTestGateway, type TestGateway } from './harness';

const FORBIDDEN = { 'en-US': 'You do not have permission to do this', 'zh-CN': '您没有执行此操作的权限' } as const;

interface Ids {
  admin: number;
  visitor: number;
  editorsGroup: number;
  adminsGroup: number;
  spareGroup: number;
  region: number;
}

/** Every administrator-only call, with a payload that would change something if it were let through. */
const ADMIN_CALLS: { name: string; call: (c: ApiClient, ids: Ids) => Promise<ApiAnswer> }[] = [
  {
    name: 'POST /api/user/createUser',
    call: (c, ids) => c.post('/api/user/createUser', { username: 'intruder', password: 'Intruder2026', groupId: ids.adminsGroup }),
  },
  { name: 'POST /api/user/userPage', call: (c) => c.post('/api/user/userPage', { pageNum: 1, pageSize: 10 }) },
  { name: 'POST /api/user/updateUser', call: (c, ids) => c.post('/api/user/updateUser', { id: ids.visitor, groupId: ids.adminsGroup }) },
  { name: 'POST /api/user/groupPage', call: (c) => c.post('/api/user/groupPage', { pageNum: 1, pageSize: 10 }) },
  {
    name: 'POST /api/user/groupAddOrEdit',
    call: (c, ids) => c.post('/api/user/groupAddOrEdit', { id: ids.editorsGroup, groupName: 'Editors', isAdmin: 1, permissionMenu: [] }),
  },
  { name: 'GET /api/user/groupDel', call: (c, ids) => c.get(`/api/user/groupDel?id=${ids.spareGroup}`) },
  { name: 'GET /api/user/permissionMenu', call: (c) => c.get('/api/user/permissionMenu') },
  { name: 'POST /api/log/operationPage', call: (c) => c.post('/api/log/operationPage', { pageNum: 1, pageSize: 10 }) },
];

describe('role and button permissions', () => {
  let gw: TestGateway;
  let ids: Ids;
  const clients: Record<string, ApiClient> = {};
  /** Everything a refused call could have changed. */
  const snapshot = async () => ({
    users: await gw.db.query(`SELECT id, username, password_hash, group_id, enabled, introduction FROM sys_user ORDER BY id`),
    groups: await gw.db.query(`SELECT id, group_name, is_admin, permission_menu, remark FROM sys_group ORDER BY id`),
    regions: await gw.db.query(`SELECT id, region_name, parent_id, remark, zh_cn, en_us FROM region ORDER BY id`),
    liveSessions: await gw.db.query(`SELECT id FROM sys_session WHERE revoked_at IS NULL ORDER BY id`),
  });

  beforeAll(async () => {
    gw = await startTestGateway();
    const id = async (sql: string) => (await gw.db.query<{ id: number }>(sql))[0].id;
    clients.admin = await gw.signedIn('admin');
    const spare = await clients.admin.post<{ id: number }>('/api/user/groupAddOrEdit', { groupName: 'Spare', isAdmin: 0, permissionMenu: ['Home'] });
    const nothing = await clients.admin.post<{ id: number }>('/api/user/groupAddOrEdit', { groupName: 'Nothing', isAdmin: 0, permissionMenu: [] });
    await clients.admin.post('/api/user/createUser', { username: 'plain', password: DEMO_PASSWORD, groupId: nothing.body.data.id });
    ids = {
      admin: await id(`SELECT id FROM sys_user WHERE username = 'admin'`),
      visitor: await id(`SELECT id FROM sys_user WHERE username = 'visitor'`),
      editorsGroup: await id(`SELECT id FROM sys_group WHERE group_name = 'Editors'`),
      adminsGroup: await id(`SELECT id FROM sys_group WHERE group_name = 'Administrators'`),
      spareGroup: spare.body.data.id,
      region: await id(`SELECT id FROM region WHERE region_name = 'Lianhua Subdistrict'`),
    };
    clients.editor = await gw.signedIn('editor');
    clients.visitor = await gw.signedIn('visitor');
    clients.plain = await gw.client().login('plain', DEMO_PASSWORD);
  });
  afterAll(() => gw.close());

  describe.each(['editor', 'visitor', 'plain'])('%s', (who) => {
    it.each(ADMIN_CALLS.map((c) => [c.name, c.call] as const))(
      'is refused %s with 403 in en-US and zh-CN, and nothing changes',
      async (_name, call) => {
        const before = await snapshot();
        for (const lng of ['en-US', 'zh-CN'] as const) {
          const answer = await call(clients[who].as(clients[who].token, lng), ids);
          expect(answer.status).toBe(403);
          expect(answer.body).toEqual({ code: 403, data: null, message: FORBIDDEN[lng] });
        }
        expect(await snapshot()).toEqual(before);
      },
    );
  });

  it('answers the permission menu with the buttons each grantable name brings', async () => {
    const menu = await clients.admin.get('/api/user/permissionMenu');
    expect(GRANTABLE_PERMISSIONS).toEqual(['Home', Role.Editor, Role.Visit]);
    // 'Home' is no role of the button matrix, so on its own it brings what a user without roles gets.
    expect(menu.body.data).toEqual([
      { name: 'Home', buttons: ROLE_BUTTONS[Role.Default] },
      { name: 'editor', buttons: ROLE_BUTTONS[Role.Editor] },
      { name: 'visit', buttons: ROLE_BUTTONS[Role.Visit] },
    ]);
  });

  it('refuses region add, edit and delete to roles without those buttons and changes nothing', async () => {
    for (const who of ['visitor', 'plain']) {
      const before = await snapshot();
      const client = clients[who];
      const calls = [
        await client.post('/api/bi/area/add', { regionName: 'Visitor Town' }),
        await client.post('/api/bi/area/edit', { id: ids.region, regionName: 'Renamed by visitor' }),
        await client.get(`/api/bi/area/del?id=${ids.region}`),
      ];
      for (const answer of calls) {
        expect(answer.status).toBe(403);
        expect(answer.body).toEqual({ code: 403, data: null, message: FORBIDDEN['en-US'] });
      }
      expect(await snapshot()).toEqual(before);
    }
  });

  it('lets an editor (and an administrator) add, edit and delete a region', async () => {
    for (const who of ['editor', 'admin']) {
      const client = clients[who];
      const added = await client.post<{ id: number }>('/api/bi/area/add', { regionName: `${who} town` });
      expect(added.body.code).toBe(200);
      const edited = await client.post('/api/bi/area/edit', { id: added.body.data.id, regionName: `${who} city` });
      expect(edited.body).toEqual({ code: 200, data: null, message: 'success' });
      expect(await gw.db.query(`SELECT region_name FROM region WHERE id = $1`, [added.body.data.id])).toEqual([{ region_name: `${who} city` }]);
      expect((await client.get(`/api/bi/area/del?id=${added.body.data.id}`)).body.code).toBe(200);
      expect(await gw.db.query(`SELECT 1 FROM region WHERE id = $1`, [added.body.data.id])).toHaveLength(0);
    }
  });

  it('lets every signed-in role read the area tree, and nobody else', async () => {
    for (const who of ['admin', 'editor', 'visitor', 'plain']) {
      const tree = await clients[who].get<{ name: string }[]>('/api/bi/area/queryAreaTree');
      expect(tree.status).toBe(200);
      expect(tree.body.data.map((n) => n.name)).toEqual(['Shenzhen', 'Hangzhou']);
    }
    const anonymous = await gw.client().get('/api/bi/area/queryAreaTree');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(-1);
  });

  it.each([
    ['admin', 1, [Role.Admin], ROLE_BUTTONS[Role.Admin], [{ name: 'Admin' }, { name: 'Home' }]],
    ['editor', 0, ['Home', Role.Editor], ROLE_BUTTONS[Role.Editor], [{ name: 'Home' }, { name: 'editor' }]],
    ['visitor', 0, ['Home', Role.Visit], ROLE_BUTTONS[Role.Visit], [{ name: 'Home' }, { name: 'visit' }]],
    ['plain', 0, [Role.Default], ROLE_BUTTONS[Role.Default], []],
  ] as const)('answers user info of %s with the roles and buttons of ROLE_BUTTONS', async (who, isAdmin, roles, buttons, content) => {
    const info = await clients[who].get<{ isAdmin: number; roles: string[]; buttons: string[]; content: string }>('/api/user/info');
    expect(info.body.data.isAdmin).toBe(isAdmin);
    expect(info.body.data.roles).toEqual(roles);
    expect(info.body.data.buttons).toEqual(ALL_BUTTONS.filter((b) => buttons.includes(b)));
    expect(JSON.parse(info.body.data.content)).toEqual(content);
  });

  it('applies a group change to live sessions at once', async () => {
    const visitor = await gw.client().login('visitor', DEMO_PASSWORD);
    expect((await visitor.post('/api/bi/area/add', { regionName: 'Promoted' })).status).toBe(403);
    expect((await clients.admin.post('/api/user/updateUser', { id: ids.visitor, groupId: ids.editorsGroup })).body.code).toBe(200);
    const info = await visitor.get<{ roles: string[] }>('/api/user/info');
    expect(info.body.data.roles).toEqual(['Home', Role.Editor]);
    expect((await visitor.post('/api/bi/area/add', { regionName: 'Promoted' })).body.code).toBe(200);
  });

  // Last: the administrator's calls promote the visitor and the Editors group.
  it('lets an administrator make every one of those calls', async () => {
    for (const { name, call } of ADMIN_CALLS) {
      const answer = await call(clients.admin, ids);
      expect({ name, status: answer.status, code: answer.body.code }).toEqual({ name, status: 200, code: 200 });
    }
    expect(await gw.db.query(`SELECT 1 FROM sys_user WHERE username = 'intruder'`)).toHaveLength(1);
    expect(await gw.db.query(`SELECT 1 FROM sys_group WHERE id = $1`, [ids.spareGroup])).toHaveLength(0);
  });
});
