import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import mqtt, { type MqttClient } from 'mqtt';
import type { Pool } from 'pg';
import pino from 'pino';
import {
  Button,
  DeviceFamily,
  DeviceType,
  MqttService,
  QueueName,
  TIMESTAMP_SCHEMA,
  defineFamily,
  type AlarmChangedEvent,
  type DispatchProgressEvent,
  type DispatchRowsChangedEvent,
  type FamilyDeclaration,
  type JobName,
  type JsonSchema,
} from '@sc/contracts';
import { createPool } from '../src/infra/database';
import { commandLedger, DeviceWorker, loadRuntimeConfig, type AnyFamilyHandler, type DeviceEvent, type RuntimeConfig } from '@sc/device-runtime';
import { JobProducer, RedisBus } from '@sc/messaging';
import { createTestDatabase, uniquePrefix, type TestDatabase, testMqttLogin } from '@sc/testing';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';

// ---------------------------------------------------------------------------------------------------------------
// A family that exists only in these tests: thermostats. Nothing in libs/contracts, the runtime or any app knows
// it; its declaration, its table and its handler are all it has.

export interface ThermoRow {
  status: number;
  networkStatus: number;
  setpoint: number | null;
  mode: string;
  temperature: number | null;
  readings: Record<string, unknown> | null;
  reportedAt: string | null;
  /** Derived: how the temperature compares with the setpoint. */
  comfort: 'unknown' | 'cold' | 'ok' | 'warm';
}

const SETPOINT_SCHEMA = { type: 'number', minimum: 5, maximum: 35 } as const satisfies JsonSchema;

export const THERMO_STATE_SCHEMA = {
  type: 'object',
  required: ['online', 'setpoint', 'mode'],
  properties: {
    online: { const: true },
    setpoint: SETPOINT_SCHEMA,
    mode: { type: 'string', enum: ['heat', 'cool', 'off'] },
  },
} as const satisfies JsonSchema;

export const THERMO_TELEMETRY_SCHEMA = {
  type: 'object',
  required: ['ts', 'temperature'],
  properties: { ts: TIMESTAMP_SCHEMA, temperature: { type: 'number' }, humidity: { type: 'number', minimum: 0, maximum: 100 } },
} as const satisfies JsonSchema;

/** A job name no declared family has. */
export const THERMO_JOB = 'distribute-test-thermo-dispatch' as JobName;
/** A queue no declared family uses (the declared families' queues refuse a worker missing their jobs). */
export const THERMO_QUEUE = 'test-thermo-tasks' as QueueName;

export const THERMO_FAMILY = defineFamily<ThermoRow>()({
  family: DeviceFamily.Radar,
  title: 'Test thermostat',
  deviceType: DeviceType.Radar,
  table: 'test_thermo',
  worker: MqttService.WorkerLighting,
  queue: THERMO_QUEUE,
  job: THERMO_JOB,
  actions: { set: Button.Edit, firmware: Button.Edit },
  eventRoles: [],
  liveFields: ['status', 'networkStatus', 'setpoint', 'mode', 'temperature', 'readings', 'reportedAt', 'comfort'],
  reports: { state: THERMO_STATE_SCHEMA, telemetry: THERMO_TELEMETRY_SCHEMA },
  commands: {
    set: {
      description: 'Hold this temperature.',
      params: { type: 'object', required: ['setpoint'], additionalProperties: false, properties: { setpoint: SETPOINT_SCHEMA } },
    },
    firmware: {
      description: 'Fetch and install this firmware: receipts while it downloads, the ack once it is installed.',
      params: { type: 'object', required: ['url'], additionalProperties: false, properties: { url: { type: 'string' } } },
      receipts: true,
    },
  },
  heartbeatSeconds: 60,
});

