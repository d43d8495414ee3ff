import Redis from 'ioredis';
import type { Logger } from 'pino';
import { createPool, envNumber, startDeviceWorker, type AnyFamilyHandler, type DeviceWorker, type RuntimeConfig } from '@sc/device-runtime';
import { RedisBus } from '@sc/messaging';
import { radarHandler } from './families/radar.handler';
import { DetectionLamps } from './lamps/detection-lamps';
import { RadarLampRules } from './lamps/radar-lamp-rules';

/** The families the radar worker serves: its radars. */
export const RADAR_FAMILIES: readonly AnyFamilyHandler[] = [radarHandler];

/**
 * The radar worker: radars on the device runtime, and detection to lamps beside them (DetectionLamps). A process of
 * its own, so that a detection's way to its lamps never waits behind another family's intake or jobs.
 */
export async function startRadarWorker(config: RuntimeConfig, logger: Logger): Promise<DeviceWorker> {
  const pool = createPool(config.databaseUrl, 4);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null, retryStrategy: (n) => Math.min(n * 200, 2000) });
  redis.on('error', (err) => logger.debug({ err: err.message }, 'redis connection error'));
  const rules = new RadarLampRules(pool, config.databaseUrl, logger);
  const release = async () => {
    await rules.stop();
    await pool.end().catch(() => undefined);
    await redis.quit().catch(() => redis.disconnect());
  };
  try {
    await rules.start();
    const lamps = new DetectionLamps(pool, rules, new RedisBus(redis, config.redisPrefix), logger, envNumber(process.env.RADAR_RETURN_PASS_MS, 200));
    return await startDeviceWorker({ name: 'radar', families: RADAR_FAMILIES, observers: [lamps], config, logger, onStopped: release });
  } catch (err) {
    await release();
    throw err;
  }
}
