import {
  LampStatus,
  OnlineState,
  STRIP_FAMILY,
  applyStripEffect,
  stripEffectOf,
  stripStatusLabels,
  type DeviceEventMessage,
  type LampTelemetryMessage,
  type StripCommand,
  type StripStateMessage,
} from '@sc/contracts';
import type { DeviceEvent, FamilyHandler, StoredFields } from '@sc/device-runtime';
import { isSchedule } from './lamp.handler';
import { offline, reportedStatus, withFault } from './light-status';

/** What strip lights report: the declared payloads of STRIP_FAMILY. */
export type StripReports = { state: StripStateMessage; telemetry: LampTelemetryMessage; event: DeviceEventMessage };
export type StripEvent = DeviceEvent<StripReports>;
/** Live fields computed from the stored ones: the status labels and the colour shown in the list. */
type Derived = 'statusLabels' | 'color';
export type StripFields = StoredFields<typeof STRIP_FAMILY.family, Derived>;

/** The command a strip dispatch sends: its light effect, or its strip strategy's schedule; null when the row cannot run. */
export function stripCommandOf(action: string, params: unknown): Pick<StripCommand, 'type' | 'params'> | null {
  if (action === 'schedule') return isSchedule(params) ? { type: 'schedule', params } : null;
  const effect = stripEffectOf(params);
  return effect && { type: 'effect', params: effect };
}

function report(strip: StripFields, event: Extract<StripEvent, { kind: 'report' }>): StripFields {
  switch (event.channel) {
    case 'state': {
      const s = event.report;
      // A strip that says it synchronizes shows it, whatever a dispatch left.
      const status = s.synchronizing ? LampStatus.Synchronizing : reportedStatus(strip.status);
      return {
        ...strip,
        networkStatus: OnlineState.Online,
        status,
        bri: s.bri,
        zones: s.zones,
        gatewayId: s.gatewayId ?? strip.gatewayId,
        hardwareVersion: s.hardwareVersion ?? strip.hardwareVersion,
        softwareVersion: s.softwareVersion ?? strip.softwareVersion,
        reportedAt: event.at,
      };
    }
    case 'telemetry':
      return { ...strip, telemetry: event.report, reportedAt: event.at };
    case 'event':
      return { ...strip, faults: withFault(strip.faults, event.report.code, event.report.active), reportedAt: event.at };
  }
}

/** The strip after one event: the same status rules as single lamps, plus synchronizing. */
export function reduceStrip(strip: StripFields, event: StripEvent): StripFields {
  switch (event.kind) {
    case 'report':
      return report(strip, event);
    case 'offline':
      return offline(strip);
    case 'sending':
      return { ...strip, status: LampStatus.Distributing };
    case 'answered': {
      if (!event.delivered) return { ...strip, status: LampStatus.DistributionFailed };
      // An effect leaves its zones as applyStripEffect says; a schedule changes nothing until the strip reports its level.
      const effect = event.action === 'schedule' ? null : stripEffectOf(event.params);
      return { ...strip, status: LampStatus.DistributionSucceeded, zones: effect ? applyStripEffect(strip.zones, effect) : strip.zones };
    }
  }
}

/** Strip lights on the device runtime: their columns in `strip_light`, their status rules and their effect commands. */
export const stripHandler: FamilyHandler<typeof STRIP_FAMILY.family, StripReports, Derived> = {
  declaration: STRIP_FAMILY,
  columns: {
    status: { column: 'status', type: 'smallint' },
    networkStatus: { column: 'network_status', type: 'smallint' },
    bri: { column: 'bri', type: 'smallint' },
    zones: { column: 'zones', type: 'jsonb' },
    telemetry: { column: 'telemetry', type: 'jsonb' },
    faults: { column: 'faults', type: 'smallint[]' },
    reportedAt: { column: 'reported_at', type: 'timestamptz' },
    gatewayId: { column: 'gateway_id', type: 'text' },
    hardwareVersion: { column: 'hardware_version', type: 'text' },
    softwareVersion: { column: 'software_version', type: 'text' },
  },
  reduce: reduceStrip,
  derive: (strip) => ({ statusLabels: stripStatusLabels(strip.status, strip.faults), color: strip.zones?.L.color ?? strip.zones?.R.color ?? '' }),
  command: stripCommandOf,
};
