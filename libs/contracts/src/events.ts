import type { AlarmChangedEvent } from './alarms';
import type { DispatchStatus } from './statuses';
import type { DispatchCounts } from './lighting';
import type { DeviceFamily } from './mqtt';
import { Role } from './roles';

/** A stored device's state changed (reported by the device, its Last Will, or a dispatch). */
export interface DeviceStateChangedEvent {
  family: DeviceFamily;
  /** The device's record id (device.id). */
  recordId: number;
  deviceCode: string;
  /** Only the fields that changed, named as in the family's list rows (LampRow for lamps). */
  changed: Record<string, unknown>;
  /** ISO 8601. */
  at: string;
}

/** A dispatch's rows moved. */
export interface DispatchProgressEvent {
  dispatchId: string;
  family: DeviceFamily;
  status: DispatchStatus;
  counts: DispatchCounts;
  total: number;
  at: string;
}

/**
 * Events the workers publish on Redis pub/sub and the gateway pushes over socket.io under the same names. One map:
 * the worker, the gateway and the browser all type their side with it.
 */
export interface BusEvents {
  DeviceStateChanged: DeviceStateChangedEvent;
  DispatchProgress: DispatchProgressEvent;
  AlarmChanged: AlarmChangedEvent;
}

export type BusEventName = keyof BusEvents;

/** The Redis channel of each event (after the installation's key prefix). */
export const BUS_CHANNELS: Readonly<Record<BusEventName, string>> = {
  DeviceStateChanged: 'events:DeviceStateChanged',
  DispatchProgress: 'events:DispatchProgress',
  AlarmChanged: 'events:AlarmChanged',
};

/**
 * Who receives a family's events: the roles that may open its pages (spec section 6; smart lamp pages are admin
 * only). Administrators always do.
 */
export const FAMILY_EVENT_ROLES: Readonly<Partial<Record<DeviceFamily, readonly string[]>>> = {
  lamp: [Role.Admin],
  'lamp-gateway': [Role.Admin],
  strip: [Role.Admin],
};
