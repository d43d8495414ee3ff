import { DateTime } from 'luxon';
import { PlaybackMode, TaskTimeStatus, WEEKDAYS, type AdPlanSchedule, type BroadcastSchedule } from '@sc/contracts';

/** One stretch of time a scheduled task plays in. */
export interface PlayWindow {
  start: Date;
  end: Date;
}

/** Days searched for a task's next period: a week and a day covers every weekday choice and a skipped-clock day. */
const SEARCH_DAYS = 8;

function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return h * 60 + m;
}

/** The instant of a local 'HH:mm' on a date; '00:00' as an end is the next midnight. A skipped time moves on by the gap. */
function instantOn(date: DateTime, time: string, isEnd: boolean): Date {
  const minutes = minutesOf(time);
  const day = isEnd && minutes === 0 ? date.plus({ days: 1 }) : date;
  return day.set({ hour: Math.floor(minutes / 60), minute: minutes % 60, second: 0, millisecond: 0 }).toJSDate();
}

function playsOn(schedule: BroadcastSchedule, date: DateTime): boolean {
  const iso = date.toISODate() as string;
  if (iso < schedule.startDate || (schedule.endDate !== null && iso > schedule.endDate)) return false;
  const weekdays = schedule.weekdays.length > 0 ? schedule.weekdays : WEEKDAYS;
  return (weekdays as readonly string[]).includes(String(date.weekday));
}

function windowsOn(schedule: BroadcastSchedule, date: DateTime): PlayWindow[] {
  if (!playsOn(schedule, date)) return [];
  return schedule.periods.map((p) => ({ start: instantOn(date, p.start, false), end: instantOn(date, p.end, true) })).filter((w) => w.end > w.start);
}

/** The first window of the schedule that has not ended at `at` (it may be under way), in the terminal's time zone. */
export function nextWindow(schedule: BroadcastSchedule, at: Date, timeZone: string): PlayWindow | null {
  const first = DateTime.fromISO(schedule.startDate, { zone: timeZone }).startOf('day');
  const today = DateTime.fromJSDate(at, { zone: timeZone }).startOf('day');
  // Yesterday too: a period ending at midnight belongs to the day it started on.
  let day = today.minus({ days: 1 }) < first ? first : today.minus({ days: 1 });
  for (let i = 0; i <= SEARCH_DAYS; i++, day = day.plus({ days: 1 })) {
    if (schedule.endDate !== null && (day.toISODate() as string) > schedule.endDate) return null;
    const found = windowsOn(schedule, day).find((w) => w.end > at);
    if (found) return found;
  }
  return null;
}

/** The window of the schedule under way at `at`, or null between periods. */
export function windowAt(schedule: BroadcastSchedule, at: Date, timeZone: string): PlayWindow | null {
  const next = nextWindow(schedule, at, timeZone);
  return next && next.start <= at ? next : null;
}

/**
 * A scheduled task's time status at `at` (spec: not started, in progress, ended), by the terminal's clock: not started
 * before its first period begins, ended once no period is left, in progress in between (also between its periods).
 */
export function scheduleTimeStatus(schedule: BroadcastSchedule, at: Date, timeZone: string): TaskTimeStatus {
  const start = DateTime.fromISO(schedule.startDate, { zone: timeZone }).startOf('day').toJSDate();
  const first = nextWindow(schedule, start, timeZone);
  if (!first) return TaskTimeStatus.Ended;
  if (at < first.start) return TaskTimeStatus.NotStarted;
  return nextWindow(schedule, at, timeZone) ? TaskTimeStatus.InProgress : TaskTimeStatus.Ended;
}

/** A task as a terminal holds it (normal_mode: the list once; list_cycle_mode: over and over; random_mode: shuffled, over and over). */
export interface HeldTask {
  taskId: string;
  /** 1 (first) to 10. */
  priority: number;
  mode: PlaybackMode;
  /** Each medium's length, in the list's order. */
  durationsMs: readonly number[];
  /** Its periods; null for an immediate broadcast, which plays from `receivedAt`. */
  schedule: BroadcastSchedule | null;
  /** When the terminal took it (immediate broadcasts start then; among equal priorities the latest wins). */
  receivedAt: Date;
  /**
   * Played on demand (the console's `play`) from then: its list once from the top, whatever its schedule says, then
   * back to its periods. Absent or null: not asked.
   */
  playFrom?: Date | null;
}

/** What a terminal plays at an instant: the task, the medium (its index in the list), how far into it, and until when. */
export interface PlayingNow {
  taskId: string;
  item: number;
  offsetMs: number;
  /** When this medium ends (or the task's window, whichever is first). */
  until: Date;
}