export const THERMO_TABLE_SQL = `
  CREATE TABLE test_thermo (
    device_id int PRIMARY KEY REFERENCES device(id) ON DELETE CASCADE,
    status smallint NOT NULL DEFAULT 0,
    network_status smallint NOT NULL DEFAULT 0,
    setpoint float8,
    mode text NOT NULL DEFAULT 'off',
    temperature float8,
    readings jsonb,
    reported_at timestamptz
  )`;

/** Statuses as lamps have them: 0 normal, -2 distributing, -3 failed, -4 succeeded, -5 offline. */
export const Thermo = { Normal: 0, Distributing: -2, Failed: -3, Succeeded: -4, Offline: -5 } as const;

type ThermoStored = Omit<ThermoRow, 'comfort'>;
type ThermoEvent = DeviceEvent<{ state: { setpoint: number; mode: string }; telemetry: { ts: string; temperature: number } }>;

function setpointOf(params: unknown): number | null {
  const setpoint = (params as { setpoint?: unknown } | null)?.setpoint;
  return typeof setpoint === 'number' && setpoint >= 5 && setpoint <= 35 ? setpoint : null;
}

export function reduceThermo(t: ThermoStored, event: ThermoEvent): ThermoStored {
  switch (event.kind) {
    case 'report':
      if (event.channel === 'state') {
        const status = t.status === Thermo.Offline ? Thermo.Normal : t.status;
        return { ...t, status, networkStatus: 1, setpoint: event.report.setpoint, mode: event.report.mode, reportedAt: event.at };
      }
      return { ...t, temperature: event.report.temperature, readings: event.report, reportedAt: event.at };
    case 'offline':
      return { ...t, networkStatus: 0, status: Thermo.Offline };
    case 'sending':
      return { ...t, status: Thermo.Distributing };
    case 'answered':
      return event.delivered ? { ...t, status: Thermo.Succeeded, setpoint: setpointOf(event.params) ?? t.setpoint } : { ...t, status: Thermo.Failed };
  }
}

export function comfortOf(t: ThermoStored): ThermoRow['comfort'] {
  if (t.temperature === null || t.setpoint === null) return 'unknown';
  return t.temperature < t.setpoint - 1 ? 'cold' : t.temperature > t.setpoint + 1 ? 'warm' : 'ok';
}

export const thermoHandler: AnyFamilyHandler = {
  declaration: THERMO_FAMILY,
  columns: {
    status: { column: 'status', type: 'smallint' },
    networkStatus: { column: 'network_status', type: 'smallint' },
    setpoint: { column: 'setpoint', type: 'float8' },
    mode: { column: 'mode', type: 'text' },
    temperature: { column: 'temperature', type: 'float8' },
    readings: { column: 'readings', type: 'jsonb' },
    reportedAt: { column: 'reported_at', type: 'timestamptz' },
  },
  reduce: reduceThermo,
  derive: (t: ThermoStored) => ({ comfort: comfortOf(t) }),
  command: (action: string, params: unknown) => {
    if (action === 'firmware') return { type: 'firmware', params: { url: String((params as { url?: unknown }).url) } };
    const setpoint = action === 'set' ? setpointOf(params) : null;
    return setpoint === null ? null : { type: 'set', params: { setpoint } };
  },
};

// ---------------------------------------------------------------------------------------------------------------

/** One DeviceStateChanged as the bus carried it (every device of one write). */
export interface StateChangedSeen {
  family: string;
  changes: { recordId: number; deviceCode: string; changed: Record<string, unknown> }[];
  at: string;
}

/**
 * One test file's world: a fresh database, a Redis prefix, an intake group and device codes of its own, so files can
 * run side by side on the shared services; the bus recorded; dispatches written through the command ledger and
 * handed to their queue as the gateway's outbox relay does.
 */
