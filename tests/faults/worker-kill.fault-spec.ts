// kill -9 of the built lighting worker while devices report and the database holds its commits back: nothing the
// worker acknowledged to the broker may be missing afterwards. Runs in the `faults` Jest project, after and apart from
// every other test (it keeps the machine's broker and database busy).
//
// What can be claimed: MQTT clean sessions make the messages in flight to a connection that dies the broker's again,
// and with a shared subscription Mosquitto (2.0.11 here) drops them rather than handing them to another member. So a
// message the worker held unacknowledged may be lost without any fault of its own; one it acknowledged must be stored.
// Commits are held (a deferred trigger waits on a lock the test holds, as a database waiting for its synchronous
// standby would) so that the worker has plenty in hand, all of it written but none committed, when it is killed: a
// worker acknowledging before its COMMIT returned would show here.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import mqttPacket, { type Packet } from 'mqtt-packet';
import { Client } from 'pg';
import { createTestDatabase, uniquePrefix, waitFor, type TestDatabase, testMqttLogin } from '@sc/testing';
import { ROOT, freePort } from '../support/gateway-process';
import { ownChild } from '../support/child-process';

const WORKER = join(ROOT, 'dist', 'apps', 'worker-lighting', 'main.js');
const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const BROKER = new URL(MQTT_URL);
const LAMPS = 40;
/** The advisory lock a deferred trigger on lamp waits for at COMMIT; the test holds it to hold commits back. */
const HOLD_KEY = 4_242_001;
/** The worker's MQTT 5 Receive Maximum: what the broker may have in flight to it, unacknowledged. */
const WINDOW = 300;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------------
// What the broker counts as delivered: a loopback proxy between the worker and the broker that reads (and passes on
// unchanged) every packet, pairing each QoS 1 PUBLISH the broker hands the worker with the worker's PUBACK. A PUBACK
// the proxy has seen is one the broker received or was about to: the set recorded is at least what the broker
// considers delivered.

interface Delivery {
  topic: string;
  payload: Buffer;
  /** When (performance.now()) the proxy passed the message to the worker, and the worker's PUBACK to the broker. */
  forwardedAt: number;
  ackedAt: number | null;
}

