import 'reflect-metadata';
import { redactUrl, runMigrations } from '@sc/database';
import { createRootLogger } from '@sc/device-runtime';
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

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'stopping: finishing jobs in progress and storing the device messages in hand');
    // A stop that hangs (a service gone for good) must not keep the process alive forever.
    setTimeout(() => process.exit(1), 20_000).unref();
    worker.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: Error) => {
  process.stderr.write(`worker-lighting: ${err.message}\n`);
  process.exit(1);
});
