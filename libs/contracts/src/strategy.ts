import type { DimmingLevel, StrategyMode, Weekday } from './devices';
import type { PageQuery } from './envelope';

export const STRATEGY_NAME_MAX = 64;
/** A strategy holds at most this many time periods. */
export const STRATEGY_PERIODS_MAX = 12;
/** Sunrise and sunset offsets, minutes either way. */
export const SUN_OFFSET_MAX_MINUTES = 240;
/** How long a radar event keeps a sensing lamp raised, seconds. */
export const SENSING_HOLD_MAX_SECONDS = 3600;
/** Time of day, 24 h, local to the lamp. */
export const CLOCK_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Which device family a strategy is for: lamp strategies (/smartLamp/lampStrategy) or strip ones (lightStrategy). */
export type StrategyFamily = 'lamp' | 'strip';

/**
 * One time period: from `start` to `end` (local 'HH:mm' of the lamp's time zone) at `level`. A night runs from noon
 * to the next noon, so a period may cross midnight (22:00 to 02:00) but not noon; periods are listed in that order.
 */
export interface StrategyPeriod {
  start: string;
  end: string;
  level: DimmingLevel;
}

/** Mode 0: on from sunset to sunrise (each moved by its offset, minutes, later when positive) at `level`; periods override it inside that window. */
export interface SunModeData {
  sunsetOffset: number;
  sunriseOffset: number;
  level: DimmingLevel;
}

/** Mode 1: the periods apply on the nights (by the evening's date) from startDate to endDate, 'yyyy-MM-dd', both included. */
export interface DateModeData {
  startDate: string;
  endDate: string;
}

/** Mode 2: the periods apply on the nights whose evening is one of these weekdays; none selected means all seven. */
export interface WeekModeData {
  weekdays: Weekday[];
}

/**
 * Mode 3: the periods every night; during a period, an event from one of the radars raises the lamp to
 * `brightness` (never lowers it) for `holdSeconds`, then it returns to the period's level.
 */
export interface SensingModeData {
  radarCodes: string[];
  brightness: DimmingLevel;
  holdSeconds: number;
}

export type StrategyRules =
  | { mode: StrategyMode.SunriseSunset; modeData: SunModeData; periods: StrategyPeriod[] }
  | { mode: StrategyMode.Date; modeData: DateModeData; periods: StrategyPeriod[] }
  | { mode: StrategyMode.Week; modeData: WeekModeData; periods: StrategyPeriod[] }
  | { mode: StrategyMode.Sensing; modeData: SensingModeData; periods: StrategyPeriod[] };

export type StrategyModeData = StrategyRules['modeData'];

/** Where a lamp is, for its sunrise and sunset and its local clock (an IANA time zone). */
export interface SchedulePlace {
  latitude: number;
  longitude: number;
  timeZone: string;
}

/** The schedule as distributed to a lamp (its jobList, and the `schedule` command's params): it runs it on its own. */
export interface LampSchedule {
  strategyId: number;
  name: string;
  rules: StrategyRules;
  place: SchedulePlace;
}

/** One row of the strategy list (POST /api/light/strategyPage). */
export interface StrategyRow {
  id: number;
  name: string;
  family: StrategyFamily;
  mode: StrategyMode;
  modeData: StrategyModeData;
  periods: StrategyPeriod[];
  /** How many devices have this strategy. */
  deviceCount: number;
  updatedAt: string;
}

export interface StrategyPageQuery extends PageQuery {
  name?: string;
  mode?: StrategyMode;
}

/** POST /api/light/strategyAddOrEdit: no id adds one. */
export type StrategyAddOrEditRequest = { id?: number; name: string } & StrategyRules;

/** POST /api/light/strategyDistribute: the selected lamps, or every lamp of a region (and its sub-regions). */
export interface StrategyDistributeRequest {
  id: number;
  ids?: number[];
  regionId?: number;
}

/** A concrete stretch of one night at one level. */
export interface ScheduleInterval {
  start: string;
  end: string;
  level: DimmingLevel;
}

/** GET /api/light/lampSchedule?id=: a lamp's effective schedule tonight. */
export interface LampScheduleView {
  lampId: number;
  strategy: { id: number; name: string; mode: StrategyMode } | null;
  place: SchedulePlace | null;
  /** Where the place came from: the lamp's own position, its region's (or an ancestor's), or the installation default. */
  placeSource: 'lamp' | 'region' | 'default' | null;
  /** The night now running (by its evening's date, lamp local). */
  night: string | null;
  sunset: string | null;
  sunrise: string | null;
  intervals: ScheduleInterval[];
  /** The level the schedule says now (0 = off). */
  levelNow: DimmingLevel | null;
  /** What the lamp last reported. */
  reported: { switchState: 0 | 1; bri: DimmingLevel };
  /** Reported state disagrees with the schedule now (sensing raises are allowed above it). */
  mismatch: boolean;
}

/** One lamp whose reported state disagrees with its schedule now. */
export interface ScheduleMismatchRow {
  id: number;
  lampName: string;
  clientId: string;
  strategyId: number;
  /** What the schedule says now, and what the lamp reports (0 = off). */
  expected: DimmingLevel;
  reported: DimmingLevel;
}

/** GET /api/light/scheduleMismatches: online lamps running a schedule whose reported level disagrees with it now. */
export interface ScheduleMismatches {
  checkedAt: string;
  /** How many disagree, per strategy id. */
  byStrategy: Record<number, number>;
  total: number;
  /** The first of them, by lamp id. */
  lamps: ScheduleMismatchRow[];
}