class AckRecordingProxy {
  readonly deliveries: Delivery[] = [];
  /** The most messages ever in flight (forwarded, not yet acknowledged) on one connection. */
  maxInFlight = 0;
  private server!: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  acked(): Delivery[] {
    return this.deliveries.filter((d) => d.ackedAt !== null);
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    const upstream = tcpConnect({ host: BROKER.hostname, port: Number(BROKER.port || 1883) });
    this.sockets.add(client).add(upstream);
    const inFlight = new Map<number, Delivery>();
    const toWorker = mqttPacket.parser({ protocolVersion: 5 });
    const toBroker = mqttPacket.parser({ protocolVersion: 5 });
    toWorker.on('packet', (packet: Packet) => {
      if (packet.cmd !== 'publish' || packet.qos !== 1 || packet.messageId === undefined) return;
      const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
      const delivery: Delivery = { topic: packet.topic, payload, forwardedAt: performance.now(), ackedAt: null };
      this.deliveries.push(delivery);
      inFlight.set(packet.messageId, delivery);
      this.maxInFlight = Math.max(this.maxInFlight, inFlight.size);
    });
    toBroker.on('packet', (packet: Packet) => {
      if (packet.cmd !== 'puback' || packet.messageId === undefined) return;
      const delivery = inFlight.get(packet.messageId);
      if (!delivery) return;
      delivery.ackedAt = performance.now();
      inFlight.delete(packet.messageId);
    });
    // A packet the parser cannot read ends the recording of that direction, never the traffic.
    toWorker.on('error', () => toWorker.removeAllListeners('packet'));
    toBroker.on('error', () => toBroker.removeAllListeners('packet'));
    upstream.on('data', (chunk: Buffer) => {
      toWorker.parse(chunk);
      client.write(chunk);
    });
    client.on('data', (chunk: Buffer) => {
      toBroker.parse(chunk);
      upstream.write(chunk);
    });
    const close = () => {
      client.end();
      upstream.end();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('close', close).on('error', close);
    upstream.on('close', close).on('error', close);
  }
}

// ---------------------------------------------------------------------------------------------------------------

interface WorkerHealth {
  mqtt: boolean;
  backlog: number;
  counters: { received: number; accepted: number; written: number; writeErrors: number; rejected: Record<string, number> };
}

interface WorkerProcess {
  process: ChildProcess;
  output(): string;
  health(): Promise<WorkerHealth>;
  /** Resident memory of the process, from /proc. */
  rssMb(): number;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts the built lighting worker on the test's database, Redis prefix and intake group; resolves once it is connected. */
async function startWorker(env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: run \`npx nest build worker-lighting\` (npm test does it for you)`);
  const port = await freePort();
  const child = spawn(process.execPath, [WORKER], {
    cwd: ROOT,
    env: { ...process.env, WORKER_HEALTH_PORT: String(port), LOG_LEVEL: 'warn', LOG_FORMAT: 'json', LIGHT_CHECK_INTERVAL_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const stopChild = ownChild(child);
  const health = async () => (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as WorkerHealth;
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}`);
      return (await health()).mqtt ? true : undefined;
    }, 30_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`worker did not start: ${String(err)}\n${output}`);
  }
  return {
    process: child,
    output: () => output,
    health,
    rssMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    kill: async (signal) => {
      await stopChild(signal);
    },
  };
}

/**
 * Lamps reporting as fast as the broker takes it: each round, every lamp publishes a state (QoS 1, not retained, so a
 * worker starting later cannot make up for a loss from the broker's store) and a reading, both numbered with the
 * round: the state's totalIlluminationHours and the reading's voltage.
 */
class NumberedReports {
  round = 0;
  published = 0;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly startedAt = Date.now();

  constructor(
    private readonly client: MqttClient,
    private readonly codes: readonly string[],
  ) {}

  start(): void {
    this.stopped = false;
    this.running = (async () => {
      while (!this.stopped) {
        await this.publishRound();
        await sleep(5);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  async publishRound(): Promise<number> {
    const seq = ++this.round;
    const ts = new Date(this.startedAt + seq).toISOString();
    await Promise.all(
      this.codes.flatMap((code) => [
        this.client.publishAsync(`city/v1/lamp/${code}/state`, JSON.stringify({ online: true, on: true, level: 60, totalIlluminationHours: seq }), {
          qos: 1,
        }),
        this.client.publishAsync(
          `city/v1/lamp/${code}/telemetry`,
          JSON.stringify({ ts, voltage: seq, current: 0.4, power: 90, powerFactor: 0.95, signal: -70 }),
          { qos: 1 },
        ),
      ]),
    );
    this.published += this.codes.length * 2;
    return seq;
  }
}

/** The highest number each lamp's acknowledged states and readings carried. */
function highestAcked(deliveries: readonly Delivery[]): { state: Map<string, number>; telemetry: Map<string, number> } {
  const state = new Map<string, number>();
  const telemetry = new Map<string, number>();
  for (const d of deliveries) {
    const [, , , code, channel] = d.topic.split('/');
    const body = JSON.parse(d.payload.toString()) as { totalIlluminationHours?: number; voltage?: number };
    if (channel === 'state' && body.totalIlluminationHours !== undefined)
      state.set(code, Math.max(state.get(code) ?? 0, body.totalIlluminationHours));
    if (channel === 'telemetry' && body.voltage !== undefined) telemetry.set(code, Math.max(telemetry.get(code) ?? 0, body.voltage));
  }
  return { state, telemetry };
}

describe('faults: kill -9 of the lighting worker while the database holds its commits', () => {
  let db: TestDatabase;
  let proxy: AckRecordingProxy;
  let publisher: MqttClient;
  let reports: NumberedReports;
  const workers: WorkerProcess[] = [];
  const prefix = uniquePrefix('fk');
  const codePrefix = `K${Date.now().toString(36).toUpperCase()}-`;
  let codes: string[];
  let env: NodeJS.ProcessEnv;

  const ours = (d: Delivery) => d.topic.startsWith(`city/v1/lamp/${codePrefix}`);
  const stored = async () => {
    const rows = await db.query<{ code: string; hours: number | null; voltage: number | null }>(
      `SELECT d.code, l.total_illumination_hours AS hours, (l.telemetry->>'voltage')::int AS voltage
         FROM lamp l JOIN device d ON d.id = l.device_id ORDER BY d.code`,
    );
    return new Map(rows.map((r) => [r.code, { state: r.hours ?? 0, telemetry: r.voltage ?? 0 }]));
  };

  beforeAll(async () => {
    db = await createTestDatabase('fault_kill');
    const rows = await db.query<{ code: string }>(
      `WITH d AS (INSERT INTO device (type, code, name) SELECT 1, $1 || lpad(g::text, 4, '0'), 'lamp ' || g FROM generate_series(1, $2) g RETURNING id, code)
       , l AS (INSERT INTO lamp (device_id) SELECT id FROM d)
       SELECT code FROM d ORDER BY code`,
      [codePrefix, LAMPS],
    );
    codes = rows.map((r) => r.code);
    // Commits of lamp changes take the hold lock (shared, so they never wait for each other); in this database only.
    await db.query(`CREATE FUNCTION test_hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN PERFORM pg_advisory_xact_lock_shared(${HOLD_KEY}); RETURN NULL; END $$`);
    await db.query(`CREATE CONSTRAINT TRIGGER test_hold_commit AFTER UPDATE ON lamp DEFERRABLE INITIALLY DEFERRED
                    FOR EACH ROW EXECUTE FUNCTION test_hold_commit()`);
    proxy = new AckRecordingProxy();
    await proxy.start();
    env = {
      DATABASE_URL: db.url,
      REDIS_PREFIX: prefix,
      INTAKE_GROUP: `fault-${prefix.replace(/\W/g, '')}`,
      INTAKE_CONNECTIONS: '1',
      INTAKE_WINDOW: String(WINDOW),
    };
    publisher = mqtt.connect(MQTT_URL, { clientId: `fault-lamps-${prefix.replace(/\W/g, '')}`, reconnectPeriod: 200, ...testMqttLogin() });
    await new Promise<void>((resolve, reject) => publisher.once('connect', () => resolve()).once('error', reject));
    reports = new NumberedReports(publisher, codes);
  }, 60_000);

  afterAll(async () => {
    await reports?.stop();
    for (const worker of workers) await worker.kill('SIGKILL');
    await publisher?.endAsync();
    await proxy?.stop();
    await db?.drop();
  }, 60_000);

  it('every message the worker acknowledged is stored after a kill -9; it acknowledges nothing before its commit and holds only what the broker still has in flight', async () => {
    // The first worker reaches the broker through the recording proxy.
    const first = await startWorker({ ...env, MQTT_URL: proxy.url });
    workers.push(first);
    reports.start();
    await waitFor(
      async () => ([...(await stored()).values()].every((lamp) => lamp.state >= 5 && lamp.telemetry >= 5) ? true : undefined),
      30_000,
      100,
    );

    // From now on every transaction that changed a lamp waits at its COMMIT: written, not committed.
    const holder = new Client({ connectionString: db.url, application_name: 'fault-holder' });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [HOLD_KEY]);
      const heldAt = performance.now();
      const publishedAtHold = reports.published;
      const rssAtHold = first.rssMb();
      let maxBacklog = 0;
      /** Moments the worker held more of our messages than the broker had in flight to it, unacknowledged. */
      const overHeld: { backlog: number; unacknowledged: number }[] = [];
      // Devices keep reporting, far more than the worker may hold: the broker keeps (or drops) the rest.
      await waitFor(
        async () => {
          const { backlog } = await first.health();
          // Read after the backlog: while commits are held none of ours is acknowledged, so this can only have grown.
          const unacknowledged = proxy.deliveries.filter((d) => ours(d) && d.ackedAt === null).length;
          maxBacklog = Math.max(maxBacklog, backlog);
          if (backlog > unacknowledged) overHeld.push({ backlog, unacknowledged });
          return reports.published - publishedAtHold >= 4 * WINDOW ? true : undefined;
        },
        60_000,
        50,
      );
      const [{ waiting }] = await db.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND state = 'active'`,
      );
      // Ours only: other tests' devices share the broker, and their messages (unknown here) are acknowledged at once.
      const heldMessages = proxy.deliveries.filter((d) => d.forwardedAt > heldAt && ours(d));
      const ackedWhileHeld = heldMessages.filter((d) => d.ackedAt !== null);
      const rssBeforeKill = first.rssMb();

      // kill -9 under load, while its write waits at COMMIT. PostgreSQL rolls back a dead client's transaction once
      // it notices the client gone; the test does not wait for it to notice.
      await first.kill('SIGKILL');
      await reports.stop();
      const dead = await db.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name <> 'fault-holder'`,
      );
      await db.query(`SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid`, [dead.map((d) => d.pid)]);
      await waitFor(async () => {
        const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ANY($1::int[])`, [
          dead.map((d) => d.pid),
        ]);
        return n === 0 ? true : undefined;
      }, 10_000);
      await holder.query('SELECT pg_advisory_unlock($1)', [HOLD_KEY]);
      process.stdout.write(
        `faults: ${reports.published - publishedAtHold} messages published while commits were held (${waiting} transaction waiting); ` +
          `${heldMessages.length} reached the worker, ${ackedWhileHeld.length} acknowledged; backlog at most ${maxBacklog}; ` +
          `at most ${proxy.maxInFlight} in flight to it (window ${WINDOW}); RSS ${rssAtHold.toFixed(0)} → ${rssBeforeKill.toFixed(0)} MB\n`,
      );

