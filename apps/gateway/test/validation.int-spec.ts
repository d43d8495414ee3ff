import type { ApiAnswer, ApiClient } from '@sc/testing';
import { startTestGateway, type TestGateway } from './harness';

/** 400, code 400, data.errors exactly as given (in order), and the message joining them. */
function expectErrors(answer: ApiAnswer, errors: [field: string, message: string][]): void {
  expect(answer.status).toBe(400);
  const expected = errors.map(([field, message]) => ({ field, message, reason: expect.any(String) }));
  expect(answer.body).toEqual({ code: 400, data: { errors: expected }, message: errors.map(([, message]) => message).join('; ') });
  // The reason alone is the message without the field's label.
  for (const e of answer.body.data.errors) expect(e.message.endsWith(e.reason)).toBe(true);
}

describe('request validation', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editorsGroup: number;
  /** What a rejected request must leave untouched (the operation log may record the refusal). */
  const state = async () => ({
    users: await gw.db.query(`SELECT id, username, group_id, enabled, password_hash FROM sys_user ORDER BY id`),
    groups: await gw.db.query(`SELECT * FROM sys_group ORDER BY id`),
    regions: await gw.db.query(`SELECT * FROM region ORDER BY id`),
  });
  let before: Awaited<ReturnType<typeof state>>;
  const as = (lng: string) => admin.as(admin.token, lng);

  beforeAll(async () => {
    gw = await startTestGateway();
    admin = await gw.signedIn('admin');
    editorsGroup = (await gw.db.query<{ id: number }>(`SELECT id FROM sys_group WHERE group_name = 'Editors'`))[0].id;
    before = await state();
  });
  afterAll(() => gw.close());

  describe('missing fields', () => {
    it.each([
      [
        'en-US',
        [
          ['username', 'User name: Please enter'],
          ['password', 'Password: Please enter'],
          ['groupId', 'Group: Please select a group'],
        ],
      ],
      [
        'zh-CN',
        [
          ['username', '用户名：请输入'],
          ['password', '密码：请输入'],
          ['groupId', '分组：请选择分组'],
        ],
      ],
      [
        'es',
        [
          ['username', 'Nombre de usuario: Introduzca un valor'],
          ['password', 'Contraseña: Introduzca un valor'],
          ['groupId', 'Grupo: Seleccione un grupo'],
        ],
      ],
      [
        'ja',
        [
          ['username', 'ユーザー名：入力してください'],
          ['password', 'パスワード：入力してください'],
          ['groupId', 'グループ：グループを選択してください'],
        ],
      ],
    ] as [string, [string, string][]][])('answers one translated error per missing field (%s)', async (lng, errors) => {
      expectErrors(await as(lng).post('/api/user/createUser', {}), errors);
    });

    it('treats empty and blank strings as missing', async () => {
      expectErrors(await as('en-US').post('/api/user/createUser', { username: '   ', password: '', groupId: editorsGroup }), [
        ['username', 'User name: Please enter'],
        ['password', 'Password: Please enter'],
      ]);
    });

    it('checks the sign-in form too, before any password is checked', async () => {
      expectErrors(await gw.client('zh-CN').post('/api/user/login', { username: 'admin' }), [['password', '密码：请输入']]);
    });

    it('checks query parameters', async () => {
      expectErrors(await as('en-US').get('/api/user/groupDel'), [['id', 'ID: Please select']]);
      expectErrors(await as('zh-CN').get('/api/bi/area/del?id=abc'), [['id', 'ID：必须是整数']]);
    });

    it('drops unknown query parameters, such as a cache-busting timestamp, instead of refusing them', async () => {
      const answer = await as('en-US').get(`/api/bi/area/queryAreaTree?t=${Date.now()}`);
      expect(answer.status).toBe(200);
      expect((answer.body.data as unknown[]).length).toBe(2);
    });
  });

  describe('wrong types', () => {
    it.each([
      [
        'en-US',
        [
          ['username', 'User name: Invalid value'],
          ['password', 'Password: Invalid value'],
          ['groupId', 'Group: Must be a whole number'],
          ['enabled', 'Enabled: Must be true or false'],
        ],
      ],
      [
        'zh-CN',
        [
          ['username', '用户名：取值无效'],
          ['password', '密码：取值无效'],
          ['groupId', '分组：必须是整数'],
          ['enabled', '启用：必须是“是”或“否”'],
        ],
      ],
    ] as [string, [string, string][]][])('names each field of the wrong type (%s)', async (lng, errors) => {
      expectErrors(await as(lng).post('/api/user/createUser', { username: 123, password: true, groupId: 'abc', enabled: 'yes' }), errors);
    });

    it('refuses a fractional number, an array for a string and a wrong enumeration value', async () => {
      expectErrors(await as('en-US').post('/api/user/groupAddOrEdit', { groupName: ['Night'], isAdmin: 2, permissionMenu: 'Home' }), [
        ['groupName', 'Group name: Invalid value'],
        ['isAdmin', 'Role type: Invalid value'],
        ['permissionMenu', 'Permission menu: Invalid value'],
      ]);
      expectErrors(await as('en-US').post('/api/user/updateUser', { id: 1.5 }), [['id', 'ID: Must be a whole number']]);
    });

    it('refuses a text that is too long', async () => {
      expectErrors(await as('en-US').post('/api/bi/area/add', { regionName: 'x'.repeat(65) }), [
        ['regionName', 'Region name: At most 64 characters'],
      ]);
      expectErrors(await as('zh-CN').post('/api/bi/area/add', { regionName: 'x'.repeat(65) }), [['regionName', '区域名称：最多 64 个字符']]);
    });

    it('refuses a date that is not ISO 8601', async () => {
      expectErrors(await as('en-US').post('/api/user/userPage', { pageNum: 1, pageSize: 10, lastLoginFrom: 'yesterday' }), [
        ['lastLoginFrom', 'Last login from: Must be a date and time'],
      ]);
    });
  });

  describe('unexpected fields', () => {
    it.each([
      [
        'en-US',
        [
          ['isAdmin', 'Role type: Unexpected field'],
          ['role', 'role: Unexpected field'],
        ],
      ],
      [
        'zh-CN',
        [
          ['isAdmin', '角色类型：不支持的字段'],
          ['role', 'role：不支持的字段'],
        ],
      ],
      [
        'es',
        [
          ['isAdmin', 'Tipo de rol: Campo no admitido'],
          ['role', 'role: Campo no admitido'],
        ],
      ],
      [
        'ja',
        [
          ['isAdmin', 'ロール種別：このフィールドは使用できません'],
          ['role', 'role：このフィールドは使用できません'],
        ],
      ],
    ] as [string, [string, string][]][])('refuses fields the call does not take (%s)', async (lng, errors) => {
      const answer = await as(lng).post('/api/user/createUser', {
        username: 'sneaky',
        password: 'Sneaky2026',
        groupId: editorsGroup,
        isAdmin: 1,
        role: 'admin',
      });
      expectErrors(answer, errors);
    });
  });

  describe('malformed JSON', () => {
    it.each([
      ['en-US', 'The request body is not valid JSON'],
      ['zh-CN', '请求内容不是有效的 JSON'],
      ['es', 'El cuerpo de la petición no es JSON válido'],
      ['ja', 'リクエスト本文が正しい JSON ではありません'],
    ])('answers 400 with a translated message (%s)', async (lng, message) => {
      const answer = await fetch(`${gw.baseUrl}/api/user/createUser`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${admin.token}`, 'Accept-Language': lng, 'Content-Type': 'application/json' },
        body: '{"username": "broken", "password": ',
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ code: 400, data: null, message });
    });

    it('answers the same for an empty JSON body', async () => {
      const answer = await fetch(`${gw.baseUrl}/api/bi/area/add`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${admin.token}`, 'Content-Type': 'application/json' },
        body: '',
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ code: 400, data: null, message: 'The request body is not valid JSON' });
    });

    it('answers the same on the public sign-in route', async () => {
      const answer = await fetch(`${gw.baseUrl}/api/user/login`, {
        method: 'POST',
        headers: { 'Accept-Language': 'zh-CN', 'Content-Type': 'application/json' },
        body: '{username: admin}',
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ code: 400, data: null, message: '请求内容不是有效的 JSON' });
    });
  });

  describe('bodies no validator should see', () => {
    it('answers 400 to a body nested 100,000 deep, on the public sign-in route and as a signed-in user', async () => {
      const deep = `${'{"a":'.repeat(100_000)}{}${'}'.repeat(100_000)}`;
      for (const [path, headers] of [
        ['/api/user/login', {}],
        ['/api/bi/area/add', { Authorization: `Bearer ${admin.token}` }],
      ] as const) {
        const answer = await fetch(`${gw.baseUrl}${path}`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: `{"username":"admin","password":"x","regionName":"Deep","extra":${deep}}`,
        });
        expect(answer.status).toBe(400);
        expect(((await answer.json()) as { code: number }).code).toBe(400);
      }
    });

    it('answers 400 to a NUL character in a text', async () => {
      const answer = await as('en-US').post('/api/bi/area/add', { regionName: 'North\u0000Gate' });
      expect(answer.status).toBe(400);
      expect(answer.body.data.errors).toEqual([{ field: 'regionName', message: expect.any(String), reason: expect.any(String) }]);
    });
  });

  describe('page size', () => {
    it.each([
      ['en-US', 'Page size: Must be between 1 and 200'],
      ['zh-CN', '每页条数：必须在 1 到 200 之间'],
      ['es', 'Tamaño de página: Debe estar entre 1 y 200'],
      ['ja', '表示件数：1〜200 の範囲で指定してください'],
    ])('refuses more than 200 rows a page (%s)', async (lng, message) => {
      for (const path of ['/api/user/userPage', '/api/user/groupPage', '/api/log/operationPage']) {
        expectErrors(await as(lng).post(path, { pageNum: 1, pageSize: 201 }), [['pageSize', message]]);
      }
    });

    it('accepts exactly 200 and refuses 0 and a missing page number', async () => {
      const page = await as('en-US').post<{ list: unknown[] }>('/api/user/userPage', { pageNum: 1, pageSize: 200 });
      expect(page.status).toBe(200);
      expectErrors(await as('en-US').post('/api/user/userPage', { pageSize: 0 }), [
        ['pageNum', 'Page: Please enter'],
        ['pageSize', 'Page size: Must be between 1 and 200'],
      ]);
    });
  });

  it('records refused calls in the operation log as failures', async () => {
    const rows = await gw.db.query<{ status: string; error_message: string }>(
      `SELECT status, error_message FROM operation_log WHERE description = 'Create user' ORDER BY id`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.status === 'failure')).toBe(true);
  });

  // Runs last: no refused request above changed anything.
  it('left users, groups and regions exactly as they were', async () => {
    expect(await state()).toEqual(before);
  });
});
