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
  const release = async () => {
    await router.stop();
    await pool.end().catch(() => undefined);
    await redis.quit().catch(() => redis.disconnect());
  };
  try {
    router.start();
    return await startDeviceWorker({
      name: 'alarm',
      families: ALARM_FAMILIES,
      observers: ALARM_OBSERVERS(bus, logger, router, envNumber(process.env.ALARM_CALL_WAIT_MS, ALARM_CALL_TIMING.waitMs)),
      config,
      logger,
      onStopped: release,
    });
  } catch (err) {
    await release();
    throw err;
  }
}
