import 'reflect-metadata';
import { redactUrl, runMigrations } from '@sc/database';
import { createRootLogger, loadRuntimeConfig, startDeviceWorker, stopOnSignal } from '@sc/device-runtime';
import { BROADCAST_FAMILIES, BROADCAST_OBSERVERS } from './broadcast-worker';

async function main(): Promise<void> {
  const config = loadRuntimeConfig('broadcast');
  const logger = createRootLogger('worker-broadcast');
  logger.info({ database: redactUrl(config.databaseUrl), redis: redactUrl(config.redisUrl), mqtt: redactUrl(config.mqttUrl) }, 'starting');
  // Its table may be newer than the database (a worker deployed before the gateway); migrating takes an advisory lock.
  const applied = await runMigrations(config.databaseUrl);
  if (applied.length > 0) logger.info({ applied }, 'database migrated');
  const worker = await startDeviceWorker({ name: 'broadcast', families: BROADCAST_FAMILIES, observers: BROADCAST_OBSERVERS(), config, logger });
  stopOnSignal(worker, logger);
}

main().catch((err: Error) => {
  process.stderr.write(`worker-broadcast: ${err.message}\n`);
  process.exit(1);
});
