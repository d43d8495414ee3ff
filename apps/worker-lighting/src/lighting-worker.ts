import Redis from 'ioredis';
import type { Logger } from 'pino';
import { AlarmNotifier, AlarmStore, createPool, DeviceWorker, type AnyFamilyHandler } from '@sc/device-runtime';
import { RedisBus } from '@sc/messaging';
import { FaultAlarmRecorder } from './alarms/fault-alarms';
import { LightConditionCheck } from './alarms/light-condition-check';
import type { WorkerConfig } from './config/worker-config';
import { DEFAULT_INTEGRATION } from './energy/energy-integration';
import { EnergyRecorder } from './energy/energy-recorder';
import { lampGatewayHandler } from './families/lamp-gateway.handler';
import { lampHandler } from './families/lamp.handler';
import { stripHandler } from './families/strip.handler';

/** The families the lighting worker serves. */
export const LIGHTING_FAMILIES: readonly AnyFamilyHandler[] = [lampHandler, stripHandler, lampGatewayHandler];

export interface LightingWorkerOverrides {
  /** Replaces the served families (tests prove that a queue job without its family refuses to start). */
  families?: readonly AnyFamilyHandler[];
}

/**
 * The lighting worker: single lamps, strip lights and their gateways on the device runtime, plus lighting's own rules
 * beside the lamps' rows: alarms from fault reports, energy from power readings, day-burning and dark-lamp checks.
 */
export async function startLightingWorker(config: WorkerConfig, logger: Logger, overrides: LightingWorkerOverrides = {}): Promise<DeviceWorker> {
  // Lighting's own connections: the light check reads every lamp periodically and alarms are announced on the bus.
  const pool = createPool(config.databaseUrl, 2);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null, retryStrategy: (n) => Math.min(n * 200, 2000) });
  redis.on('error', (err) => logger.debug({ err: err.message }, 'redis connection error'));
  const alarms = new AlarmStore();
  const notifier = new AlarmNotifier(new RedisBus(redis, config.redisPrefix), logger);
  const lightCheck = new LightConditionCheck(pool, alarms, notifier, logger, {
    intervalMs: config.lightCheckIntervalMs,
    graceMs: config.lightCheckGraceMs,
    touchDelayMs: 500,
    defaultPlace: config.defaultPlace,
  });
  const release = async () => {
    await pool.end().catch(() => undefined);
    await redis.quit().catch(() => redis.disconnect());
  };
  try {
    return await DeviceWorker.start({
      name: 'lighting',
      families: overrides.families ?? LIGHTING_FAMILIES,
      observers: [
        new FaultAlarmRecorder(alarms, notifier),
        new EnergyRecorder({ ...DEFAULT_INTEGRATION, maxGapMs: config.energyMaxGapMs }),
        lightCheck,
      ],
      config,
      logger,
      // Lighting's own connections close once the runtime has stopped everything that uses them.
      onStopped: release,
    });
  } catch (err) {
    await lightCheck.stop();
    await release();
    throw err;
  }
}
