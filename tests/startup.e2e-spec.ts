import { createTestDatabase, type TestDatabase } from '@sc/testing';
import { assertBuilt, gatewayCommand } from './support/gateway-process';

/** Start-up as an operator meets it: missing services, migrations, demo data. */
describe('gateway start-up', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    assertBuilt();
    db = await createTestDatabase('startup');
  });
  afterAll(() => db.drop());

  const base = () => ({ DATABASE_URL: db.url, REDIS_PREFIX: 'e2e-startup:', PORT: '0', UPLOAD_PORT: '0' });

  it.each([
    ['Redis', { REDIS_URL: 'redis://127.0.0.1:1' }, 'redis://127.0.0.1:1', 'redis-server'],
    ['the MQTT broker', { MQTT_URL: 'mqtt://127.0.0.1:1' }, 'mqtt://127.0.0.1:1', 'mosquitto'],
  ])('stops with a plain message when %s does not answer', (label, env, url, command) => {
    const r = gatewayCommand(['serve'], { ...base(), ...env });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${label} is not answering at ${url}`);
    expect(r.stderr).toContain(command);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('names PostgreSQL, hiding the password, when it does not answer', () => {
    const r = gatewayCommand(['serve'], { ...base(), DATABASE_URL: 'postgres://city:secret@127.0.0.1:1/smart_city' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('PostgreSQL is not answering at postgres://city:***@127.0.0.1:1/smart_city');
    expect(r.stderr).toContain('pg_ctlcluster');
    expect(r.stderr).not.toContain('secret');
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('applies migrations once and reports an up-to-date schema after', () => {
    const r = gatewayCommand(['migrate'], base());
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Database schema is up to date');
  });

  it('never loads demo data over a database that has its own users', async () => {
    await db.query(`INSERT INTO sys_group (group_name, is_admin) VALUES ('Operators', true)`);
    await db.query(`INSERT INTO sys_user (username, password_hash, group_id) SELECT 'chief', 'x', id FROM sys_group WHERE group_name = 'Operators'`);
    const r = gatewayCommand(['seed-demo'], base());
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('already has its own users');
    const users = await db.query<{ username: string }>(`SELECT username FROM sys_user`);
    expect(users.map((u) => u.username)).toEqual(['chief']);
    expect(await db.query(`SELECT 1 FROM region`)).toHaveLength(0);
  });

  it('creates the first administrator of a real installation, refusing a weak password', async () => {
    const weak = gatewayCommand(['create-admin', 'root2'], { ...base(), ADMIN_PASSWORD: 'short' });
    expect(weak.status).toBe(1);
    expect(weak.stderr).toContain('ADMIN_PASSWORD must be');
    expect(weak.stderr).not.toMatch(/^\s+at /m);
    const ok = gatewayCommand(['create-admin', 'root2'], { ...base(), ADMIN_PASSWORD: 'Str0ngEnough' });
    expect(ok.status).toBe(0);
    const rows = await db.query<{ is_admin: boolean }>(
      `SELECT g.is_admin FROM sys_user u JOIN sys_group g ON g.id = u.group_id WHERE u.username = 'root2'`,
    );
    expect(rows).toEqual([{ is_admin: true }]);
  });
});
