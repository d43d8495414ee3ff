import type { TFunction } from 'i18next';
import type { BroadcastSchedule, BroadcastTaskRow, DispatchDetail, PlayAction } from '@sc/contracts';
import { playDays } from '@/utils/schedule-text';

/** The spec's playCycle: the days a scheduled task plays on; an immediate broadcast plays now. */
export function playCycleOf(t: TFunction, task: Pick<BroadcastTaskRow, 'schedule'>): string {
  return task.schedule ? playDays(t, task.schedule.weekdays) : t('broadcastTasks:now');
}

/** The spec's playTime: a scheduled task's periods ('08:00–08:30, 18:00–00:00'); an immediate broadcast's is now. */
export function playTimeOf(t: TFunction, task: Pick<BroadcastTaskRow, 'schedule'>): string {
  return task.schedule ? task.schedule.periods.map((p) => `${p.start}–${p.end}`).join(', ') : t('broadcastTasks:now');
}

/** The days a schedule runs: '2026-12-01 to 2026-12-31', or 'from 2026-12-01' without an end. */
export function playDatesOf(t: TFunction, schedule: BroadcastSchedule): string {
  return schedule.endDate
    ? t('broadcastTasks:dates', { start: schedule.startDate, end: schedule.endDate })
    : t('broadcastTasks:from', { start: schedule.startDate });
}

/**
 * The server's field names as this form's paths: the schedule's fields (`schedule.periods[1].start`) stand under their
 * inputs, the selection's under the terminals.
 */
export function formPathOf(field: string): string {
  const inner = field.startsWith('schedule.') ? field.slice('schedule.'.length) : field;
  const period = /^periods\[(\d+)\]\.(start|end)$/.exec(inner);
  if (period) return `periods.${period[1]}.${period[2]}`;
  if (field === 'schedule') return 'periods';
  if (field === 'ids') return 'terminals';
  return inner;
}

/** Names a task's command (sending, cancelling, a play action) for the progress panel; its action for any other. */
export function describeTaskDispatch(t: TFunction, detail: Pick<DispatchDetail, 'action' | 'params'>): string {
  const params = (detail.params ?? {}) as { title?: string; taskId?: string; action?: PlayAction };
  switch (detail.action) {
    case 'task':
      return t('broadcastTasks:dispatch.task', { title: params.title });
    case 'cancelTask':
      return t('broadcastTasks:dispatch.cancelTask', { taskId: params.taskId });
    case 'taskControl':
      return t('broadcastTasks:dispatch.taskControl', { taskId: params.taskId, action: t(`broadcastTasks:control.${params.action ?? 'play'}`) });
    default:
      return detail.action;
  }
}
