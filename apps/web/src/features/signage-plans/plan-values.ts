import { AdPlayMode, AdPublishMode, PublishType, type AdPlanRequest, type AdPlanRow } from '@sc/contracts';
import { dayIn } from '@/utils/written-dates';

/** What the form edits of a plan: its request's fields. */
const REQUEST_FIELDS = [
  'publishName',
  'publishMode',
  'deviceIds',
  'groupId',
  'adIds',
  'schedule',
  'playMode',
  'playLimitCount',
  'playIntervalSeconds',
  'onDemandType',
  'publishType',
] as const satisfies readonly (keyof AdPlanRequest)[];

/** Today (YYYY-MM-DD) at the installation's place (`timeZone`); until that zone is known, the browser's day. */
export function todayAt(timeZone: string | undefined, now: Date = new Date()): string {
  return dayIn(now, timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
}

/**
 * The editor's values: the plan's own, or a new plan's, which plays all day on today at the installation's place
 * (`timeZone`, the default place's, which the plan page answers), whatever the browser's own zone or UTC say. Until
 * that zone is known, the browser's day.
 */
export function planValues(plan: AdPlanRow | null, timeZone: string | undefined, now: Date = new Date()): AdPlanRequest {
  if (plan) return Object.fromEntries(REQUEST_FIELDS.map((key) => [key, plan[key]])) as unknown as AdPlanRequest;
  const today = todayAt(timeZone, now);
  return {
    publishName: '',
    publishMode: AdPublishMode.Devices,
    deviceIds: [],
    groupId: null,
    adIds: [],
    schedule: { startDate: today, endDate: today, allDay: true, startTime: null, endTime: null, weekdays: [] },
    playMode: AdPlayMode.NormalLoop,
    playLimitCount: null,
    playIntervalSeconds: null,
    onDemandType: null,
    publishType: PublishType.Append,
  };
}
