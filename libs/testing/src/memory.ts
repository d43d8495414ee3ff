import { readFileSync } from 'node:fs';

/** This process's resident memory, in MB. */
export function residentMb(): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024;
}

/** What `run` answers, and how far this process's resident memory rose above where it was while it ran (sampled every 5 ms). */
export async function withPeakGrowth<T>(run: () => Promise<T>): Promise<{ value: T; growthMb: number }> {
  const before = residentMb();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, residentMb())), 5);
  try {
    const value = await run();
    peak = Math.max(peak, residentMb());
    return { value, growthMb: peak - before };
  } finally {
    clearInterval(sampler);
  }
}
