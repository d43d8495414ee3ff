import { AP_FAMILY, OnlineState, type ApClientEvent, type ApLoadMessage, type ApStateMessage } from '@sc/contracts';
import type { DeviceEvent, FamilyHandler, StoredFields } from '@sc/device-runtime';
import { WIFI_LOAD_COLUMNS, wifiCommandOf, withLoad } from './wifi-load';

/** What access points report: the declared payloads of AP_FAMILY. */
export type ApReports = { state: ApStateMessage; telemetry: ApLoadMessage; event: ApClientEvent };
export type ApEvent = DeviceEvent<ApReports>;
export type ApFields = StoredFields<typeof AP_FAMILY.family>;

/**
 * The access point after one event. Its state and telemetry give its load and its client count; between them each
 * client joining or leaving moves the count at once (so the list follows the clients live), and the next reading
 * sets it right if a message was lost. Offline, it has no clients and no load known.
 */
export function reduceAp(ap: ApFields, event: ApEvent): ApFields {
  switch (event.kind) {
    case 'report':
      if (event.channel === 'event') {
        const step = event.report.kind === 'join' ? 1 : event.report.kind === 'leave' ? -1 : 0;
        return step === 0 ? ap : { ...ap, networkStatus: OnlineState.Online, clientCount: Math.max(0, ap.clientCount + step) };
      }
      return { ...withLoad(ap, event.report, event.at), clientCount: event.report.clients };
    case 'offline':
      return { ...ap, networkStatus: OnlineState.Offline, cpuRatio: null, memoryRatio: null, diskRatio: null, clientCount: 0 };
    case 'sending':
    case 'answered':
      return ap;
  }
}

/** Access points on the device runtime: their columns in `wifi_ap` and their reboot. */
export const apHandler: FamilyHandler<typeof AP_FAMILY.family, ApReports> = {
  declaration: AP_FAMILY,
  columns: { ...WIFI_LOAD_COLUMNS, clientCount: { column: 'client_count', type: 'int' } },
  reduce: reduceAp,
  command: wifiCommandOf,
};
