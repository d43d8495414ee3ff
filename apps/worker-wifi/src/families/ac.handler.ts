import { AC_FAMILY, OnlineState, type AcStateMessage, type WifiLoadMessage } from '@sc/contracts';
import type { DeviceEvent, FamilyHandler, StoredFields } from '@sc/device-runtime';
import { WIFI_LOAD_COLUMNS, wifiCommandOf, withLoad } from './wifi-load';

/** What access controllers report: the declared payloads of AC_FAMILY. */
export type AcReports = { state: AcStateMessage; telemetry: WifiLoadMessage };
export type AcEvent = DeviceEvent<AcReports>;
export type AcFields = StoredFields<typeof AC_FAMILY.family>;

/**
 * The controller after one event: its reports are the truth of its load; its Last Will (or silence) takes it offline
 * with no load known. A reboot changes nothing until it drops off and comes back.
 */
export function reduceAc(ac: AcFields, event: AcEvent): AcFields {
  switch (event.kind) {
    case 'report':
      return withLoad(ac, event.report, event.at);
    case 'offline':
      return { ...ac, networkStatus: OnlineState.Offline, cpuRatio: null, memoryRatio: null, diskRatio: null };
    case 'sending':
    case 'answered':
      return ac;
  }
}

/** Access controllers on the device runtime: their columns in `wifi_ac` and their reboot. */
export const acHandler: FamilyHandler<typeof AC_FAMILY.family, AcReports> = {
  declaration: AC_FAMILY,
  columns: WIFI_LOAD_COLUMNS,
  reduce: reduceAc,
  command: wifiCommandOf,
};
