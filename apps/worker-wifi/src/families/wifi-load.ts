import { OnlineState, type WifiDeviceLive } from '@sc/contracts';
import type { ColumnSpec } from '@sc/device-runtime';

/** What access controllers and access points both keep: their network status, load, version and last report. */
export type WifiLoadFields = WifiDeviceLive;

/** The columns of those fields, the same in `wifi_ac` and `wifi_ap`. */
export const WIFI_LOAD_COLUMNS = {
  networkStatus: { column: 'network_status', type: 'smallint' },
  cpuRatio: { column: 'cpu_ratio', type: 'float8' },
  memoryRatio: { column: 'memory_ratio', type: 'float8' },
  diskRatio: { column: 'disk_ratio', type: 'float8' },
  softwareVersion: { column: 'software_version', type: 'text' },
  reportedAt: { column: 'reported_at', type: 'timestamptz' },
} as const satisfies Record<keyof WifiLoadFields, ColumnSpec>;

/** Ratios are shown with one decimal. */
const ratio = (value: number): number => Math.round(value * 10) / 10;

/** A report of load (state or telemetry): the device is online, with this load now. */
export function withLoad<F extends WifiLoadFields>(
  fields: F,
  report: { cpuRatio: number; memoryRatio: number; diskRatio: number; softwareVersion?: string },
  at: string,
): F {
  return {
    ...fields,
    networkStatus: OnlineState.Online,
    cpuRatio: ratio(report.cpuRatio),
    memoryRatio: ratio(report.memoryRatio),
    diskRatio: ratio(report.diskRatio),
    softwareVersion: report.softwareVersion ?? fields.softwareVersion,
    reportedAt: at,
  };
}

/** The reboot is the only command of either family. */
export function wifiCommandOf(action: string): { type: 'reboot'; params: Record<string, never> } | null {
  return action === 'reboot' ? { type: 'reboot', params: {} } : null;
}
