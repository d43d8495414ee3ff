/** A power reading: when (ms since the epoch) and how many watts. */
export interface PowerReading {
  at: number;
  watts: number;
}

/** What one lamp used in one hour. */
export interface EnergySlice {
  /** Start of the hour, ms since the epoch. */
  hour: number;
  wh: number;
  /** Seconds the lamp was lit (drawing more than the standby threshold). */
  litSeconds: number;
  /** Seconds covered by readings. */
  coveredSeconds: number;
}

export interface IntegrationOptions {
  /**
   * Longest stretch between two readings that is integrated as measured. After a longer silence the older reading
   * says nothing about the gap: only the last `maxGapMs` before the newer reading are counted, at its power.
   */
  maxGapMs: number;
  /** A lamp drawing at most this is off (its driver's standby draw). */
  litAboveWatts: number;
}

export const DEFAULT_INTEGRATION: IntegrationOptions = { maxGapMs: 15 * 60_000, litAboveWatts: 2 };

const HOUR_MS = 3_600_000;

/**
 * Energy between consecutive readings, split at hour boundaries: the trapezoid of the two readings' power over the
 * time between them (capped, see maxGapMs). Readings not later than the one before are ignored (a redelivered or
 * out-of-order message), so integrating the same readings twice counts them once.
 */
export function integrateReadings(
  previous: PowerReading | null,
  readings: readonly PowerReading[],
  options: IntegrationOptions = DEFAULT_INTEGRATION,
): EnergySlice[] {
  const slices = new Map<number, EnergySlice>();
  let last = previous;
  for (const reading of readings) {
    if (!Number.isFinite(reading.at) || !Number.isFinite(reading.watts) || reading.watts < 0) continue;
    if (last && reading.at <= last.at) continue;
    if (last) {
      const gap = reading.at - last.at;
      const counted = Math.min(gap, options.maxGapMs);
      const watts = gap <= options.maxGapMs ? (last.watts + reading.watts) / 2 : reading.watts;
      addSpan(slices, reading.at - counted, reading.at, watts, watts > options.litAboveWatts);
    }
    last = reading;
  }
  return [...slices.values()].sort((a, b) => a.hour - b.hour);
}

function addSpan(slices: Map<number, EnergySlice>, from: number, to: number, watts: number, lit: boolean): void {
  for (let start = from; start < to;) {
    const hour = Math.floor(start / HOUR_MS) * HOUR_MS;
    const end = Math.min(to, hour + HOUR_MS);
    const seconds = (end - start) / 1000;
    const slice = slices.get(hour) ?? { hour, wh: 0, litSeconds: 0, coveredSeconds: 0 };
    slice.wh += (watts * seconds) / 3600;
    slice.coveredSeconds += seconds;
    if (lit) slice.litSeconds += seconds;
    slices.set(hour, slice);
    start = end;
  }
}
