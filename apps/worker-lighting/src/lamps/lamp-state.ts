import { LampStatus, OnlineState, type DimmingLevel, type FaultCode, type LampRow, type LampTelemetryMessage } from '@sc/contracts';
import type { LampStatePayload } from '@sc/messaging';

/** The stored fields of a lamp that devices and dispatches change, named as in LampRow. */
export type LampFields = Pick<
  LampRow,
  | 'status'
  | 'networkStatus'
  | 'switchState'
  | 'bri'
  | 'telemetry'
  | 'faults'
  | 'reportedAt'
  | 'gatewayId'
  | 'hardwareVersion'
  | 'softwareVersion'
  | 'totalIlluminationHours'
>;

/** Something that happened to one lamp, in the order it happened. `at` is the ISO time the message arrived. */
export type LampEvent =
  | { kind: 'state'; state: LampStatePayload; at: string }
  | { kind: 'telemetry'; telemetry: LampTelemetryMessage; at: string }
  | { kind: 'fault'; code: FaultCode; active: boolean; at: string }
  | { kind: 'distributing' }
  /** A sync command went out: -1 until the lamp reports its state. */
  | { kind: 'synchronizing' }
  | { kind: 'syncAnswered'; ok: boolean }
  | { kind: 'delivered'; switchState?: 0 | 1; bri?: DimmingLevel }
  | { kind: 'failed' };

/** Statuses a dispatch set: a device's own report does not clear them, the next dispatch does. */
const DISPATCH_STATUSES: readonly LampStatus[] = [LampStatus.Distributing, LampStatus.DistributionFailed, LampStatus.DistributionSucceeded];

/** A stored reading stamped further ahead of an arrival than this comes from a clock running fast. */
const CLOCK_AHEAD_MS = 60_000;

function isOlderReading(ts: string, storedTs: string, arrivedAt: string): boolean {
  const [at, stored, arrived] = [Date.parse(ts), Date.parse(storedTs), Date.parse(arrivedAt)];
  return at < stored && stored <= arrived + CLOCK_AHEAD_MS;
}

function apply(lamp: LampFields, event: LampEvent): LampFields {
  switch (event.kind) {
    case 'state': {
      // The Last Will is the broker speaking for a lamp that vanished: the lamp reported nothing, so reportedAt stays.
      if (!event.state.online) return { ...lamp, networkStatus: OnlineState.Offline, status: LampStatus.Offline };
      const s = event.state;
      return {
        ...lamp,
        networkStatus: OnlineState.Online,
        status: DISPATCH_STATUSES.includes(lamp.status) ? lamp.status : LampStatus.Normal,
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
      if (lamp.telemetry && isOlderReading(event.telemetry.ts, lamp.telemetry.ts, event.at)) return { ...lamp, reportedAt: event.at };
      return { ...lamp, telemetry: event.telemetry, reportedAt: event.at };
    case 'fault': {
      const without = lamp.faults.filter((code) => code !== event.code);
      const faults = event.active ? [...without, event.code].sort((a, b) => a - b) : without;
      return { ...lamp, faults, reportedAt: event.at };
    }
    case 'distributing':
      return { ...lamp, status: LampStatus.Distributing };
    case 'synchronizing':
      return { ...lamp, status: LampStatus.Synchronizing };
    case 'syncAnswered':
      // Acked: the state report that follows ends synchronizing. Refused or expired: back to what the lamp is.
      if (event.ok || lamp.status !== LampStatus.Synchronizing) return lamp;
      return { ...lamp, status: lamp.networkStatus === OnlineState.Online ? LampStatus.Normal : LampStatus.Offline };
    case 'delivered':
      return { ...lamp, status: LampStatus.DistributionSucceeded, switchState: event.switchState ?? lamp.switchState, bri: event.bri ?? lamp.bri };
    case 'failed':
      return { ...lamp, status: LampStatus.DistributionFailed };
  }
}

/** The lamp after its events, applied in order (the lamp status rules of spec section 4). */
export function applyLampEvents(lamp: LampFields, events: readonly LampEvent[]): LampFields {
  return events.reduce(apply, lamp);
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Only the fields whose values differ, as DeviceStateChanged carries them. */
export function changedLampFields(before: LampFields, after: LampFields): Partial<LampFields> {
  const changed: Partial<LampFields> = {};
  for (const key of Object.keys(after) as (keyof LampFields)[]) {
    if (!same(before[key], after[key])) (changed as Record<string, unknown>)[key] = after[key];
  }
  return changed;
}
