import type { OnlineState } from './devices';
import type { PageQuery } from './envelope';
import type { DevicePlacement } from './poles';
import { AlarmLevel } from './statuses';

/** Longest alarm column name (the device name column). */
export const ALARM_COLUMN_NAME_MAX = 64;
/** Longest SIP account (the number the column calls from and is called on, for the intercom). */
export const SIP_ACCOUNT_MAX = 32;
/** A SIP account as the console takes it: digits, letters, `_`, `.`, `-`, `+` (a user part of a SIP URI). */
export const SIP_ACCOUNT_PATTERN = /^[A-Za-z0-9_.+-]{1,32}$/;

/** The spec's alarm levels (alarm options: 0, 1 and 2, read as one, two and three), as an alarm column's press gives them. */
export const ALARM_LEVELS = [AlarmLevel.One, AlarmLevel.Two, AlarmLevel.Three] as const;

/** The values an alarm column's number fields accept (browser and server check them alike). */
export const ALARM_COLUMN_BOUNDS = {
  /** Its speaker's volume, percent. */
  volume: { min: 0, max: 100, integer: true },
} as const;

/** What the console records of an alarm column (what it does not read from the column). */
export interface AlarmColumnRecord {
  name: string;
  /** The serial number: the device code, its MQTT identity, unique among alarm columns. */
  code: string;
  /** Its SIP account (the intercom's number for it); empty when not yet given. */
  sipAccount: string;
  /** Its own position; null to take its pole's. */
  latitude: number | null;
  longitude: number | null;
}

/** One row of the alarm column list (POST /api/alarm/columnPage). */
export interface AlarmColumnRow extends AlarmColumnRecord, DevicePlacement {
  id: number;
  networkStatus: OnlineState;
  /** The address it reports (state). */
  ipAddress: string;
  swver: string;
  hwver: string;
  /** Its speaker's volume, percent, as it last reported it (null before its first report). */
  volume: number | null;
  /** When it was last heard from (heartbeat or any report). */
  reportedAt: string | null;
  /** The last press of its button: when (as the column stamped it) and at which level. */
  lastPressAt: string | null;
  lastPressLevel: AlarmLevel | null;
  /** Presses recorded since it was added. */
  pressCount: number;
}

export interface AlarmColumnFilters {
  /** Part of the name, the code or the SIP account, any case. */
  name?: string;
  /** Columns of this region and of its sub-regions. */
  regionId?: number;
  networkStatus?: OnlineState;
}

export interface AlarmColumnPageQuery extends PageQuery, AlarmColumnFilters {}

/** POST /api/alarm/columnAddOrEdit. */
export interface AlarmColumnAddOrEditRequest extends Omit<AlarmColumnRecord, 'sipAccount' | 'latitude' | 'longitude'> {
  id?: number;
  sipAccount?: string;
  latitude?: number | null;
  longitude?: number | null;
  regionId?: number | null;
  poleId?: number | null;
}

/** The columns a command is for: exactly one of the columns (device ids) or every one of a region and below. */
export interface AlarmColumnSelection {
  ids?: number[];
  regionId?: number;
}

/** POST /api/alarm/columnVolume. */
export interface AlarmColumnVolumeRequest extends AlarmColumnSelection {
  volume: number;
}

/**
 * Someone pressed an alarm column's button (AlarmPressed, pushed to the alarm pages once it is stored in
 * `alarm_press`): the column, its level, and where it is.
 */
export interface AlarmPressedEvent {
  family: 'alarm';
  /** The stored press (alarm_press.id). */
  pressId: string;
  columnId: number;
  code: string;
  level: AlarmLevel;
  /** ISO 8601, as the column stamped it (the platform's time when its clock is not believed). */
  ts: string;
  /** ISO 8601: when the platform stored it. */
  at: string;
  pressCount: number;
}
