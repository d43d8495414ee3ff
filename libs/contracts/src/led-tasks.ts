// LED real-time play and LED tasks (spec: ledRealTimePlay, ledTaskManage; play mode 1 synchronous / 2 asynchronous;
// LED tasks: 1 to 7 time periods, at most 1 file, 1 to 7 task periods): what the console sends, the rules it must keep
// (checked alike in the browser and on the server) and how a screen's receive status reads.
import type { BroadcastSchedule } from './broadcast-programme';
import { LedPlayMode, type MediaType } from './devices';
import type { DispatchItemState } from './lighting';
import { receiveStatusOf, type DispatchReceipt } from './receipts';
import { LIMITS, type TaskTimeStatus } from './statuses';
import { isCalendarDate, periodProblems, type RuleProblem } from './strategy-rules';

export const LED_TASK_NAME_MAX = 64;
/** Spec section 5: 1 to 7 time periods, at most 1 file, 1 to 7 task periods. */
export const LED_TASK_LIMITS = { timePeriods: LIMITS.ledMaxPeriods, taskPeriods: LIMITS.ledMaxPeriods, files: LIMITS.ledMaxFiles } as const;
export const LED_PLAY_MODES: readonly LedPlayMode[] = [LedPlayMode.Synchronous, LedPlayMode.Asynchronous];
/** A task may be aimed at this many regions (each with its sub-regions) besides the screens chosen one by one. */
export const LED_TASK_MAX_REGIONS = 50;

/** A time period of the day, in the screen's clock: 'HH:mm' to 'HH:mm' (an end of '00:00' is midnight at the day's end). */
export interface LedTimePeriod {
  start: string;
  end: string;
}

/** A task period: the days from `startDate` to `endDate` ('yyyy-MM-dd', both included). */
export interface LedTaskPeriod {
  startDate: string;
  endDate: string;
}

/** POST /api/led/taskAddOrEdit. */
export interface LedTaskRequest {
  id?: number;
  name: string;
  /** The task's file: exactly one medium of the library (the spec allows at most one; a task without one shows nothing). */
  mediaIds: number[];
  playMode: LedPlayMode;
  timePeriods: LedTimePeriod[];
  taskPeriods: LedTaskPeriod[];
  /** Screens (device ids) chosen one by one; may be empty when it is aimed at regions. */
  screenIds: number[];
  /** Regions it is aimed at: every screen of each and of its sub-regions when it is published (none: omit or []). */
  regionIds?: number[];
}

/** A screen as a picker names it. */
export interface LedScreenRef {
  id: number;
  name: string;
  sn: string;
}

/** The medium a task or a real-time play shows, as lists name it. */
export interface LedMediaRef {
  id: number;
  name: string;
  type: MediaType;
  width: number;
  height: number;
}

/** One task of the list (POST /api/led/taskPage). */
export interface LedTaskRow {
  id: number;
  name: string;
  media: LedMediaRef;
  playMode: LedPlayMode;
  timePeriods: LedTimePeriod[];
  taskPeriods: LedTaskPeriod[];
  /** The screens chosen one by one. */
  screenIds: number[];
  /** The regions it is aimed at (each with its sub-regions). */
  regionIds: number[];
  /** Every screen it reaches now: those chosen and those of its regions, each once. */
  screenCount: number;
  /** Over its screens, each in its own time zone: in progress while any is, ended once all are, else not started. */
  timeStatus: TaskTimeStatus;
  /** The dispatch of its latest publication (null: never published). */
  dispatchId: string | null;
  publishedAt: string | null;
  createdBy: string;
  updatedAt: string;
}

/** GET /api/led/taskDetail: a task with the names of the screens chosen one by one (for its form). */
export interface LedTaskDetail extends LedTaskRow {
  screens: LedScreenRef[];
}

export interface LedTaskPageQuery {
  pageNum: number;
  pageSize: number;
  name?: string;
}

/** How far a screen has got with a task (spec: to be sent, downloading with percent, received, playing, failed). */
export enum LedReceiveStatus {
  ToBeSent = 'toBeSent',
  Downloading = 'downloading',
  Received = 'received',
  Playing = 'playing',
  Failed = 'failed',
}

/** One screen of a task (POST /api/led/taskScreens, a page of them): its receive status, time status in its own zone and what it plays. */
export interface LedTaskScreenRow {
  deviceId: number;
  name: string;
  sn: string;
  timeZone: string;
  networkStatus: number;
  /** Its ledger row of the task's latest publication (null before it is published to it). */
  state: DispatchItemState | null;
  receipt: DispatchReceipt | null;
  lastError: string | null;
  timeStatus: TaskTimeStatus;
  /** The task id it reports playing now, if any. */
  playingTaskId: number | null;
}

/** POST /api/led/taskScreens: a page of a task's screens (in id order). */
export interface LedTaskScreensQuery {
  id: number;
  pageNum: number;
  pageSize: number;
}

/** How many of a task's screens are in each receive status, over all its screens (not only the page). */
export type LedReceiveCounts = Record<LedReceiveStatus, number>;

/** A page of a task's screens, with the publication they belong to and the receive totals over all of them. */
export interface LedTaskScreensPage {
  total: number;
  list: LedTaskScreenRow[];
  dispatchId: string | null;
  receiveCounts: LedReceiveCounts;
}

/** What a screen shows now, as it reports it (`playing` of its state, the row's live field). */
export interface LedPlaying {
  /** `realtime`: pushed from Real-time Play; `task`: one of its tasks in its periods. */
  source: 'realtime' | 'task';
  mediaId: number;
  name: string;
  taskId: number | null;
  since: string;
}

