import Redis from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import {
  DeviceFamily,
  DispatchStatus,
  SOCKET_PATH,
  type ClientToServerEvents,
  type DeviceStateChangedEvent,
  type DispatchProgressEvent,
  type ServerToClientEvents,
} from '@sc/contracts';
import { RedisBus, busChannel } from '@sc/messaging';
import { BusForwarder } from '../src/realtime/bus-forwarder';
import { startTestGateway, type TestGateway } from './harness';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

describe('bus events pushed to sockets', () => {
  let gw: TestGateway;
  let publisher: Redis;
  let bus: RedisBus;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.app.get(BusForwarder).ready;
    publisher = new Redis(gw.config.redisUrl);
    bus = new RedisBus(publisher, gw.config.redisPrefix);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    publisher.disconnect();
    await gw.close();
  });

  async function connect(username: 'admin' | 'editor' | 'visitor'): Promise<ClientSocket> {
    const { token } = await gw.signedIn(username);
    const socket: ClientSocket = io(gw.baseUrl, { path: SOCKET_PATH, auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }

  /** Everything a socket receives of the device events. */
  function record(socket: ClientSocket) {
    const seen: { name: string; payload: unknown }[] = [];
    socket.on('DeviceStateChanged', (payload) => seen.push({ name: 'DeviceStateChanged', payload }));
    socket.on('DispatchProgress', (payload) => seen.push({ name: 'DispatchProgress', payload }));
    return seen;
  }

  it('gives an administrator the lamp events under their own names, and a visitor or an editor nothing', async () => {
    const [admin, editor, visitor] = [await connect('admin'), await connect('editor'), await connect('visitor')];
    const [editorSeen, visitorSeen] = [record(editor), record(visitor)];
    const changed: DeviceStateChangedEvent = {
      family: DeviceFamily.Lamp,
      recordId: 7,
      deviceCode: 'LAMP-00007',
      changed: { status: -5, networkStatus: 0 },
      at: new Date().toISOString(),
    };
    const progress: DispatchProgressEvent = {
      dispatchId: '00000000-0000-4000-8000-000000000001',
      family: DeviceFamily.Lamp,
      status: DispatchStatus.PartiallySuccessful,
      counts: { queued: 0, sent: 0, delivered: 2, failed: 0, expired: 1 },
      total: 3,
      at: new Date().toISOString(),
    };
    const gotChange = new Promise((resolve) => admin.once('DeviceStateChanged', resolve));
    const gotProgress = new Promise((resolve) => admin.once('DispatchProgress', resolve));
    const started = Date.now();
    await bus.publish('DeviceStateChanged', changed);
    await bus.publish('DispatchProgress', progress);
    await expect(gotChange).resolves.toEqual(changed);
    await expect(gotProgress).resolves.toEqual(progress);
    expect(Date.now() - started).toBeLessThan(500);
    // Anything meant for the others would have arrived by now.
    await new Promise((r) => setTimeout(r, 300));
    expect({ editor: editorSeen, visitor: visitorSeen }).toEqual({ editor: [], visitor: [] });
  });

  it('drops a payload it cannot address, and keeps forwarding after it', async () => {
    const admin = await connect('admin');
    const seen = record(admin);
    await publisher.publish(busChannel(gw.config.redisPrefix, 'DeviceStateChanged'), 'not json');
    await publisher.publish(busChannel(gw.config.redisPrefix, 'DeviceStateChanged'), JSON.stringify({ recordId: 1 }));
    const next = new Promise((resolve) => admin.once('DeviceStateChanged', resolve));
    const event: DeviceStateChangedEvent = {
      family: DeviceFamily.Lamp,
      recordId: 1,
      deviceCode: 'LAMP-00001',
      changed: { bri: 40 },
      at: new Date().toISOString(),
    };
    await bus.publish('DeviceStateChanged', event);
    await expect(next).resolves.toEqual(event);
    expect(seen).toEqual([{ name: 'DeviceStateChanged', payload: event }]);
  });
});
