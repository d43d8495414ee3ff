const SECRET = /pass(word)?|pwd|token|secret|authorization|cookie|api[-_]?key|credential|private[-_]?key/i;

/** A copy of request parameters with every secret-looking value replaced, to any depth. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET.test(k) ? '******' : redact(v, depth + 1)]),
    );
  }
  if (typeof value === 'string' && value.length > 1000) return `${value.slice(0, 1000)}…`;
  return value;
}

/** What one operation-log row keeps of a request's parameters, at most (JSON characters). */
export const LOGGED_PARAMS_MAX = 4_000;

/**
 * The parameters an operation-log row keeps: the query and a JSON body, secrets hidden. A body that is not JSON (text,
 * a form, anything the route then refused) is not kept at all, only its kind and size: nothing in it can be told a
 * secret or not. Parameters longer than LOGGED_PARAMS_MAX are cut to a preview of that size.
 */
export function loggedParams(query: unknown, body: unknown): unknown {
  const kept = {
    query: redact(query ?? {}),
    body:
      body === undefined || body === null
        ? {}
        : typeof body === 'object' && !Buffer.isBuffer(body)
          ? redact(body)
          : `[${typeof body === 'string' ? `${body.length} characters of text` : 'binary data'}, not kept]`,
  };
  // PostgreSQL's jsonb holds no NUL character: a request that carried one (refused, but logged) keeps U+FFFD instead.
  const json = JSON.stringify(kept).replaceAll('\\u0000', '\\ufffd');
  return json.length <= LOGGED_PARAMS_MAX
    ? (JSON.parse(json) as unknown)
    : { truncated: true, characters: json.length, preview: json.slice(0, LOGGED_PARAMS_MAX) };
}
