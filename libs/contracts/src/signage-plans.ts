// Floor-screen ad plans (spec sections 3–5 and 9): what a publication says, the rules it must keep and when it plays,
// here so that the console checks a form with the very rules the server applies and draws the calendar the server
// reasons about. Shared by the gateway, the signage worker, the simulated players and the pages.
import { OnlineState, WEEKDAYS, type Weekday } from './devices';
import type { PageResult } from './envelope';
import type { DispatchItemState } from './lighting';
import { receiveStatusOf, type DispatchReceipt, type ReceiveStatuses } from './receipts';
import { AdPlayMode, AdReceiveStatus, LIMITS, PublishType, type TaskTimeStatus } from './statuses';
import { isCalendarDate, periodProblems, type RuleProblem } from './strategy-rules';

/** How a plan names its screens: chosen one by one, or a device group (its members when it is published). */
export enum AdPublishMode {
  Devices = 'devices',
  Group = 'group',
}

/** Spec sections 5 and 9: an on-demand plan plays at most this many times, and its on-demand type is fixed at 2. */
export const AD_ON_DEMAND = { maxPlays: LIMITS.onDemandMaxPlays, type: LIMITS.onDemandFixedValue } as const;
/** The interval of a limited loop, in seconds (a day at most). */
export const AD_LOOP_INTERVAL = { min: 0, max: 86_400 } as const;
export const AD_PUBLISH_NAME_MAX = 64;
/** At most this many ads in one plan, played in order. */
export const AD_PLAN_ADS_MAX = 50;

/**
 * When a plan plays: on the days from `startDate` to `endDate` ('yyyy-MM-dd', both included) whose weekday is listed
 * (none listed: all seven, spec section 5), all day or from `startTime` to `endTime` ('HH:mm'; an end of '00:00' is
 * midnight at the day's end), in each screen's own clock.
 */
export interface AdPlanSchedule {
  startDate: string;
  endDate: string;
  allDay: boolean;
  startTime?: string | null;
  endTime?: string | null;
  weekdays: Weekday[];
}

export interface AdPlanRequest {
  publishName: string;
  publishMode: AdPublishMode;
  /** With `publishMode` devices. */
  deviceIds?: number[];
  /** With `publishMode` group. */
  groupId?: number | null;
  /** The ads in playing order; none with `publishType` clear. */
  adIds: number[];
  schedule: AdPlanSchedule;
  playMode: AdPlayMode;
  /** On demand and limited loop: how many times, 1 to AD_ON_DEMAND.maxPlays. */
  playLimitCount?: number | null;
  /** Limited loop: seconds between two runs. */
  playIntervalSeconds?: number | null;
  /** On demand: always AD_ON_DEMAND.type. */
  onDemandType?: number | null;
  publishType: PublishType;
}

/** Server catalogue keys (libs/i18n) an ad plan can break beyond the period rules. */
export type AdPlanProblemKey = 'publishNameRequired' | 'adPlanNeedsAds' | 'playLimitInvalid' | 'onDemandTypeFixed' | 'playIntervalInvalid';

export interface AdPlanProblem extends Omit<RuleProblem, 'key'> {
  key: RuleProblem['key'] | AdPlanProblemKey | 'pleaseSelect' | 'selectGroup' | 'cannotBeEmpty';
}

/** A publish name says something: it has a letter or a digit of some script, not only spaces and punctuation. */
export function isMeaningfulName(name: unknown): boolean {
  return typeof name === 'string' && name.trim().length > 0 && name.trim().length <= AD_PUBLISH_NAME_MAX && /[\p{L}\p{N}]/u.test(name);
}

const isWholeIn = (v: unknown, min: number, max: number): boolean => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
/** A record id as the database keeps them (a positive 32-bit integer). */
const RECORD_ID_MAX = 2_147_483_647;
/** At most this many screens chosen one by one (more: a group). */
export const AD_PLAN_DEVICES_MAX = 1000;
const areRecordIds = (ids: unknown[], max: number): boolean => ids.length <= max && ids.every((id) => isWholeIn(id, 1, RECORD_ID_MAX));

