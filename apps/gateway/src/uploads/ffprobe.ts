import { HttpStatus } from '@nestjs/common';
import { execFile } from 'node:child_process';
import { ResultCode } from '@sc/contracts';
import type { MessageKey } from '@sc/i18n';
import { AppException } from '../common/app-exception';

/** What ffprobe prints with `-print_format json` and the entries the callers ask for. */
export interface FfprobeOutput {
  streams?: {
    codec_type?: string;
    codec_name?: string;
    sample_rate?: string;
    channels?: number;
    bit_rate?: string;
    duration?: string;
    width?: number;
    height?: number;
    disposition?: { attached_pic?: number };
  }[];
  format?: { format_name?: string; duration?: string; bit_rate?: string };
}

/** ffprobe gets this long per file; it reads headers only, in well under a second. */
export const PROBE_TIMEOUT_MS = 15_000;
/** The most ffprobe may print: the few entries asked for take a few kB. */
const PROBE_MAX_OUTPUT = 256 * 1024;

/** The first positive finite number among the values, or null. */
export const positive = (...values: (string | number | undefined)[]): number | null => {
  for (const value of values) {
    const n = Number(value);
    if (value !== undefined && Number.isFinite(n) && n > 0) return n;
  }
  return null;
};

/**
 * Runs ffprobe (Debian's ffmpeg) on a stored upload, asking for `entries` (`-show_entries`), as a process of its own
 * with a time-out and bounded output, so a file that crashes or hangs a parser cannot take the gateway with it and
 * nothing of the file is parsed in the gateway's heap. Answers `{}` for a file ffprobe cannot read; 503 with
 * `unavailableKey` when the check could not run (not installed, killed at the time-out), which is not the file's fault.
 */
export async function ffprobe(ffprobePath: string, path: string, entries: string, unavailableKey: MessageKey): Promise<FfprobeOutput> {
  const args = [
    ...['-v', 'error', '-hide_banner', '-print_format', 'json'],
    ...['-show_entries', entries],
    // The path as a file: URL, so no name can read as an option or another protocol.
    `file:${path}`,
  ];
  // ffprobe exits non-zero on what it cannot read.
  const run = await runMediaTool(ffprobePath, args, { timeoutMs: PROBE_TIMEOUT_MS, maxBuffer: PROBE_MAX_OUTPUT, unavailableKey });
  if (!run.ok) return {};
  try {
    return JSON.parse(run.stdout) as FfprobeOutput;
  } catch {
    return {};
  }
}

/**
 * Runs one of Debian's ffmpeg tools as a process of its own, with a time-out and bounded output: `ok` false when it
 * exited non-zero (what it was given could not be read), 503 with `unavailableKey` when it could not run at all (not
 * installed, killed at the time-out), which is not the file's fault.
 */
export function runMediaTool(
  tool: string,
  args: readonly string[],
  options: { timeoutMs: number; maxBuffer: number; unavailableKey: MessageKey },
): Promise<{ ok: boolean; stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(tool, args, { timeout: options.timeoutMs, maxBuffer: options.maxBuffer }, (err, stdout) => {
      const failure = err as (NodeJS.ErrnoException & { killed?: boolean }) | null;
      if (failure && (failure.code === 'ENOENT' || failure.killed || typeof failure.code !== 'number')) {
        reject(new AppException(HttpStatus.SERVICE_UNAVAILABLE, ResultCode.ServiceUnavailable, options.unavailableKey));
        return;
      }
      resolve({ ok: !failure, stdout: String(stdout) });
    });
  });
}

/** Whether ffprobe runs at all (start-up says so when it does not: every media upload would answer 503). */
export function ffprobeAvailable(ffprobePath: string): Promise<boolean> {
  return new Promise((resolve) => execFile(ffprobePath, ['-version'], { timeout: PROBE_TIMEOUT_MS }, (err) => resolve(!err)));
}
