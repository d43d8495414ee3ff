import type { DimmingLevel, OnlineState } from './devices';
import type { PageQuery } from './envelope';
import type { DevicePlacement } from './poles';
import { SENSING_HOLD_MAX_SECONDS } from './strategy';

/** Longest radar, group and strategy name. */
export const RADAR_NAME_MAX = 64;

/**
 * What a radar detected (a radar event's `event`, and what a strategy's event row names): the event IDs of the
 * spec's radar strategies. The spec gives no list; these are the classes street radars tell apart.
 */
export enum RadarEventId {
  Pedestrian = 1,
  NonMotorVehicle = 2,
  MotorVehicle = 3,
}
export const RADAR_EVENT_IDS = [RadarEventId.Pedestrian, RadarEventId.NonMotorVehicle, RadarEventId.MotorVehicle] as const;

/** The values a strategy event's numbers accept (browser and server check them alike). */
export const RADAR_BOUNDS = {
  /** Seconds from the detection until the lamps rise (0: at once). */
  openInterval: { min: 0, max: 600, integer: true },
  /** Seconds the lamps stay raised after the last detection before they return. */
  closeInterval: { min: 1, max: SENSING_HOLD_MAX_SECONDS, integer: true },
  /** Events of one strategy. */
  events: { min: 1, max: 16 },
  /** Radars or lamps of one group. */
  members: { max: 2000 },
} as const;

/** What the console records of a radar (the spec's radar fields it does not read from the radar). */
export interface RadarRecord {
  radarName: string;
  /** The radar's code: its MQTT identity, unique among radars. */
  code: string;
}

/** One row of the radar terminal list (POST /api/radar/radarPage). */
export interface RadarRow extends RadarRecord, DevicePlacement {
  id: number;
  networkStatus: OnlineState;
  /** Detections counted since the radar was added. */
  count: number;
  /** Detections a minute, over about the last minute. */
  radarRate: number;
  swver: string;
  hwver: string;
  mac: string;
  /** Signal strength of its link, dBm, as it last reported it (null before its first report). */
  rssi: number | null;
  reportedAt: string | null;
  lastDetectionAt: string | null;
  /** The radar groups it is in. */
  groupNames: string[];
}

export interface RadarPageQuery extends PageQuery {
  /** Part of the name or the code, any case. */
  radarName?: string;
  regionId?: number;
  networkStatus?: OnlineState;
  groupId?: number;
}

export interface RadarAddOrEditRequest extends RadarRecord {
  id?: number;
  regionId?: number | null;
  poleId?: number | null;
}

/** One row of the radar group list (POST /api/radar/groupPage). */
export interface RadarGroupRow {
  id: number;
  name: string;
  remark: string;
  /** The radars whose detections count for the group. */
  radarIds: number[];
  /** The lamps the group's strategy lights. */
  lampIds: number[];
  radarCount: number;
  lampCount: number;
  /** The strategy bound to the group (at most one), or null. */
  strategyId: number | null;
  strategyName: string | null;
}

/** A lamp a group may light (GET /api/radar/lampOptions, the group form's picker). */
export interface RadarLampOption {
  id: number;
  code: string;
  name: string;
}

/** A group with its radars and lamps named (GET /api/radar/groupDetail, the edit page). */
export interface RadarGroupDetail extends RadarGroupRow {
  radars: RadarLampOption[];
  lamps: RadarLampOption[];
}

export interface RadarGroupRequest {
  id?: number;
  name: string;
  remark?: string;
  radarIds: number[];
  lampIds: number[];
}

/** One event of a radar strategy (the spec's radarEventInfos). */
export interface RadarEventInfo {
  /** The row's key within its strategy (the spec's uniqueIndex), 1, 2, … in the order shown. */
  uniqueIndex: number;
  /** The event ID it answers (RadarEventId). */
  event: RadarEventId;
  brightness: DimmingLevel;
  openInterval: number;
  closeInterval: number;
}

/** One row of the radar strategy list (POST /api/radar/strategyPage). */
export interface RadarStrategyRow {
  id: number;
  name: string;
  groupId: number;
  groupName: string;
  radarEventInfos: RadarEventInfo[];
}

export interface RadarStrategyRequest {
  id?: number;
  name: string;
  groupId?: number;
  radarEventInfos: Partial<RadarEventInfo>[];
}

/** A lamp a detection raised, or left to the lamp itself (its own sensing schedule names the radar). */
export interface RaisedLamp {
  id: number;
  code: string;
  level: DimmingLevel;
  /** true: its sensing schedule hears the radar itself, so no command was sent. */
  byItself: boolean;
  /** Seconds after the detection it rises (the event's open interval; 0: at once; later, RadarLampsChanged tells). */
  after: number;
  /** ISO 8601: when it returns, unless another detection keeps it raised. */
  until: string;
}

/**
 * A radar detected something (RadarDetected, pushed to the radar pages): the radar's new count and rate, and the
 * lamps its groups' strategies raised for it, with the ledger dispatch that carries their commands.
 */
