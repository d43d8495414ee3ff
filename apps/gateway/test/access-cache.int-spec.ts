import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { io, type Socket } from 'socket.io-client';
import { ACCESS_CHANGES_CHANNEL } from '@sc/database';
import { SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@sc/contracts';
import { waitFor } from '@sc/testing';
import { ACCESS_CHANGES_LISTENER, AccessCache } from '../src/auth/access-cache.service';
import { hashToken } from '../src/auth/session.service';
import { startTestGateway, type TestGateway } from './harness';

/**
 * Each replica caches sessions and user pages; the database announces every change to all of them.
 * What one replica (or psql) changes is refused or shown on another within a second, in practice at once.
 */
describe('cached sessions and pages across replicas', () => {
  let a: TestGateway;
  let b: TestGateway;
  beforeAll(async () => {
    a = await startTestGateway();
    b = await a.startReplica();
  });
  afterAll(() => a.close());

  const killListeners = () =>
    a.db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`, [
      ACCESS_CHANGES_LISTENER,
    ]);

  const refusedOn = async (gw: TestGateway, token: string) =>
    waitFor(async () => ((await gw.client().as(token).get('/api/user/info')).status === 401 ? true : undefined), 1000, 10);

  it('refuses on replica B, within a second, a token logged out on replica A', async () => {
    const editor = await a.signedIn('editor');
    // B caches the session.
    for (let i = 0; i < 3; i++) expect((await b.client().as(editor.token).get('/api/user/info')).status).toBe(200);
    expect((await a.client().as(editor.token).get('/api/user/logout')).body.code).toBe(200);
    await refusedOn(b, editor.token);
  });

  it('applies a group permission change made on A to the next calls on B', async () => {
    const admin = await a.signedIn('admin');
    const visitor = await b.signedIn('visitor');
    expect((await visitor.get<{ roles: string[] }>('/api/user/info')).body.data.roles).toEqual(['Home', 'visit']);
    expect((await visitor.post('/api/bi/area/add', { regionName: 'Nowhere' })).status).toBe(403);
    const [group] = await a.db.query<{ id: number }>(`SELECT id FROM sys_group WHERE group_name = 'Visitors'`);
    await admin.post('/api/user/groupAddOrEdit', { id: group.id, groupName: 'Visitors', isAdmin: 0, permissionMenu: ['Home', 'editor'] });
    await waitFor(async () => ((await visitor.post('/api/bi/area/add', { regionName: 'Somewhere' })).status === 200 ? true : undefined), 1000, 10);
    await admin.post('/api/user/groupAddOrEdit', { id: group.id, groupName: 'Visitors', isAdmin: 0, permissionMenu: ['Home', 'visit'] });
  });

  it('shows on B a user created on A in the very next page, with the exact total', async () => {
    const adminA = await a.signedIn('admin');
    const adminB = await b.signedIn('admin');
    const page = async () =>
      (await adminB.post<{ total: number; list: { username: string }[] }>('/api/user/userPage', { pageNum: 1, pageSize: 5 })).body.data;
    const before = await page();
    await page(); // cached now
    const [group] = await a.db.query<{ id: number }>(`SELECT id FROM sys_group WHERE group_name = 'Editors'`);
    expect((await adminA.post('/api/user/createUser', { username: 'cache-check', password: 'Cache2026ok', groupId: group.id })).body.code).toBe(200);
    const after = await waitFor(
      async () => {
        const p = await page();
        return p.total === before.total + 1 ? p : undefined;
      },
      1000,
      10,
    );
    expect(after.list[0].username).toBe('cache-check');
  });

  it('refuses, within a second, a session ended straight in the database', async () => {
    const editor = await b.signedIn('editor');
    expect((await b.client().as(editor.token).get('/api/user/info')).status).toBe(200);
    await a.db.query(`UPDATE sys_session SET revoked_at = now() WHERE user_id = (SELECT id FROM sys_user WHERE username = 'editor')`);
    await refusedOn(b, editor.token);
  });

  it('closes on B the socket of a user disabled on A', async () => {
    const admin = await a.signedIn('admin');
    const editor = await b.signedIn('editor');
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(b.baseUrl, {
      path: SOCKET_PATH,
      auth: { token: editor.token },
      transports: ['websocket'],
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('connect_error', reject));
    const closed = new Promise((resolve) => socket.once('disconnect', resolve));
    const [{ id }] = await a.db.query<{ id: number }>(`SELECT id FROM sys_user WHERE username = 'editor'`);
    const started = Date.now();
    await admin.post('/api/user/updateUser', { id, enabled: false });
    await closed;
    expect(Date.now() - started).toBeLessThan(1000);
    await admin.post('/api/user/updateUser', { id, enabled: true });
  });

  it('honours on the upload port, at once, a logout made on the console port of the same process', async () => {
    const editor = await a.signedIn('editor');
    const upload = a.client().as(editor.token);
    expect((await fetch(`${a.uploadUrl}/api/files/inspect`, { method: 'POST', headers: { Authorization: `Bearer ${editor.token}` } })).status).toBe(
      400,
    );
    await editor.get('/api/user/logout');
    const after = await fetch(`${a.uploadUrl}/api/files/inspect`, { method: 'POST', headers: { Authorization: `Bearer ${upload.token}` } });
    expect(after.status).toBe(401);
  });

  it('refuses, within a second, sessions emptied with TRUNCATE', async () => {
    const visitor = await b.signedIn('visitor');
    expect((await visitor.get('/api/user/info')).status).toBe(200);
    await a.db.query(`TRUNCATE sys_session`);
    await refusedOn(b, visitor.token);
  });

  it('announces a mass logout of 150 sessions once, and refuses every one of them', async () => {
    const [{ id: userId }] = await a.db.query<{ id: number }>(`SELECT id FROM sys_user WHERE username = 'editor'`);
    const tokens = Array.from({ length: 150 }, () => randomBytes(32).toString('base64url'));
    for (const token of tokens) {
      await a.db.query(`INSERT INTO sys_session (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')`, [
        hashToken(token),
        userId,
      ]);
    }
    await Promise.all(tokens.map(async (t) => expect((await b.client().as(t).get('/api/user/info')).status).toBe(200)));
    const listener = new Client({ connectionString: a.db.url });
    await listener.connect();
    const payloads: string[] = [];
    listener.on('notification', (msg) => payloads.push(msg.payload ?? ''));
    await listener.query(`LISTEN ${ACCESS_CHANGES_CHANNEL}`);
    await a.db.query(`UPDATE sys_session SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`, [userId]);
    await waitFor(() => (payloads.length > 0 ? true : undefined), 1000, 5);
    await listener.end();
    expect(payloads).toEqual(['sessions']);
    // B hears the same notification on its own connection, a moment later or sooner than this listener.
    for (const token of tokens) {
      await waitFor(async () => ((await b.client().as(token).get('/api/user/info')).status === 401 ? true : undefined), 1000, 10);
    }
  });

  it('keeps one LISTEN connection per process however often the connection is lost', async () => {
    const caches = [a.app.get(AccessCache), b.app.get(AccessCache)];
    for (let round = 0; round < 3; round++) {
      await killListeners();
      await waitFor(() => (caches.every((c) => !c.isListening) ? true : undefined), 2000, 5);
      await waitFor(() => (caches.every((c) => c.isListening) ? true : undefined), 5000, 20);
    }
    await new Promise((r) => setTimeout(r, 1500));
    const [{ n }] = await a.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
      [ACCESS_CHANGES_LISTENER],
    );
    expect(n).toBe(caches.length);
  });

  it('stops serving from the cache while the change feed is down, and resumes after', async () => {
    const cache = b.app.get(AccessCache);
    expect(cache.isListening).toBe(true);
    const visitor = await b.signedIn('visitor');
    expect((await visitor.get('/api/user/info')).status).toBe(200);
    await killListeners();
    await waitFor(() => (cache.isListening ? undefined : true), 2000, 5);
    // Without notifications, every call goes to the database: a session ended meanwhile is refused at once.
    await a.db.query(`UPDATE sys_session SET revoked_at = now() WHERE user_id = (SELECT id FROM sys_user WHERE username = 'visitor')`);
    if (!cache.isListening) expect((await visitor.get('/api/user/info')).status).toBe(401);
    await waitFor(() => (cache.isListening ? true : undefined), 5000, 20);
  });
});
