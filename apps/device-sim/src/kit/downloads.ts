import { createHash } from 'node:crypto';

// How simulated devices fetch the files their commands name (broadcast media, ad plan materials): each from its signed
// link, checked against its size and checksum, a fleet's downloads bounded at once.

/** Runs work with at most `limit` of it under way at once; the rest waits its turn, first come first served. */
export type Slots = <T>(work: () => Promise<T>) => Promise<T>;

export function slots(limit: number): Slots {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    // A finished run hands its slot straight to the next in line, so no newcomer can slip in between.
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
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