export interface RadarDetectedEvent {
  family: 'radar';
  radarId: number;
  code: string;
  event: RadarEventId;
  /** ISO 8601, as the radar stamped it. */
  ts: string;
  /** ISO 8601: when the platform stored it. */
  at: string;
  count: number;
  radarRate: number;
  lamps: RaisedLamp[];
  /** The dispatch of the commands (null when none was needed). */
  dispatchId: string | null;
}

/** One lamp of RadarLampsChanged. */
export interface RadarLampMove {
  id: number;
  code: string;
  /** raised: the level it rose to; returned: the level it went back to (the one it had before it was raised). */
  level: number;
  /** true: its sensing schedule hears the radar itself, so no command was sent. */
  byItself: boolean;
  /** The radar whose detection raised it (returned: the last one that held it; null when that radar is gone). */
  radarId: number | null;
  radarCode: string | null;
  /** raised: ISO 8601, the `at` of that detection's RadarDetected; returned: null. */
  detectedAt: string | null;
  /**
   * raised: ISO 8601, when it returns, unless another detection keeps it raised; null when it was not raised (it was
   * already at or above the level when its open interval had passed). returned: null.
   */
  until: string | null;
}

/**
 * Lamps of radar strategies moved after their detection was announced (RadarLampsChanged, pushed to the radar pages):
 * `raised`, lamps whose event has an open interval rose once it had passed; `returned`, lamps whose hold ended went
 * back to the level they had before.
 */
export interface RadarLampsChangedEvent {
  family: 'radar';
  change: 'raised' | 'returned';
  lamps: RadarLampMove[];
  /** ISO 8601: when the worker stored the move. */
  at: string;
}

/** One thing wrong with a radar strategy: the field (as the form names it), the catalogue key and its params. */
export interface RadarStrategyProblem {
  field: string;
  key: string;
  params?: Record<string, unknown>;
}

const DIMMING = new Set<unknown>([0, 20, 40, 60, 80, 100]);
const whole = (v: unknown, b: { min: number; max: number }) => Number.isInteger(v) && (v as number) >= b.min && (v as number) <= b.max;

/**
 * What is wrong with a strategy's group and events (the browser's form and the server check alike): no group is
 * 'Please select a group', an event row without its event ID 'Please select event ID', an empty brightness
 * 'Brightness cannot be empty'; each event ID once; the intervals within RADAR_BOUNDS.
 */
export function radarStrategyProblems(groupId: unknown, events: readonly Partial<RadarEventInfo>[] | unknown): RadarStrategyProblem[] {
  const problems: RadarStrategyProblem[] = [];
  if (groupId === undefined || groupId === null || groupId === '') problems.push({ field: 'groupId', key: 'selectGroup' });
  if (!Array.isArray(events) || events.length < RADAR_BOUNDS.events.min) {
    problems.push({ field: 'radarEventInfos', key: 'radarEventsEmpty' });
    return problems;
  }
  if (events.length > RADAR_BOUNDS.events.max)
    problems.push({ field: 'radarEventInfos', key: 'radarEventsTooMany', params: { max: RADAR_BOUNDS.events.max } });
  const seen = new Set<unknown>();
  (events as Partial<RadarEventInfo>[]).forEach((e, i) => {
    const at = (name: string) => `radarEventInfos[${i}].${name}`;
    const row = (e ?? {}) as Partial<Record<keyof RadarEventInfo, unknown>>;
    if (row.event === undefined || row.event === null || (row.event as unknown) === '') problems.push({ field: at('event'), key: 'selectEventId' });
    else if (!(RADAR_EVENT_IDS as readonly unknown[]).includes(row.event)) problems.push({ field: at('event'), key: 'invalidValue' });
    else if (seen.has(row.event)) problems.push({ field: at('event'), key: 'radarEventRepeated' });
    seen.add(row.event);
    if (row.brightness === undefined || row.brightness === null || (row.brightness as unknown) === '')
      problems.push({ field: at('brightness'), key: 'brightnessEmpty' });
    else if (!DIMMING.has(row.brightness)) problems.push({ field: at('brightness'), key: 'radarBrightnessInvalid' });
    for (const name of ['openInterval', 'closeInterval'] as const) {
      const bounds = RADAR_BOUNDS[name];
      if (row[name] === undefined || row[name] === null || row[name] === '') problems.push({ field: at(name), key: 'timeEmpty' });
      else if (!whole(row[name], bounds))
        problems.push({ field: at(name), key: 'radarIntervalInvalid', params: { min: bounds.min, max: bounds.max } });
    }
  });
  return problems;
}

/** The events as stored: in the order given, numbered 1, 2, … (uniqueIndex), with only their own fields. */
export function normalisedRadarEvents(events: readonly RadarEventInfo[]): RadarEventInfo[] {
  return events.map((e, i) => ({
    uniqueIndex: i + 1,
    event: e.event,
    brightness: e.brightness,
    openInterval: e.openInterval,
    closeInterval: e.closeInterval,
  }));
}