export class RuntimeHarness {
  readonly prefix = uniquePrefix('rt');
  readonly codePrefix = `RT${randomBytes(3).toString('hex')}-`;
  db!: TestDatabase;
  pool!: Pool;
  producer!: JobProducer;
  readonly workers: DeviceWorker[] = [];
  readonly events: {
    DeviceStateChanged: StateChangedSeen[];
    DispatchProgress: DispatchProgressEvent[];
    DispatchRowsChanged: DispatchRowsChangedEvent[];
    AlarmChanged: AlarmChangedEvent[];
  } = {
    DeviceStateChanged: [],
    DispatchProgress: [],
    DispatchRowsChanged: [],
    AlarmChanged: [],
  };
  private busRedis!: Redis;
  private bus!: RedisBus;

  async setUp(label: string, tables: string[] = [THERMO_TABLE_SQL]): Promise<void> {
    this.db = await createTestDatabase(label);
    for (const sql of tables) await this.db.query(sql);
    // As the workers' pools: a connection lost while idle (the database dropped at the end) is the pool's to replace,
    // not an unhandled error.
    this.pool = createPool(this.db.url, 3);
    this.producer = new JobProducer({ url: REDIS_URL, maxRetriesPerRequest: null }, this.prefix);
    this.busRedis = new Redis(REDIS_URL);
    this.bus = new RedisBus(this.busRedis, this.prefix);
    await this.bus.subscribe(REDIS_URL, {
      DeviceStateChanged: (e) => this.events.DeviceStateChanged.push(e as unknown as StateChangedSeen),
      DispatchProgress: (e) => this.events.DispatchProgress.push(e),
      DispatchRowsChanged: (e) => this.events.DispatchRowsChanged.push(e),
      AlarmChanged: (e) => this.events.AlarmChanged.push(e),
    });
  }

  config(overrides: Partial<RuntimeConfig> = {}): RuntimeConfig {
    return {
      ...loadRuntimeConfig('rt', {}),
      databaseUrl: this.db.url,
      redisUrl: REDIS_URL,
      mqttUrl: MQTT_URL,
      // A family declared only here has no worker account on the broker: the worker logs in as the tests do.
      mqttLogin: testMqttLogin(),
      redisPrefix: this.prefix,
      intakeGroup: `test-${this.prefix.replace(/\W/g, '')}`,
      ackTimeoutMs: 300,
      trackerIntervalMs: 100,
      progressIntervalMs: 50,
      unknownDeviceRetryMs: 500,
      ...overrides,
    };
  }

  async startWorker(families: readonly AnyFamilyHandler[] = [thermoHandler], overrides: Partial<RuntimeConfig> = {}): Promise<DeviceWorker> {
    const worker = await DeviceWorker.start({
      name: 'rt',
      families,
      config: this.config(overrides),
      logger: pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
    });
    this.workers.push(worker);
    return worker;
  }

  async tearDown(): Promise<void> {
    for (const worker of this.workers.splice(0)) await worker.stop();
    await this.bus?.close();
    this.busRedis?.disconnect();
    await this.producer?.close();
    await this.pool?.end();
    await this.db?.drop();
  }

  /** Registers `count` devices of a registry family (a `device` row and a row in its table); answers their ids by code. */
  async addDevices(family: FamilyDeclaration, count: number, label: string): Promise<Map<string, number>> {
    const rows = await this.db.query<{ id: number; code: string }>(
      `WITH d AS (INSERT INTO device (type, code, name)
                  SELECT $3, $1 || lpad(g::text, 5, '0'), 'test ' || g FROM generate_series(1, $2) g RETURNING id, code)
       , t AS (INSERT INTO ${family.table} (device_id) SELECT id FROM d)
       SELECT id, code FROM d ORDER BY code`,
      [`${this.codePrefix}${label}`, count, family.deviceType],
    );
    return new Map(rows.map((r) => [r.code, r.id]));
  }

