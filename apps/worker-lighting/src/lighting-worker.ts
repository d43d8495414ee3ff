import { createServer, type Server } from 'node:http';
import type { Worker } from 'bullmq';
import Redis from 'ioredis';
import type { Logger } from 'pino';
import type { Pool } from 'pg';
import { DeviceType, QueueName } from '@sc/contracts';
import { createJobWorker, MqttConnection, RedisBus } from '@sc/messaging';
import type { WorkerConfig } from './config/worker-config';
import { CommandSender } from './dispatch/command-sender';
import { DispatchProgress } from './dispatch/dispatch-progress';
import { DispatchTracker } from './dispatch/dispatch-tracker';
import { DistributeLampDispatchProcessor } from './dispatch/distribute-lamp-dispatch.processor';
import { Counters, type CounterSnapshot } from './infra/counters';
import { createPool } from './infra/database';
import { GatewayStateIntake } from './gateways/gateway-state-intake';
import { DeviceIntake } from './intake/device-intake';
import { IntakeWriter } from './intake/intake-writer';
import { KnownDevices } from './intake/known-devices';
import { DeviceCodeChanges } from './intake/device-code-changes';
import { LampChangeNotifier, LampStore } from './lamps/lamp-store';
import { StripStore } from './strips/strip-store';
import { AlarmNotifier, AlarmStore, FaultAlarmRecorder } from './alarms/alarm-store';
import { LightConditionCheck } from './alarms/light-condition-check';
import { DEFAULT_INTEGRATION } from './energy/energy-integration';
import { EnergyRecorder } from './energy/energy-recorder';

export interface LightingWorkerOverrides {
  /** Replaces the queue's handler providers (tests prove that a gap refuses to start). */
  jobProviders?: (defaults: object[]) => object[];
}

/** Everything opened so far, closed in reverse order when start-up fails or the process stops. */
type Closer = () => Promise<unknown>;

/**
 * The lighting worker: the lamp distribution queue, the ack and expiry tracker, and the lamp traffic intake, on one
 * PostgreSQL pool, one Redis connection (plus BullMQ's own) and one MQTT client. Redis and MQTT reconnect by
 * themselves; the BullMQ worker resumes when Redis is back.
 */
export class LightingWorker {
  readonly counters = new Counters();
  private closers: Closer[] = [];
  private jobWorker: Worker | null = null;
  private intake: DeviceIntake | null = null;
  private tracker: DispatchTracker | null = null;
  private progress: DispatchProgress | null = null;
  private lightCheck: LightConditionCheck | null = null;
  private mqtt: MqttConnection | null = null;
  private stopping: Promise<void> | null = null;

  private constructor(
    readonly config: WorkerConfig,
    private readonly logger: Logger,
  ) {}

  static async start(config: WorkerConfig, logger: Logger, overrides: LightingWorkerOverrides = {}): Promise<LightingWorker> {
    const worker = new LightingWorker(config, logger);
    try {
      await worker.open(overrides);
    } catch (err) {
      await worker.closeAll();
      throw err;
    }
    return worker;
  }

  get mqttConnected(): boolean {
    return this.mqtt?.connected ?? false;
  }

  snapshot(): CounterSnapshot {
    return this.counters.snapshot();
  }

