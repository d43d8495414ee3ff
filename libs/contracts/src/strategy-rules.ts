// A strategy's rules (spec section 5), here so that the console checks a form with the very rules the server applies.
import { DIMMING_LEVELS, StrategyMode, WEEKDAYS } from './devices';
import { DEVICE_CODE_PATTERN } from './mqtt';
import { CLOCK_TIME_PATTERN, SENSING_HOLD_MAX_SECONDS, STRATEGY_PERIODS_MAX, SUN_OFFSET_MAX_MINUTES } from './strategy';

/** Server catalogue keys (libs/i18n) the rules can break. */
export type RuleProblemKey =
  | 'timeEmpty'
  | 'brightnessEmpty'
  | 'orderWrong'
  | 'timeRepeats'
  | 'dimmingLevelInvalid'
  | 'timeInvalid'
  | 'dateInvalid'
  | 'invalidValue'
  | 'periodsTooMany'
  | 'sunOffsetInvalid'
  | 'radarCodesInvalid'
  | 'holdSecondsInvalid';

export interface RuleProblem {
  field: string;
  key: RuleProblemKey;
  params?: Record<string, unknown>;
}

const RADARS_MAX = 32;

function empty(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

function levelProblem(field: string, v: unknown): RuleProblem | null {
  if (empty(v)) return { field, key: 'brightnessEmpty' };
  if (!(DIMMING_LEVELS as readonly unknown[]).includes(v))
    return { field, key: 'dimmingLevelInvalid', params: { levels: DIMMING_LEVELS.join(', ') } };
  return null;
}

/** Minutes since the start of the day the periods run in (noon for a night, midnight for a calendar day); an end at that start is the day's end (1440). */
function dayMinutes(time: string, isEnd: boolean, dayStartMinutes: number): number {
  const [h, m] = time.split(':').map(Number);
  const minutes = (h * 60 + m - dayStartMinutes + 1440) % 1440;
  return isEnd && minutes === 0 ? 1440 : minutes;
}

/** How a list of periods is read: lamps' periods run in a night (noon to noon) and carry a level. */
export interface PeriodRules {
  /** Where the day the periods run in starts: 'noon' (a night, lamps) or 'midnight' (a calendar day). */
  dayStart: 'noon' | 'midnight';
  /** Whether each period carries a dimming level. */
  level: boolean;
  /** At most this many periods. */
  max: number;
}

const NIGHT_PERIODS: PeriodRules = { dayStart: 'noon', level: true, max: STRATEGY_PERIODS_MAX };

/**
 * The problems of a list of periods (spec section 5: brightness and times required, ordered, not repeated). A night
 * runs from noon to noon (a calendar day from midnight): each period ends after it starts in that order ('Order Wrong'
 * otherwise, or 'Time Repeats' when it ends where it starts), and each starts no earlier than the previous one
 * ('Order Wrong') and not before it ends ('Time Repeats').
 */
export function periodProblems(periods: unknown, required: boolean, rules: PeriodRules = NIGHT_PERIODS): RuleProblem[] {
  if (!Array.isArray(periods)) return [{ field: 'periods', key: 'timeEmpty' }];
  if (periods.length === 0) return required ? [{ field: 'periods', key: 'timeEmpty' }] : [];
  if (periods.length > rules.max) return [{ field: 'periods', key: 'periodsTooMany', params: { max: rules.max } }];
  const dayStart = rules.dayStart === 'noon' ? 720 : 0;
  const problems: RuleProblem[] = [];
  let previous: { start: number; end: number } | null = null;
  periods.forEach((raw: unknown, i) => {
    const p = (raw ?? {}) as Record<string, unknown>;
    const at = `periods[${i}]`;
    let timesOk = true;
    for (const key of ['start', 'end'] as const) {
      if (empty(p[key])) problems.push({ field: `${at}.${key}`, key: 'timeEmpty' });
      else if (typeof p[key] !== 'string' || !CLOCK_TIME_PATTERN.test(p[key])) problems.push({ field: `${at}.${key}`, key: 'timeInvalid' });
      else continue;
      timesOk = false;
    }
    const level = rules.level ? levelProblem(`${at}.level`, p.level) : null;
    if (level) problems.push(level);
    if (!timesOk) {
      previous = null;
      return;
    }
    const start = dayMinutes(p.start as string, false, dayStart);
    const end = dayMinutes(p.end as string, true, dayStart);
    if (end === start) problems.push({ field: `${at}.end`, key: 'timeRepeats' });
    else if (end < start) problems.push({ field: `${at}.end`, key: 'orderWrong' });
    const prev = previous as { start: number; end: number } | null;
    if (prev) {
      if (start < prev.start) problems.push({ field: `${at}.start`, key: 'orderWrong' });
      else if (start < prev.end || start === prev.start) problems.push({ field: `${at}.start`, key: 'timeRepeats' });
    }
    previous = { start, end };
  });
  return problems;
}

/** A calendar day written YYYY-MM-DD that exists (no 2026-02-30). */
export function isCalendarDate(v: unknown): v is string {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;
}

/** The problems of a strategy's mode, mode data and periods; none means it can be saved and run. */
export function strategyProblems(mode: unknown, modeData: unknown, periods: unknown): RuleProblem[] {
  const data = (modeData && typeof modeData === 'object' ? modeData : {}) as Record<string, unknown>;
  const problems: RuleProblem[] = [];
  switch (mode) {
    case StrategyMode.SunriseSunset: {
      for (const key of ['sunsetOffset', 'sunriseOffset']) {
        const v = data[key] ?? 0;
        if (!Number.isInteger(v) || Math.abs(v as number) > SUN_OFFSET_MAX_MINUTES)
          problems.push({ field: `modeData.${key}`, key: 'sunOffsetInvalid', params: { max: SUN_OFFSET_MAX_MINUTES } });
      }
      const level = levelProblem('modeData.level', data.level);
      if (level) problems.push(level);
      return [...problems, ...periodProblems(periods, false)];
    }
    case StrategyMode.Date: {
      for (const key of ['startDate', 'endDate']) {
        if (empty(data[key])) problems.push({ field: `modeData.${key}`, key: 'timeEmpty' });
        else if (!isCalendarDate(data[key])) problems.push({ field: `modeData.${key}`, key: 'dateInvalid' });
      }
      if (problems.length === 0 && (data.endDate as string) < (data.startDate as string))
        problems.push({ field: 'modeData.endDate', key: 'orderWrong' });
      return [...problems, ...periodProblems(periods, true)];
    }
    case StrategyMode.Week: {
      const days = data.weekdays ?? [];
      const ok = Array.isArray(days) && days.every((d) => (WEEKDAYS as readonly unknown[]).includes(d)) && new Set(days).size === days.length;
      if (!ok) problems.push({ field: 'modeData.weekdays', key: 'invalidValue' });
      return [...problems, ...periodProblems(periods, true)];
    }
    case StrategyMode.Sensing: {
      const radars = data.radarCodes;
      const ok =
        Array.isArray(radars) &&
        radars.length > 0 &&
        radars.length <= RADARS_MAX &&
        radars.every((r) => typeof r === 'string' && DEVICE_CODE_PATTERN.test(r));
      if (!ok) problems.push({ field: 'modeData.radarCodes', key: 'radarCodesInvalid', params: { max: RADARS_MAX } });
      const level = levelProblem('modeData.brightness', data.brightness);
      if (level) problems.push(level);
      const hold = data.holdSeconds;
      if (!Number.isInteger(hold) || (hold as number) < 1 || (hold as number) > SENSING_HOLD_MAX_SECONDS)
        problems.push({ field: 'modeData.holdSeconds', key: 'holdSecondsInvalid', params: { max: SENSING_HOLD_MAX_SECONDS } });
      return [...problems, ...periodProblems(periods, true)];
    }
    default:
      return [{ field: 'mode', key: 'invalidValue' }];
  }
}
