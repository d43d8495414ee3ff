import type { Logger } from 'pino';

/**
 * A worker process's end: on SIGTERM or SIGINT the worker stops gracefully (jobs in progress finished, device messages
 * in hand stored) and the process exits; a stop that hangs (a service gone for good) ends it after `graceMs`.
 */
export function stopOnSignal(worker: { stop(): Promise<void> }, logger: Logger, graceMs = 20_000): void {
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'stopping: finishing jobs in progress and storing the device messages in hand');
    setTimeout(() => process.exit(1), graceMs).unref();
    worker.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