/** POST /api/led/realTimePlay: one medium on the chosen screens now. */
export interface LedRealTimePlayRequest {
  mediaId: number;
  ids?: number[];
  regionId?: number;
}

/**
 * A screen's receive status from its ledger row of the task's latest publication and what it reports playing: to be
 * sent until it answers; downloading from its first receipt; received once it acked with the file in and checked;
 * playing while it reports this task on screen; failed when it refused, failed or did not answer in time.
 */
export function ledReceiveStatusOf(
  row: { state: DispatchItemState; receipt: Pick<DispatchReceipt, 'stage'> | null } | null,
  playing: boolean,
): LedReceiveStatus {
  return receiveStatusOf(row, {
    none: LedReceiveStatus.ToBeSent,
    waiting: LedReceiveStatus.ToBeSent,
    received: LedReceiveStatus.Downloading,
    downloading: LedReceiveStatus.Downloading,
    delivered: playing ? LedReceiveStatus.Playing : LedReceiveStatus.Received,
    failed: LedReceiveStatus.Failed,
  });
}

/** Server catalogue keys an LED task can break beyond the period rules. */
export type LedTaskProblemKey = 'ledTaskOneFile' | 'ledTaskNeedsFile' | 'ledTaskPeriodsTooMany' | 'ledTimePeriodsTooMany' | 'ledSelectionEmpty';

export interface LedTaskProblem extends Omit<RuleProblem, 'key'> {
  key: RuleProblem['key'] | LedTaskProblemKey | 'pleaseSelect' | 'nameEmpty';
}

const DAY_PERIODS = { dayStart: 'midnight', level: false, max: LED_TASK_LIMITS.timePeriods } as const;

/** The problems of a list of task periods: 1 to 7, each a valid range, in order and not overlapping ('Order Wrong', 'Time Repeats'). */
export function taskPeriodProblems(periods: unknown): LedTaskProblem[] {
  if (!Array.isArray(periods) || periods.length === 0) return [{ field: 'taskPeriods', key: 'timeEmpty' }];
  if (periods.length > LED_TASK_LIMITS.taskPeriods)
    return [{ field: 'taskPeriods', key: 'ledTaskPeriodsTooMany', params: { max: LED_TASK_LIMITS.taskPeriods } }];
  const problems: LedTaskProblem[] = [];
  let previous: { startDate: string; endDate: string } | null = null;
  periods.forEach((raw: unknown, i) => {
    const p = (raw ?? {}) as Record<string, unknown>;
    const at = `taskPeriods[${i}]`;
    let ok = true;
    for (const key of ['startDate', 'endDate'] as const) {
      if (p[key] === undefined || p[key] === null || p[key] === '') problems.push({ field: `${at}.${key}`, key: 'timeEmpty' });
      else if (!isCalendarDate(p[key])) problems.push({ field: `${at}.${key}`, key: 'dateInvalid' });
      else continue;
      ok = false;
    }
    if (!ok) {
      previous = null;
      return;
    }
    const range = { startDate: p.startDate as string, endDate: p.endDate as string };
    if (range.endDate < range.startDate) problems.push({ field: `${at}.endDate`, key: 'orderWrong' });
    const prev = previous as { startDate: string; endDate: string } | null;
    if (prev) {
      if (range.startDate < prev.startDate) problems.push({ field: `${at}.startDate`, key: 'orderWrong' });
      else if (range.startDate <= prev.endDate) problems.push({ field: `${at}.startDate`, key: 'timeRepeats' });
    }
    previous = range;
  });
  return problems;
}

/** The problems of an LED task (spec section 5); none means it can be saved. Unknown media and screens are the server's check. */
export function ledTaskProblems(task: Partial<Record<keyof LedTaskRequest, unknown>>): LedTaskProblem[] {
  const problems: LedTaskProblem[] = [];
  if (typeof task.name !== 'string' || task.name.trim().length === 0) problems.push({ field: 'name', key: 'nameEmpty' });
  if (!Array.isArray(task.mediaIds) || task.mediaIds.length === 0) problems.push({ field: 'mediaIds', key: 'ledTaskNeedsFile' });
  else if (task.mediaIds.length > LED_TASK_LIMITS.files) problems.push({ field: 'mediaIds', key: 'ledTaskOneFile' });
  if (!(LED_PLAY_MODES as readonly unknown[]).includes(task.playMode)) problems.push({ field: 'playMode', key: 'pleaseSelect' });
  // Screens chosen one by one, regions, or both ('Please select LED screens or a region').
  const given = (list: unknown) => Array.isArray(list) && list.length > 0;
  if (!given(task.screenIds) && !given(task.regionIds)) problems.push({ field: 'screenIds', key: 'ledSelectionEmpty' });
  for (const p of periodProblems(task.timePeriods, true, DAY_PERIODS)) {
    const field = p.field.replace(/^periods/, 'timePeriods');
    problems.push(p.key === 'periodsTooMany' ? { ...p, field, key: 'ledTimePeriodsTooMany' } : { ...p, field });
  }
  problems.push(...taskPeriodProblems(task.taskPeriods));
  return problems;
}

/** A task's periods as schedules the clock reasons about: one per task period, every day, its time periods. */
export function ledTaskSchedules(task: Pick<LedTaskRequest, 'timePeriods' | 'taskPeriods'>): BroadcastSchedule[] {
  return task.taskPeriods.map((p) => ({ weekdays: [], periods: task.timePeriods, startDate: p.startDate, endDate: p.endDate }));
}