/** A shuffled order of `n` items, fixed by the task and the round (every terminal plays the same order). */
export function shuffledOrder(n: number, seed: string): number[] {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  const random = () => {
    h = (Math.imul(h ^ (h >>> 15), 2246822519) + 0x6d2b79f5) >>> 0;
    return h / 2 ** 32;
  };
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

const listMs = (task: HeldTask) => task.durationsMs.reduce((sum, d) => sum + d, 0);

/**
 * Where a task is at `at` within a window that started at `start` and ends at `end` (null: never), or null when done
 * (`once`: after one run of its list, whatever its mode).
 */
function positionIn(task: HeldTask, start: Date, end: Date | null, at: Date, once = false): PlayingNow | null {
  const total = listMs(task);
  if (total <= 0) return null;
  const elapsed = at.getTime() - start.getTime();
  if ((once || task.mode === PlaybackMode.Normal) && elapsed >= total) return null;
  const round = Math.floor(elapsed / total);
  let within = elapsed - round * total;
  const order =
    task.mode === PlaybackMode.Random ? shuffledOrder(task.durationsMs.length, `${task.taskId}:${round}`) : task.durationsMs.map((_, i) => i);
  for (const item of order) {
    const length = task.durationsMs[item];
    if (within < length) {
      const itemEnd = at.getTime() + (length - within);
      return { taskId: task.taskId, item, offsetMs: within, until: new Date(end ? Math.min(itemEnd, end.getTime()) : itemEnd) };
    }
    within -= length;
  }
  return null;
}

/**
 * What a terminal holding `tasks` plays at `at`: among the tasks under way (an immediate broadcast until its list ends,
 * or for ever when it cycles; a scheduled one in its periods), the one of the first priority, the latest taken among
 * equals. A task pre-empted by another plays on when that one ends, where its own clock has got to by then.
 */
export function playingAt(tasks: readonly HeldTask[], at: Date, timeZone: string): PlayingNow | null {
  const ranked = [...tasks].sort((a, b) => a.priority - b.priority || b.receivedAt.getTime() - a.receivedAt.getTime());
  for (const task of ranked) {
    if (task.playFrom && at >= task.playFrom) {
      const onDemand = positionIn(task, task.playFrom, null, at, true);
      if (onDemand) return onDemand;
    }
    if (task.schedule === null) {
      if (at < task.receivedAt) continue;
      const now = positionIn(task, task.receivedAt, null, at);
      if (now) return now;
      continue;
    }
    const window = windowAt(task.schedule, at, timeZone);
    const now = window && positionIn(task, window.start, window.end, at);
    if (now) return now;
  }
  return null;
}

/** Whether an immediate task has played its list to the end at `at` (a cycling one never has). */
export function immediateDone(task: HeldTask, at: Date): boolean {
  if (task.schedule !== null || task.mode !== PlaybackMode.Normal) return false;
  return at.getTime() - task.receivedAt.getTime() >= listMs(task);
}

/** Whether a task played on demand has run its list once by `at` (false when it was not asked to play). */
export function onDemandDone(task: HeldTask, at: Date): boolean {
  return Boolean(task.playFrom) && at.getTime() - task.playFrom!.getTime() >= listMs(task);
}

/** An ad plan's days and hours as a schedule of one period a day (all day: midnight to midnight). */
export function adPlanSchedule(plan: AdPlanSchedule): BroadcastSchedule {
  const allDay = plan.allDay || !plan.startTime || !plan.endTime;
  return {
    weekdays: plan.weekdays,
    periods: [{ start: allDay ? '00:00' : plan.startTime!, end: allDay ? '00:00' : plan.endTime! }],
    startDate: plan.startDate,
    endDate: plan.endDate,
  };
}

/** The stretch of an ad plan under way at `at` in the player's time zone, or null outside its days and hours. */
export function adPlanWindowAt(plan: AdPlanSchedule, at: Date, timeZone: string): PlayWindow | null {
  return windowAt(adPlanSchedule(plan), at, timeZone);
}

/**
 * The time status of several schedules (an LED task's task periods) on devices in several time zones: the one status
 * they all have, else in progress (some ended and some not started is between two of its periods, or a task that has
 * begun in one zone and not yet in another). With no zones (no screens), they are read in `fallbackZone` (the default
 * place's); no schedules at all is not started.
 */
export function schedulesTimeStatus(
  schedules: readonly BroadcastSchedule[],
  at: Date,
  timeZones: readonly string[],
  fallbackZone: string,
): TaskTimeStatus {
  const zones = timeZones.length > 0 ? timeZones : [fallbackZone];
  const statuses = new Set(zones.flatMap((zone) => schedules.map((schedule) => scheduleTimeStatus(schedule, at, zone))));
  if (statuses.size === 0) return TaskTimeStatus.NotStarted;
  return statuses.size === 1 ? [...statuses][0] : TaskTimeStatus.InProgress;
}
