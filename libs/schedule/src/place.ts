import type { SchedulePlace } from '@sc/contracts';

/** A position and a time zone, any of them unknown: a lamp's own record, or one region's. */
export interface PlaceParts {
  latitude: number | null;
  longitude: number | null;
  timeZone?: string | null;
}

export type PlaceSource = 'lamp' | 'region' | 'default';

/**
 * Where a lamp is, for its sun and clock: its own position, else that of its region or the nearest ancestor that
 * has one, else the installation default. The time zone is the nearest region's that names one, else the default's.
 */
export function resolvePlace(
  lamp: PlaceParts,
  regionsUpward: readonly PlaceParts[],
  fallback: SchedulePlace,
): { place: SchedulePlace; source: PlaceSource } {
  const timeZone = regionsUpward.find((r) => r.timeZone)?.timeZone ?? fallback.timeZone;
  if (lamp.latitude !== null && lamp.longitude !== null)
    return { place: { latitude: lamp.latitude, longitude: lamp.longitude, timeZone }, source: 'lamp' };
  const region = regionsUpward.find((r) => r.latitude !== null && r.longitude !== null);
  if (region) return { place: { latitude: region.latitude as number, longitude: region.longitude as number, timeZone }, source: 'region' };
  return { place: { ...fallback, timeZone }, source: 'default' };
}

/** Whether a name is an IANA time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
