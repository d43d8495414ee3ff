import { OnlineState, RADAR_FAMILY, type RadarDetectionMessage, type RadarStateMessage } from '@sc/contracts';
import type { DeviceEvent, FamilyHandler, StoredFields } from '@sc/device-runtime';

/** What radars report: the declared payloads of RADAR_FAMILY. */
export type RadarReports = { state: RadarStateMessage; event: RadarDetectionMessage };
export type RadarEvent = DeviceEvent<RadarReports>;
export type RadarFields = StoredFields<typeof RADAR_FAMILY.family>;

/** The rate's time constant: a detection counts fully for about a minute, then fades. */
const RATE_WINDOW_MS = 60_000;

/**
 * Detections a minute at `at`, from the rate as of `since`: an exponentially fading count (a steady flow of n a
 * minute reads about n), which needs no window of past detections and can be kept in one column.
 */
export function fadedRate(rate: number, since: string | null, at: string): number {
  if (since === null || rate === 0) return 0;
  const elapsed = Math.max(0, Date.parse(at) - Date.parse(since));
  return rate * Math.exp(-elapsed / RATE_WINDOW_MS);
}

const rounded = (rate: number) => Math.round(rate * 100) / 100;

/**
 * The radar after one event. Its state reports give its versions and link; each detection adds one to its count and
 * to its rate (which fades as of its last report, so a quiet radar's rate falls at every heartbeat).
 */
export function reduceRadar(radar: RadarFields, event: RadarEvent): RadarFields {
  switch (event.kind) {
    case 'report': {
      const rate = fadedRate(radar.radarRate, radar.reportedAt, event.at);
      if (event.channel === 'event') {
        return {
          ...radar,
          networkStatus: OnlineState.Online,
          count: radar.count + 1,
          radarRate: rounded(rate + 1),
          lastDetectionAt: event.report.ts,
          reportedAt: event.at,
        };
      }
      const s = event.report;
      return {
        ...radar,
        networkStatus: OnlineState.Online,
        swver: s.swver ?? radar.swver,
        hwver: s.hwver ?? radar.hwver,
        mac: s.mac ?? radar.mac,
        rssi: s.rssi ?? radar.rssi,
        radarRate: rounded(rate),
        reportedAt: event.at,
      };
    }
    case 'offline':
      return { ...radar, networkStatus: OnlineState.Offline, radarRate: 0 };
    // Radars take no commands.
    case 'sending':
    case 'answered':
      return radar;
  }
}

/** Radars on the device runtime: their columns in `radar_terminal`. */
export const radarHandler: FamilyHandler<typeof RADAR_FAMILY.family, RadarReports> = {
  declaration: RADAR_FAMILY,
  columns: {
    networkStatus: { column: 'network_status', type: 'smallint' },
    count: { column: 'count', type: 'int' },
    radarRate: { column: 'radar_rate', type: 'float8' },
    swver: { column: 'swver', type: 'text' },
    hwver: { column: 'hwver', type: 'text' },
    mac: { column: 'mac', type: 'text' },
    rssi: { column: 'rssi', type: 'smallint' },
    reportedAt: { column: 'reported_at', type: 'timestamptz' },
    lastDetectionAt: { column: 'last_detection_at', type: 'timestamptz' },
  },
  reduce: reduceRadar,
};
