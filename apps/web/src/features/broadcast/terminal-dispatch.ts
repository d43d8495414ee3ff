import type { TFunction } from 'i18next';
import type { DispatchDetail, TerminalCancelTaskParams, TerminalPlaybackAction, TerminalTaskParams, TerminalVolumeParams } from '@sc/contracts';

/** Volumes in the family's words ('broadcast volume 30, interphone volume 40'). */
export function describeVolumes(t: TFunction, volumes: TerminalVolumeParams): string {
  return [
    volumes.broadcastVolume !== undefined ? t('broadcast:volume.broadcast', { value: volumes.broadcastVolume }) : null,
    volumes.interphoneVolume !== undefined ? t('broadcast:volume.interphone', { value: volumes.interphoneVolume }) : null,
  ]
    .filter(Boolean)
    .join(', ');
}

/** Names a terminal dispatch for the progress panel. */
export function describeTerminalDispatch(t: TFunction, detail: DispatchDetail): string {
  if (detail.action === 'volume') return t('broadcast:volume.dispatch', { what: describeVolumes(t, detail.params as TerminalVolumeParams) });
  if (detail.action === 'task') return t('broadcast:dispatch.task', { title: (detail.params as TerminalTaskParams).title });
  if (detail.action === 'cancelTask') return t('broadcast:dispatch.stop', { task: (detail.params as TerminalCancelTaskParams).taskId });
  return t('broadcast:playback.dispatch', { action: t(`broadcast:playback.${detail.action as TerminalPlaybackAction}`) });
}
