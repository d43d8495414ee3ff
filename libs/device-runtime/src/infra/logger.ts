import pino, { type Logger } from 'pino';

/** JSON lines when not on a terminal (or LOG_FORMAT=json), readable lines on one. */
export function createRootLogger(service: string): Logger {
  const pretty = process.stdout.isTTY && process.env.LOG_FORMAT !== 'json';
  return pino({
    level: process.env.LOG_LEVEL ?? 'info',
    base: { service },
    transport: pretty ? { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } : undefined,
  });
}
