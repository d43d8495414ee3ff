import { io, type Socket } from 'socket.io-client';
import { SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@sc/contracts';
import { startTestGateway, type TestGateway } from './harness';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

describe('socket.io sessions', () => {
  let gw: TestGateway;
  const sockets: ClientSocket[] = [];
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await gw.close();
  });

  function connect(token: string | undefined): ClientSocket {
    const socket: ClientSocket = io(gw.baseUrl, { path: SOCKET_PATH, auth: token ? { token } : {}, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    return socket;
  }

  const connected = (socket: ClientSocket) =>
    new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });

  it('refuses a socket without a token or with an unknown one', async () => {
    await expect(connected(connect(undefined))).rejects.toThrow('loggedOut');
    await expect(connected(connect('not-a-real-token'))).rejects.toThrow('loggedOut');
  });

  it('accepts a signed-in socket and closes it within a second of logout, telling it why', async () => {
    const editor = await gw.signedIn('editor');
    const socket = connect(editor.token);
    await connected(socket);
    const ended = new Promise<{ reason: string }>((resolve) => socket.once('SessionEnded', resolve));
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    const started = Date.now();
    await editor.get('/api/user/logout');
    await expect(ended).resolves.toEqual({ reason: 'revoked' });
    await expect(closed).resolves.toBe('io server disconnect');
    expect(Date.now() - started).toBeLessThan(1000);
    // A revoked token cannot come back.
    await expect(connected(connect(editor.token))).rejects.toThrow('loggedOut');
  });

  it('closes every socket of a user an administrator disables', async () => {
    const admin = await gw.signedIn('admin');
    const visitorA = await gw.signedIn('visitor');
    const visitorB = await gw.signedIn('visitor');
    const [a, b] = [connect(visitorA.token), connect(visitorB.token)];
    await Promise.all([connected(a), connected(b)]);
    const closed = Promise.all([a, b].map((s) => new Promise((resolve) => s.once('disconnect', resolve))));
    const [{ id }] = await gw.db.query<{ id: number }>(`SELECT id FROM sys_user WHERE username = 'visitor'`);
    const started = Date.now();
    expect((await admin.post('/api/user/updateUser', { id, enabled: false })).body.code).toBe(200);
    await closed;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
