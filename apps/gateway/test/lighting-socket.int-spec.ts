import Redis from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import {
  DeviceFamily,
  DispatchStatus,
  SOCKET_PATH,
  type ClientToServerEvents,
  type DeviceStateChangedEvent,
  type DispatchProgressEvent,
  type LiveTopic,
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

  const LAMP_FEEDS: LiveTopic[] = [
    { event: 'DeviceStateChanged', family: DeviceFamily.Lamp },
    { event: 'DispatchProgress', family: DeviceFamily.Lamp },
  ];

  /** A socket of the user that watches the lamp pages' feeds, as the console's lamp pages do. */
  async function connect(username: 'admin' | 'editor' | 'visitor', feeds: LiveTopic[] = LAMP_FEEDS): Promise<ClientSocket> {
    const { token } = await gw.signedIn(username);
    const socket: ClientSocket = io(gw.baseUrl, { path: SOCKET_PATH, auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    socket.emit('watch', feeds);
    // The watch is handled before anything published after this round trip.
    await new Promise<void>((resolve) => socket.timeout(2000).emit('watch', [], () => resolve()));
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
      changes: [{ recordId: 7, deviceCode: 'LAMP-00007', changed: { status: -5, networkStatus: 0 } }],
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
    await expect(gotChange).resolves.toEqual({ ...changed, at: expect.any(String) });
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
      changes: [{ recordId: 1, deviceCode: 'LAMP-00001', changed: { bri: 40 } }],
      at: new Date().toISOString(),
    };
    await bus.publish('DeviceStateChanged', event);
    await expect(next).resolves.toEqual({ ...event, at: expect.any(String) });
    expect(seen).toEqual([{ name: 'DeviceStateChanged', payload: { ...event, at: expect.any(String) } }]);
  });

  it('gathers a frame of changes into one event with the latest fields of each device, and sends a page only its feeds', async () => {
    const [lamps, dispatches] = [await connect('admin'), await connect('admin', [{ event: 'DispatchProgress', family: DeviceFamily.Lamp }])];
    const [lampsSeen, dispatchesSeen] = [record(lamps), record(dispatches)];
    const at = new Date().toISOString();
    const one = (recordId: number, changed: Record<string, unknown>): DeviceStateChangedEvent =>
      ({ family: DeviceFamily.Lamp, changes: [{ recordId, deviceCode: `LAMP-${recordId}`, changed }], at }) as DeviceStateChangedEvent;
    const frame = new Promise((resolve) => lamps.once('DeviceStateChanged', resolve));
    await bus.publish('DeviceStateChanged', one(3, { status: -2, bri: 20 }));
    await bus.publish('DeviceStateChanged', one(4, { status: -2 }));
    await bus.publish('DeviceStateChanged', one(3, { status: -4 }));
    await expect(frame).resolves.toEqual({
      family: DeviceFamily.Lamp,
      changes: [
        { recordId: 3, deviceCode: 'LAMP-3', changed: { status: -4, bri: 20 } },
        { recordId: 4, deviceCode: 'LAMP-4', changed: { status: -2 } },
      ],
      at: expect.any(String),
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(lampsSeen).toHaveLength(1);
    expect(dispatchesSeen).toEqual([]);
    // A page that closes stops its feed.
    lamps.emit('unwatch', LAMP_FEEDS);
    await new Promise<void>((resolve) => lamps.timeout(2000).emit('watch', [], () => resolve()));
    await bus.publish('DeviceStateChanged', one(5, { bri: 60 }));
    await new Promise((r) => setTimeout(r, 300));
    expect(lampsSeen).toHaveLength(1);
  });
});
