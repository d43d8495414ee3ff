import type { OperationLogRow } from '@sc/contracts';
import type { ApiClient } from '@sc/testing';
import { DEMO_PASSWORD, startTestGateway, type TestGateway } from './harness';

interface Page<T> {
  list: T[];
  total: number;
}

describe('operation log', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editorsGroup: number;
  const logPage = async (filters: Record<string, unknown> = {}) => {
    const answer = await admin.post<Page<OperationLogRow>>('/api/log/operationPage', { pageNum: 1, pageSize: 100, ...filters });
    expect(answer.status).toBe(200);
    return answer.body.data;
  };
  const rows = (description: string) =>
    gw.db.query<Record<string, unknown>>(`SELECT * FROM operation_log WHERE description = $1 ORDER BY id`, [description]);

  beforeAll(async () => {
    gw = await startTestGateway();
    admin = await gw.signedIn('admin');
    editorsGroup = (await gw.db.query<{ id: number }>(`SELECT id FROM sys_group WHERE group_name = 'Editors'`))[0].id;
  });
  afterAll(() => gw.close());

  it('records createUser with its description, method, operator, address and status, without the password', async () => {
    const created = await admin.post<{ id: number }>('/api/user/createUser', {
      username: 'logged-user',
      password: 'Logged2026',
      groupId: editorsGroup,
    });
    expect(created.body.code).toBe(200);
    const adminId = (await gw.db.query<{ id: number }>(`SELECT id FROM sys_user WHERE username = 'admin'`))[0].id;

    const stored = await rows('Create user');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      method_name: 'UsersController.create',
      operator: 'admin',
      operator_id: adminId,
      operation_ip: '127.0.0.1',
      status: 'success',
      error_message: null,
    });
    expect(stored[0].request_params).toEqual({ query: {}, body: { username: 'logged-user', password: '******', groupId: editorsGroup } });
    expect(JSON.stringify(stored[0])).not.toContain('Logged2026');

    const listed = (await logPage({ description: 'create user' })).list;
    expect(listed).toEqual([
      {
        id: expect.any(Number),
        description: 'Create user',
        module: 'system',
        methodName: 'UsersController.create',
        requestParams: { query: {}, body: { username: 'logged-user', password: '******', groupId: editorsGroup } },
        operator: 'admin',
        operationIp: '127.0.0.1',
        operationTime: expect.any(String),
        status: 'success',
        errorMessage: null,
        durationMs: expect.any(Number),
      },
    ]);
  });

  it('records a failed call with status failure and the English reason, whatever the caller language', async () => {
    const answer = await admin
      .as(admin.token, 'zh-CN')
      .post('/api/user/createUser', { username: 'LOGGED-USER', password: 'Logged2026', groupId: editorsGroup });
    expect(answer.status).toBe(409);
    const stored = await rows('Create user');
    expect(stored).toHaveLength(2);
    expect(stored[1]).toMatchObject({
      operator: 'admin',
      status: 'failure',
      error_message: 'The user name "LOGGED-USER" is already taken',
      request_params: { query: {}, body: { username: 'LOGGED-USER', password: '******', groupId: editorsGroup } },
    });

    const invalid = await admin.post('/api/bi/area/add', { regionName: '' });
    expect(invalid.status).toBe(400);
    expect((await rows('Create region')).map((r) => [r.status, r.error_message])).toEqual([['failure', 'Region name: The name cannot be empty']]);
  });

  it('records sign-in, successful or not, with the password removed and the typed user name as operator', async () => {
    await gw.client().login('editor', DEMO_PASSWORD);
    const wrong = await gw.client().post('/api/user/login', { username: ' Editor ', password: 'wrong-password1' });
    expect(wrong.status).toBe(400);
    const stored = await rows('Sign in');
    // The first is the administrator's own sign-in in beforeAll.
    expect(stored.map((r) => [r.operator, r.status, r.method_name, r.operation_ip])).toEqual([
      ['admin', 'success', 'AuthController.login', '127.0.0.1'],
      ['editor', 'success', 'AuthController.login', '127.0.0.1'],
      ['Editor', 'failure', 'AuthController.login', '127.0.0.1'],
    ]);
    expect(stored[1].request_params).toEqual({ query: {}, body: { username: 'editor', password: '******' } });
    expect(stored[2].error_message).toBe('Incorrect username or password');
    expect(JSON.stringify(stored)).not.toMatch(/SmartCity@2026|wrong-password1/);
  });

  it('never keeps a body that is not JSON: a sign-in sent as text or as a form is refused before any route runs', async () => {
    const before = (await rows('Sign in')).length;
    for (const [type, body] of [
      ['text/plain', JSON.stringify({ username: 'editor', password: 'Plain-text2026' })],
      ['application/x-www-form-urlencoded', 'username=editor&password=Plain-text2026'],
      ['application/xml', '<login><username>editor</username><password>Plain-text2026</password></login>'],
    ]) {
      const answer = await fetch(`${gw.baseUrl}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': type, 'accept-language': 'es' },
        body,
      });
      expect({ type, status: answer.status, body: await answer.json() }).toEqual({
        type,
        status: 415,
        body: { code: 415, data: null, message: 'Envíe el cuerpo de la solicitud como JSON (Content-Type: application/json)' },
      });
    }
    const stored = (await rows('Sign in')).slice(before);
    expect(stored).toEqual([]);
    expect(JSON.stringify(await gw.db.query(`SELECT request_params FROM operation_log`))).not.toContain('Plain-text2026');
  });

  it('removes every password field of a password change, and records sign-out', async () => {
    const visitor = await gw.signedIn('visitor');
    await visitor.post('/api/user/modifyPassword', { oldPassword: 'Wrong2026x', newPassword: 'Secret2026x', confirmPassword: 'Secret2026x' });
    await visitor.get('/api/user/logout');
    const [change] = await rows('Change own password');
    expect(change).toMatchObject({ operator: 'visitor', status: 'failure', error_message: 'Current password: The current password is incorrect' });
    expect(change.request_params).toEqual({ query: {}, body: { oldPassword: '******', newPassword: '******', confirmPassword: '******' } });
    expect(await rows('Sign out')).toEqual([
      expect.objectContaining({ operator: 'visitor', status: 'success', method_name: 'AuthController.logout' }),
    ]);
  });

  it('does not record reading calls', async () => {
    const before = (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM operation_log`))[0].n;
    await admin.post('/api/user/userPage', { pageNum: 1, pageSize: 10 });
    await admin.get('/api/bi/area/queryAreaTree');
    await admin.get('/api/user/info');
    expect((await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM operation_log`))[0].n).toBe(before);
  });

  it('pages newest first and filters by operator, status and time range', async () => {
    const all = await logPage();
    const total = (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM operation_log`))[0].n;
    expect(all.total).toBe(total);
    const ids = all.list.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const paged = await admin.post<Page<OperationLogRow>>('/api/log/operationPage', { pageNum: 2, pageSize: 2 });
    expect(paged.body.data).toEqual({ total, list: all.list.slice(2, 4) });

    const byEditor = await logPage({ operator: 'EDIT' });
    expect(byEditor.list.map((r) => [r.operator, r.status])).toEqual([
      ['Editor', 'failure'],
      ['editor', 'success'],
    ]);
    expect(byEditor.total).toBe(2);

    const failures = await logPage({ status: 'failure' });
    expect(failures.list.length).toBeGreaterThan(0);
    expect(failures.list.every((r) => r.status === 'failure')).toBe(true);
    expect(failures.total).toBe((await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM operation_log WHERE status = 'failure'`))[0].n);

    const combined = await logPage({ operator: 'admin', status: 'failure' });
    expect(combined.list.map((r) => r.description)).toEqual(['Create region', 'Create user']);

    // Place three entries at known times to test both ends of the range.
    const [a, b, c] = all.list.slice(-3).map((r) => r.id);
    await gw.db.query(
      `UPDATE operation_log SET operation_time = CASE id WHEN $1 THEN '2026-03-01T08:00:00Z'::timestamptz
        WHEN $2 THEN '2026-03-02T08:00:00Z'::timestamptz ELSE '2026-03-03T08:00:00Z'::timestamptz END WHERE id IN ($1, $2, $3)`,
      [a, b, c],
    );
    const range = await logPage({ startTime: '2026-03-01T08:00:00Z', endTime: '2026-03-02T08:00:00Z' });
    expect(range.list.map((r) => r.id)).toEqual([b, a]);
    expect(range.total).toBe(2);
    expect((await logPage({ startTime: '2026-03-02T13:00:00+04:00', endTime: '2026-03-31T00:00:00Z' })).list.map((r) => r.id)).toEqual([c]);
    expect((await logPage({ endTime: '2026-02-28T23:59:59Z' })).list).toEqual([]);
  });

  it("files each call under its module: the floor screens' log, by action, operator, time and device", async () => {
    const editor = await gw.signedIn('editor');
    const save = (body: Record<string, unknown>) => editor.post<{ id: number }>('/api/signage/deviceAddOrEdit', body);
    const first = (await save({ name: 'Logged screen', code: 'LOG-FS-1' })).body.data.id;
    const second = (await save({ name: 'Other screen', code: 'LOG-FS-2' })).body.data.id;
    expect((await save({ id: first, name: 'Logged screen, renamed', code: 'LOG-FS-1' })).body.code).toBe(200);
    expect((await editor.post('/api/signage/mute', { ids: [second, first] })).body.code).toBe(200);
    // Refused (no name): logged as a failure of the module.
    expect((await save({ id: first, name: '', code: 'LOG-FS-1' })).status).toBe(400);
    expect((await editor.post('/api/led/ledAddOrEdit', { name: 'Not a floor screen' })).status).toBe(400);

    const signage = await logPage({ module: 'signage' });
    expect(signage.list.map((r) => [r.description, r.status, r.module])).toEqual([
      ['Save floor screen', 'failure', 'signage'],
      ['Mute floor screens', 'success', 'signage'],
      ['Save floor screen', 'success', 'signage'],
      ['Save floor screen', 'success', 'signage'],
      ['Save floor screen', 'success', 'signage'],
    ]);
    expect((await logPage({ module: 'led' })).list.map((r) => [r.description, r.module])).toEqual([['Save LED screen', 'led']]);
    expect((await logPage({ module: 'system', description: 'Create user' })).total).toBe(2);
    // A device: the calls naming it by id, or among ids.
    expect((await logPage({ module: 'signage', deviceId: first })).list.map((r) => r.description)).toEqual([
      'Save floor screen',
      'Mute floor screens',
      'Save floor screen',
    ]);
    expect((await logPage({ module: 'signage', deviceId: second })).list.map((r) => r.description)).toEqual(['Mute floor screens']);
    expect((await logPage({ module: 'signage', description: 'Mute floor screens', operator: 'editor' })).total).toBe(1);
    expect((await logPage({ module: 'signage', startTime: '2099-01-01T00:00:00Z' })).total).toBe(0);

    const bad = await admin.post('/api/log/operationPage', { pageNum: 1, pageSize: 10, module: 'parking' });
    expect({ status: bad.status, message: bad.body.message }).toEqual({ status: 400, message: expect.stringContaining('Invalid value') });
    // The whole log stays the administrators'; a module of devices' log is its operators' too, the system's is not.
    expect((await editor.post('/api/log/operationPage', { pageNum: 1, pageSize: 10, module: 'signage' })).status).toBe(403);
    const ofModule = await editor.post<Page<OperationLogRow>>('/api/log/modulePage', {
      pageNum: 1,
      pageSize: 100,
      module: 'signage',
      deviceId: second,
    });
    expect(ofModule.status).toBe(200);
    expect(ofModule.body.data.list.map((r) => r.description)).toEqual(['Mute floor screens']);
    const system = await editor.post('/api/log/modulePage', { pageNum: 1, pageSize: 10, module: 'system' });
    expect({ status: system.status, message: system.body.message }).toEqual({ status: 400, message: expect.stringContaining('Invalid value') });
    const none = await editor.post('/api/log/modulePage', { pageNum: 1, pageSize: 10 });
    expect(none.status).toBe(400);
  });
});
