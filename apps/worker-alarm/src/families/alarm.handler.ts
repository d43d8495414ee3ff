import {
  ALARM_COLUMN_BOUNDS,
  ALARM_FAMILY,
  OnlineState,
  numberProblem,
  type AlarmLevel,
  type AlarmAnnounceParams,
  type AlarmEventMessage,
  type AlarmStateMessage,
} from '@sc/contracts';
import { believedTime, type DeviceEvent, type FamilyHandler, type StoredFields } from '@sc/device-runtime';

/** What alarm columns report: the declared payloads of ALARM_FAMILY. */
export type AlarmReports = { state: AlarmStateMessage; event: AlarmEventMessage };
export type AlarmEvent = DeviceEvent<AlarmReports>;
export type AlarmFields = StoredFields<typeof ALARM_FAMILY.family>;

/** One alarm column command's type and params. */
export type AlarmCommandBody =
  | { type: 'reboot'; params: Record<string, never> }
  | { type: 'volume'; params: { volume: number } }
  | { type: 'announce'; params: AlarmAnnounceParams }
  | { type: 'stopAnnounce'; params: Record<string, never> };

/** The command an alarm column dispatch sends; null for an action or params a column cannot run (the row fails). */
export function alarmCommandOf(action: string, params: unknown): AlarmCommandBody | null {
  if (action === 'reboot') return { type: 'reboot', params: {} };
  if (action === 'stopAnnounce') return { type: 'stopAnnounce', params: {} };
  // The gateway built and checked it (the media approved, their links signed); the column checks it against the schema.
  if (action === 'announce')
    return params !== null && typeof params === 'object' ? { type: 'announce', params: params as AlarmAnnounceParams } : null;
  if (action !== 'volume') return null;
  const volume = (params as { volume?: unknown } | null)?.volume;
  return typeof volume === 'number' && !numberProblem(volume, ALARM_COLUMN_BOUNDS.volume) ? { type: 'volume', params: { volume } } : null;
}

/**
 * The alarm column after one event. Its state gives its address, versions and volume; each press counts, and is its
 * last press (at the time the column stamped it, when its clock is believed). Offline on its Last Will or silence;
 * an acknowledged volume is its volume at once (its next state says the same).
 */
export function reduceAlarm(column: AlarmFields, event: AlarmEvent): AlarmFields {
  switch (event.kind) {
    case 'report': {
      if (event.channel === 'event') {
        // A call's voice (talk, talkEnd) is the voice bridge's (VoiceCalls); the column was heard from, that is all.
        if (event.report.kind !== 'press') return { ...column, networkStatus: OnlineState.Online, reportedAt: event.at };
        return {
          ...column,
          networkStatus: OnlineState.Online,
          lastPressAt: believedTime(event.report.ts, event.at),
          lastPressLevel: event.report.level as AlarmLevel,
          pressCount: column.pressCount + 1,
          reportedAt: event.at,
        };
      }
      const s = event.report;
      return {
        ...column,
        networkStatus: OnlineState.Online,
        ipAddress: s.ipAddress ?? column.ipAddress,
        swver: s.swver ?? column.swver,
        hwver: s.hwver ?? column.hwver,
        volume: s.volume ?? column.volume,
        reportedAt: event.at,
      };
    }
    case 'offline':
      return { ...column, networkStatus: OnlineState.Offline };
    case 'sending':
      return column;
    case 'answered': {
      const command = event.delivered ? alarmCommandOf(event.action, event.params) : null;
      return command?.type === 'volume' ? { ...column, volume: command.params.volume } : column;
    }
  }
}

/** Alarm columns on the device runtime: their columns in `alarm_column`, their reboot and volume. */
export const alarmHandler: FamilyHandler<typeof ALARM_FAMILY.family, AlarmReports> = {
  declaration: ALARM_FAMILY,
  columns: {
    networkStatus: { column: 'network_status', type: 'smallint' },
    ipAddress: { column: 'ip_address', type: 'text' },
    swver: { column: 'swver', type: 'text' },
    hwver: { column: 'hwver', type: 'text' },
    volume: { column: 'volume', type: 'smallint' },
    reportedAt: { column: 'reported_at', type: 'timestamptz' },
    lastPressAt: { column: 'last_press_at', type: 'timestamptz' },
    lastPressLevel: { column: 'last_press_level', type: 'smallint' },
    pressCount: { column: 'press_count', type: 'int' },
  },
  reduce: reduceAlarm,
  command: alarmCommandOf,
};
