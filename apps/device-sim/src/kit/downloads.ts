import { createHash } from 'node:crypto';

// How simulated devices fetch the files their commands name (broadcast media, ad plan materials): each from its signed
// link, checked against its size and checksum, a fleet's downloads bounded at once.

/** What a fleet's downloads came to so far (a benchmark reads them before and after a publication). */
export interface DownloadStats {
  /** Downloads that ended with their files in and checked. */
  downloadsDone: number;
  downloadsFailed: number;
  /**
   * Milliseconds during which at least one download was under way: the time the simulated devices spent downloading,
   * at their bound of downloads at once (waiting for a slot is not counted).
   */
  downloadBusyMs: number;
  /** The downloads' own durations added up (each from its start in a slot to its end). */
  downloadWorkMs: number;
}

/**
 * Runs work with at most `limit` of it under way at once; the rest waits its turn, first come first served. `stats`
 * tells how much work ran and how long some was under way.
 */
export type Slots = (<T>(work: () => Promise<T>) => Promise<T>) & { readonly stats: () => DownloadStats };

export function slots(limit: number): Slots {
  let running = 0;
  const waiting: (() => void)[] = [];
  // Work under way (a slot handed from one piece of work to the next stays taken in between).
  let active = 0;
  let busySince = 0;
  let busyMs = 0;
  let done = 0;
  let failed = 0;
  let workMs = 0;
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    // A finished run hands its slot straight to the next in line, so no newcomer can slip in between.
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    const start = performance.now();
    if (active++ === 0) busySince = start;
    try {
      const result = await work();
      done++;
      return result;
    } catch (err) {
      failed++;
      throw err;
    } finally {
      const end = performance.now();
      workMs += end - start;
      if (--active === 0) busyMs += end - busySince;
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
  const stats = (): DownloadStats => ({
    downloadsDone: done,
    downloadsFailed: failed,
    downloadBusyMs: Math.round(busyMs + (active > 0 ? performance.now() - busySince : 0)),
    downloadWorkMs: Math.round(workMs),
  });
  return Object.assign(run, { stats });
}

/** One file a command names. */
export interface FileToFetch {
  /** What the device calls it in an error. */
  label: string;
  url: string;
  bytes: number;
  sha256: string;
}

/** Bytes between two progress calls of a download (and at its end). */
export const PROGRESS_STEP = 256 * 1024;

/**
 * Fetches every file in turn, each checked against its size and checksum (an error names the file that failed);
 * `progress` hears the bytes in so far, over all files, every PROGRESS_STEP.
 */
export async function fetchChecked(files: readonly FileToFetch[], progress: (received: number) => void): Promise<void> {
  let received = 0;
  let reported = 0;
  for (const file of files) {
    const response = await fetch(file.url, { signal: AbortSignal.timeout(60_000) });
    if (!response.ok || !response.body) throw new Error(`${file.label}: HTTP ${response.status}`);
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      bytes += chunk.length;
      received += chunk.length;
      if (bytes > file.bytes) throw new Error(`${file.label}: larger than announced`);
      if (received - reported >= PROGRESS_STEP) {
        reported = received;
        progress(received);
      }
    }
    if (bytes !== file.bytes || hash.digest('hex') !== file.sha256) throw new Error(`${file.label}: checksum mismatch`);
  }
}

/** How often a device waiting for its turn to download says that its download is under way. */
export const WAITING_PROGRESS_MS = 10_000;

/**
 * Fetches `files` (fetchChecked) in the turn `slot` gives it. Until its turn comes, `progress(0)` every
 * WAITING_PROGRESS_MS: a simulated device waiting for the fleet's shared downloads reports, as a device on a slow link
 * does, that it is still downloading, so the platform holds its command instead of sending it again.
 */
export function fetchInTurn(slot: Slots, files: readonly FileToFetch[], progress: (received: number) => void): Promise<void> {
  const waiting = setInterval(() => progress(0), WAITING_PROGRESS_MS);
  return slot(() => {
    clearInterval(waiting);
    return fetchChecked(files, progress);
  }).finally(() => clearInterval(waiting));
}
