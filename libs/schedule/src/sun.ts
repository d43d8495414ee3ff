import { Body, Equator, Horizon, Observer, SearchRiseSet } from 'astronomy-engine';
import { DateTime } from 'luxon';
import type { SchedulePlace } from '@sc/contracts';

/** The sun's centre at this altitude (degrees) is sunrise or sunset: its radius plus the usual refraction. */
const SUN_HORIZON_DEGREES = -0.833;

/** The sun over one night (noon to the next noon, local): when it set and rose, or that it did neither. */
export interface NightSun {
  /** Local noon that starts the night. */
  from: Date;
  /** Local noon that ends it (23 or 25 hours later on a clock-change day). */
  to: Date;
  sunset: Date | null;
  sunrise: Date | null;
  /** No sunset in the night: 'day' when the sun stays up (midnight sun), 'night' when it never rose. */
  polar: 'day' | 'night' | null;
}

/** Noon of a local date ('yyyy-MM-dd') in a zone. */
export function localNoon(date: string, timeZone: string): DateTime {
  return DateTime.fromISO(`${date}T12:00`, { zone: timeZone });
}

function sunAltitude(at: Date, observer: Observer): number {
  const eq = Equator(Body.Sun, at, observer, true, true);
  return Horizon(at, observer, eq.ra, eq.dec, 'normal').altitude;
}

const cache = new Map<string, NightSun>();
const CACHE_MAX = 4096;

/**
 * Sunset and sunrise of the night that begins at local noon of `date`, at the place. Memoised: a fleet shares a few
 * places, and a lamp asks about the same night again and again.
 */
export function nightSun(place: SchedulePlace, date: string): NightSun {
  const key = `${place.latitude},${place.longitude},${place.timeZone},${date}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const noon = localNoon(date, place.timeZone);
  if (!noon.isValid) throw new RangeError(`Invalid date or time zone: ${date} ${place.timeZone}`);
  const from = noon.toJSDate();
  const to = noon.plus({ days: 1 }).toJSDate();
  const days = (to.getTime() - from.getTime()) / 86_400_000;
  const observer = new Observer(place.latitude, place.longitude, 0);
  const set = SearchRiseSet(Body.Sun, observer, -1, from, days);
  let result: NightSun;
  if (!set || set.date >= to) {
    result = { from, to, sunset: null, sunrise: null, polar: sunAltitude(from, observer) > SUN_HORIZON_DEGREES ? 'day' : 'night' };
  } else {
    const rise = SearchRiseSet(Body.Sun, observer, +1, set.date, (to.getTime() - set.date.getTime()) / 86_400_000);
    result = { from, to, sunset: set.date, sunrise: rise && rise.date < to ? rise.date : null, polar: null };
  }
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, result);
  return result;
}
