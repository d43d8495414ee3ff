import type { TFunction } from 'i18next';
import type { DispatchDetail, SignageVolumeParams } from '@sc/contracts';

/** Names a floor-screen dispatch for the progress panel. */
export function describeSignageDispatch(t: TFunction, detail: DispatchDetail): string {
  if (detail.action === 'volume') return t('signage:dispatch.volume', { volume: (detail.params as SignageVolumeParams).volume });
  return t(`signage:dispatch.${detail.action as 'mute' | 'unmute' | 'reboot' | 'screenshot'}`);
}
