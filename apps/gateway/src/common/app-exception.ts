import { HttpStatus } from '@nestjs/common';
import { ResultCode } from '@sc/contracts';
import type { MessageKey } from '@sc/i18n';

/** A field-level problem before translation. */
export interface FieldProblem {
  field: string;
  key: MessageKey;
  params?: Record<string, unknown>;
}

/**
 * Every error the API answers with: an HTTP status, the envelope code, and a catalogue message key
 * that the exception filter translates into the caller's language.
 */
export class AppException extends Error {
  /** What the answer carries as `data` besides the message (field errors take precedence). */
  data: unknown = null;

  constructor(
    readonly status: HttpStatus,
    readonly code: ResultCode,
    readonly key: MessageKey,
    readonly params: Record<string, unknown> = {},
    readonly fields: FieldProblem[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(key);
  }

  static badRequest(key: MessageKey, params?: Record<string, unknown>, fields?: FieldProblem[]): AppException {
    return new AppException(HttpStatus.BAD_REQUEST, ResultCode.BadRequest, key, params, fields);
  }
  /** A refusal whose answer also carries data, e.g. the bad rows of an import. */
  static badRequestWithData(key: MessageKey, params: Record<string, unknown>, data: unknown): AppException {
    const ex = AppException.badRequest(key, params);
    ex.data = data;
    return ex;
  }
  static field(field: string, key: MessageKey, params?: Record<string, unknown>): AppException {
    return AppException.badRequest('validationField', {}, [{ field, key, params }]);
  }
  static loggedOut(): AppException {
    return new AppException(HttpStatus.UNAUTHORIZED, ResultCode.LoggedOut, 'loggedOut');
  }
  static forbidden(key: MessageKey = 'forbidden'): AppException {
    return new AppException(HttpStatus.FORBIDDEN, ResultCode.Forbidden, key);
  }
  static notFound(key: MessageKey = 'notFound', params?: Record<string, unknown>): AppException {
    return new AppException(HttpStatus.NOT_FOUND, ResultCode.NotFound, key, params);
  }
  /**
   * A value another record already holds (a name, a code): a conflict whose message also stands under the field that
   * holds it, so a form shows it there.
   */
  static taken(field: string, key: MessageKey, params?: Record<string, unknown>): AppException {
    return new AppException(HttpStatus.CONFLICT, ResultCode.Conflict, key, params, [{ field, key, params }]);
  }
  static conflict(key: MessageKey, params?: Record<string, unknown>): AppException {
    return new AppException(HttpStatus.CONFLICT, ResultCode.Conflict, key, params);
  }
  /** A service behind the gateway cannot do it now (a camera's stream that does not start): try again later. */
  static unavailable(key: MessageKey, params?: Record<string, unknown>): AppException {
    return new AppException(HttpStatus.SERVICE_UNAVAILABLE, ResultCode.ServiceUnavailable, key, params);
  }
}
