import type { TFunction } from 'i18next';
import type { DispatchDetail, PlayAction, TerminalPlaybackAction, TerminalVolumeParams } from '@sc/contracts';

/** Volumes in the family's words ('broadcast volume 30, interphone volume 40'). */
export function describeVolumes(t: TFunction, volumes: TerminalVolumeParams): string {
  return [
    volumes.broadcastVolume !== undefined ? t('broadcast:volume.broadcast', { value: volumes.broadcastVolume }) : null,
    volumes.interphoneVolume !== undefined ? t('broadcast:volume.interphone', { value: volumes.interphoneVolume }) : null,
  ]
    .filter(Boolean)
    .join(', ');
}

/** Names a task dispatch (sending, cancelling, a play action) for the progress panel; null for other commands. */
export function describeTaskDispatch(t: TFunction, detail: Pick<DispatchDetail, 'action' | 'params'>): string | null {
  const params = (detail.params ?? {}) as { title?: string; taskId?: string; action?: PlayAction };
  switch (detail.action) {
    case 'task':
      return t('broadcast:taskDispatch.task', { title: params.title });
    case 'cancelTask':
      return t('broadcast:taskDispatch.cancelTask', { taskId: params.taskId });
    case 'taskControl':
      return t('broadcast:taskDispatch.taskControl', { taskId: params.taskId, action: t(`broadcast:playback.${params.action ?? 'play'}`) });
    default:
      return null;
  }
}

/** Names a terminal dispatch for the progress panel. */
export function describeTerminalDispatch(t: TFunction, detail: DispatchDetail): string {
  const task = describeTaskDispatch(t, detail);
  if (task) return task;
  if (detail.action === 'volume') return t('broadcast:volume.dispatch', { what: describeVolumes(t, detail.params as TerminalVolumeParams) });
  return t('broadcast:playback.dispatch', { action: t(`broadcast:playback.${detail.action as TerminalPlaybackAction}`) });
}
