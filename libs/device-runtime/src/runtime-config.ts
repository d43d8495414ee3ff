import { serviceMqttLogin, type MqttLogin } from '@sc/messaging';
/** A device worker's settings; they come from the environment, and every default points at the local services. */
export interface RuntimeConfig {
  databaseUrl: string;
  redisUrl: string;
  mqttUrl: string;
  /** The worker's MQTT account (`svc/worker-{name}`); none for a broker that takes anonymous clients. */
  mqttLogin?: MqttLogin;
  /** Prefix of every Redis key and channel, so installations (and test runs) sharing a server stay apart. */
  redisPrefix: string;
  /** Distribution jobs run at the same time by one replica. */
  concurrency: number;
  /** Ledger rows marked sent and published per database round trip. */
  publishChunk: number;
  /** Wait for an ack before the first re-send; each further re-send waits twice as long, up to maxBackoffMs. */
  ackTimeoutMs: number;
  /**
   * How long past its dispatch's expiry a row stays open while its device keeps saying how its download goes (a
   * large video on a slow link); then it expires like any other.
   */
  downloadGraceMs: number;
  maxBackoffMs: number;
  /** How often overdue and expired rows are looked for. */
  trackerIntervalMs: number;
  /** Queued rows older than this are sent by the tracker, in case their job was lost or failed. */
  orphanAfterMs: number;
  /** At most one DispatchProgress per dispatch per interval. */
  progressIntervalMs: number;
  /** Device messages are written together: at most this many per transaction, at most this long after arrival. */
  intakeBatchSize: number;
  intakeFlushMs: number;
  /** MQTT shared subscription group: replicas in one group split the device traffic. One group per installation. */
  intakeGroup: string;
  /**
   * MQTT connections that join the intake group. One is enough for tens of thousands of messages a second (its
   * window is large), and keeps each device's messages in the order the broker sent them: a broker hands the
   * messages of a shared subscription to its members in turn, so members can see one device's messages out of order.
   */
  intakeConnections: number;
  /**
   * Unacknowledged messages the broker may have in flight to each intake connection (MQTT 5 Receive Maximum).
   * Messages are acknowledged once stored, so connections × window bounds what a worker holds; under overload the
   * broker keeps the rest.
   */
  intakeWindow: number;
  /** A device code not found is looked up again at most this often. */
  unknownDeviceRetryMs: number;
  countersLogMs: number;
  /** How often devices silent past their family's heartbeats are looked for (SilenceSweep). */
  silenceSweepMs: number;
  /** GET /health answers here when set. */
  healthPort: number | null;
}

export function envNumber(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) ? n : fallback;
}

/** The runtime's settings from the environment; `name` is the worker's (`lighting`), for its default intake group. */
export function loadRuntimeConfig(name: string, env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  const redisPrefix = env.REDIS_PREFIX ?? 'sc:';
  return {
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/smart_city',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    mqttUrl: env.MQTT_URL ?? 'mqtt://127.0.0.1:1883',
    mqttLogin: serviceMqttLogin(`worker-${name}`, env),
    redisPrefix,
    concurrency: envNumber(env.WORKER_CONCURRENCY, 4),
    publishChunk: envNumber(env.PUBLISH_CHUNK, 1000),
    ackTimeoutMs: envNumber(env.ACK_TIMEOUT_MS, 3000),
    downloadGraceMs: envNumber(env.DOWNLOAD_GRACE_MS, 30 * 60_000),
    maxBackoffMs: envNumber(env.MAX_BACKOFF_MS, 30_000),
    trackerIntervalMs: envNumber(env.TRACKER_INTERVAL_MS, 300),
    orphanAfterMs: envNumber(env.ORPHAN_AFTER_MS, 15_000),
    progressIntervalMs: envNumber(env.PROGRESS_INTERVAL_MS, 100),
    intakeBatchSize: envNumber(env.INTAKE_BATCH_SIZE, 2000),
    intakeFlushMs: envNumber(env.INTAKE_FLUSH_MS, 5),
    // Two installations on one broker (or parallel test runs) each get every message and keep only their own devices,
    // instead of splitting the traffic between them.
    intakeGroup: env.INTAKE_GROUP ?? `${name}-${redisPrefix.replace(/[^A-Za-z0-9_-]/g, '') || 'default'}`,
    intakeConnections: Math.max(1, envNumber(env.INTAKE_CONNECTIONS, 1)),
    intakeWindow: Math.min(65_535, Math.max(1, envNumber(env.INTAKE_WINDOW, 4000))),
    unknownDeviceRetryMs: envNumber(env.UNKNOWN_DEVICE_RETRY_MS, 10_000),
    countersLogMs: envNumber(env.COUNTERS_LOG_MS, 30_000),
    silenceSweepMs: envNumber(env.SILENCE_SWEEP_MS, 15_000),
    healthPort: env.WORKER_HEALTH_PORT ? envNumber(env.WORKER_HEALTH_PORT, 0) : null,
  };
}
