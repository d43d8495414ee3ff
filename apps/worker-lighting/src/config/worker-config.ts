/** Settings come from the environment; every default points at the local services on their standard ports. */
export interface WorkerConfig {
  databaseUrl: string;
  redisUrl: string;
  mqttUrl: string;
  /** Prefix of every Redis key and channel, so installations (and test runs) sharing a server stay apart. */
  redisPrefix: string;
  /** Distribution jobs run at the same time by one replica. */
  concurrency: number;
  /** Dispatch rows marked sent and published per database round trip. */
  publishChunk: number;
  /** Wait for an ack before the first re-send; each further re-send waits twice as long, up to maxBackoffMs. */
  ackTimeoutMs: number;
  maxBackoffMs: number;
  /** How often overdue and expired rows are looked for. */
  trackerIntervalMs: number;
  /** Queued rows older than this are sent by the tracker, in case their job was lost or failed. */
  orphanAfterMs: number;
  /** At most one DispatchProgress per dispatch per interval. */
  progressIntervalMs: number;
  /**
   * Device messages are written together: at most this many per statement, at most this long after arrival. Batches
   * are written one after another, so under load they fill up anyway; the wait only matters for the tail latency.
   */
  intakeBatchSize: number;
  intakeFlushMs: number;
  /** MQTT shared subscription group: replicas in one group split the device traffic. */
  intakeGroup: string;
  /**
   * MQTT connections that join the intake group. A broker keeps only a few QoS 1 messages in flight per client
   * (Mosquitto: max_inflight_messages 20) and queues a limited number behind them (max_queued_messages 1000,
   * dropping the rest), so one connection caps intake at 20 messages per event-loop turn; several multiply it.
   */
  intakeConnections: number;
  /** A device code not found is looked up again at most this often. */
  unknownDeviceRetryMs: number;
  countersLogMs: number;
  /** Day-burning and dark-lamp checks over every lamp this often (0 turns the periodic check off). */
  lightCheckIntervalMs: number;
  /** A light condition must have held this long before it raises an alarm (lamps switching at dusk or dawn). */
  lightCheckGraceMs: number;
  /** Where lamps without a position (of their own or of a region above them) are: the installation default. */
  defaultPlace: { latitude: number; longitude: number; timeZone: string };
  /** Power readings further apart than this are not integrated across the gap (energy, see energy-integration.ts). */
  energyMaxGapMs: number;
  /** GET /health answers here when set. */
  healthPort: number | null;
}

function int(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) ? n : fallback;
}

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const redisPrefix = env.REDIS_PREFIX ?? 'sc:';
  return {
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/smart_city',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    mqttUrl: env.MQTT_URL ?? 'mqtt://127.0.0.1:1883',
    redisPrefix,
    concurrency: int(env.WORKER_CONCURRENCY, 4),
    publishChunk: int(env.PUBLISH_CHUNK, 1000),
    ackTimeoutMs: int(env.ACK_TIMEOUT_MS, 3000),
    maxBackoffMs: int(env.MAX_BACKOFF_MS, 30_000),
    trackerIntervalMs: int(env.TRACKER_INTERVAL_MS, 300),
    orphanAfterMs: int(env.ORPHAN_AFTER_MS, 15_000),
    progressIntervalMs: int(env.PROGRESS_INTERVAL_MS, 100),
    intakeBatchSize: int(env.INTAKE_BATCH_SIZE, 1000),
    intakeFlushMs: int(env.INTAKE_FLUSH_MS, 5),
    // One group per installation: two installations on one broker (or parallel test runs) each get every message,
    // and each keeps only its own devices, instead of splitting the traffic between them.
    intakeGroup: env.INTAKE_GROUP ?? `lighting-${redisPrefix.replace(/[^A-Za-z0-9_-]/g, '') || 'default'}`,
    intakeConnections: Math.max(1, int(env.INTAKE_CONNECTIONS, 16)),
    unknownDeviceRetryMs: int(env.UNKNOWN_DEVICE_RETRY_MS, 10_000),
    countersLogMs: int(env.COUNTERS_LOG_MS, 30_000),
    lightCheckIntervalMs: int(env.LIGHT_CHECK_INTERVAL_MS, 60_000),
    lightCheckGraceMs: int(env.LIGHT_CHECK_GRACE_MS, 120_000),
    // The same installation default as the gateway's schedules (docs/lighting-strategies.md).
    defaultPlace: {
      latitude: int(env.SCHEDULE_DEFAULT_LATITUDE, 22.5431),
      longitude: int(env.SCHEDULE_DEFAULT_LONGITUDE, 114.0579),
      timeZone: env.SCHEDULE_DEFAULT_TIME_ZONE || 'Asia/Shanghai',
    },
    energyMaxGapMs: int(env.ENERGY_MAX_GAP_MS, 15 * 60_000),
    healthPort: env.WORKER_HEALTH_PORT ? int(env.WORKER_HEALTH_PORT, 0) : null,
  };
}
