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
