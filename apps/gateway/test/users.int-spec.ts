import type { UserRow } from '@sc/contracts';
import type { ApiClient } from '@sc/testing';
import { DEMO_PASSWORD, startTestGateway, type TestGateway } from './harness';

interface Page<T> {
  list: T[];
  total: number;
}

describe('users and permission groups', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  const groups: Record<string, number> = {};
  const count = async (sql: string, params?: unknown[]) => (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0].n;
  const userPage = (filters: Record<string, unknown>) => admin.post<Page<UserRow>>('/api/user/userPage', { pageNum: 1, pageSize: 50, ...filters });

  beforeAll(async () => {
    gw = await startTestGateway();
    admin = await gw.signedIn('admin');
    for (const g of await gw.db.query<{ id: number; group_name: string }>(`SELECT id, group_name FROM sys_group`)) groups[g.group_name] = g.id;
    // 25 listed users straight into the table (hashing 25 passwords would only slow the test down).
    // page-user-NN: in Visitors when NN is odd, disabled when NN is a multiple of 5, last login NN days after 2026-01-01.
    for (let n = 1; n <= 25; n++) {
      await gw.db.query(`INSERT INTO sys_user (username, password_hash, group_id, enabled, last_login_at) VALUES ($1, 'not-a-hash', $2, $3, $4)`, [
        `page-user-${String(n).padStart(2, '0')}`,
        n % 2 ? groups.Visitors : groups.Editors,
        n % 5 !== 0,
        new Date(Date.UTC(2026, 0, 1 + n)),
      ]);
    }
  });
  afterAll(() => gw.close());

  describe('createUser', () => {
    it('creates a user who can then sign in, storing only a hash of the password', async () => {
      const created = await admin.post<{ id: number }>('/api/user/createUser', {
        username: ' operator01 ',
        password: 'Operator2026',
        groupId: groups.Editors,
        introduction: 'Night shift',
      });
      expect(created.status).toBe(200);
      expect(created.body.data).toEqual({ id: expect.any(Number) });
      const [row] = await gw.db.query<Record<string, unknown>>(
        `SELECT username, group_id, enabled, introduction, password_hash FROM sys_user WHERE id = $1`,
        [created.body.data.id],
      );
      expect(row).toMatchObject({ username: 'operator01', group_id: groups.Editors, enabled: true, introduction: 'Night shift' });
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      const login = await gw
        .client()
        .post<{ isAdmin: number; content: string }>('/api/user/login', { username: 'operator01', password: 'Operator2026' });
      expect(login.body.data).toMatchObject({ isAdmin: 0, content: JSON.stringify([{ name: 'Home' }, { name: 'editor' }]) });
    });

    it('refuses a user name already taken, in any case, with 409 in the caller language', async () => {
      const before = await count('sys_user');
      const en = await admin.post('/api/user/createUser', { username: 'OPERATOR01', password: 'Operator2026', groupId: groups.Editors });
      expect(en.status).toBe(409);
      expect(en.body).toMatchObject({ code: 409, message: 'The user name "OPERATOR01" is already taken' });
      // Also under the field, for the form.
      expect(en.body.data).toEqual({
        errors: [expect.objectContaining({ field: 'username', reason: 'The user name "OPERATOR01" is already taken' })],
      });
      const zh = await admin
        .as(admin.token, 'zh-CN')
        .post('/api/user/createUser', { username: 'Admin', password: 'Operator2026', groupId: groups.Editors });
      expect(zh.status).toBe(409);
      expect(zh.body).toMatchObject({ code: 409, message: '用户名“Admin”已被占用' });
      expect(await count('sys_user')).toBe(before);
    });

    it('refuses an unknown group and a weak password, creating nothing', async () => {
      const before = await count('sys_user');
      const noGroup = await admin.post('/api/user/createUser', { username: 'orphan', password: 'Operator2026', groupId: 999999 });
      expect(noGroup.status).toBe(400);
      expect(noGroup.body.data).toEqual({
        errors: [{ field: 'groupId', message: 'Group: The selected group does not exist', reason: 'The selected group does not exist' }],
      });
      const weak = await admin.post('/api/user/createUser', { username: 'weakling', password: 'password', groupId: groups.Editors });
      expect(weak.status).toBe(400);
      expect(weak.body.data).toEqual({
        errors: [
          {
            field: 'password',
            message: 'Password: The password must be 8 to 64 characters and contain both letters and digits',
            reason: 'The password must be 8 to 64 characters and contain both letters and digits',
          },
        ],
      });
      expect(await count('sys_user')).toBe(before);
    });
  });

  describe('userPage', () => {
    it('pages with {list, total}, newest first, and never answers a password hash', async () => {
      const first = await admin.post<Page<UserRow>>('/api/user/userPage', { pageNum: 1, pageSize: 10, username: 'page-user' });
      expect(first.body.data.total).toBe(25);
      expect(first.body.data.list.map((u) => u.username)).toEqual(Array.from({ length: 10 }, (_, i) => `page-user-${25 - i}`));
      const third = await admin.post<Page<UserRow>>('/api/user/userPage', { pageNum: 3, pageSize: 10, username: 'page-user' });
      expect(third.body.data.total).toBe(25);
      expect(third.body.data.list.map((u) => u.username)).toEqual(['page-user-05', 'page-user-04', 'page-user-03', 'page-user-02', 'page-user-01']);
      const beyond = await admin.post<Page<UserRow>>('/api/user/userPage', { pageNum: 4, pageSize: 10, username: 'page-user' });
      expect(beyond.body.data).toEqual({ list: [], total: 25 });

      const row = first.body.data.list.find((u) => u.username === 'page-user-21')!;
      expect(row).toEqual({
        id: expect.any(Number),
        username: 'page-user-21',
        groupId: groups.Visitors,
        groupName: 'Visitors',
        isAdmin: 0,
        permission: ['Home', 'visit'],
        enabled: true,
        introduction: '',
        lastLoginDate: expect.any(String),
        createdAt: expect.any(String),
      });
      expect(new Date(row.lastLoginDate!).toISOString()).toBe('2026-01-22T00:00:00.000Z');
    });

    it('filters by part of the user name in any case, matching wildcards literally', async () => {
      const part = await userPage({ username: 'USER-1' });
      expect(part.body.data.total).toBe(10);
      expect(part.body.data.list.every((u) => /^page-user-1\d$/.test(u.username))).toBe(true);
      expect((await userPage({ username: '%' })).body.data).toEqual({ list: [], total: 0 });
      expect((await userPage({ username: 'page_user' })).body.data).toEqual({ list: [], total: 0 });
      const admins = await userPage({ username: 'admin' });
      expect(admins.body.data.list).toEqual([expect.objectContaining({ username: 'admin', isAdmin: 1, groupName: 'Administrators' })]);
    });

    it('filters by group, by enabled, and combines filters', async () => {
      const visitors = await userPage({ groupId: groups.Visitors });
      expect(visitors.body.data.total).toBe(14); // 13 odd page users and the demo visitor
      expect(visitors.body.data.list.every((u) => u.groupId === groups.Visitors)).toBe(true);

      const disabled = await userPage({ enabled: false });
      expect(disabled.body.data.list.map((u) => u.username)).toEqual([
        'page-user-25',
        'page-user-20',
        'page-user-15',
        'page-user-10',
        'page-user-05',
      ]);
      expect(disabled.body.data.total).toBe(5);

      const combined = await userPage({ groupId: groups.Visitors, enabled: false, username: 'page' });
      expect(combined.body.data.list.map((u) => u.username)).toEqual(['page-user-25', 'page-user-15', 'page-user-05']);
      expect(combined.body.data.total).toBe(3);
    });

    it('filters by a last-login range, both ends included', async () => {
      const range = await userPage({ lastLoginFrom: '2026-01-06T00:00:00Z', lastLoginTo: '2026-01-09T00:00:00Z' });
      expect(range.body.data.list.map((u) => u.username)).toEqual(['page-user-08', 'page-user-07', 'page-user-06', 'page-user-05']);
      expect(range.body.data.total).toBe(4);
      const from = await userPage({ lastLoginFrom: '2026-01-25T00:00:00Z', username: 'page' });
      expect(from.body.data.list.map((u) => u.username)).toEqual(['page-user-25', 'page-user-24']);
      const to = await userPage({ lastLoginTo: '2026-01-03T00:00:00+00:00' });
      expect(to.body.data.list.map((u) => u.username)).toEqual(['page-user-02', 'page-user-01']);
    });
  });

  describe('updateUser', () => {
    it('moves a user to another group, which their next call already sees', async () => {
      const id = (await admin.post<{ id: number }>('/api/user/createUser', { username: 'mover', password: DEMO_PASSWORD, groupId: groups.Editors }))
        .body.data.id;
      const mover = await gw.client().login('mover', DEMO_PASSWORD);
      const moved = await admin.post('/api/user/updateUser', { id, groupId: groups.Visitors, introduction: 'Moved' });
      expect(moved.body).toEqual({ code: 200, data: null, message: 'success' });
      const listed = await userPage({ username: 'mover' });
      expect(listed.body.data.list).toEqual([
        expect.objectContaining({ groupId: groups.Visitors, groupName: 'Visitors', introduction: 'Moved', enabled: true }),
      ]);
      expect((await mover.get<{ roles: string[] }>('/api/user/info')).body.data.roles).toEqual(['Home', 'visit']);
    });

    it('answers 404 for an unknown user and 400 for an unknown group', async () => {
      const unknownUser = await admin.post('/api/user/updateUser', { id: 999999, introduction: 'x' });
      expect(unknownUser.status).toBe(404);
      expect(unknownUser.body).toEqual({ code: 404, data: null, message: 'The requested item does not exist' });
      const id = (await gw.db.query<{ id: number }>(`SELECT id FROM sys_user WHERE username = 'editor'`))[0].id;
      const unknownGroup = await admin.post('/api/user/updateUser', { id, groupId: 999999 });
      expect(unknownGroup.status).toBe(400);
      expect(unknownGroup.body.data).toEqual({
        errors: [{ field: 'groupId', message: 'Group: The selected group does not exist', reason: 'The selected group does not exist' }],
      });
      expect(await count(`sys_user WHERE id = $1 AND group_id = $2`, [id, groups.Editors])).toBe(1);
    });
  });

  describe('permission groups', () => {
    let nightShift: number;

    it('creates a general group, storing each permission once', async () => {
      const created = await admin.post<{ id: number }>('/api/user/groupAddOrEdit', {
        groupName: 'Night shift',
        isAdmin: 0,
        permissionMenu: ['Home', 'editor', 'editor'],
        remark: 'After 22:00',
      });
      expect(created.status).toBe(200);
      nightShift = created.body.data.id;
      const page = await admin.post<Page<Record<string, unknown>>>('/api/user/groupPage', { pageNum: 1, pageSize: 10, groupName: 'night' });
      expect(page.body.data).toEqual({
        total: 1,
        list: [
          {
            id: nightShift,
            groupName: 'Night shift',
            isAdmin: 0,
            permissionMenu: ['Home', 'editor'],
            remark: 'After 22:00',
            userCount: 0,
            createdAt: expect.any(String),
          },
        ],
      });
    });

    it('edits a group', async () => {
      const edited = await admin.post('/api/user/groupAddOrEdit', { id: nightShift, groupName: 'Late shift', isAdmin: 0, permissionMenu: ['visit'] });
      expect(edited.body).toEqual({ code: 200, data: { id: nightShift }, message: 'success' });
      expect(await gw.db.query(`SELECT group_name, permission_menu, remark FROM sys_group WHERE id = $1`, [nightShift])).toEqual([
        { group_name: 'Late shift', permission_menu: ['visit'], remark: 'After 22:00' },
      ]);
      const missing = await admin.post('/api/user/groupAddOrEdit', { id: 999999, groupName: 'Ghost', isAdmin: 0, permissionMenu: [] });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('The selected group does not exist');
    });

    it('refuses a group name already taken, in any case', async () => {
      const before = await count('sys_group');
      const taken = await admin.post('/api/user/groupAddOrEdit', { groupName: 'EDITORS', isAdmin: 0, permissionMenu: [] });
      expect(taken.status).toBe(409);
      expect(taken.body).toMatchObject({ code: 409, message: 'The group name "EDITORS" is already taken' });
      expect(taken.body.data).toEqual({ errors: [expect.objectContaining({ field: 'groupName' })] });
      const renamed = await admin.post('/api/user/groupAddOrEdit', { id: nightShift, groupName: 'visitors', isAdmin: 0, permissionMenu: [] });
      expect(renamed.status).toBe(409);
      expect(await count('sys_group')).toBe(before);
      expect(await count(`sys_group WHERE id = $1 AND group_name = 'Late shift'`, [nightShift])).toBe(1);
    });

    it('refuses an unknown permission name, in the caller language', async () => {
      const before = await count('sys_group');
      const en = await admin.post('/api/user/groupAddOrEdit', { groupName: 'Rogue', isAdmin: 0, permissionMenu: ['Home', 'superuser'] });
      expect(en.status).toBe(400);
      expect(en.body).toEqual({
        code: 400,
        data: {
          errors: [{ field: 'permissionMenu', message: 'Permission menu: Unknown permission: superuser', reason: 'Unknown permission: superuser' }],
        },
        message: 'Permission menu: Unknown permission: superuser',
      });
      const zh = await admin.as(admin.token, 'zh-CN').post('/api/user/groupAddOrEdit', { groupName: 'Rogue', isAdmin: 0, permissionMenu: ['admin'] });
      expect(zh.body.message).toBe('权限菜单：未知权限：admin');
      expect(await count('sys_group')).toBe(before);
    });

    it('refuses to delete a group that still has users, and deletes an empty one', async () => {
      const inUse = await admin.get(`/api/user/groupDel?id=${groups.Editors}`);
      expect(inUse.status).toBe(409);
      const editors = await count(`sys_user WHERE group_id = $1`, [groups.Editors]);
      expect(inUse.body).toEqual({ code: 409, data: null, message: `This group cannot be deleted: users still in it: ${editors}` });
      expect(await count(`sys_group WHERE id = $1`, [groups.Editors])).toBe(1);

      const deleted = await admin.get(`/api/user/groupDel?id=${nightShift}`);
      expect(deleted.body).toEqual({ code: 200, data: null, message: 'success' });
      expect(await count(`sys_group WHERE id = $1`, [nightShift])).toBe(0);
      const again = await admin.get(`/api/user/groupDel?id=${nightShift}`);
      expect(again.status).toBe(404);
      expect(again.body.message).toBe('The selected group does not exist');
    });
  });

  describe('the last enabled administrator', () => {
    const LAST_ADMIN = { code: 409, data: null, message: 'At least one enabled administrator must remain' };

    it('cannot lose administrator rights through his group', async () => {
      const answer = await admin.post('/api/user/groupAddOrEdit', {
        id: groups.Administrators,
        groupName: 'Administrators',
        isAdmin: 0,
        permissionMenu: ['Home'],
      });
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual(LAST_ADMIN);
      expect(await gw.db.query(`SELECT is_admin, permission_menu FROM sys_group WHERE id = $1`, [groups.Administrators])).toEqual([
        { is_admin: true, permission_menu: [] },
      ]);
    });

    it('cannot be moved out of the administrators, while another administrator is disabled', async () => {
      const second = await admin.post<{ id: number }>('/api/user/createUser', {
        username: 'admin2',
        password: DEMO_PASSWORD,
        groupId: groups.Administrators,
        enabled: false,
      });
      expect(second.body.code).toBe(200);
      const adminId = (await gw.db.query<{ id: number }>(`SELECT id FROM sys_user WHERE username = 'admin'`))[0].id;
      const answer = await admin.post('/api/user/updateUser', { id: adminId, groupId: groups.Editors });
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual(LAST_ADMIN);
      expect(await count(`sys_user WHERE id = $1 AND group_id = $2`, [adminId, groups.Administrators])).toBe(1);
      expect((await admin.get<{ isAdmin: number }>('/api/user/info')).body.data.isAdmin).toBe(1);
    });
  });
});
