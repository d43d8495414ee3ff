import type { OnlineState, ScreenState } from './devices';
import type { LedPlaying } from './led-tasks';
import type { PageQuery } from './envelope';
import type { DevicePlacement } from './poles';
import type { SchedulePlace } from './strategy';

/** Longest LED screen name (the device name column). */
export const LED_NAME_MAX = 64;

/** The values the LED screen's number fields accept (browser and server check them alike). */
export const LED_BOUNDS = {
  /** Percent; 0 is the darkest the screen shows while bright (black is the screen state, not a brightness). */
  brightness: { min: 0, max: 100, integer: true },
  volume: { min: 0, max: 100, integer: true },
  /** The panel's resolution, pixels. */
  pixels: { min: 1, max: 16_384, integer: true },
} as const;

/** Whether the daylight rule last set a screen's day or its night brightness (null: not yet). */
export type DaylightPhase = 'day' | 'night';

/**
 * The daylight brightness rule of one screen (optional): its brightness follows the astronomical clock the lamps
 * keep, `dayBrightness` from sunrise and `nightBrightness` from sunset, at the screen's place (its own position, else
 * its region's or an ancestor's, else the installation default), sent through the command ledger by the LED worker.
 */
export interface LedDaylightRule {
  dayBrightness: number;
  nightBrightness: number;
}

/** The rule as stored on a screen, with the place the gateway resolved when it was set. */
export interface StoredDaylightRule extends LedDaylightRule {
  place: SchedulePlace;
}

/** What the console records of a screen (the spec's LED fields it does not read from the screen). */
export interface LedRecord {
  name: string;
  /** The serial number: the device code, its MQTT identity, unique among screens. */
  sn: string;
  IPAddress: string;
  width: number;
  height: number;
  /** The IANA time zone `syncTime` sets the screen's clock to. */
  timeZone: string;
}

/** One row of the LED screen list (POST /api/led/ledPage). */
export interface LedRow extends LedRecord, DevicePlacement {
  id: number;
  networkStatus: OnlineState;
  brightness: number;
  volume: number;
  screen: ScreenState;
  /** The time zone the screen's clock runs in, as it last reported it ('' before its first report). */
  clockZone: string;
  hardwareVersion: string;
  softwareVersion: string;
  /** The spec's heartbeatTime: when the screen was last heard from (its heartbeat, or any report). */
  reportedAt: string | null;
  daylight: LedDaylightRule | null;
  daylightPhase: DaylightPhase | null;
  /** What it shows now, as it last reported it (null: nothing). */
  playing: LedPlaying | null;
}

export interface LedPageQuery extends PageQuery {
  /** Part of the name or the serial number, any case. */
  name?: string;
  /** Screens of this region and of its sub-regions. */
  regionId?: number;
  networkStatus?: OnlineState;
}

export interface LedAddOrEditRequest extends Omit<LedRecord, 'timeZone'> {
  id?: number;
  /** Omitted: its region's time zone (or the nearest region above that names one), else the installation's. */
  timeZone?: string;
  regionId?: number | null;
  poleId?: number | null;
}

/** The screens a command is for: exactly one of the screens (device ids) or every screen of a region and below. */
export interface LedSelection {
  ids?: number[];
  regionId?: number;
}

/** POST /api/led/ledBrightness. */
export interface LedBrightnessRequest extends LedSelection {
  brightness: number;
}

/** POST /api/led/ledVolume. */
export interface LedVolumeRequest extends LedSelection {
  volume: number;
}

/** POST /api/led/ledScreen: bright (1) or black (2). */
export interface LedScreenRequest extends LedSelection {
  screen: ScreenState;
}

/**
 * POST /api/led/ledDaylight: the daylight rule on the selected screens (`enabled` with both brightnesses), or taken
 * off them (`enabled: false`). The LED worker sends the brightness of the phase of now within a minute.
 */
export interface LedDaylightRequest extends LedSelection {
  enabled: boolean;
  dayBrightness?: number;
  nightBrightness?: number;
}

/** What the daylight rule answers: how many screens it now covers (or no longer covers). */
export interface LedDaylightResult {
  screens: number;
}

/** The brightness the rule gives at a phase of the day. */
export function daylightBrightness(rule: LedDaylightRule, phase: DaylightPhase): number {
  return phase === 'day' ? rule.dayBrightness : rule.nightBrightness;
}
