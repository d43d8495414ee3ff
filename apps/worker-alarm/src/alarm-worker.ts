import Redis from 'ioredis';
import type { Logger } from 'pino';
import { ALARM_CALL_TIMING } from '@sc/contracts';
import {
  createPool,
  envNumber,
  startDeviceWorker,
  type AnyFamilyHandler,
  type ChangeObserver,
  type DeviceWorker,
  type RuntimeConfig,
} from '@sc/device-runtime';
import { RedisBus } from '@sc/messaging';
import { CallRouter } from './calls/call-router';
import { alarmHandler } from './families/alarm.handler';
import { PressRecorder } from './presses/press-recorder';
import { VoiceCalls } from './voice/voice-calls';
import { voicePeerOptionsFromEnv } from '@sc/device-runtime/voice/voice-env';

/** The families the alarm worker serves: its alarm columns. */
export const ALARM_FAMILIES: readonly AnyFamilyHandler[] = [alarmHandler];

/** What the worker writes beside the rows: every press and its incident, announced once stored. */
export const ALARM_OBSERVERS = (bus: RedisBus, logger: Logger, router: CallRouter, waitMs: number): ChangeObserver[] => [
  new PressRecorder(bus, logger, router, waitMs),
];

/**
 * The alarm worker: alarm columns on the device runtime, their presses recorded beside them as incidents, and the
 * calls of the incidents routed to the agents (CallRouter). A process of its own, so that a press reaches the consoles
 * without waiting behind another family's intake or jobs.
 */
export async function startAlarmWorker(config: RuntimeConfig, logger: Logger): Promise<DeviceWorker> {
  const pool = createPool(config.databaseUrl, 4);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null, retryStrategy: (n) => Math.min(n * 200, 2000) });
  redis.on('error', (err) => logger.debug({ err: err.message }, 'redis connection error'));
  const bus = new RedisBus(redis, config.redisPrefix);
  const router = new CallRouter(pool, bus, logger, {
    ringMs: envNumber(process.env.ALARM_RING_MS, ALARM_CALL_TIMING.ringMs),
    passMs: envNumber(process.env.ALARM_CALL_PASS_MS, 250),
  });
  const subscriber = redis.duplicate();
  subscriber.on('error', (err) => logger.debug({ err: err.message }, 'redis subscriber error'));
  let worker: DeviceWorker | null = null;
  const voice = new VoiceCalls(
    pool,
    redis,
    subscriber,
    () => worker,
    logger,
    (ids) => router.announce(ids),
    {
      prefix: config.redisPrefix,
      recordDir: process.env.VOICE_RECORDING_DIR ?? 'var/recordings',
      peer: voicePeerOptionsFromEnv(),
    },
  );
  const release = async () => {
    await voice.stop();
    subscriber.disconnect();
    await router.stop();
    await pool.end().catch(() => undefined);
    await redis.quit().catch(() => redis.disconnect());
  };
  try {
    router.start();
    // Listening first: a join that comes before the worker is up is answered 'unavailable' rather than lost.
    await voice.start();
    worker = await startDeviceWorker({
      name: 'alarm',
      families: ALARM_FAMILIES,
      observers: ALARM_OBSERVERS(bus, logger, router, envNumber(process.env.ALARM_CALL_WAIT_MS, ALARM_CALL_TIMING.waitMs)),
      config,
      logger,
      // The calls' voice ends (each recording stored) while the worker's MQTT connection can still hang the columns up.
      onStopping: () => voice.stop(),
      onStopped: release,
    });
    return worker;
  } catch (err) {
    await release();
    throw err;
  }
}
