import type { TFunction } from 'i18next';
import type { DispatchDetail, LedBrightnessParams, LedPlayParams, LedScreenParams, LedTaskParams, LedVolumeParams } from '@sc/contracts';
import { ScreenState } from '@sc/contracts';

/** Names an LED dispatch for the progress panel. */
export function describeLedDispatch(t: TFunction, detail: DispatchDetail): string {
  switch (detail.action) {
    case 'brightness':
      return t('led:command.brightnessTo', { value: (detail.params as LedBrightnessParams).brightness });
    case 'volume':
      return t('led:command.volumeTo', { value: (detail.params as LedVolumeParams).volume });
    case 'screen':
      return t((detail.params as LedScreenParams).state === ScreenState.Black ? 'led:command.black' : 'led:command.bright');
    case 'reboot':
      return t('led:command.reboot');
    case 'play':
      return t('led:realtime.playing', { name: (detail.params as LedPlayParams).file.name });
    case 'stopPlay':
      return t('led:realtime.stop');
    case 'task':
      return t('led:task.publishing', { name: (detail.params as LedTaskParams).name });
    case 'forgetTask':
      return t('led:task.forgetting');
    default:
      return t('led:command.syncTime');
  }
}
