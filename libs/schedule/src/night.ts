import { DateTime } from 'luxon';
import {
  StrategyMode,
  type DaylightPhase,
  type DimmingLevel,
  type LampSchedule,
  type SchedulePlace,
  type StrategyPeriod,
  type StrategyRules,
} from '@sc/contracts';
import { nightSun } from './sun';

const NOON_MINUTES = 12 * 60;

/** A concrete stretch of a night at one level. */
export interface Interval {
  start: Date;
  end: Date;
  level: DimmingLevel;
}

/** One night of a schedule at a place: noon to the next noon, local. */
export interface NightPlan {
  /** The evening's local date, 'yyyy-MM-dd'. */
  night: string;
  from: Date;
  to: Date;
  sunset: Date | null;
  sunrise: Date | null;
  polar: 'day' | 'night' | null;
  /** Whether the strategy's date or weekdays include this night (always, for modes 0 and 3). */
  applies: boolean;
  /** Ordered, not overlapping; outside them the lamp is off. */
  intervals: Interval[];
}

export function minutesOfClock(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return h * 60 + m;
}

/** Minutes since the noon that starts a night (0 to 1439) of a local 'HH:mm'. */
export function nightMinutes(time: string): number {
  return (minutesOfClock(time) - NOON_MINUTES + 1440) % 1440;
}

/** The night an instant belongs to: its local date from noon on, the day before until noon. */
export function nightOf(at: Date, timeZone: string): string {
  const local = DateTime.fromJSDate(at, { zone: timeZone });
  return (local.hour < 12 ? local.minus({ days: 1 }) : local).toISODate() as string;
}

/**
 * Whether the sun is up at a place: outside the night's [sunset, sunrise) (midnight sun: always; polar night: never).
 * The lighting checks (day-burning lamps) and the LED screens' daylight brightness read the same clock.
 */
export function isSunUp(place: SchedulePlace, at: Date): boolean {
  const sun = nightSun(place, nightOf(at, place.timeZone));
  if (sun.polar) return sun.polar === 'day';
  if (!sun.sunset || at < sun.sunset) return true;
  return sun.sunrise !== null && at >= sun.sunrise;
}

/** The phase of the day at a place: 'day' while the sun is up, 'night' from sunset to sunrise. */
export function daylightPhaseAt(place: SchedulePlace, at: Date): DaylightPhase {
  return isSunUp(place, at) ? 'day' : 'night';
}

/** The instant of a local clock time within a night; an end at 12:00 is the next noon. */
function instantInNight(night: string, time: string, timeZone: string, isEnd: boolean): Date {
  const minutes = minutesOfClock(time);
  const nextDay = minutes < NOON_MINUTES || (isEnd && minutes === NOON_MINUTES);
  const date = nextDay ? (DateTime.fromISO(night).plus({ days: 1 }).toISODate() as string) : night;
  // A time the clocks skip (spring forward) moves on by the gap; one they repeat (fall back) is its first occurrence.
  return DateTime.fromISO(`${date}T${time}`, { zone: timeZone }).toJSDate();
}

function periodIntervals(periods: readonly StrategyPeriod[], night: string, timeZone: string): Interval[] {
  return periods
    .map((p) => ({ start: instantInNight(night, p.start, timeZone, false), end: instantInNight(night, p.end, timeZone, true), level: p.level }))
    .filter((i) => i.end > i.start);
}

/** Where intervals of `top` exist they win; `base` fills the rest. Adjacent stretches of one level are merged. */
function overlay(base: Interval[], top: Interval[]): Interval[] {
  const bounds = [...new Set([...base, ...top].flatMap((i) => [i.start.getTime(), i.end.getTime()]))].sort((a, b) => a - b);
  const out: Interval[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const [a, b] = [bounds[k], bounds[k + 1]];
    const covering = (list: Interval[]) => list.find((i) => i.start.getTime() <= a && i.end.getTime() >= b);
    const hit = covering(top) ?? covering(base);
    if (!hit) continue;
    const last = out[out.length - 1];
    if (last && last.level === hit.level && last.end.getTime() === a) last.end = new Date(b);
    else out.push({ start: new Date(a), end: new Date(b), level: hit.level });
  }
  return out;
}

function clip(intervals: Interval[], from: Date, to: Date): Interval[] {
  return intervals.map((i) => ({ ...i, start: i.start < from ? from : i.start, end: i.end > to ? to : i.end })).filter((i) => i.end > i.start);
}

function applies(rules: StrategyRules, night: string): boolean {
  switch (rules.mode) {
    case StrategyMode.Date:
      return night >= rules.modeData.startDate && night <= rules.modeData.endDate;
    case StrategyMode.Week: {
      const weekdays = rules.modeData.weekdays;
      // Unselected weekdays default to all seven (spec section 5).
      return weekdays.length === 0 || weekdays.includes(String(DateTime.fromISO(night).weekday) as (typeof weekdays)[number]);
    }
    default:
      return true;
  }
}

