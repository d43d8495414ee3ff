import type { OnlineState } from './devices';
import type { PageQuery } from './envelope';
import type { DevicePlacement } from './poles';
import { TerminalStatus } from './statuses';

/** Longest terminal name, relay server and terminal type (the columns' widths). */
export const TERMINAL_NAME_MAX = 64;
export const RELAY_SERVER_MAX = 255;
export const TERMINAL_TYPE_MAX = 32;
/** The number an intercom call dials: up to 16 digits, or none. */
export const CALL_CODE_PATTERN = /^[0-9]{0,16}$/;
/** Dotted IPv4, each part 0 to 255. */
export const IPV4_PATTERN = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** What a broadcast terminal is busy with (spec section 4: a busy terminal is "occupy"). */
export enum TerminalOccupancy {
  Idle = 'idle',
  /** Playing a broadcast task (or a single title sent to it). */
  Task = 'task',
  /** Carrying an intercom call. */
  Intercom = 'intercom',
}

export const TERMINAL_OCCUPANCIES: readonly TerminalOccupancy[] = [TerminalOccupancy.Idle, TerminalOccupancy.Task, TerminalOccupancy.Intercom];

/** What an occupied terminal is playing or carrying. */
export interface TerminalPlaying {
  title: string;
  /** The broadcast task behind it; null for a call or a title sent on its own. */
  taskId: string | null;
  /** ISO 8601: when it started. */
  since: string;
  paused: boolean;
  /** The medium of the task it plays now. */
  media?: string;
  /** The task's priority, 1 (first) to 10. */
  priority?: number;
}

/** How far a terminal has got with the media of a task it was given (the last task it downloads or downloaded). */
export interface TerminalDownload {
  taskId: string;
  /** Bytes received of `total`, over every medium of the task. */
  received: number;
  total: number;
  /** Every medium is in and matches its checksum. */
  done: boolean;
  /** Why it gave up (a medium it could not fetch, or whose checksum did not match); absent otherwise. */
  error?: string;
}

/** The terminal status of spec section 4 from what is stored: offline first, then occupied, else online. */
export function terminalStatusOf(networkStatus: OnlineState, occupancy: TerminalOccupancy): TerminalStatus {
  if (networkStatus !== 1) return TerminalStatus.Offline;
  return occupancy === TerminalOccupancy.Idle ? TerminalStatus.Online : TerminalStatus.Occupied;
}

/** One row of the terminal list (POST /api/broadcast/terminalPage). */
export interface TerminalRow extends DevicePlacement {
  id: number;
  terminalName: string;
  /** The device code: its MQTT identity, unique among terminals. */
  terminalId: string;
  terminalIP: string;
  callCode: string;
  /** The spec's "default": the terminal a call or a broadcast without a target goes to (one at most). */
  isDefault: boolean;
  interphoneVolume: number;
  broadcastVolume: number;
  priority: number;
  relayServer: string;
  terminalType: string;
  networkStatus: OnlineState;
  occupancy: TerminalOccupancy;
  playing: TerminalPlaying | null;
  /** The broadcast tasks it holds and runs by its own clock, as it last reported them. */
  heldTasks: string[];
  download: TerminalDownload | null;
  /** terminalStatusOf(networkStatus, occupancy). */
  status: TerminalStatus;
  hardwareVersion: string;
  softwareVersion: string;
  reportedAt: string | null;
}

export interface TerminalPageQuery extends PageQuery {
  /** Part of the name or the terminal id, any case. */
  terminalName?: string;
  /** Terminals of this region and of its sub-regions. */
  regionId?: number;
  status?: TerminalStatus;
}

export interface TerminalAddOrEditRequest {
  id?: number;
  terminalName: string;
  terminalId: string;
  terminalIP: string;
  callCode?: string;
  isDefault?: boolean;
  interphoneVolume?: number;
  broadcastVolume?: number;
  priority?: number;
  relayServer?: string;
  terminalType?: string;
  regionId?: number | null;
  poleId?: number | null;
}

/**
 * The terminals a command or a task is for: exactly one of the terminals (device ids), every terminal of a region and
 * of its sub-regions, or every terminal of broadcast groups (none of them empty).
 */
export interface TerminalSelection {
  ids?: number[];
  regionId?: number;
  groupIds?: number[];
}

/** POST /api/broadcast/terminalVolume: the selected terminals; at least one volume. */
export interface TerminalVolumeRequest extends TerminalSelection {
  broadcastVolume?: number;
  interphoneVolume?: number;
}

/** POST /api/broadcast/terminalPlayback: pause, cancel the pause of, or stop what the terminals play (spec section 4). */
export interface TerminalPlaybackRequest extends TerminalSelection {
  action: TerminalPlaybackAction;
}

export type TerminalPlaybackAction = 'pause' | 'cancelPause' | 'stop';
export const TERMINAL_PLAYBACK_ACTIONS: readonly TerminalPlaybackAction[] = ['pause', 'cancelPause', 'stop'];

/** One stretch of a terminal's history: what it played or carried, from when to when (null: still). */
export interface TerminalPlay {
  occupancy: TerminalOccupancy.Task | TerminalOccupancy.Intercom;
  title: string;
  taskId: string | null;
  media: string | null;
  startedAt: string;
  endedAt: string | null;
}

/** A terminal's day (GET /api/broadcast/terminalHistory): its plays, and how busy it was hour by hour, by its own clock. */
export interface TerminalHistory {
  /** The day, 'yyyy-MM-dd', and the time zone it is read in (the terminal's region's). */
  date: string;
  timeZone: string;
  /** Newest first, at most TERMINAL_HISTORY_MAX. */
  plays: TerminalPlay[];
  /** Seconds occupied in each of the day's hours (23 to 25 of them on a day the clocks change). */
  busySeconds: number[];
}

/** At most this many plays of one day are listed (the hours count every one). */
export const TERMINAL_HISTORY_MAX = 500;
