/**
 * Subscribe first, then fetch. A page that shows live data watches its feeds and loads its lists; whatever it loads
 * before the server has joined it to a feed may miss events, so the feed's answer reloads it (FeedResync). A list call
 * made while feeds are being joined therefore waits for their answer (at most FEED_WAIT_MS): the reload the answer
 * triggers then replaces the waiting call before it is sent, and the page sends its list request once.
 *
 * Kept apart from the socket, so the API layer can wait without depending on it.
 */
const FEED_WAIT_MS = 1500;

const pending = new Set<symbol>();
const waiters = new Set<() => void>();

/**
 * A feed is on its way: being set up (the socket client loading) or asked of the server. What this returns is called
 * once it is there (the server's answer, the socket's loss, or nothing to ask).
 */
export function feedJoinStarted(): () => void {
  const join = Symbol('join');
  pending.add(join);
  return () => {
    if (!pending.delete(join) || pending.size > 0) return;
    for (const wake of [...waiters]) wake();
  };
}

/**
 * Resolves once no feed waits for the server's answer, or after FEED_WAIT_MS, or when `signal` aborts. It first lets
 * the rest of the current render's effects run, so a page's feeds are asked for before its lists go out.
 */
export async function afterFeedsJoined(signal?: AbortSignal): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (pending.size === 0 || signal?.aborted) return;
  await new Promise<void>((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      waiters.delete(finish);
      signal?.removeEventListener('abort', finish);
      resolve();
    };
    const timer = setTimeout(finish, FEED_WAIT_MS);
    waiters.add(finish);
    signal?.addEventListener('abort', finish, { once: true });
  });
}