/** The problems of an ad plan (spec section 5); none means it can be published. An empty group is the server's check. */
export function adPlanProblems(plan: Partial<Record<keyof AdPlanRequest, unknown>>): AdPlanProblem[] {
  const problems: AdPlanProblem[] = [];
  if (!isMeaningfulName(plan.publishName)) problems.push({ field: 'publishName', key: 'publishNameRequired' });

  if (plan.publishMode === AdPublishMode.Devices) {
    if (!Array.isArray(plan.deviceIds) || plan.deviceIds.length === 0) problems.push({ field: 'deviceIds', key: 'pleaseSelect' });
    else if (!areRecordIds(plan.deviceIds, AD_PLAN_DEVICES_MAX)) problems.push({ field: 'deviceIds', key: 'invalidValue' });
  } else if (plan.publishMode === AdPublishMode.Group) {
    if (!isWholeIn(plan.groupId, 1, RECORD_ID_MAX)) problems.push({ field: 'groupId', key: 'selectGroup' });
  } else problems.push({ field: 'publishMode', key: 'pleaseSelect' });
  if (Array.isArray(plan.adIds) && !areRecordIds(plan.adIds, AD_PLAN_ADS_MAX)) problems.push({ field: 'adIds', key: 'invalidValue' });

  const types = Object.values(PublishType) as unknown[];
  if (!types.includes(plan.publishType)) problems.push({ field: 'publishType', key: 'pleaseSelect' });
  else if (plan.publishType !== PublishType.Clear && (!Array.isArray(plan.adIds) || plan.adIds.length === 0))
    problems.push({ field: 'adIds', key: 'adPlanNeedsAds' });

  if (plan.playMode === AdPlayMode.OnDemand || plan.playMode === AdPlayMode.LimitedLoopInterval) {
    if (!isWholeIn(plan.playLimitCount, 1, AD_ON_DEMAND.maxPlays))
      problems.push({ field: 'playLimitCount', key: 'playLimitInvalid', params: { max: AD_ON_DEMAND.maxPlays } });
  }
  if (plan.playMode === AdPlayMode.OnDemand && plan.onDemandType !== AD_ON_DEMAND.type)
    problems.push({ field: 'onDemandType', key: 'onDemandTypeFixed', params: { value: AD_ON_DEMAND.type } });
  if (plan.playMode === AdPlayMode.LimitedLoopInterval && !isWholeIn(plan.playIntervalSeconds, AD_LOOP_INTERVAL.min, AD_LOOP_INTERVAL.max))
    problems.push({ field: 'playIntervalSeconds', key: 'playIntervalInvalid', params: { ...AD_LOOP_INTERVAL } });
  if (!(Object.values(AdPlayMode) as unknown[]).includes(plan.playMode)) problems.push({ field: 'playMode', key: 'pleaseSelect' });

  problems.push(...adScheduleProblems(plan.schedule));
  return problems;
}

/** The problems of a plan's dates, times and weekdays ('Order Wrong', 'Time Repeats', 'The time cannot be empty'). */
export function adScheduleProblems(schedule: unknown): AdPlanProblem[] {
  const s = (schedule ?? {}) as Record<string, unknown>;
  const problems: AdPlanProblem[] = [];
  for (const field of ['startDate', 'endDate'] as const)
    if (!isCalendarDate(s[field])) problems.push({ field: `schedule.${field}`, key: s[field] ? 'dateInvalid' : 'cannotBeEmpty' });
  if (isCalendarDate(s.startDate) && isCalendarDate(s.endDate) && s.endDate < s.startDate)
    problems.push({ field: 'schedule.endDate', key: 'orderWrong' });
  if (s.weekdays !== undefined && (!Array.isArray(s.weekdays) || s.weekdays.some((d) => !(WEEKDAYS as readonly unknown[]).includes(d))))
    problems.push({ field: 'schedule.weekdays', key: 'invalidValue' });
  if (s.allDay !== true) {
    const rules = { dayStart: 'midnight', level: false, max: 1 } as const;
    for (const p of periodProblems([{ start: s.startTime, end: s.endTime }], true, rules))
      problems.push({ ...p, field: p.field.replace('periods[0].start', 'schedule.startTime').replace('periods[0].end', 'schedule.endTime') });
  }
  return problems;
}