      // The hold took: a write of the worker was waiting at its COMMIT.
      expect(waiting).toBeGreaterThanOrEqual(1);
      // Nothing that reached the worker while commits were held was acknowledged: acknowledgements follow commits.
      expect(ackedWhileHeld.slice(0, 5).map((d) => `${d.topic} ${d.payload.toString()}`)).toEqual([]);
      expect(heldMessages.length).toBeGreaterThan(0);
      // Bounded: the worker holds only messages the broker still counts as in flight to it, so the broker's flow
      // control (the window) bounds it. (Mosquitto 2.0.11 lets somewhat more than the Receive Maximum be in flight
      // while a client acknowledges other messages: the broker's bound, reported above, is not asserted here.)
      expect(overHeld).toEqual([]);
    } finally {
      await holder.end().catch(() => undefined);
    }

    // A new worker of the same group starts (straight to the broker).
    const second = await startWorker({ ...env });
    workers.push(second);
    await waitFor(async () => ((await second.health()).backlog === 0 ? true : undefined), 10_000);

    // Every state and reading the first worker acknowledged is stored, or a later one of its lamp is.
    const acked = highestAcked(proxy.acked().filter(ours));
    expect(acked.state.size).toBe(LAMPS);
    const afterKill = await stored();
    const missing = codes.flatMap((code) => {
      const lamp = afterKill.get(code)!;
      const want = { state: acked.state.get(code) ?? 0, telemetry: acked.telemetry.get(code) ?? 0 };
      return lamp.state < want.state || lamp.telemetry < want.telemetry ? [{ code, stored: lamp, acknowledged: want }] : [];
    });
    expect(missing).toEqual([]);

    // And the new worker takes the lamps' reports from here on.
    const last = await reports.publishRound();
    await waitFor(
      async () => ([...(await stored()).values()].every((lamp) => lamp.state === last && lamp.telemetry === last) ? true : undefined),
      20_000,
      100,
    );
    const health = await second.health();
    expect(health.counters.writeErrors).toBe(0);
    expect(second.process.exitCode).toBeNull();
  }, 180_000);
});
