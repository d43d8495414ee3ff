import { DEMO_PASSWORD, startTestGateway, type TestGateway } from './harness';

describe('sign-in and sessions', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it('trims the user name and answers token, isAdmin and permission content', async () => {
    const answer = await gw.client().post<{ token: string; isAdmin: number; content: string }>('/api/user/login', {
      username: '  editor  ',
      password: DEMO_PASSWORD,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.code).toBe(200);
    expect(answer.body.data.token).toMatch(/^[\w-]{43}$/);
    expect(answer.body.data.isAdmin).toBe(0);
    expect(JSON.parse(answer.body.data.content)).toEqual([{ name: 'Home' }, { name: 'editor' }]);
  });

  it('refuses a wrong password with a translated message and no token', async () => {
    const answer = await gw.client('zh-CN').post('/api/user/login', { username: 'editor', password: 'wrong-password1' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: 400, data: null, message: '用户名或密码错误' });
  });

  it('answers user info with roles and buttons for the token', async () => {
    const visitor = await gw.signedIn('visitor');
    const info = await visitor.get<{ name: string; isAdmin: number; roles: string[]; buttons: string[] }>('/api/user/info');
    expect(info.body.data).toMatchObject({ name: 'visitor', isAdmin: 0, roles: ['Home', 'visit'], buttons: ['view', 'refresh'] });
  });

  it('answers 401 with code -1 without a token, with a revoked token, and never trusts the Token cookie', async () => {
    const anonymous = await gw.client().get('/api/user/info');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(-1);

    const admin = await gw.signedIn('admin');
    const cookieOnly = await gw.client().get('/api/user/info', { headers: { Cookie: `Token=${admin.token}` } });
    expect(cookieOnly.status).toBe(401);

    expect((await admin.get('/api/user/logout')).body.code).toBe(200);
    const afterLogout = await admin.get('/api/user/info');
    expect(afterLogout.status).toBe(401);
    expect(afterLogout.body.code).toBe(-1);
  });
});