  /**
   * Writes a dispatch through the command ledger, in one transaction as the gateway does, then hands its outbox row to
   * the queue it names with a JobProducer, as the gateway's outbox relay does.
   */
  async dispatch(
    family: FamilyDeclaration,
    action: string,
    params: Record<string, unknown>,
    deviceIds: readonly number[],
    ttlSeconds = 60,
  ): Promise<string> {
    const id = await this.writeDispatch(family, action, params, deviceIds, ttlSeconds);
    await this.relayOutbox();
    return id;
  }

  /** Writes a dispatch (its rows and its outbox row) through the command ledger, without handing it to its queue. */
  async writeDispatch(
    family: FamilyDeclaration,
    action: string,
    params: Record<string, unknown>,
    deviceIds: readonly number[],
    ttlSeconds = 60,
  ): Promise<string> {
    const client = await this.pool.connect();
    let id: string;
    try {
      await client.query('BEGIN');
      id = await commandLedger.create(client, { family, action, params, createdBy: 'test', deviceIds, ttlSeconds });
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    } finally {
      client.release();
    }
    return id;
  }

  /** Adds every outbox row's job to its queue, then deletes the row (the gateway's outbox relay, in short). */
  async relayOutbox(): Promise<void> {
    const rows = await this.db.query<{ id: string; queue: QueueName; job_name: string; job_id: string; payload: { dispatchId: string } }>(
      `SELECT id, queue, job_name, job_id, payload FROM outbox ORDER BY id`,
    );
    for (const row of rows) {
      await this.producer.queue(row.queue).add(row.job_name, row.payload, { jobId: row.job_id, removeOnComplete: 1000, removeOnFail: 5000 });
      await this.db.query(`DELETE FROM outbox WHERE id = $1`, [row.id]);
    }
  }

  /** Device state changes of these record ids seen on the bus (from the `since`th event on), one entry per DeviceStateChanged. */
  changesOf(ids: Iterable<number>, since = 0): StateChangedSeen[] {
    const wanted = new Set(ids);
    return this.events.DeviceStateChanged.slice(since)
      .map((e) => ({ ...e, changes: e.changes.filter((c) => wanted.has(c.recordId)) }))
      .filter((e) => e.changes.length > 0);
  }
}

export async function connectMqtt(options: mqtt.IClientOptions = {}): Promise<MqttClient> {
  const client = mqtt.connect(MQTT_URL, {
    clientId: `rt-test-${randomBytes(5).toString('hex')}`,
    reconnectPeriod: 200,
    ...testMqttLogin(),
    ...options,
  });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  return client;
}

export interface CommandSeen {
  id: string;
  type: string;
  params: Record<string, unknown>;
  expiresAt: string;
}

/**
 * Devices played by the test: they receive their family's commands, remember them, and answer each as told ('ok',
 * 'fail' or 'silent'). Codes without a behaviour are not theirs (other tests share the broker).
 */
export class PlayedDevices {
  readonly received = new Map<string, CommandSeen[]>();
  readonly behaviour = new Map<string, 'ok' | 'fail' | 'silent'>();

  private constructor(
    readonly client: MqttClient,
    readonly family: string,
  ) {
    client.on('message', (topic, payload) => {
      const [, , family, code, channel] = topic.split('/');
      const reply = this.behaviour.get(code);
      if (family !== this.family || channel !== 'cmd' || !reply) return;
      const command = JSON.parse(payload.toString()) as CommandSeen;
      this.received.set(code, [...(this.received.get(code) ?? []), command]);
      if (reply === 'silent') return;
      const ack = reply === 'ok' ? { id: command.id, ok: true } : { id: command.id, ok: false, error: 'refused by test' };
      client.publish(`city/v1/${family}/${code}/ack`, JSON.stringify(ack), { qos: 1 });
    });
  }

  static async start(family: string): Promise<PlayedDevices> {
    const client = await connectMqtt();
    await client.subscribeAsync(`city/v1/${family}/+/cmd`, { qos: 1 });
    return new PlayedDevices(client, family);
  }

  stop(): Promise<void> {
    return this.client.endAsync();
  }
}
