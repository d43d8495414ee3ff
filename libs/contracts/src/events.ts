import type { AlarmPressedEvent } from './alarm-columns';
import type { AgentModeChangedEvent, IncidentChangedEvent } from './alarm-intercom';
import type { AlarmChangedEvent } from './alarms';
import type { FamilyLiveFields, FamilyName } from './families';
import type { DispatchStatus } from './statuses';
import type { DispatchCounts } from './lighting';
import type { DispatchRowsChangedEvent } from './receipts';
import type { RadarDetectedEvent, RadarLampsChangedEvent } from './radar';

/** One device's stored state changed: only the fields that changed, named as in the family's list rows. */
export interface DeviceChange<F extends FamilyName = FamilyName> {
  /** The device's record id (device.id; a lamp gateway's own id). */
  recordId: number;
  deviceCode: string;
  changed: Partial<FamilyLiveFields[F]>;
}

/**
 * Stored states of one family's devices changed (reported by the devices, their Last Wills, or a dispatch): the
 * changes of one write, or of one push frame, together. Typed per family: narrowing on `family` types `changed`.
 */
export type DeviceStateChangedEvent = {
  [F in FamilyName]: {
    family: F;
    changes: DeviceChange<F>[];
    /** ISO 8601. */
    at: string;
  };
}[FamilyName];

/** A dispatch's rows moved. */
export interface DispatchProgressEvent {
  dispatchId: string;
  family: FamilyName;
  status: DispatchStatus;
  counts: DispatchCounts;
  total: number;
  at: string;
}

/**
 * Events the workers publish on Redis pub/sub and the gateway pushes over socket.io under the same names, to the
 * sockets watching that event of that family. One map: the worker, the gateway and the browser all type their side
 * with it.
 */
export interface BusEvents {
  DeviceStateChanged: DeviceStateChangedEvent;
  DispatchProgress: DispatchProgressEvent;
  DispatchRowsChanged: DispatchRowsChangedEvent;
  AlarmChanged: AlarmChangedEvent;
  RadarDetected: RadarDetectedEvent;
  RadarLampsChanged: RadarLampsChangedEvent;
  AlarmPressed: AlarmPressedEvent;
  IncidentChanged: IncidentChangedEvent;
  AgentModeChanged: AgentModeChangedEvent;
}

export type BusEventName = keyof BusEvents;

/** Every event once (a missing one fails to compile). */
const EVENTS: Readonly<Record<BusEventName, true>> = {
  DeviceStateChanged: true,
  DispatchProgress: true,
  DispatchRowsChanged: true,
  AlarmChanged: true,
  RadarDetected: true,
  RadarLampsChanged: true,
  AlarmPressed: true,
  IncidentChanged: true,
  AgentModeChanged: true,
};
export const BUS_EVENT_NAMES = Object.keys(EVENTS) as readonly BusEventName[];

/** The Redis channel of an event (after the installation's key prefix). */
export function busChannelOf(event: BusEventName): string {
  return `events:${event}`;
}
