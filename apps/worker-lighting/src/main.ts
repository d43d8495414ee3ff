import 'reflect-metadata';
import { redactUrl, runMigrations } from '@sc/database';
import { createRootLogger, stopOnSignal } from '@sc/device-runtime';
import { loadWorkerConfig } from './config/worker-config';
import { startLightingWorker } from './lighting-worker';

async function main(): Promise<void> {
  const config = loadWorkerConfig();
  const logger = createRootLogger('worker-lighting');
  logger.info({ database: redactUrl(config.databaseUrl), redis: redactUrl(config.redisUrl), mqtt: redactUrl(config.mqttUrl) }, 'starting');
  // The tables this worker needs may be newer than the database (a worker deployed before the gateway); migrating
  // takes an advisory lock, so it is safe beside a gateway doing the same.
  const applied = await runMigrations(config.databaseUrl);
  if (applied.length > 0) logger.info({ applied }, 'database migrated');
  const worker = await startLightingWorker(config, logger);
  stopOnSignal(worker, logger);
}

main().catch((err: Error) => {
  process.stderr.write(`worker-lighting: ${err.message}\n`);
  process.exit(1);
});
