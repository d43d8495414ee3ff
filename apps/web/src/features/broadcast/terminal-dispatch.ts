import type { TFunction } from 'i18next';
import type { DispatchDetail, TerminalPlaybackAction, TerminalVolumeParams } from '@sc/contracts';

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
  return t('broadcast:playback.dispatch', { action: t(`broadcast:playback.${detail.action as TerminalPlaybackAction}`) });
}
