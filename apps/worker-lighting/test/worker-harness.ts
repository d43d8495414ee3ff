import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import mqtt, { type MqttClient } from 'mqtt';
import pino from 'pino';
import {
  JobName,
  MqttService,
  type AlarmChangedEvent,
  type DeviceChange,
  type DispatchProgressEvent,
  type FamilyName,
  type LampAction,
} from '@sc/contracts';
import type { DeviceWorker } from '@sc/device-runtime';
import { JobProducer, RedisBus, serviceMqttLogin } from '@sc/messaging';
import { createTestDatabase, uniquePrefix, type TestDatabase, testMqttLogin } from '@sc/testing';
import { loadWorkerConfig, type WorkerConfig } from '../src/config/worker-config';
import { startLightingWorker, type LightingWorkerOverrides } from '../src/lighting-worker';

/** One device's change as the bus carried it (one DeviceStateChanged holds every device of a write). */
export type DeviceChangeSeen = Omit<DeviceChange, 'changed'> & {
  family: FamilyName;
  changed: Record<string, unknown> & Partial<DeviceChange<'lamp'>['changed']>;
};

/** A worker under test, with the counters the tests read. */
export type TestWorker = DeviceWorker & { snapshot(): ReturnType<DeviceWorker['counters']['snapshot']> };

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** One test file's world: its own database, Redis prefix, intake group and lamp codes, so files can run side by side. */
export class WorkerHarness {
  readonly prefix = uniquePrefix('wl');
  readonly codePrefix = `T${randomBytes(3).toString('hex')}-`;
  db!: TestDatabase;
  producer!: JobProducer;
  worker: TestWorker | null = null;
  readonly events: { DeviceStateChanged: DeviceChangeSeen[]; DispatchProgress: DispatchProgressEvent[]; AlarmChanged: AlarmChangedEvent[] } = {
    DeviceStateChanged: [],
    DispatchProgress: [],
    AlarmChanged: [],
  };
  private busRedis!: Redis;
  private bus!: RedisBus;
  private jobCounter = 0;

  async setUp(label: string): Promise<void> {
    this.db = await createTestDatabase(label);
    this.producer = new JobProducer({ url: REDIS_URL, maxRetriesPerRequest: null }, this.prefix);
    this.busRedis = new Redis(REDIS_URL);
    this.bus = new RedisBus(this.busRedis, this.prefix);
    await this.bus.subscribe(REDIS_URL, {
      DeviceStateChanged: (e) => {
        for (const change of e.changes) this.events.DeviceStateChanged.push({ family: e.family, ...change } as DeviceChangeSeen);
      },
      DispatchProgress: (e) => this.events.DispatchProgress.push(e),
      AlarmChanged: (e) => this.events.AlarmChanged.push(e),
    });
  }

  config(overrides: Partial<WorkerConfig> = {}): WorkerConfig {
    return {
      ...loadWorkerConfig({}),
      databaseUrl: this.db.url,
      redisUrl: REDIS_URL,
      mqttUrl: MQTT_URL,
      // The worker's own account, as deployed (libs/testing grants it on the tests' broker).
      mqttLogin: serviceMqttLogin(MqttService.WorkerLighting),
      redisPrefix: this.prefix,
      intakeGroup: `test-${this.prefix.replace(/\W/g, '')}`,
      ackTimeoutMs: 300,
      trackerIntervalMs: 100,
      progressIntervalMs: 50,
      unknownDeviceRetryMs: 500,
      ...overrides,
    };
  }

  async startWorker(overrides: Partial<WorkerConfig> = {}, extra: LightingWorkerOverrides = {}): Promise<TestWorker> {
    const worker = await startLightingWorker(this.config(overrides), pino({ level: process.env.LOG_LEVEL ?? 'silent' }), extra);
    this.worker = Object.assign(worker, { snapshot: () => worker.counters.snapshot() });
    return this.worker;
  }

  async tearDown(): Promise<void> {
    await this.worker?.stop();
    await this.bus?.close();
    this.busRedis?.disconnect();
    await this.producer?.close();
    await this.db?.drop();
  }

  /** Registers lamps (device + lamp rows); returns their ids by code. */
  async addLamps(count: number, label = 'L'): Promise<Map<string, number>> {
    const rows = await this.db.query<{ id: number; code: string }>(
      `WITH d AS (INSERT INTO device (type, code, name)
                  SELECT 1, $1 || g, 'lamp ' || g FROM generate_series(1, $2) g RETURNING id, code)
       , l AS (INSERT INTO lamp (device_id, network_status) SELECT id, 1 FROM d)
       SELECT id, code FROM d ORDER BY id`,
      [`${this.codePrefix}${label}`, count],
    );
    return new Map(rows.map((r) => [r.code, r.id]));
  }

  /** Writes a dispatch as the gateway does, and enqueues its job directly (no outbox relay in these tests). */
  async dispatch(deviceIds: number[], action: LampAction, params: object = {}, expiresInMs = 60_000): Promise<string> {
    const [{ id }] = await this.db.query<{ id: string }>(
      `INSERT INTO dispatch (id, family, action, params, created_by, expires_at)
       VALUES (gen_random_uuid(), 'lamp', $1, $2, 'test', now() + $3 * interval '1 millisecond') RETURNING id`,
      [action, JSON.stringify(params), expiresInMs],
    );
    await this.db.query(`INSERT INTO dispatch_item (dispatch_id, device_id, command_id) SELECT $1, unnest($2::int[]), gen_random_uuid()`, [
      id,
      deviceIds,
    ]);
    await this.producer.enqueue(JobName.DistributeLampDispatch, { dispatchId: id }, { jobId: `distribute-lamp-dispatch:${id}:${++this.jobCounter}` });
    return id;
  }
}

export async function connectMqtt(options: mqtt.IClientOptions = {}): Promise<MqttClient> {
  const client = mqtt.connect(MQTT_URL, { clientId: `test-${randomBytes(5).toString('hex')}`, reconnectPeriod: 200, ...testMqttLogin(), ...options });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  return client;
}
