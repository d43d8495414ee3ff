import type { PageQuery } from './envelope';
import type { FaultCode } from './devices';
import type { FamilyName } from './families';

/**
 * What an alarm is about: a fault code a device reported (spec section 3, codes 1 to 8), a lamp lit while the sun is
 * up (day-burning), a lamp dark while its strategy says it should be lit, a device of any family gone offline (its
 * Last Will, or silent for three heartbeats), or a device whose load crossed its family's declared threshold.
 */
export enum AlarmKind {
  Fault = 'fault',
  DayBurning = 'dayBurning',
  DarkLamp = 'darkLamp',
  Offline = 'offline',
  Overload = 'overload',
}

/** active → acknowledged (by an operator) → cleared (by the device, the condition ending, or an operator). */
export enum AlarmState {
  Active = 'active',
  Acknowledged = 'acknowledged',
  Cleared = 'cleared',
}

export const ALARM_KINDS: readonly AlarmKind[] = Object.values(AlarmKind);
export const ALARM_STATES: readonly AlarmState[] = Object.values(AlarmState);

/** One alarm (POST /api/light/alarmPage, and the AlarmChanged event). */
export interface AlarmRow {
  id: number;
  /** The device family the alarm's device belongs to. */
  family: FamilyName;
  deviceId: number;
  /** The device code (a lamp's clientId). */
  deviceCode: string;
  deviceName: string;
  regionId: number | null;
  regionName: string | null;
  kind: AlarmKind;
  /** The fault code for kind fault; 0 otherwise. */
  code: FaultCode | 0;
  state: AlarmState;
  raisedAt: string;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
  clearedAt: string | null;
  /** The operator who cleared it; null when the device (or the condition ending) cleared it. */
  clearedBy: string | null;
}

export interface AlarmPageQuery extends PageQuery {
  /** Alarms of lamps in this region and its sub-regions. */
  regionId?: number;
  kind?: AlarmKind;
  /** A fault code (implies kind fault). */
  code?: FaultCode;
  state?: AlarmState;
  /** Only open alarms (active or acknowledged): the live list. */
  open?: boolean;
  /** Alarms of one device (its history). */
  deviceId?: number;
  /** Part of the device name or code, any case. */
  keyword?: string;
  /** Raised at or after (ISO 8601). */
  raisedFrom?: string;
  /** Raised before (ISO 8601). */
  raisedTo?: string;
}

/** POST /api/light/alarmAcknowledge and alarmClear. */
export interface AlarmActionRequest {
  ids: number[];
}

export interface AlarmActionResult {
  /** Alarms that changed; the others were already past that state. */
  changed: number;
}

/** Open alarms counted by kind and fault code, for the page's summary. */
export interface AlarmSummary {
  active: number;
  acknowledged: number;
  byKind: Record<AlarmKind, number>;
  byCode: Partial<Record<FaultCode, number>>;
}

/** An alarm was raised, acknowledged or cleared (pushed to the roles of its device family). */
export interface AlarmChangedEvent {
  family: FamilyName;
  change: 'raised' | 'acknowledged' | 'cleared';
  alarm: AlarmRow;
  at: string;
}

/** Most alarms one acknowledge or clear call may name. */
export const ALARM_ACTION_MAX_IDS = 1000;

/** POST /api/alarms/page: the alarms of one family, or of every family the caller's roles see. */
export interface DeviceAlarmPageQuery extends AlarmPageQuery {
  family?: FamilyName;
}
