/** Every REST answer has this shape (spec section 8): code 200 is success. */
export interface ApiResponse<T = unknown> {
  code: number;
  data: T;
  message: string;
}

/** Codes carried in the envelope. HTTP status mirrors them, except -1 which travels with HTTP 401. */
export enum ResultCode {
  Success = 200,
  /** Not signed in, or the session expired or was revoked: the console asks the user to log in again. */
  LoggedOut = -1,
  BadRequest = 400,
  Forbidden = 403,
  NotFound = 404,
  Conflict = 409,
  PayloadTooLarge = 413,
  UnsupportedMediaType = 415,
  TooManyRequests = 429,
  InternalError = 500,
  ServiceUnavailable = 503,
}

export interface PageQuery {
  /** 1-based page number. */
  pageNum: number;
  pageSize: number;
}

export interface PageResult<T> {
  list: T[];
  total: number;
  /**
   * Set on lists whose count stops at a bound (a history of millions of rows): more rows match than `total`, which
   * is then a lower bound that always reaches past the page asked for (so the next page can be asked).
   */
  totalCapped?: true;
}

export const PAGE_SIZE_MAX = 200;

/** One rejected field of a request, with its translated message. */
export interface FieldError {
  field: string;
  /** The field's label and the reason, for a toast: 'User name: Please enter'. */
  message: string;
  /** The reason alone, for a form to show under the field's input: 'Please enter'. */
  reason: string;
}
