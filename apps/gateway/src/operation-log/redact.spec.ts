import { LOGGED_PARAMS_MAX, loggedParams, redact } from './redact';

describe('redact', () => {
  it('hides every password, token, secret, authorization and cookie value, in any case', () => {
    const params = {
      username: 'admin',
      password: 'SmartCity@2026',
      oldPassword: 'a',
      newPassword: 'b',
      confirmPassword: 'c',
      PASSWORD: 'd',
      pass: 'e',
      token: 'f',
      accessToken: 'g',
      refresh_token: 'h',
      clientSecret: 'i',
      Authorization: 'Bearer j',
      cookie: 'Token=k',
      groupId: 3,
    };
    expect(redact(params)).toEqual({
      username: 'admin',
      password: '******',
      oldPassword: '******',
      newPassword: '******',
      confirmPassword: '******',
      PASSWORD: '******',
      pass: '******',
      token: '******',
      accessToken: '******',
      refresh_token: '******',
      clientSecret: '******',
      Authorization: '******',
      cookie: '******',
      groupId: 3,
    });
  });

  it('hides secrets at any depth, inside objects and arrays, and a whole object held under a secret key', () => {
    const params = {
      query: { id: '5', token: 'abc' },
      body: {
        users: [
          { username: 'a', password: 'x1' },
          { username: 'b', password: 'x2' },
        ],
        mqtt: { host: 'broker', credentials: { user: 'u', password: 'p' } },
        secret: { nested: 'value' },
      },
    };
    const out = redact(params);
    expect(out).toEqual({
      query: { id: '5', token: '******' },
      body: {
        users: [
          { username: 'a', password: '******' },
          { username: 'b', password: '******' },
        ],
        mqtt: { host: 'broker', credentials: '******' },
        secret: '******',
      },
    });
    expect(JSON.stringify(out)).not.toMatch(/x1|x2|"p"|abc|value/);
  });

  it('hides API keys, private keys and pwd fields too', () => {
    expect(redact({ apiKey: 'k', api_key: 'k', privateKey: 'k', pwd: 'k', name: 'n' })).toEqual({
      apiKey: '******',
      api_key: '******',
      privateKey: '******',
      pwd: '******',
      name: 'n',
    });
  });

  it('does not change the object it is given', () => {
    const params = { password: 'p', list: [{ token: 't' }] };
    redact(params);
    expect(params).toEqual({ password: 'p', list: [{ token: 't' }] });
  });

  it('keeps other values as they are', () => {
    expect(redact(null)).toBeNull();
    expect(redact(undefined)).toBeUndefined();
    expect(redact(42)).toBe(42);
    expect(redact(false)).toBe(false);
    expect(redact('text')).toBe('text');
    expect(redact({ enabled: false, count: 0, name: null })).toEqual({ enabled: false, count: 0, name: null });
  });

  it('shortens long texts and long lists', () => {
    expect(redact('x'.repeat(1000))).toBe('x'.repeat(1000));
    expect(redact('x'.repeat(1001))).toBe(`${'x'.repeat(1000)}…`);
    const list = redact(Array.from({ length: 150 }, (_, i) => i)) as number[];
    expect(list).toHaveLength(100);
    expect(list[99]).toBe(99);
  });

  it('stops at a depth limit instead of walking a deep structure', () => {
    let deep: Record<string, unknown> = { password: 'bottom' };
    for (let i = 0; i < 10; i++) deep = { level: deep };
    const text = JSON.stringify(redact(deep));
    expect(text).toContain('[…]');
    expect(text).not.toContain('bottom');
  });
});

describe('loggedParams', () => {
  it('keeps the query and a JSON body with secrets hidden', () => {
    expect(loggedParams({ pageNum: '1' }, { username: 'admin', password: 'SmartCity@2026' })).toEqual({
      query: { pageNum: '1' },
      body: { username: 'admin', password: '******' },
    });
  });

  it('never keeps a body that is not JSON, whatever it holds', () => {
    const text = '{"username":"admin","password":"SmartCity@2026"}';
    const kept = loggedParams({}, text);
    expect(JSON.stringify(kept)).not.toContain('SmartCity@2026');
    expect(kept).toEqual({ query: {}, body: `[${text.length} characters of text, not kept]` });
    expect(loggedParams({}, Buffer.from('password=SmartCity@2026'))).toEqual({ query: {}, body: '[binary data, not kept]' });
  });

  it('keeps at most a few kB of one request', () => {
    const body = { ids: Array.from({ length: 100 }, (_, i) => ({ name: `${i}`.padEnd(900, 'x') })) };
    const kept = loggedParams({}, body) as { truncated: boolean; characters: number; preview: string };
    expect(kept.truncated).toBe(true);
    expect(kept.characters).toBeGreaterThan(90_000);
    expect(kept.preview).toHaveLength(LOGGED_PARAMS_MAX);
    expect(JSON.stringify(kept).length).toBeLessThan(LOGGED_PARAMS_MAX + 200);
  });

  it('keeps no NUL character, which PostgreSQL cannot store, in values or keys', () => {
    const kept = loggedParams({ q: 'a\u0000b' }, { name: 'x\u0000y', ['k\u0000']: 1, text: 'a literal \\u0000 stays readable' });
    expect(JSON.stringify(kept)).not.toContain('\\u0000');
    expect(kept).toEqual({
      query: { q: 'a\ufffdb' },
      body: { name: 'x\ufffdy', ['k\ufffd']: 1, text: expect.stringContaining('a literal \\') },
    });
  });
});
