import 'reflect-metadata';
import { redactUrl, runMigrations } from '@sc/database';
import { createRootLogger, loadRuntimeConfig, startDeviceWorker, stopOnSignal } from '@sc/device-runtime';
import { SIGNAGE_FAMILIES, SIGNAGE_OBSERVERS } from './signage-worker';

async function main(): Promise<void> {
  const config = loadRuntimeConfig('signage');
  const logger = createRootLogger('worker-signage');
  logger.info({ database: redactUrl(config.databaseUrl), redis: redactUrl(config.redisUrl), mqtt: redactUrl(config.mqttUrl) }, 'starting');
  // Its table may be newer than the database (a worker deployed before the gateway); migrating takes an advisory lock.
  const applied = await runMigrations(config.databaseUrl);
  if (applied.length > 0) logger.info({ applied }, 'database migrated');
  const worker = await startDeviceWorker({ name: 'signage', families: SIGNAGE_FAMILIES, observers: SIGNAGE_OBSERVERS(), config, logger });
  stopOnSignal(worker, logger);
}

main().catch((err: Error) => {
  process.stderr.write(`worker-signage: ${err.message}\n`);
  process.exit(1);
});
