import {
  DIMMING_LEVELS,
  LAMP_FAMILY,
  LampStatus,
  OnlineState,
  type DeviceEventMessage,
  type DimmingLevel,
  type LampCommand,
  type LampLiveFields,
  type LampSchedule,
  type LampStateMessage,
  type LampTelemetryMessage,
} from '@sc/contracts';
import type { DeviceEvent, FamilyHandler } from '@sc/device-runtime';
import { offline, reportedStatus, withFault } from './light-status';

/** What single lamps report: the declared payloads of LAMP_FAMILY. */
export type LampReports = { state: LampStateMessage; telemetry: LampTelemetryMessage; event: DeviceEventMessage };
export type LampEvent = DeviceEvent<LampReports>;

/** A lamp command without its id and expiry. */
export type LampCommandBody = LampCommand extends infer C ? (C extends LampCommand ? Pick<C, 'type' | 'params'> : never) : never;

function levelOf(params: unknown): DimmingLevel | null {
  const level = (params as { level?: unknown } | null)?.level;
  return (DIMMING_LEVELS as readonly unknown[]).includes(level) ? (level as DimmingLevel) : null;
}

/** Enough of a schedule to send: the gateway validated the rules when it compiled it. */
export function isSchedule(params: unknown): params is LampSchedule {
  const p = params as Partial<LampSchedule> | null;
  return !!p && typeof p.strategyId === 'number' && !!p.rules && !!p.place && typeof p.place.timeZone === 'string';
}

/** The command a dispatch sends: 'on' and 'off' switch, 'dim' sets a dimming level. Null for a dispatch the lamps cannot run. */
export function lampCommandOf(action: string, params: unknown): LampCommandBody | null {
  switch (action) {
    case 'on':
      return { type: 'switch', params: { on: true } };
    case 'off':
      return { type: 'switch', params: { on: false } };
    case 'dim': {
      const level = levelOf(params);
      return level === null ? null : { type: 'dim', params: { level } };
    }
    case 'schedule':
      return isSchedule(params) ? { type: 'schedule', params } : null;
    case 'sync':
      return { type: 'sync', params: {} };
    default:
      return null;
  }
}

/** What a lamp reports after it applied a command; level 0 is off (spec: dimming level 0 means off). */
export function fieldsAfterCommand(command: LampCommandBody): { switchState?: 0 | 1; bri?: DimmingLevel } {
  if (command.type === 'switch') return { switchState: command.params.on ? 1 : 0 };
  // A lamp applies its schedule's level itself and reports it in its state.
  if (command.type === 'schedule' || command.type === 'sync') return {};
  return { switchState: command.params.level > 0 ? 1 : 0, bri: command.params.level };
}

/** A stored reading stamped further ahead of an arrival than this comes from a clock running fast. */
const CLOCK_AHEAD_MS = 60_000;

function isOlderReading(ts: string, storedTs: string, arrivedAt: string): boolean {
  const [at, stored, arrived] = [Date.parse(ts), Date.parse(storedTs), Date.parse(arrivedAt)];
  return at < stored && stored <= arrived + CLOCK_AHEAD_MS;
}

function report(lamp: LampLiveFields, event: Extract<LampEvent, { kind: 'report' }>): LampLiveFields {
  switch (event.channel) {
    case 'state': {
      const s = event.report;
      return {
        ...lamp,
        networkStatus: OnlineState.Online,
        status: reportedStatus(lamp.status),
        switchState: s.on ? 1 : 0,
        bri: s.level,
        gatewayId: s.gatewayId ?? lamp.gatewayId,
        hardwareVersion: s.hardwareVersion ?? lamp.hardwareVersion,
        softwareVersion: s.softwareVersion ?? lamp.softwareVersion,
        totalIlluminationHours: s.totalIlluminationHours ?? lamp.totalIlluminationHours,
        reportedAt: event.at,
      };
    }
    case 'telemetry':
      // A redelivered or late reading older than the stored one does not replace it (energy integrates from the stored
      // reading), unless the stored one is stamped ahead of this arrival: a lamp whose clock was reset moves on.
      if (lamp.telemetry && isOlderReading(event.report.ts, lamp.telemetry.ts, event.at)) return { ...lamp, reportedAt: event.at };
      return { ...lamp, telemetry: event.report, reportedAt: event.at };
    case 'event':
      return { ...lamp, faults: withFault(lamp.faults, event.report.code, event.report.active), reportedAt: event.at };
  }
}

/** The lamp after one event: the lamp status rules of spec section 4. */
export function reduceLamp(lamp: LampLiveFields, event: LampEvent): LampLiveFields {
  switch (event.kind) {
    case 'report':
      return report(lamp, event);
    case 'offline':
      // The Last Will is the broker speaking for a lamp that vanished: the lamp reported nothing, so reportedAt stays.
      return offline(lamp);
    case 'sending':
      // A sync command asks the lamp to report: -1 until it does; any other command is a distribution, -2.
      return { ...lamp, status: event.action === 'sync' ? LampStatus.Synchronizing : LampStatus.Distributing };
    case 'answered': {
      if (event.action === 'sync') {
        // Acked: the state report that follows ends synchronizing. Refused or expired: back to what the lamp is.
        if (event.delivered || lamp.status !== LampStatus.Synchronizing) return lamp;
        return { ...lamp, status: lamp.networkStatus === OnlineState.Online ? LampStatus.Normal : LampStatus.Offline };
      }
      const body = lampCommandOf(event.action, event.params);
      if (!event.delivered || !body) return { ...lamp, status: LampStatus.DistributionFailed };
      const after = fieldsAfterCommand(body);
      return { ...lamp, status: LampStatus.DistributionSucceeded, switchState: after.switchState ?? lamp.switchState, bri: after.bri ?? lamp.bri };
    }
  }
}

/** Single lamps on the device runtime: their columns in `lamp`, their status rules and their commands. */
export const lampHandler: FamilyHandler<typeof LAMP_FAMILY.family, LampReports> = {
  declaration: LAMP_FAMILY,
  columns: {
    status: { column: 'status', type: 'smallint' },
    networkStatus: { column: 'network_status', type: 'smallint' },
    switchState: { column: 'switch_state', type: 'smallint' },
    bri: { column: 'bri', type: 'smallint' },
    telemetry: { column: 'telemetry', type: 'jsonb' },
    faults: { column: 'faults', type: 'smallint[]' },
    reportedAt: { column: 'reported_at', type: 'timestamptz' },
    gatewayId: { column: 'gateway_id', type: 'text' },
    hardwareVersion: { column: 'hardware_version', type: 'text' },
    softwareVersion: { column: 'software_version', type: 'text' },
    totalIlluminationHours: { column: 'total_illumination_hours', type: 'int' },
  },
  reduce: reduceLamp,
  command: lampCommandOf,
};
