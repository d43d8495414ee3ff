/**
 * The page to open after signing in: a path of this console. A redirect that points at the login page itself (a
 * second log-out or an expired session on the login page) is unwrapped to the page it was for, never nested.
 */
export function pageToReturnTo(value: unknown): string | undefined {
  let target = value;
  for (let depth = 0; typeof target === 'string' && /^\/login(\?|$)/.test(target) && depth < 10; depth++) {
    target = new URLSearchParams(target.slice(target.indexOf('?') + 1)).get('redirect') ?? undefined;
  }
  return typeof target === 'string' && target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/login') ? target : undefined;
}

/** Only paths of this console: never another site, never back to the login page itself. */
export function safeRedirect(target: string | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/login')) return '/';
  return target;
}
