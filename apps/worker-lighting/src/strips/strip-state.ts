import { LampStatus, OnlineState, applyStripEffect, type StripEffectParams, type StripRow, type LampTelemetryMessage } from '@sc/contracts';
import type { StripStatePayload } from '@sc/messaging';
import type { CommonDeviceEvent } from '../intake/family-store';

/** The stored fields of a strip light that devices and dispatches change, named as in StripRow. */
export type StripFields = Pick<
  StripRow,
  'status' | 'networkStatus' | 'bri' | 'zones' | 'telemetry' | 'faults' | 'reportedAt' | 'gatewayId' | 'hardwareVersion' | 'softwareVersion'
>;

export type StripEvent =
  | CommonDeviceEvent
  | { kind: 'state'; state: StripStatePayload; at: string }
  | { kind: 'telemetry'; telemetry: LampTelemetryMessage; at: string }
  | { kind: 'delivered'; effect: StripEffectParams | null };

/** Statuses a dispatch set: the strip's own report does not clear them (unless it synchronizes), the next dispatch does. */
const DISPATCH_STATUSES: readonly LampStatus[] = [LampStatus.Distributing, LampStatus.DistributionFailed, LampStatus.DistributionSucceeded];

function apply(strip: StripFields, event: StripEvent): StripFields {
  switch (event.kind) {
    case 'state': {
      if (!event.state.online) return { ...strip, networkStatus: OnlineState.Offline, status: LampStatus.Offline };
      const s = event.state;
      const status = s.synchronizing ? LampStatus.Synchronizing : DISPATCH_STATUSES.includes(strip.status) ? strip.status : LampStatus.Normal;
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
      return { ...strip, telemetry: event.telemetry, reportedAt: event.at };
    case 'fault': {
      const without = strip.faults.filter((code) => code !== event.code);
      return { ...strip, faults: event.active ? [...without, event.code].sort((a, b) => a - b) : without, reportedAt: event.at };
    }
    case 'distributing':
      return { ...strip, status: LampStatus.Distributing };
    case 'delivered':
      return {
        ...strip,
        status: LampStatus.DistributionSucceeded,
        zones: event.effect ? applyStripEffect(strip.zones, event.effect) : strip.zones,
      };
    case 'failed':
      return { ...strip, status: LampStatus.DistributionFailed };
  }
}

/** The strip after its events, applied in order (the same status rules as single lamps, plus synchronizing). */
export function applyStripEvents(strip: StripFields, events: readonly StripEvent[]): StripFields {
  return events.reduce(apply, strip);
}

/** Only the fields whose values differ, as DeviceStateChanged carries them. */
export function changedStripFields(before: StripFields, after: StripFields): Partial<StripFields> {
  const changed: Partial<StripFields> = {};
  for (const key of Object.keys(after) as (keyof StripFields)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) (changed as Record<string, unknown>)[key] = after[key];
  }
  return changed;
}
