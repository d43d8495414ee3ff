import type { TFunction } from 'i18next';
import type { AlarmAnnounceParams, AlarmVolumeParams, DispatchDetail } from '@sc/contracts';

/** A spoken text as the progress panel names it: its first words. */
const SPOKEN_SHOWN = 40;

/** Names an alarm column dispatch for the progress panel (the columns page's and audioInquiry's). */
export function describeAlarmDispatch(t: TFunction, detail: DispatchDetail): string {
  switch (detail.action) {
    case 'volume':
      return t('alarmColumns:command.volumeTo', { value: (detail.params as AlarmVolumeParams).volume });
    case 'announce': {
      const { items, text = '' } = detail.params as AlarmAnnounceParams;
      if (items) return t('alarmColumns:command.announceAudio', { count: items.length });
      return t('alarmColumns:command.announceText', { text: text.length > SPOKEN_SHOWN ? `${text.slice(0, SPOKEN_SHOWN)}…` : text });
    }
    case 'stopAnnounce':
      return t('alarmColumns:command.stopAnnounce');
    default:
      return t('alarmColumns:command.reboot');
  }
}
