// Restarts the MQTT broker under live traffic: every MQTT client of the broker loses its connection, so this runs in
// the `faults` Jest project, after and apart from every other test. `npm test` runs its own broker (scripts/broker.mjs)
// and names its configuration and pid files; against a broker given by MQTT_URL alone, the machine's Mosquitto is
// restarted as the machine starts it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { LampStatus } from '@sc/contracts';
import { waitFor, type ApiClient } from '@sc/testing';
import type { Fleet } from '../../apps/device-sim/src';
import { startGatewayProcess, type RunningGateway } from '../support/gateway-process';
import {
  MQTT_URL,
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

const LAMPS = 100;
const MOSQUITTO_CONF = process.env.MQTT_BROKER_CONF ?? '/etc/mosquitto/mosquitto.conf';
const MOSQUITTO_PID_FILE = process.env.MQTT_BROKER_PID_FILE;
/** How long a (re)started broker may take to listen: it reads the access files of every account first. */
const BROKER_START_MS = 30_000;

const brokerAddress = () => {
  const url = new URL(MQTT_URL);
  return { host: url.hostname, port: Number(url.port || 1883) };
};

function brokerAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(brokerAddress());
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(1000, () => done(false));
  });
}

/** The pid in the broker's pid file while that process lives (npm test's broker names its pid file). */
function brokerPid(): number | undefined {
  if (!MOSQUITTO_PID_FILE || !existsSync(MOSQUITTO_PID_FILE)) return undefined;
  const pid = Number(readFileSync(MOSQUITTO_PID_FILE, 'utf8').trim());
  if (!(pid > 0)) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/**
 * Starts Mosquitto as the machine does, unless it already answers or is still starting (it reads its access files
 * before it listens); waits until it accepts connections.
 */
async function ensureBrokerRunning(): Promise<void> {
  if (await brokerAnswers()) return;
  if (brokerPid() === undefined) {
    const r = spawnSync('mosquitto', ['-d', '-c', MOSQUITTO_CONF], { encoding: 'utf8', timeout: 10_000 });
    if (r.status !== 0) throw new Error(`mosquitto did not start: ${r.stderr || r.stdout}`);
  }
  await waitFor(async () => ((await brokerAnswers()) ? true : undefined), BROKER_START_MS, 50);
}

/** SIGTERM to the broker, a moment after it has exited, then the same broker again. */
async function restartBroker(downMs: number): Promise<number> {
  const started = Date.now();
  const pid = brokerPid();
  if (pid !== undefined) process.kill(pid, 'SIGTERM');
  else spawnSync('pkill', ['-TERM', '-x', 'mosquitto']);
  await waitFor(async () => ((await brokerAnswers()) ? undefined : true), 10_000, 50);
  // Gone, not only deaf: a second broker started beside one still closing would find its ports taken.
  if (pid !== undefined) await waitFor(() => (brokerPid() === pid ? undefined : true), 10_000, 50);
  await sleep(downMs);
  await ensureBrokerRunning();
  return Date.now() - started;
}

describe('faults: the MQTT broker restarts during traffic', () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let fleet: Fleet;
  let lamps: InsertedLamps;
  let admin: ApiClient;
  let socket: RealtimeClient;
  let events: SocketLog;
  const prefix = uniqueCodePrefix('M');

  beforeAll(async () => {
    await ensureBrokerRunning();
    gw = await startGatewayProcess();
    lamps = await insertLamps(gw.db, LAMPS, prefix);
    [worker, admin] = await Promise.all([startWorkerProcess(gw), signIn(gw)]);
    // One connection per lamp, so a lamp dropping off after the restart is a real Last Will; slow acks, so the
    // restart lands in the middle of a dispatch.
    fleet = await fleetFor(lamps.codes, { individualConnections: true, telemetryIntervalMs: 1000, ackLatencyMs: { min: 500, max: 2000 } });
    socket = await connectSocket(gw, admin.token);
    events = recordSocket(socket);
  }, 90_000);

  afterAll(async () => {
    // Whatever happened above, the machine keeps its broker.
    await ensureBrokerRunning().catch((err) => process.stderr.write(`faults: ${String(err)}\n`));
    socket?.disconnect();
    // The services' processes first: nothing of this test outlives it, even if the broker did not come back.
    await worker?.stop();
    await gw?.stop();
    await fleet?.stop({ clearRetained: true });
  }, 90_000);

  it('the interrupted dispatch completes with each lamp applying it once, and the worker hears devices again', async () => {
    try {
      const interrupted = await control(admin, { ids: lamps.ids, action: 'dim', level: 60 });
      await waitFor(() => (events.DispatchProgress.some((e) => e.event.dispatchId === interrupted) ? true : undefined), 5000, 20);
      const applied = lamps.codes.reduce((sum, code) => sum + fleet.lamp(code)!.applied, 0);
      const downFor = await restartBroker(1500);
      process.stdout.write(`faults: the broker was restarted in ${downFor} ms (${applied} of ${LAMPS} lamps had applied the command)\n`);

      // Commands lost with the broker are sent again under the same id; lamps that had applied them only ack again.
      const done = await waitForDispatchDone(admin, interrupted, 45_000);
      expect(done.counts).toEqual({ queued: 0, sent: 0, delivered: LAMPS, failed: 0, expired: 0 });
      for (const code of lamps.codes) {
        const lamp = fleet.lamp(code)!;
        expect({ code, level: lamp.level, applied: lamp.applied }).toEqual({ code, level: 60, applied: 1 });
      }

      // The worker's shared subscription is back: a lamp dropping off now is shown -5 within a second.
      await waitFor(async () => ((await worker.health()).mqtt ? true : undefined), 15_000, 100);
      const [code] = lamps.codes;
      const started = Date.now();
      await fleet.takeOffline(code);
      const offline = await waitFor(
        () => events.DeviceStateChanged.find((e) => e.event.deviceCode === code && e.event.changed.status === LampStatus.Offline && e.at >= started),
        5000,
        10,
      );
      expect(offline.at - started).toBeLessThan(1000);
      const [stored] = await gw.db.query<{ status: number }>(`SELECT l.status FROM lamp l JOIN device d ON d.id = l.device_id WHERE d.code = $1`, [
        code,
      ]);
      expect(stored.status).toBe(LampStatus.Offline);
      expect(worker.process.exitCode).toBeNull();
      expect(gw.process.exitCode).toBeNull();
    } finally {
      await ensureBrokerRunning();
    }
  }, 150_000);
});
