import { Catch, HttpException, HttpStatus, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { errorCodes, type FastifyReply } from 'fastify';
import { ResultCode, type ApiResponse, type FieldError } from '@sc/contracts';
import { translate, translateField } from '@sc/i18n';
import { AppException } from './app-exception';
import { languageOf, type AppRequest } from './request-context';

const HTTP_TO_RESULT: Partial<Record<number, { code: ResultCode; key: AppException['key'] }>> = {
  [HttpStatus.BAD_REQUEST]: { code: ResultCode.BadRequest, key: 'invalidValue' },
  [HttpStatus.UNAUTHORIZED]: { code: ResultCode.LoggedOut, key: 'loggedOut' },
  [HttpStatus.FORBIDDEN]: { code: ResultCode.Forbidden, key: 'forbidden' },
  [HttpStatus.NOT_FOUND]: { code: ResultCode.NotFound, key: 'notFound' },
  [HttpStatus.PAYLOAD_TOO_LARGE]: { code: ResultCode.PayloadTooLarge, key: 'payloadTooLarge' },
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: { code: ResultCode.UnsupportedMediaType, key: 'invalidValue' },
  [HttpStatus.TOO_MANY_REQUESTS]: { code: ResultCode.TooManyRequests, key: 'tryLater' },
  [HttpStatus.SERVICE_UNAVAILABLE]: { code: ResultCode.ServiceUnavailable, key: 'serviceUnavailable' },
};

/**
 * Nest hands Fastify's body-parser errors to the filters as plain HttpExceptions that keep only the message
 * (the error code is lost), so a malformed or empty JSON body is recognised by Fastify's own message text.
 */
const MALFORMED_BODY_MESSAGES = new Set([
  new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY().message,
  new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY().message,
]);

/** PostgreSQL error classes and client errors that mean the database is out of reach, not that the request was wrong. */
function isDatabaseUnreachable(err: { code?: string; message?: string }): boolean {
  const code = err.code ?? '';
  return (
    code.startsWith('08') ||
    ['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT'].includes(code) ||
    /Connection terminated|timeout exceeded when trying to connect/i.test(err.message ?? '')
  );
}

function isRedisUnreachable(err: { name?: string; message?: string }): boolean {
  return err.name === 'MaxRetriesPerRequestError' || /Connection is closed|Stream isn't writeable/i.test(err.message ?? '');
}

/** What an unexpected error may put in the log: no SQL parameters (they can hold password and token hashes). */
function loggable(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { value: String(err) };
  const { name, message, stack } = err;
  return { name, message, stack, code: (err as { code?: unknown }).code };
}

/** Normalises anything thrown into an AppException; unknown errors become a 500, logged when a logger is given. */
export function toAppException(error: unknown, path: string, logger?: Logger): AppException {
  if (error instanceof AppException) return error;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status === HttpStatus.NOT_FOUND) return new AppException(status, ResultCode.NotFound, 'routeNotFound', { path });
    if (status === HttpStatus.BAD_REQUEST && MALFORMED_BODY_MESSAGES.has(error.message)) {
      return new AppException(status, ResultCode.BadRequest, 'malformedBody');
    }
    const mapped = HTTP_TO_RESULT[status];
    if (mapped) return new AppException(status, mapped.code, mapped.key);
  }
  const err = (error ?? {}) as { code?: string; statusCode?: number; name?: string; message?: string };
  // Fastify's own request errors (body parser, multipart limits, an interrupted upload) carry a 4xx status.
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    if (err.statusCode === HttpStatus.PAYLOAD_TOO_LARGE) return new AppException(413, ResultCode.PayloadTooLarge, 'payloadTooLarge');
    return new AppException(HttpStatus.BAD_REQUEST, ResultCode.BadRequest, err.code?.startsWith('FST_ERR_CTP') ? 'malformedBody' : 'invalidValue');
  }
  if (isDatabaseUnreachable(err) || isRedisUnreachable(err)) {
    logger?.warn({ err: loggable(error), path }, 'A back-end service is out of reach');
    return new AppException(HttpStatus.SERVICE_UNAVAILABLE, ResultCode.ServiceUnavailable, 'serviceUnavailable', {}, [], { 'Retry-After': '5' });
  }
  logger?.error({ err: loggable(error), path }, 'Unhandled error');
  return new AppException(HttpStatus.INTERNAL_SERVER_ERROR, ResultCode.InternalError, 'internalError');
}

/** Every error leaves as the envelope `{ code, data, message }` with a message in the caller's language. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Http');

  catch(error: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<AppRequest>();
    const reply = ctx.getResponse<FastifyReply>();
    const path = req.url?.split('?')[0] ?? '';
    const ex = toAppException(error, path, this.logger);
    const body = renderError(ex, languageOf(req));
    for (const [name, value] of Object.entries(ex.headers)) void reply.header(name, value);
    void reply.status(ex.status).send(body);
  }
}

export function renderError(ex: AppException, lng: ReturnType<typeof languageOf>): ApiResponse<unknown> {
  const errors: FieldError[] = ex.fields.map((f) => {
    const reason = translate(lng, f.key, f.params);
    return { field: f.field, message: translate(lng, 'validationField', { field: translateField(lng, f.field), message: reason }), reason };
  });
  // A refusal of the input names each field; any other keeps its own message (a taken name says so once).
  const message = ex.key === 'validationField' && errors.length > 0 ? errors.map((e) => e.message).join('; ') : translate(lng, ex.key, ex.params);
  return { code: ex.code, data: errors.length > 0 ? { errors } : ex.data, message };
}
