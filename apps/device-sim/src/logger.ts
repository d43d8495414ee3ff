import pino, { type Logger } from 'pino';

/** JSON lines when not on a terminal (or LOG_FORMAT=json), readable lines on one: the same choice as the other services. */
export function createLogger(): Logger {
  const pretty = process.stdout.isTTY && process.env.LOG_FORMAT !== 'json';
  return pino({
    level: process.env.LOG_LEVEL ?? 'info',
    base: { service: 'device-sim' },
    transport: pretty ? { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } : undefined,
  });
}
