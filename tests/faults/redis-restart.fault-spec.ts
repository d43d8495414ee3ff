// Restarts the machine's Redis under live traffic: every Redis user on the machine loses its connection and its keys
// (no persistence), so this runs in the `faults` Jest project, after and apart from every other test.
import { spawnSync } from 'node:child_process';
import { DispatchStatus, LampStatus } from '@sc/contracts';
import { waitFor, type ApiClient } from '@sc/testing';
import type { Fleet } from '../../apps/device-sim/src';
import { startGatewayProcess, type RunningGateway } from '../support/gateway-process';
import {
  connectSocket,
  control,
  fleetFor,
  insertLamps,
  recordSocket,
  signIn,
  sleep,
  startWorkerProcess,
  uniqueCodePrefix,
  waitForDispatchDone,
  type InsertedLamps,
  type RealtimeClient,
  type RunningWorker,
  type SocketLog,
} from '../support/pipeline';

const LAMPS = 200;

function redisCli(...args: string[]): { status: number | null; stdout: string } {
  const r = spawnSync('redis-cli', ['-h', '127.0.0.1', ...args], { encoding: 'utf8', timeout: 5000 });
  return { status: r.status, stdout: r.stdout.trim() };
}

const redisAnswers = () => redisCli('ping').stdout === 'PONG';

/** Starts Redis as the machine does (no persistence), unless it already answers; waits for PONG. */
async function ensureRedisRunning(): Promise<void> {
  if (redisAnswers()) return;
  const r = spawnSync(
    'redis-server',
    [
      '--daemonize',
      'yes',
      '--bind',
      '127.0.0.1',
      '-::1',
      '--port',
      '6379',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      '/var/lib/redis',
      '--logfile',
      '/var/log/redis/ci.log',
    ],
    { encoding: 'utf8', timeout: 10_000 },
  );
  if (r.status !== 0) throw new Error(`redis-server did not start: ${r.stderr || r.stdout}`);
  await waitFor(() => (redisAnswers() ? true : undefined), 10_000, 50);
}

/** `shutdown nosave`, a moment without Redis, then the same Redis again: every connection drops, every key is gone. */
async function restartRedis(downMs: number): Promise<number> {
  const started = Date.now();
  redisCli('shutdown', 'nosave');
  await waitFor(() => (redisAnswers() ? undefined : true), 10_000, 50);
  await sleep(downMs);
  await ensureRedisRunning();
  return Date.now() - started;
}

describe('faults: Redis restarts during traffic', () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let fleet: Fleet;
  let lamps: InsertedLamps;
  let admin: ApiClient;
  let socket: RealtimeClient;
  let events: SocketLog;
  const prefix = uniqueCodePrefix('R');

  beforeAll(async () => {
    await ensureRedisRunning();
    gw = await startGatewayProcess();
    lamps = await insertLamps(gw.db, LAMPS, prefix);
    [worker, admin] = await Promise.all([startWorkerProcess(gw), signIn(gw)]);
    // Telemetry every second and slow acks: the restart lands in the middle of device traffic and of a dispatch.
    fleet = await fleetFor(lamps.codes, { individualConnections: false, telemetryIntervalMs: 1000, ackLatencyMs: { min: 300, max: 1500 } });
    socket = await connectSocket(gw, admin.token);
    events = recordSocket(socket);
  }, 90_000);

  afterAll(async () => {
    // Whatever happened above, the machine keeps its Redis.
    await ensureRedisRunning();
    socket?.disconnect();
    await fleet?.stop({ clearRetained: true });
    await worker?.stop();
    await gw?.stop();
  }, 60_000);

  it('the worker and the gateway recover by themselves: the interrupted and a new dispatch complete, socket events arrive again', async () => {
    try {
      const interrupted = await control(admin, { ids: lamps.ids, action: 'dim', level: 80 });
      // Some rows are answered, most acks are still on their way when Redis goes.
      await waitFor(() => (events.DispatchProgress.some((e) => e.event.dispatchId === interrupted) ? true : undefined), 5000, 20);
      const downFor = await restartRedis(1500);
      process.stdout.write(`faults: Redis was restarted in ${downFor} ms\n`);

      const first = await waitForDispatchDone(admin, interrupted, 30_000);
      expect(first.counts).toEqual({ queued: 0, sent: 0, delivered: LAMPS, failed: 0, expired: 0 });

      // A dispatch after the restart goes through the outbox relay, BullMQ and the bus like any other.
      const eventsBefore = events.DeviceStateChanged.length;
      const started = Date.now();
      const after = await control(admin, { ids: lamps.ids, action: 'off' });
      const second = await waitForDispatchDone(admin, after, 30_000);
      process.stdout.write(`faults: first dispatch after the restart done in ${Date.now() - started} ms\n`);
      expect(second.counts).toEqual({ queued: 0, sent: 0, delivered: LAMPS, failed: 0, expired: 0 });
      expect(lamps.codes.every((code) => !fleet.lamp(code)!.on)).toBe(true);

      // Socket events flow again, through the gateway's re-established bus subscription.
      const final = await waitFor(
        () => events.DispatchProgress.find((e) => e.event.dispatchId === after && e.event.status === DispatchStatus.AllSuccessful),
        5000,
      );
      expect(final.event.counts.delivered).toBe(LAMPS);
      expect(
        events.DeviceStateChanged.slice(eventsBefore).some(
          (e) => e.event.deviceCode.startsWith(prefix) && e.event.changed.status === LampStatus.DistributionSucceeded,
        ),
      ).toBe(true);
      expect((await fetch(`${gw.baseUrl}/api/health`)).status).toBe(200);
      expect((await worker.health()).status).toBe('ok');
      expect(worker.process.exitCode).toBeNull();
      expect(gw.process.exitCode).toBeNull();
    } finally {
      await ensureRedisRunning();
    }
  }, 120_000);
});