/**
 * The periods of one night as instants: for mode 0, lit from sunset to sunrise (moved by the offsets) at the mode's
 * level with the periods overriding it inside that window; for the other modes, the periods themselves on the nights
 * the strategy applies. The sun is computed only in mode 0; the other modes still report it for display.
 */
export function planNight(rules: StrategyRules, place: SchedulePlace, night: string, withSun = true): NightPlan {
  const sun = withSun || rules.mode === StrategyMode.SunriseSunset ? nightSun(place, night) : null;
  const from = sun?.from ?? DateTime.fromISO(`${night}T12:00`, { zone: place.timeZone }).toJSDate();
  const to = sun?.to ?? DateTime.fromISO(`${night}T12:00`, { zone: place.timeZone }).plus({ days: 1 }).toJSDate();
  const plan: NightPlan = {
    night,
    from,
    to,
    sunset: sun?.sunset ?? null,
    sunrise: sun?.sunrise ?? null,
    polar: sun?.polar ?? null,
    applies: applies(rules, night),
    intervals: [],
  };
  if (!plan.applies) return plan;
  const periods = clip(periodIntervals(rules.periods, night, place.timeZone), from, to);
  if (rules.mode !== StrategyMode.SunriseSunset) {
    plan.intervals = overlay([], periods);
    return plan;
  }
  const { sunsetOffset, sunriseOffset, level } = rules.modeData;
  let window: Interval[] = [];
  if (plan.polar === 'night') window = [{ start: from, end: to, level }];
  else if (plan.sunset) {
    const start = new Date(plan.sunset.getTime() + sunsetOffset * 60_000);
    const end = plan.sunrise ? new Date(plan.sunrise.getTime() + sunriseOffset * 60_000) : to;
    window = clip([{ start, end, level }], from, to);
  }
  const windowOnly = window.length ? clip(periods, window[0].start, window[0].end) : [];
  plan.intervals = overlay(window, windowOnly);
  return plan;
}

/** The interval of a plan running at an instant, if any. */
export function intervalAt(plan: NightPlan, at: Date): Interval | null {
  return plan.intervals.find((i) => i.start <= at && at < i.end) ?? null;
}

/** The first instant after `at` where the level may change: the next interval boundary, else the night's end. */
export function nextChangeAfter(plan: NightPlan, at: Date): Date {
  for (const i of plan.intervals) {
    if (i.start > at) return i.start;
    if (i.end > at) return i.end;
  }
  return plan.to;
}

/**
 * The level a lamp with this schedule should have at an instant (0 = off). On a sensing strategy, a radar event less
 * than the hold time ago raises the lamp to the mode's brightness while a period runs.
 */
export function levelAt(schedule: Pick<LampSchedule, 'rules' | 'place'>, at: Date, lastRadarEventAt?: Date | null): DimmingLevel {
  const plan = planNight(schedule.rules, schedule.place, nightOf(at, schedule.place.timeZone), false);
  return levelInPlan(schedule.rules, plan, at, lastRadarEventAt);
}

/** levelAt for a plan the caller already holds (it must be the night of `at`). */
export function levelInPlan(rules: StrategyRules, plan: NightPlan, at: Date, lastRadarEventAt?: Date | null): DimmingLevel {
  const interval = intervalAt(plan, at);
  if (!interval) return 0;
  if (rules.mode === StrategyMode.Sensing && lastRadarEventAt && isRaised(rules.modeData.holdSeconds, at, lastRadarEventAt)) {
    return Math.max(interval.level, rules.modeData.brightness) as DimmingLevel;
  }
  return interval.level;
}

/** Whether a radar event at `eventAt` still holds a sensing lamp raised at `at`. */
export function isRaised(holdSeconds: number, at: Date, eventAt: Date): boolean {
  const since = at.getTime() - eventAt.getTime();
  return since >= 0 && since < holdSeconds * 1000;
}

/**
 * Whether a lamp's reported level (0 when off) disagrees with its schedule at `at`. A sensing lamp may also be at
 * its raised brightness during a period: the platform does not see every radar event the lamp acted on.
 */
export function disagreesWithSchedule(rules: StrategyRules, plan: NightPlan, at: Date, reportedLevel: number): boolean {
  const interval = intervalAt(plan, at);
  const expected = interval ? interval.level : 0;
  if (reportedLevel === expected) return false;
  return !(rules.mode === StrategyMode.Sensing && interval && reportedLevel === Math.max(expected, rules.modeData.brightness));
}
