import type { ChildProcess } from 'node:child_process';

/** Processes a test started that are still running: none outlives the test process, whatever failed. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Time a stopped service gets to shut down by itself before it is killed. */
const STOP_GRACE_MS = 20_000;

/**
 * Keeps a service process a test started on the list above, and answers how to stop it: the given signal, then
 * SIGKILL if it has not exited within the grace time (a shutdown stuck on a lost broker must not hang the run).
 */
export function ownChild(child: ChildProcess): (signal?: NodeJS.Signals) => Promise<number | null> {
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return async (signal = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  };
}