/** A plan's weekdays as the screen reads them: none chosen is every day (spec section 5). */
export function effectiveWeekdays(weekdays: readonly Weekday[] | undefined): Weekday[] {
  return weekdays && weekdays.length > 0 ? WEEKDAYS.filter((d) => weekdays.includes(d)) : [...WEEKDAYS];
}

const minutesOf = (time: string, isEnd: boolean): number => {
  const [h, m] = time.split(':').map(Number);
  const minutes = h * 60 + m;
  return isEnd && minutes === 0 ? 1440 : minutes;
};

/** The minutes of the day a plan plays: [start, end), 0 to 1440. */
export function adPlanDayWindow(schedule: AdPlanSchedule): { start: number; end: number } {
  if (schedule.allDay || !schedule.startTime || !schedule.endTime) return { start: 0, end: 1440 };
  return { start: minutesOf(schedule.startTime, false), end: minutesOf(schedule.endTime, true) };
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** '1' Monday to '7' Sunday. */
const weekdayOf = (day: number): Weekday => String(((new Date(day * DAY_MS).getUTCDay() + 6) % 7) + 1) as Weekday;

/** One day a plan plays: the date and its window in minutes of that day. */
export interface AdPlanOccurrence {
  date: string;
  start: number;
  end: number;
}

/** The days from `from` to `to` ('yyyy-MM-dd', both included) a plan plays, for the calendar. */
export function adPlanOccurrences(schedule: AdPlanSchedule, from: string, to: string): AdPlanOccurrence[] {
  const first = Math.max(dayNumber(schedule.startDate), dayNumber(from));
  const last = Math.min(dayNumber(schedule.endDate), dayNumber(to));
  const weekdays = effectiveWeekdays(schedule.weekdays);
  const window = adPlanDayWindow(schedule);
  const out: AdPlanOccurrence[] = [];
  for (let day = first; day <= last; day++) if (weekdays.includes(weekdayOf(day))) out.push({ date: dateOf(day), ...window });
  return out;
}

/**
 * The first day and minutes two plans both play, or null when they never meet: their date ranges meet on a weekday
 * both play, and their windows of the day overlap. Costs at most a week of days however long the plans run.
 */
export function adPlansOverlap(a: AdPlanSchedule, b: AdPlanSchedule): AdPlanOccurrence | null {
  const wa = adPlanDayWindow(a);
  const wb = adPlanDayWindow(b);
  const start = Math.max(wa.start, wb.start);
  const end = Math.min(wa.end, wb.end);
  if (start >= end) return null;
  const first = Math.max(dayNumber(a.startDate), dayNumber(b.startDate));
  const last = Math.min(dayNumber(a.endDate), dayNumber(b.endDate), first + 6);
  const da = effectiveWeekdays(a.weekdays);
  const db = effectiveWeekdays(b.weekdays);
  for (let day = first; day <= last; day++) {
    const weekday = weekdayOf(day);
    if (da.includes(weekday) && db.includes(weekday)) return { date: dateOf(day), start, end };
  }
  return null;
}

/**
 * A plan's receive status on one screen (spec section 4) from its ledger row: not published until the row exists;
 * published but not received while the command travels; received, then downloading, as the screen's receipts say;
 * download completed once it acked with every file in; unknown when it refused, failed or did not answer in time.
 */
const AD_RECEIVE_STATUSES: ReceiveStatuses<AdReceiveStatus> = {
  none: AdReceiveStatus.NotPublished,
  waiting: AdReceiveStatus.PublishedNotReceived,
  received: AdReceiveStatus.ReceivedNotDownloaded,
  downloading: AdReceiveStatus.Downloading,
  delivered: AdReceiveStatus.DownloadCompleted,
  failed: AdReceiveStatus.Unknown,
};

export function adReceiveStatusOf(row: { state: DispatchItemState; receipt: Pick<DispatchReceipt, 'stage'> | null } | null): AdReceiveStatus {
  return receiveStatusOf(row, AD_RECEIVE_STATUSES);
}

/** A plan's state in the list: saved and never published, published (its screens were sent it), or past its last day. */
export enum AdPlanStatus {
  Unpublished = 'unpublished',
  Published = 'published',
  Expired = 'expired',
}

/** POST /api/signage/plan/page: plans by part of their publish name, their status, and a day they play on. */
export interface AdPlanPageQuery {
  pageNum: number;
  pageSize: number;
  publishName?: string;
  status?: AdPlanStatus;
  /** 'yyyy-MM-dd': plans whose date range holds this day. */
  date?: string;
}

/** A plan as the list shows it: the request, its state, and its publication (the dispatch that carries it). */
export interface AdPlanRow extends AdPlanRequest {
  id: number;
  /** Ad names in playing order. */
  adNames: string[];
  groupName: string | null;
  status: AdPlanStatus;
  /**
   * Where its days and hours stand on its screens' clocks (those it keeps, as its status reads them): not started,
   * in progress (somewhere), ended (everywhere).
   */
  timeStatus: TaskTimeStatus;
  /** The screens it was last published to (none before it is published). */
  targetCount: number;
  dispatchId: string | null;
  publishedAt: string | null;
  publishedBy: string | null;
  /** The last day it plays: the schedule's end date (spec: expiry date). */
  expiryDate: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * POST /api/signage/plan/page: a page of plans, and the installation's time zone (the default place's), whose day a
 * new plan starts on in the editor.
 */
export interface AdPlanPage extends PageResult<AdPlanRow> {
  timeZone: string;
}

/** How many screens of a plan are in each receive status. */
export type AdReceiveCounts = Record<AdReceiveStatus, number>;

/** GET /api/signage/plan/detail: a plan with its receive totals. */
export interface AdPlanDetail extends AdPlanRow {
  receiveCounts: AdReceiveCounts;
}

/** One screen of a plan with its receive status (spec section 4), from its ledger row and receipt. */
export interface AdPlanReceiver {
  deviceId: number;
  deviceName: string;
  deviceCode: string;
  networkStatus: OnlineState;
  receiveStatus: AdReceiveStatus;
  /** Its ledger row (null before the plan was published to it). */
  state: DispatchItemState | null;
  receipt: DispatchReceipt | null;
  lastError: string | null;
  updatedAt: string | null;
  /** When an unanswered row expires (shown for offline screens: they take it if they come back before). */
  expiresAt: string | null;
}

/** POST /api/signage/plan/receivers: one page of a plan's screens, with the totals. */
export interface AdPlanReceiversPage {
  total: number;
  list: AdPlanReceiver[];
  dispatchId: string | null;
  receiveCounts: AdReceiveCounts;
}

/** One plan in the calendar: the days it plays in the range asked, its screens and the plans it meets on them. */
export interface AdPlanCalendarEntry {
  id: number;
  publishName: string;
  publishType: PublishType;
  status: AdPlanStatus;
  deviceIds: number[];
  occurrences: AdPlanOccurrence[];
  /** Plans sharing a screen with it and playing at the same time (adPlansOverlap), by id, with the first meeting. */
  conflicts: { id: number; publishName: string; at: AdPlanOccurrence }[];
}

/** The receive status counts of nothing. */
export function emptyReceiveCounts(): AdReceiveCounts {
  return Object.fromEntries(Object.values(AdReceiveStatus).map((s) => [s, 0])) as AdReceiveCounts;
}

/**
 * The plans that conflict: two plans meet when they share a screen and adPlansOverlap finds a day and minutes both
 * play. A `clear` plan plays nothing, so it meets none. Quadratic in the plans given (the calendar's page of them).
 */
export function adPlanConflicts(
  plans: readonly { id: number; publishName: string; publishType: PublishType; deviceIds: readonly number[]; schedule: AdPlanSchedule }[],
): Map<number, { id: number; publishName: string; at: AdPlanOccurrence }[]> {
  const out = new Map<number, { id: number; publishName: string; at: AdPlanOccurrence }[]>(plans.map((p) => [p.id, []]));
  const playing = plans.filter((p) => p.publishType !== PublishType.Clear);
  for (let i = 0; i < playing.length; i++) {
    const a = playing[i];
    const screens = new Set(a.deviceIds);
    for (let j = i + 1; j < playing.length; j++) {
      const b = playing[j];
      if (!b.deviceIds.some((id) => screens.has(id))) continue;
      const at = adPlansOverlap(a.schedule, b.schedule);
      if (!at) continue;
      out.get(a.id)!.push({ id: b.id, publishName: b.publishName, at });
      out.get(b.id)!.push({ id: a.id, publishName: a.publishName, at });
    }
  }
  return out;
}
