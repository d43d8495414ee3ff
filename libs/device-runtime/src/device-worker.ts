import { createServer, type Server } from 'node:http';
import type { Worker } from 'bullmq';
import Redis from 'ioredis';
import type { Logger } from 'pino';
import { MqttChannel, jobsOfQueue, type FamilyName, type JobName, type QueueName } from '@sc/contracts';
import { createJobWorker, MqttConnection, RedisBus, type JobHandler } from '@sc/messaging';
import { AlarmNotifier, AlarmStore } from './alarms/alarm-store';
import { FamilyAlarms } from './alarms/family-alarms';
import { CommandSender } from './dispatch/command-sender';
import { DispatchProgress } from './dispatch/dispatch-progress';
import { DispatchTracker } from './dispatch/dispatch-tracker';
import { distributeHandlers } from './dispatch/distribute.processor';
import { StateEvents } from './events/state-events';
import type { AnyFamilyHandler, ChangeObserver } from './family/family-handler';
import { FamilyWrites } from './family/family-writes';
import { ReportParser } from './family/report-parser';
import { RowStore } from './family/row-store';
import { Counters, type CounterSnapshot } from './infra/counters';
import { createPool } from './infra/database';
import { DeviceCodeChanges } from './intake/device-code-changes';
import { DeviceIntake } from './intake/device-intake';
import { SilenceSweep } from './intake/silence-sweep';
import { IntakeWriter } from './intake/intake-writer';
import { KnownDevices } from './intake/known-devices';
import type { RuntimeConfig } from './runtime-config';
import { DeviceSessions, type DeviceSession, type SessionEventListener } from './voice/device-sessions';

export interface DeviceWorkerOptions {
  /** The worker's short name (`lighting`): client ids, logs, its default intake group. */
  name: string;
  /** The families this worker serves: their traffic, their rows, and the dispatch jobs of their queues. */
  families: readonly AnyFamilyHandler[];
  /** What the worker writes beside its families' rows (lighting: alarms, energy, day-burning checks). */
  observers?: readonly ChangeObserver[];
  /** Handlers of other jobs on the families' queues (none so far). */
  jobs?: ReadonlyMap<JobName, JobHandler>;
  /**
   * Runs first when the worker stops, before the runtime lets go of anything: what the worker runs beside the runtime
   * that feeds it or holds outside resources (a probe, transcoders) ends while the runtime can still take its last words.
   */
  onStopping?: () => Promise<void>;
  /** Runs last when the worker stops: closes what the worker opened beside the runtime. */
  onStopped?: () => Promise<void>;
  config: RuntimeConfig;
  logger: Logger;
}

export interface DeviceWorkerHealth {
  status: 'ok' | 'degraded';
  mqtt: boolean;
  /** Accepted device messages waiting to be stored. */
  backlog: number;
  counters: CounterSnapshot;
}

/** Everything opened so far, closed in reverse order when start-up fails or the process stops. */
type Closer = () => Promise<unknown>;

/**
 * A device worker: for each served family, the intake of its devices' traffic (a shared subscription, batched
 * writes acknowledged once stored), its commands (the dispatch jobs of its queue, sending with re-sends, expiry,
 * progress) and its live events on the Redis bus; plus GET /health and a graceful stop. A family brings only its
 * handler (how its fields change, what its actions send); a worker adds its own rules as observers.
 */
export class DeviceWorker {
  readonly counters = new Counters();
  private closers: Closer[] = [];
  private jobWorkers: Worker[] = [];
  private intake: DeviceIntake | null = null;
  private writer: IntakeWriter | null = null;
  private tracker: DispatchTracker | null = null;
  private progress: DispatchProgress | null = null;
  private mqtt: MqttConnection | null = null;
  private parser: ReportParser | null = null;
  private sessions: DeviceSessions | null = null;
  private stopping: Promise<void> | null = null;

  private constructor(private readonly options: DeviceWorkerOptions) {}

  static async start(options: DeviceWorkerOptions): Promise<DeviceWorker> {
    const worker = new DeviceWorker(options);
    try {
      await worker.open();
    } catch (err) {
      await worker.closeAll();
      throw err;
    }
    return worker;
  }

  get config(): RuntimeConfig {
    return this.options.config;
  }

  get mqttConnected(): boolean {
    return (this.mqtt?.connected ?? false) && (this.intake?.connected ?? false);
  }

  health(): DeviceWorkerHealth {
    const mqtt = this.mqttConnected;
    return { status: mqtt ? 'ok' : 'degraded', mqtt, backlog: this.writer?.backlog ?? 0, counters: this.counters.snapshot() };
  }

  /** Reads every known device's stored state again (also done at start and after a broker reconnect). */
  catchUp(): Promise<number> {
    return this.intake?.catchUp() ?? Promise.resolve(0);
  }

