/** Polls until `check` returns a value other than undefined, or fails after the time-out with the last error. */
export async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 5000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) throw new Error(`waitFor timed out after ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
