import { ResultCode, type ApiResponse } from '@sc/contracts';
import { apiLanguage, i18next } from '@/i18n';
import { getToken, sessionEndedHere } from '@/auth/token';
import { notifyError } from '@/components/notify';
import { confirmLoggedOut } from '@/auth/logged-out-dialog';
import { afterFeedsJoined } from '@/realtime/feed-gate';

/** Spec section 7: every call times out after 60 s. */
export const REQUEST_TIMEOUT_MS = 60_000;
export const API_BASE = '/api';

/** A call the server refused (code other than 200) or that never got an answer. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  params?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** Leave the error message to the caller (the area cascader shows none, for example). */
  silent?: boolean;
  /** Another origin for the call, e.g. the upload port; same-origin otherwise. */
  base?: string;
  /** The token to send instead of the stored one (logout sends the token it has just forgotten). */
  token?: string;
  /** A call that needs no session (signing in): it goes even just after this tab logged out. */
  anonymous?: boolean;
}

export function requestHeaders(tokenOverride?: string): Record<string, string> {
  const headers: Record<string, string> = { 'Accept-Language': apiLanguage() };
  const token = tokenOverride ?? getToken();
  if (token) headers.Authorization = token;
  return headers;
}

export function buildUrl(path: string, params?: Record<string, QueryValue>, base = ''): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  }
  const search = query.toString();
  return `${base}${API_BASE}${path}${search ? `?${search}` : ''}`;
}

function timeoutSignal(signal?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/** What spec section 8 shows for a refused answer: message, or msg, or 'Error'. */
export function answerMessage(body: Partial<ApiResponse> & { msg?: string }): string {
  return body.message || body.msg || i18next.t('messages:error');
}

/**
 * One call to the API with the envelope handling of spec section 8: code 200 resolves with `data`;
 * anything else shows the message for 5 s and rejects; code -1 also offers to log in again.
 */
export async function request<T>(method: 'GET' | 'POST', path: string, options: RequestOptions = {}): Promise<T> {
  // A call belongs to the session it was made in: if that session ended meanwhile (log-out, another user signed in),
  // its failure is nobody's business any more, and shows nothing.
  const madeFor = getToken();
  const madeAt = performance.now();
  const quiet = () => options.silent || getToken() !== madeFor;
  // A call the page being left starts after this tab logged out has no session: it is not sent and shows nothing.
  if (!madeFor && options.token === undefined && !options.anonymous && sessionEndedHere()) {
    throw new ApiError(i18next.t('messages:loggedOut'), ResultCode.LoggedOut);
  }
  const headers = requestHeaders(options.token);
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  // A list (a call with a signal) waits for the page's feeds to be joined: see feed-gate.ts.
  if (options.signal) {
    await afterFeedsJoined(options.signal);
    if (options.signal.aborted) throw options.signal.reason;
  }
  let response: Response;
  let answer: Answer<T> = null;
  try {
    response = await fetch(buildUrl(path, options.params, options.base), {
      method,
      headers,
      body,
      credentials: 'include',
      signal: timeoutSignal(options.signal),
    });
    answer = (await response.json().catch(() => null)) as typeof answer;
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    return fail(new ApiError(i18next.t('messages:networkError'), null), quiet());
  }
  // Given up while its answer was being read (a list's query cancelled as a push made it stale): the caller left, no
  // message. Without this the cut answer read as no answer at all, and a 'network error' showed for nothing.
  if (options.signal?.aborted) throw options.signal.reason;
  return settle<T>(answer, response.status, quiet(), madeAt);
}

export type Answer<T> = (Partial<ApiResponse<T>> & { msg?: string }) | null;

/**
 * An answer's envelope (spec section 8): `data` on code 200; anything else is shown and thrown, -1 offers to log in
 * again (`madeAt`: when the call was sent, see confirmLoggedOut).
 */
export function settle<T>(answer: Answer<T>, status: number, quiet: boolean, madeAt: number): T {
  if (answer && typeof answer.code === 'number') {
    if (answer.code === ResultCode.Success) return answer.data as T;
    if (answer.code === ResultCode.LoggedOut && !quiet) confirmLoggedOut(madeAt);
    return fail(new ApiError(answerMessage(answer), answer.code, answer.data), quiet);
  }
  return fail(new ApiError(answer?.msg || i18next.t('messages:networkError'), status >= 200 && status < 300 ? null : status), quiet);
}

export function fail(error: ApiError, silent: boolean | undefined): never {
  if (!silent) notifyError(error.message);
  throw error;
}

export const get = <T>(path: string, params?: Record<string, QueryValue>, options: Omit<RequestOptions, 'params'> = {}) =>
  request<T>('GET', path, { ...options, params });
export const post = <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'body'> = {}) => request<T>('POST', path, { ...options, body });