  private async open(overrides: LightingWorkerOverrides): Promise<void> {
    const { config, logger } = this;
    const pool: Pool = createPool(config.databaseUrl);
    this.closers.push(() => pool.end());
    await pool.query('SELECT 1');

    const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null, retryStrategy: (n) => Math.min(n * 200, 2000) });
    redis.on('error', (err) => logger.debug({ err: err.message }, 'redis connection error'));
    this.closers.push(() => redis.quit().catch(() => redis.disconnect()));
    const bus = new RedisBus(redis, config.redisPrefix);

    const mqtt = await MqttConnection.connect(config.mqttUrl, {
      clientIdPrefix: 'worker-lighting',
      // MQTT 5, for the subscription option that keeps stored messages out of the shared intake (DeviceIntake).
      client: { protocolVersion: 5 },
      onStateChange: (state, detail) => logger[state === 'connected' ? 'info' : 'warn']({ state, detail }, 'mqtt connection'),
    });
    this.mqtt = mqtt;
    this.closers.push(() => mqtt.close());

    const lamps = new LampStore();
    const notifier = new LampChangeNotifier(bus, logger);
    const progress = new DispatchProgress(pool, bus, logger, config.progressIntervalMs);
    this.progress = progress;
    // Families served beside single lamps, through the same intake, ledger and tracker.
    const families = [new StripStore(bus, logger)];
    const sender = new CommandSender(pool, mqtt, lamps, notifier, progress, this.counters, logger, config, config.publishChunk, families);

    // The handlers are checked before anything starts consuming: a gap or a clash stops start-up here.
    const defaults = [new DistributeLampDispatchProcessor(sender, logger)];
    const providers = overrides.jobProviders ? overrides.jobProviders(defaults) : defaults;
    const jobConnection = redis.duplicate();
    jobConnection.on('error', () => undefined);
    this.closers.push(() => jobConnection.quit().catch(() => jobConnection.disconnect()));
    const jobWorker = createJobWorker(QueueName.LampDistribution, providers, {
      connection: jobConnection,
      redisPrefix: config.redisPrefix,
      concurrency: config.concurrency,
      autorun: false,
      // A worker killed mid-job loses its lock soon, so another replica (or the restarted one) takes the job over.
      lockDuration: 10_000,
      stalledInterval: 5_000,
    });
    jobWorker.on('error', (err) => logger.warn({ err: err.message }, 'job worker error'));
    jobWorker.on('failed', (job, err) => logger.error({ job: job?.id, err: err.message }, 'job failed'));
    this.jobWorker = jobWorker;

    const devices = new KnownDevices(pool, config.unknownDeviceRetryMs, undefined, [DeviceType.SingleLamp, ...families.map((f) => f.deviceType)]);
    this.closers.push(async () => devices.stop());
    // Listening first, so no change between the load and the LISTEN can be missed.
    const codeChanges = new DeviceCodeChanges(config.databaseUrl, (change) => devices.forget(change), logger);
    this.closers.push(() => codeChanges.stop());
    await codeChanges.start();
    const known = await devices.load();
    const alarms = new AlarmStore();
    const alarmNotifier = new AlarmNotifier(bus, logger);
    const lightCheck = new LightConditionCheck(pool, alarms, alarmNotifier, logger, {
      intervalMs: config.lightCheckIntervalMs,
      graceMs: config.lightCheckGraceMs,
      touchDelayMs: 500,
      defaultPlace: config.defaultPlace,
    });
    this.lightCheck = lightCheck;
    const recorders = [
      new FaultAlarmRecorder(alarms, alarmNotifier),
      new EnergyRecorder({ ...DEFAULT_INTEGRATION, maxGapMs: config.energyMaxGapMs }),
      lightCheck,
    ];
    const writer = new IntakeWriter(
      pool,
      lamps,
      notifier,
      progress,
      this.counters,
      logger,
      config.intakeBatchSize,
      config.intakeFlushMs,
      recorders,
      families,
    );
    const intakeConnections = [mqtt];
    for (let i = 1; i < config.intakeConnections; i++) {
      const extra = await MqttConnection.connect(config.mqttUrl, { clientIdPrefix: 'worker-lighting-intake', client: { protocolVersion: 5 } });
      this.closers.push(() => extra.close());
      intakeConnections.push(extra);
    }
    this.intake = new DeviceIntake(
      intakeConnections,
      devices,
      writer,
      this.counters,
      logger,
      config.intakeGroup,
      () => MqttConnection.connect(config.mqttUrl, { clientIdPrefix: 'worker-lighting-catch-up' }),
      families,
    );

    progress.start();
    await this.intake.start();
    await new GatewayStateIntake(mqtt, pool, bus, logger).start();
    this.tracker = new DispatchTracker(
      pool,
      sender,
      lamps,
      notifier,
      progress,
      this.counters,
      logger,
      {
        intervalMs: config.trackerIntervalMs,
        orphanAfterMs: config.orphanAfterMs,
      },
      families,
    );
    this.tracker.start();
    lightCheck.start();
    void jobWorker.run().catch((err: Error) => logger.error({ err: err.message }, 'job worker stopped'));
    await jobWorker.waitUntilReady();

    const countersTimer = setInterval(() => logger.info({ counters: this.counters.snapshot() }, 'counters'), config.countersLogMs);
    countersTimer.unref();
    this.closers.push(async () => clearInterval(countersTimer));
    if (config.healthPort !== null) await this.serveHealth(config.healthPort);
    logger.info({ lamps: known, queue: QueueName.LampDistribution, concurrency: config.concurrency }, 'lighting worker started');
  }

  private async serveHealth(port: number): Promise<void> {
    const server: Server = createServer((req, res) => {
      if (req.url !== '/health') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      // Not ready while the broker is away: commands could not go out and device traffic would not come in.
      const ready = this.mqttConnected;
      res.writeHead(ready ? 200 : 503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: ready ? 'ok' : 'degraded', mqtt: this.mqttConnected, counters: this.counters.snapshot() }));
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, resolve));
    this.closers.push(() => new Promise((resolve) => server.close(resolve)));
  }

  /**
   * Stops taking jobs (waiting for those running), leaves the intake group, writes what was accepted, finishes the
   * tracker pass and the progress in hand, then closes MQTT, Redis and PostgreSQL.
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      await this.jobWorker?.close().catch(() => undefined);
      await this.intake?.stop().catch(() => undefined);
      await this.tracker?.stop();
      await this.lightCheck?.stop();
      await this.progress?.stop();
      await this.closeAll();
      this.logger.info({ counters: this.counters.snapshot() }, 'lighting worker stopped');
    })();
    return this.stopping;
  }

  private async closeAll(): Promise<void> {
    await this.jobWorker?.close().catch(() => undefined);
    for (const close of this.closers.reverse()) await close().catch(() => undefined);
    this.closers = [];
  }
}
