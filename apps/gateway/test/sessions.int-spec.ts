import { createHash } from 'node:crypto';
import { waitFor, type ApiAnswer, type ApiClient } from '@sc/testing';
import { DEMO_PASSWORD, startTestGateway, type TestGateway } from './harness';

function expectLoggedOut(answer: ApiAnswer): void {
  expect(answer.status).toBe(401);
  expect(answer.body).toEqual({ code: -1, data: null, message: 'Your session has ended, please log in again' });
}

function expectFieldError(answer: ApiAnswer, field: string, message: string): void {
  expect(answer.status).toBe(400);
  expect(answer.body).toEqual({ code: 400, data: { errors: [{ field, message, reason: expect.any(String) }] }, message });
}

describe('sessions: logout, password change, disabling, expiry', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  const userId = async (username: string): Promise<number> =>
    (await gw.db.query<{ id: number }>(`SELECT id FROM sys_user WHERE username = $1`, [username]))[0].id;
  const passwordHash = async (username: string): Promise<string> =>
    (await gw.db.query<{ password_hash: string }>(`SELECT password_hash FROM sys_user WHERE username = $1`, [username]))[0].password_hash;
  const liveSessions = async (username: string): Promise<number> =>
    (
      await gw.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM sys_session s JOIN sys_user u ON u.id = s.user_id WHERE u.username = $1 AND s.revoked_at IS NULL`,
        [username],
      )
    )[0].n;
  const createUser = async (username: string): Promise<number> => {
    const groupId = (await gw.db.query<{ id: number }>(`SELECT id FROM sys_group WHERE group_name = 'Editors'`))[0].id;
    const created = await admin.post<{ id: number }>('/api/user/createUser', { username, password: DEMO_PASSWORD, groupId });
    expect(created.body.code).toBe(200);
    return created.body.data.id;
  };

  beforeAll(async () => {
    gw = await startTestGateway();
    admin = await gw.signedIn('admin');
  });
  afterAll(() => gw.close());

  it('revokes only the token that logged out', async () => {
    const first = await gw.signedIn('editor');
    const second = await gw.signedIn('editor');
    expect((await first.get('/api/user/logout')).body).toEqual({ code: 200, data: null, message: 'success' });
    expectLoggedOut(await first.get('/api/user/info'));
    // The same token cannot be used to log out twice either.
    expectLoggedOut(await first.get('/api/user/logout'));
    expect((await second.get('/api/user/info')).status).toBe(200);
    const [row] = await gw.db.query<{ revoked_at: Date | null }>(`SELECT revoked_at FROM sys_session WHERE token_hash = $1`, [
      createHash('sha256').update(first.token).digest(),
    ]);
    expect(row.revoked_at).toBeInstanceOf(Date);
  });

  it('after modifyPassword ends the other sessions of the user and keeps the one that changed it', async () => {
    await createUser('changer');
    const [a, b, c] = [
      await gw.client().login('changer', DEMO_PASSWORD),
      await gw.client().login('changer', DEMO_PASSWORD),
      await gw.client().login('changer', DEMO_PASSWORD),
    ];
    const otherUser = await gw.signedIn('editor');
    const changed = await a.post('/api/user/modifyPassword', {
      oldPassword: DEMO_PASSWORD,
      newPassword: 'Changed2026',
      confirmPassword: 'Changed2026',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ code: 200, data: null, message: 'success' });

    expectLoggedOut(await b.get('/api/user/info'));
    expectLoggedOut(await c.get('/api/user/info'));
    expect((await a.get('/api/user/info')).body.data).toMatchObject({ name: 'changer' });
    expect(await liveSessions('changer')).toBe(1);
    // Other users keep their sessions.
    expect((await otherUser.get('/api/user/info')).status).toBe(200);

    expect((await gw.client().post('/api/user/login', { username: 'changer', password: DEMO_PASSWORD })).status).toBe(400);
    expect((await gw.client().post('/api/user/login', { username: 'changer', password: 'Changed2026' })).status).toBe(200);
  });

  it("refuses new and confirm passwords that differ with 'Password inconsistency', in the caller's language", async () => {
    const editor = await gw.signedIn('editor');
    const before = await passwordHash('editor');
    const body = { oldPassword: DEMO_PASSWORD, newPassword: 'Another2026', confirmPassword: 'Another2027' };
    expectFieldError(await editor.post('/api/user/modifyPassword', body), 'confirmPassword', 'Confirm password: Password inconsistency');
    expectFieldError(
      await editor.as(editor.token, 'zh-CN').post('/api/user/modifyPassword', body),
      'confirmPassword',
      '确认密码：两次输入的密码不一致',
    );
    expect(await passwordHash('editor')).toBe(before);
  });

  it('refuses a wrong current password and changes nothing', async () => {
    const editor = await gw.signedIn('editor');
    const other = await gw.signedIn('editor');
    const before = await passwordHash('editor');
    const answer = await editor.post('/api/user/modifyPassword', {
      oldPassword: 'NotMine2026',
      newPassword: 'Another2026',
      confirmPassword: 'Another2026',
    });
    expectFieldError(answer, 'oldPassword', 'Current password: The current password is incorrect');
    expect(await passwordHash('editor')).toBe(before);
    expect((await other.get('/api/user/info')).status).toBe(200);
  });

  it.each(['short1', 'onlyletters', '1234567890', 'Abc1234'])('refuses the weak new password %p', async (weak) => {
    const editor = await gw.signedIn('editor');
    const before = await passwordHash('editor');
    const answer = await editor.post('/api/user/modifyPassword', { oldPassword: DEMO_PASSWORD, newPassword: weak, confirmPassword: weak });
    expect(answer.status).toBe(400);
    expectFieldError(answer, 'newPassword', 'New password: The password must be 8 to 64 characters and contain both letters and digits');
    expect(await passwordHash('editor')).toBe(before);
  });

  it('disabling a user ends all of their sessions at once, for good', async () => {
    const id = await createUser('leaver');
    const sessions = [await gw.client().login('leaver', DEMO_PASSWORD), await gw.client().login('leaver', DEMO_PASSWORD)];
    expect(await liveSessions('leaver')).toBe(2);

    const disabled = await admin.post('/api/user/updateUser', { id, enabled: false });
    expect(disabled.body).toEqual({ code: 200, data: null, message: 'success' });
    for (const s of sessions) expectLoggedOut(await s.get('/api/user/info'));
    expect(await liveSessions('leaver')).toBe(0);

    // Enabling the account again does not bring the old sessions back.
    expect((await admin.post('/api/user/updateUser', { id, enabled: true })).body.code).toBe(200);
    for (const s of sessions) expectLoggedOut(await s.get('/api/user/info'));
  });

  it('refuses sign-in to a disabled user, in the caller language and without a token', async () => {
    const id = await createUser('suspended');
    expect((await admin.post('/api/user/updateUser', { id, enabled: false })).body.code).toBe(200);
    const en = await gw.client().post('/api/user/login', { username: 'suspended', password: DEMO_PASSWORD });
    expect(en.status).toBe(403);
    expect(en.body).toEqual({ code: 403, data: null, message: 'This account is disabled, please contact an administrator' });
    const zh = await gw.client('zh-CN').post('/api/user/login', { username: 'suspended', password: DEMO_PASSWORD });
    expect(zh.body).toEqual({ code: 403, data: null, message: '该账号已被停用，请联系管理员' });
    expect(await liveSessions('suspended')).toBe(0);
    // A wrong password still answers as any wrong password does, so the state is only revealed to the password holder.
    const wrong = await gw.client().post('/api/user/login', { username: 'suspended', password: 'wrong-password1' });
    expect(wrong.body).toEqual({ code: 400, data: null, message: 'Incorrect username or password' });
  });

  it('does not let an administrator disable himself', async () => {
    const id = await userId('admin');
    const answer = await admin.post('/api/user/updateUser', { id, enabled: false });
    expectFieldError(answer, 'enabled', 'Enabled: You cannot disable your own account');
    expect((await gw.db.query<{ enabled: boolean }>(`SELECT enabled FROM sys_user WHERE id = $1`, [id]))[0].enabled).toBe(true);
    expect((await admin.get('/api/user/info')).status).toBe(200);
  });

  it('answers 401 with code -1 for an expired session', async () => {
    const visitor = await gw.signedIn('visitor');
    const other = await gw.signedIn('visitor');
    expect((await visitor.get('/api/user/info')).status).toBe(200);
    await gw.db.query(`UPDATE sys_session SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [
      createHash('sha256').update(visitor.token).digest(),
    ]);
    // A write from outside the gateway reaches its session cache through PostgreSQL's change notification, within
    // milliseconds rather than at once: wait for it (a busy machine can take longer than one request).
    expectLoggedOut(
      await waitFor(async () => {
        const answer = await visitor.get('/api/user/info');
        return answer.status === 401 ? answer : undefined;
      }, 3000),
    );
    expectLoggedOut(await visitor.post('/api/bi/area/add', { regionName: 'Late' }));
    expect((await other.get('/api/user/info')).status).toBe(200);
  });

  it('answers 401 with code -1 for a made-up or malformed token', async () => {
    expectLoggedOut(await gw.client().as('x'.repeat(43)).get('/api/user/info'));
    expectLoggedOut(await gw.client().as('y'.repeat(500)).get('/api/user/info'));
    expectLoggedOut(await gw.client().get('/api/user/info', { headers: { Authorization: 'Bearer' } }));
  });
});
