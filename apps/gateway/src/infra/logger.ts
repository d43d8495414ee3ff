import type { LoggerService } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import pino, { type Level, type Logger } from 'pino';

/** JSON lines when not on a terminal (or LOG_FORMAT=json), readable lines on one. */
export function createRootLogger(service: string): Logger {
  const pretty = process.stdout.isTTY && process.env.LOG_FORMAT !== 'json';
  return pino({
    level: process.env.LOG_LEVEL ?? 'info',
    base: { service },
    redact: ['headers.authorization', 'headers.cookie', '*.password', '*.token'],
    transport: pretty ? { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } : undefined,
  });
}

/**
 * Nest's logger interface over pino. Nest passes (message, ...params, context); a message may be an object of fields,
 * with the text as the next parameter.
 */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly root: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: Level, message: unknown, rest: unknown[]): void {
    if (!this.root.isLevelEnabled(level)) return;
    const params = [...rest];
    const context = params.length > 0 && typeof params[params.length - 1] === 'string' ? (params.pop() as string) : undefined;
    if (message !== null && typeof message === 'object') {
      this.root[level]({ context, ...(message as object) }, typeof params[0] === 'string' ? params[0] : undefined);
    } else {
      // Nest's own error calls pass a stack trace after the message.
      const stack = level === 'error' && typeof params[0] === 'string' ? { stack: params[0] } : {};
      this.root[level]({ context, ...stack }, String(message));
    }
  }
}

/** One line per answered request: errors always, client errors as warnings, the rest at debug level. */
export function logRequests(app: FastifyInstance, root: Logger): void {
  app.addHook('onResponse', (req, reply, done) => {
    const status = reply.statusCode;
    const level: Level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'debug';
    if (root.isLevelEnabled(level) && req.url !== '/api/health') {
      root[level]({ reqId: req.id, method: req.method, path: req.url.split('?')[0], status, ms: Math.round(reply.elapsedTime) }, 'request');
    }
    done();
  });
}
