/** A device clock further than this from the platform's is not believed: the time the message came is used. */
export const CLOCK_TRUST_MS = 10 * 60_000;

/**
 * When something a device stamped `ts` happened: its own time when its clock is within CLOCK_TRUST_MS of `at` (when
 * the platform received it), else `at` (a device whose clock was never set, or a message held back for hours).
 */
export function believedTime(ts: string | undefined, at: string): string {
  const t = ts ? Date.parse(ts) : NaN;
  return Number.isFinite(t) && Math.abs(t - Date.parse(at)) <= CLOCK_TRUST_MS ? new Date(t).toISOString() : at;
}
