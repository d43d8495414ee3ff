// What a broadcast terminal is given to play: tasks, each a list of media with a playback mode and a priority, played
// now (an immediate broadcast) or in the periods of a schedule that the terminal keeps and runs by its own clock, the
// way lamps keep their strategies. Shared by the gateway (checks, task time status), the worker and the simulator.
import { WEEKDAYS, type Weekday } from './devices';
import { isCalendarDate, periodProblems, type PeriodRules, type RuleProblem } from './strategy-rules';

/** A task's priority: 1 (first) to 10, as a terminal's; a task of a smaller number pre-empts one of a larger. */
export const TASK_PRIORITY = { min: 1, max: 10, integer: true } as const;

/** At most this many play periods a day in a scheduled task. */
export const BROADCAST_PERIODS_MAX = 12;

/** One play period of a day: from `start` to `end`, local 'HH:mm' of the terminal's clock, within the calendar day. */
export interface BroadcastPeriod {
  start: string;
  end: string;
}

/**
 * When a scheduled task plays: in each period of the days from `startDate` to `endDate` ('yyyy-MM-dd', both included;
 * no end: until it is cancelled) whose weekday is listed (none listed: all seven, spec section 5).
 */
export interface BroadcastSchedule {
  weekdays: Weekday[];
  periods: BroadcastPeriod[];
  startDate: string;
  endDate: string | null;
}

const DAY_PERIODS: PeriodRules = { dayStart: 'midnight', level: false, max: BROADCAST_PERIODS_MAX };

/** The problems of a task's schedule (times required, ordered and not repeated: 'Order Wrong', 'Time Repeats'). */
export function broadcastScheduleProblems(schedule: unknown): RuleProblem[] {
  const s = (schedule ?? {}) as Record<string, unknown>;
  const problems = periodProblems(s.periods, true, DAY_PERIODS);
  if (s.weekdays !== undefined && (!Array.isArray(s.weekdays) || s.weekdays.some((d) => !(WEEKDAYS as readonly unknown[]).includes(d))))
    problems.push({ field: 'weekdays', key: 'invalidValue' });
  if (!isCalendarDate(s.startDate)) problems.push({ field: 'startDate', key: 'dateInvalid' });
  if (s.endDate !== null && s.endDate !== undefined) {
    if (!isCalendarDate(s.endDate)) problems.push({ field: 'endDate', key: 'dateInvalid' });
    else if (isCalendarDate(s.startDate) && s.endDate < s.startDate) problems.push({ field: 'endDate', key: 'orderWrong' });
  }
  return problems;
}
