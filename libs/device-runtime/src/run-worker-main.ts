import type { Logger } from 'pino';
import { redactUrl, runMigrations } from '@sc/database';
import type { DeviceWorker } from './device-worker';
import { createRootLogger } from './infra/logger';
import { stopOnSignal } from './infra/stop-on-signal';
import type { RuntimeConfig } from './runtime-config';

/**
 * A worker process's main: logs where it connects, migrates the database (its tables may be newer than the database:
 * a worker deployed before the gateway; migrating takes an advisory lock, so it is safe beside a gateway doing the
 * same), starts the worker, stops it on SIGTERM / SIGINT, and exits 1 with the reason when it cannot start.
 */
export function runWorkerMain<C extends RuntimeConfig>(
  service: string,
  loadConfig: () => C,
  start: (config: C, logger: Logger) => Promise<DeviceWorker>,
): void {
  const main = async () => {
    const config = loadConfig();
    const logger = createRootLogger(service);
    logger.info({ database: redactUrl(config.databaseUrl), redis: redactUrl(config.redisUrl), mqtt: redactUrl(config.mqttUrl) }, 'starting');
    const applied = await runMigrations(config.databaseUrl);
    if (applied.length > 0) logger.info({ applied }, 'database migrated');
    stopOnSignal(await start(config, logger), logger);
  };
  main().catch((err: Error) => {
    process.stderr.write(`${service}: ${err.message}\n`);
    process.exit(1);
  });
}
