import type { ApiAnswer } from '@sc/testing';
import { DEMO_PASSWORD, startTestGateway, type TestGateway } from './harness';

const WRONG = 'wrong-password1';
const BLOCKED_EN = 'Too many failed sign-in attempts, please try again in 15 minutes';
const BLOCKED_ZH = '登录失败次数过多，请 15 分钟后再试';

/** Signs in `times` times with a wrong password and checks each is an ordinary refusal. */
async function fail(gw: TestGateway, username: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const answer = await gw.client().post('/api/user/login', { username, password: WRONG });
    expect({ attempt: i + 1, status: answer.status, code: answer.body.code }).toEqual({ attempt: i + 1, status: 400, code: 400 });
  }
}

function expectBlocked(answer: ApiAnswer, message: string, windowSeconds = 900): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({ code: 429, data: null, message });
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(windowSeconds - 60);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('sign-in throttling per user name', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it('blocks the 11th attempt after 10 wrong passwords, even with the right password, in the caller language', async () => {
    await fail(gw, 'editor', 10);
    const en = await gw.client('en-US').post('/api/user/login', { username: 'editor', password: DEMO_PASSWORD });
    expectBlocked(en, BLOCKED_EN);
    expect(en.body.data).toBeNull();
    const zh = await gw.client('zh-CN').post('/api/user/login', { username: 'editor', password: DEMO_PASSWORD });
    expectBlocked(zh, BLOCKED_ZH);
    // The user name is compared without regard to case or surrounding spaces.
    expectBlocked(await gw.client().post('/api/user/login', { username: '  EDITOR ', password: DEMO_PASSWORD }), BLOCKED_EN);
  });

  it('blocks an unknown user name the same way, so the answer does not reveal whether an account exists', async () => {
    await fail(gw, 'nobody-here', 10);
    const unknown = await gw.client().post('/api/user/login', { username: 'nobody-here', password: DEMO_PASSWORD });
    const known = await gw.client().post('/api/user/login', { username: 'editor', password: WRONG });
    expectBlocked(unknown, BLOCKED_EN);
    expectBlocked(known, BLOCKED_EN);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers.get('content-type')).toBe(known.headers.get('content-type'));
    expect(Object.keys(unknown.body)).toEqual(Object.keys(known.body));
  });

  it('still lets a different user name sign in from the same address', async () => {
    const admin = await gw.client().post<{ token: string }>('/api/user/login', { username: 'admin', password: DEMO_PASSWORD });
    expect(admin.status).toBe(200);
    expect(admin.body.data.token).toBeTruthy();
  });

  it('keeps the counters in Redis under the installation prefix, with the window as expiry', async () => {
    const prefix = gw.config.redisPrefix;
    expect(await gw.redis.get(`${prefix}login-fail:user:editor`)).toBe('10');
    expect(await gw.redis.get(`${prefix}login-fail:user:nobody-here`)).toBe('10');
    const ttl = await gw.redis.ttl(`${prefix}login-fail:user:editor`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(900);
    const ipKeys = await gw.redis.keys(`${prefix}login-fail:ip:*`);
    expect(ipKeys).toHaveLength(1);
    expect(Number(await gw.redis.get(ipKeys[0]))).toBeGreaterThanOrEqual(20);
  });

  it('lets the user in again once the window has passed', async () => {
    await gw.redis.pexpire(`${gw.config.redisPrefix}login-fail:user:editor`, 1);
    await new Promise((r) => setTimeout(r, 20));
    const answer = await gw.client().post('/api/user/login', { username: 'editor', password: DEMO_PASSWORD });
    expect(answer.status).toBe(200);
  });

  it('a successful sign-in clears the failures of that user name', async () => {
    const key = `${gw.config.redisPrefix}login-fail:user:visitor`;
    await fail(gw, 'visitor', 3);
    expect(await gw.redis.get(key)).toBe('3');
    expect((await gw.client().post('/api/user/login', { username: 'Visitor', password: DEMO_PASSWORD })).status).toBe(200);
    expect(await gw.redis.get(key)).toBeNull();
  });

  it('cannot be bypassed by sending many attempts at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => gw.client().post('/api/user/login', { username: 'parallel-guess', password: WRONG })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });
});

describe('sign-in throttling per client address', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ login: { maxFailuresPerUser: 1000, maxFailuresPerIp: 5, windowSeconds: 900 } });
  });
  afterAll(() => gw.close());

  it('blocks every user name from an address after its failures reach the limit', async () => {
    const ipKey = `${gw.config.redisPrefix}login-fail:ip:127.0.0.1`;
    for (let i = 0; i < 4; i++) await fail(gw, `spray-${i}`, 1);
    // A correct password does not count against the address.
    expect((await gw.client().post('/api/user/login', { username: 'editor', password: DEMO_PASSWORD })).status).toBe(200);
    expect(await gw.redis.get(ipKey)).toBe('4');
    await fail(gw, 'spray-4', 1);
    expect(await gw.redis.get(ipKey)).toBe('5');
    const ttl = await gw.redis.ttl(ipKey);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(900);

    // A name never tried before, and a real account with the right password, are both refused now.
    expectBlocked(await gw.client().post('/api/user/login', { username: 'spray-new', password: WRONG }), BLOCKED_EN);
    expectBlocked(await gw.client('zh-CN').post('/api/user/login', { username: 'admin', password: DEMO_PASSWORD }), BLOCKED_ZH);
    // Every counter of this gateway lives under its prefix: one for the address, one per user name tried.
    const keys = (await gw.redis.keys(`${gw.config.redisPrefix}*`)).sort();
    expect(keys).toEqual(
      [ipKey, ...['spray-0', 'spray-1', 'spray-2', 'spray-3', 'spray-4'].map((u) => `${gw.config.redisPrefix}login-fail:user:${u}`)].sort(),
    );
  });
});
