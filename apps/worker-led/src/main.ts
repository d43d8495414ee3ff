import 'reflect-metadata';
import { redactUrl, runMigrations } from '@sc/database';
import { createPool, createRootLogger, envNumber, loadRuntimeConfig, startDeviceWorker, stopOnSignal } from '@sc/device-runtime';
import { DaylightBrightness } from './daylight/daylight-brightness';
import { LED_FAMILIES } from './led-worker';

async function main(): Promise<void> {
  const config = loadRuntimeConfig('led');
  const logger = createRootLogger('worker-led');
  logger.info({ database: redactUrl(config.databaseUrl), redis: redactUrl(config.redisUrl), mqtt: redactUrl(config.mqttUrl) }, 'starting');
  // Its table may be newer than the database (a worker deployed before the gateway); migrating takes an advisory lock.
  const applied = await runMigrations(config.databaseUrl);
  if (applied.length > 0) logger.info({ applied }, 'database migrated');
  const pool = createPool(config.databaseUrl, 2);
  const daylight = new DaylightBrightness(pool, logger);
  const worker = await startDeviceWorker({
    name: 'led',
    families: LED_FAMILIES,
    config,
    logger,
    onStopped: async () => {
      await daylight.stop();
      await pool.end();
    },
  });
  daylight.start(envNumber(process.env.LED_DAYLIGHT_INTERVAL_MS, 60_000));
  stopOnSignal(worker, logger);
}

main().catch((err: Error) => {
  process.stderr.write(`worker-led: ${err.message}\n`);
  process.exit(1);
});