  /**
   * Takes in what the worker learnt of one of its devices other than from the device's own MQTT messages: a state a
   * probe read off a camera that speaks only RTSP, say. The payload is a `state` message as the device would have
   * sent it (`{ "online": false }` takes it offline); it must pass the family's declared schema, and then goes the
   * intake's way: batched, stored, announced, its alarms raised or cleared. False (nothing taken) for a payload the
   * schema refuses or while the worker is stopping.
   */
  observeState(family: FamilyName, recordId: number, state: Record<string, unknown>): boolean {
    if (!this.parser || !this.writer || this.stopping) return false;
    const message = this.parser.parse(family, MqttChannel.State, Buffer.from(JSON.stringify(state)));
    const at = new Date().toISOString();
    if (message?.kind === 'offline') this.writer.addEvent(family, recordId, { kind: 'offline', at }, null);
    else if (message?.kind === 'report')
      this.writer.addEvent(family, recordId, { kind: 'report', channel: message.channel, report: message.report, at } as never, null);
    else return false;
    this.counters.add('observed');
    return true;
  }

  /**
   * Opens a session with one device of a served family beside the command ledger (a call's voice, DeviceSession):
   * commands sent at once, and the device's events heard on this process while it lasts.
   */
  openSession(family: FamilyName, code: string, onEvent: SessionEventListener): Promise<DeviceSession> {
    if (!this.sessions || this.stopping) return Promise.reject(new Error('the worker is not running'));
    return this.sessions.open(family, code, onEvent);
  }

  private async open(): Promise<void> {
    const { config, logger, name, families } = this.options;
    const declarations = families.map((f) => f.declaration);
    const pool = createPool(config.databaseUrl);
    this.closers.push(() => pool.end());
    await pool.query('SELECT 1');

    const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null, retryStrategy: (n) => Math.min(n * 200, 2000) });
    redis.on('error', (err) => logger.debug({ err: err.message }, 'redis connection error'));
    this.closers.push(() => redis.quit().catch(() => redis.disconnect()));
    const bus = new RedisBus(redis, config.redisPrefix);

    const mqtt = await MqttConnection.connect(config.mqttUrl, {
      clientIdPrefix: `${name}-commands`,
      client: { protocolVersion: 5, ...config.mqttLogin },
      onStateChange: (state, detail) => logger[state === 'connected' ? 'info' : 'warn']({ state, detail }, 'mqtt connection'),
    });
    this.mqtt = mqtt;
    this.closers.push(() => mqtt.close());

    const progress = new DispatchProgress(pool, bus, logger, config.progressIntervalMs, declarations);
    this.progress = progress;
    const stores = new Map<FamilyName, RowStore>(families.map((f) => [f.declaration.family, new RowStore(f)]));
    // Every family's runtime alarms (offline, declared thresholds) beside the worker's own observers.
    const alarms = new AlarmStore();
    const notifier = new AlarmNotifier(bus, logger);
    const familyAlarms = families.flatMap((f) => FamilyAlarms.of(f, alarms, notifier) ?? []);
    const writes = new FamilyWrites(stores, [...familyAlarms, ...(this.options.observers ?? [])], new StateEvents(bus, logger));
    const handlers = new Map<FamilyName, AnyFamilyHandler>(families.map((f) => [f.declaration.family, f]));
    const sender = new CommandSender(pool, mqtt, handlers, writes, progress, this.counters, logger, config, config.publishChunk);

    // Each queue of a served family gets a job worker; its handlers are checked before anything consumes: a job of
    // the queue without a handler (a family on it this worker does not serve), or with two, stops start-up here.
    const queues = [...new Set(declarations.flatMap((d) => (d.queue ? [d.queue] : [])))];
    for (const queue of queues) this.jobWorkers.push(this.createJobWorker(queue, redis, sender));

    const devices = new KnownDevices(pool, declarations, config.unknownDeviceRetryMs);
    this.closers.push(async () => devices.stop());
    // Listening first, so no change between the load and the LISTEN can be missed.
    const codeChanges = new DeviceCodeChanges(config.databaseUrl, (change) => devices.forget(change), logger);
    this.closers.push(() => codeChanges.stop());
    await codeChanges.start();
    const known = await devices.load();

    const writer = new IntakeWriter(pool, writes, progress, this.counters, logger, {
      receiptHoldMs: config.maxBackoffMs,
      batchSize: config.intakeBatchSize,
      flushMs: config.intakeFlushMs,
    });
    this.writer = writer;
    this.closers.push(async () => writer.stop());
    this.parser = new ReportParser(declarations);
    this.sessions = new DeviceSessions(mqtt, this.parser, logger);
    this.intake = new DeviceIntake(declarations, this.parser, devices, writer, this.counters, logger, {
      mqttUrl: config.mqttUrl,
      login: config.mqttLogin,
      name,
      group: config.intakeGroup,
      connections: config.intakeConnections,
      window: config.intakeWindow,
    });

    progress.start();
    for (const observer of this.options.observers ?? []) observer.start?.();
    await this.intake.start();
    const intake = this.intake;
    this.tracker = new DispatchTracker(
      pool,
      sender,
      writes,
      progress,
      this.counters,
      logger,
      {
        intervalMs: config.trackerIntervalMs,
        orphanAfterMs: config.orphanAfterMs,
        receiptHoldMs: config.maxBackoffMs,
        downloadGraceMs: config.downloadGraceMs,
      },
      () => (intake.holdingBack ? null : Math.max(writer.lagMs, writer.ackTimeMs)),
    );
    this.tracker.start();
    const silence = new SilenceSweep(pool, families, writer, this.counters, logger);
    silence.start(config.silenceSweepMs);
    this.closers.push(() => silence.stop());
    for (const jobWorker of this.jobWorkers) {
      void jobWorker.run().catch((err: Error) => logger.error({ err: err.message }, 'job worker stopped'));
      await jobWorker.waitUntilReady();
    }

    const countersTimer = setInterval(
      () => logger.info({ backlog: writer.backlog, counters: this.counters.snapshot() }, 'counters'),
      config.countersLogMs,
    );
    countersTimer.unref();
    this.closers.push(async () => clearInterval(countersTimer));
    if (config.healthPort !== null) await this.serveHealth(config.healthPort);
    logger.info({ families: declarations.map((d) => d.family), devices: known, queues, group: config.intakeGroup }, `${name} worker started`);
  }

  private createJobWorker(queue: QueueName, redis: Redis, sender: CommandSender): Worker {
    const { config, logger } = this.options;
    // The queue's jobs are those of the declared families on it and of the families served here (which a test, or
    // a family being built, may declare outside libs/contracts).
    const served = this.options.families.flatMap((f) => (f.declaration.queue === queue && f.declaration.job ? [f.declaration.job] : []));
    const expected = [...new Set([...jobsOfQueue(queue), ...served, ...(this.options.jobs?.keys() ?? [])])];
    const handlers = distributeHandlers(served, sender, logger);
    for (const [job, handler] of this.options.jobs ?? []) handlers.set(job, handler);
    const connection = redis.duplicate();
    connection.on('error', () => undefined);
    this.closers.push(() => connection.quit().catch(() => connection.disconnect()));
    const jobWorker = createJobWorker(
      queue,
      [],
      {
        connection,
        redisPrefix: config.redisPrefix,
        concurrency: config.concurrency,
        autorun: false,
        // A worker killed mid-job loses its lock soon, so another replica (or the restarted one) takes the job over.
        lockDuration: 10_000,
        stalledInterval: 5_000,
      },
      handlers,
      expected,
    );
    jobWorker.on('error', (err) => logger.warn({ err: err.message }, 'job worker error'));
    jobWorker.on('failed', (job, err) => logger.error({ job: job?.id, err: err.message }, 'job failed'));
    return jobWorker;
  }

  private async serveHealth(port: number): Promise<void> {
    const server: Server = createServer((req, res) => {
      if (req.url !== '/health') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      // Not ready while the broker is away: commands could not go out and device traffic would not come in.
      const health = this.health();
      res.writeHead(health.mqtt ? 200 : 503, { 'content-type': 'application/json' });
      res.end(JSON.stringify(health));
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, resolve));
    this.closers.push(() => new Promise((resolve) => server.close(resolve)));
  }

  /**
   * Stops taking jobs (waiting for those running), leaves the intake group and stores (and acknowledges) what came,
   * finishes the tracker pass and the progress in hand, then closes MQTT, Redis and PostgreSQL.
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      await this.options
        .onStopping?.()
        .catch((err: Error) => this.options.logger.warn({ err: err.message }, 'stopping what ran beside the runtime failed'));
      await Promise.all(this.jobWorkers.map((w) => w.close().catch(() => undefined)));
      await this.intake?.stop().catch(() => undefined);
      await this.tracker?.stop();
      for (const observer of this.options.observers ?? []) await observer.stop?.();
      await this.progress?.stop();
      await this.closeAll();
      await this.options.onStopped?.();
      this.options.logger.info({ counters: this.counters.snapshot() }, `${this.options.name} worker stopped`);
    })();
    return this.stopping;
  }

  private async closeAll(): Promise<void> {
    await Promise.all(this.jobWorkers.map((w) => w.close().catch(() => undefined)));
    for (const close of this.closers.reverse()) await close().catch(() => undefined);
    this.closers = [];
  }
}
