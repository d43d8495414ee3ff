// Broadcast tasks (spec: taskName, taskMode, playCycle, playTime, volume, playStatus; task time status): media played
// on terminals now (an immediate broadcast) or in a schedule the terminals keep (broadcast-programme.ts).
import type { TerminalSelection } from './broadcast';
import type { BroadcastSchedule } from './broadcast-programme';
import type { TerminalOccupancy, TerminalPlaying } from './broadcast';
import type { OnlineState } from './devices';
import type { DispatchItemState } from './lighting';
import type { DispatchStatus, PlayAction, PlaybackMode, TaskTimeStatus, TerminalStatus } from './statuses';
import type { PageQuery } from './envelope';

export const TASK_NAME_MAX = 64;

/** The spec's task mode: played in a schedule the terminals keep, or now. */
export enum BroadcastTaskMode {
  Scheduled = 'scheduled',
  Immediate = 'immediate',
}

/** A medium as a task holds it (a copy taken when the task was sent: renaming the medium later changes nothing). */
export interface TaskMedium {
  mediaId: number;
  title: string;
  durationMs: number;
}

/**
 * POST /api/broadcast/immediateBroadcast: play a playlist (in its playback mode) or chosen media (in that order, in
 * `playbackMode`) on terminals now. Terminals are chosen by ids, by region or by groups. A task of a first priority (1)
 * pre-empts whatever plays with a later one; the pre-empted task plays on after it.
 */
export interface ImmediateBroadcastRequest extends TerminalSelection {
  taskName: string;
  playlistId?: number;
  mediaIds?: number[];
  playbackMode?: PlaybackMode;
  /** 1 (first) to 10. */
  priority: number;
  /** Broadcast volume while it plays, 0 to 100. */
  volume: number;
}

/** A terminal playing a task now (the task list shows them live). */
export interface TaskPlayer {
  /** The terminal's device id. */
  id: number;
  /** Its terminal ID (the device code), which live events carry. */
  terminalId: string;
  /** Its name; absent for one that started playing since the list was read (live events carry the code only). */
  terminalName?: string;
  /** The medium it plays now. */
  media: string | null;
  paused: boolean;
}

/** One row of the task list (POST /api/broadcast/taskPage). */
export interface BroadcastTaskRow {
  id: number;
  taskName: string;
  taskMode: BroadcastTaskMode;
  playbackMode: PlaybackMode;
  volume: number;
  priority: number;
  media: TaskMedium[];
  /** Total length of the list, ms. */
  durationMs: number;
  schedule: BroadcastSchedule | null;
  terminalCount: number;
  /** The dispatch that delivered it to the terminals, and where that stands (spec task dispatch results). */
  dispatchId: string;
  dispatchStatus: DispatchStatus;
  /** Spec task time status, by the terminals' clocks. */
  timeStatus: TaskTimeStatus;
  /** The spec's playStatus: whether its terminals play it now (from their live state). */
  playStatus: TaskPlayStatus;
  createdBy: string;
  createdAt: string;
  /** When and by whom it was stopped on its terminals (POST /api/broadcast/taskStop); null while it was not. */
  stoppedAt: string | null;
  stoppedBy: string | null;
  /** The terminals playing it now, in name order (at most TASK_PLAYERS_SHOWN, broadcast-task-status.ts), and how many they are. */
  players: TaskPlayer[];
  playingCount: number;
}

/** POST /api/broadcast/taskStop: stop a task on its terminals (the `cancelTask` command); answers the dispatch. */
export interface TaskStopRequest {
  id: number;
}

export interface TaskStopResult {
  id: number;
  /** The dispatch of `cancelTask` to the task's terminals; null when none of them exists any more. */
  dispatchId: string | null;
}

/**
 * A task's play status (spec playStatus), from what its terminals report: `playing` while one of them plays it,
 * `paused` while those playing it are all paused, `idle` when none plays it (between its periods, before, after, or
 * stopped).
 */
export enum TaskPlayStatus {
  Playing = 'playing',
  Paused = 'paused',
  Idle = 'idle',
}

/**
 * POST /api/broadcast/taskAddOrEdit: a scheduled task (no id: a new one; with id: the task changed and sent again).
 * The terminals keep it and play it in its periods by their own clocks; terminals dropped from it on edit forget it.
 */
export interface ScheduledTaskRequest extends Omit<ImmediateBroadcastRequest, 'taskName'> {
  id?: number;
  taskName: string;
  schedule: BroadcastSchedule;
}

/**
 * One terminal of a task (POST /api/broadcast/taskTerminalPage): where delivery stands, its time status by its clock,
 * and what it plays now. Its live fields (networkStatus, occupancy, playing, status) are named as the terminal list's,
 * so the family's DeviceStateChanged events patch them as they do the list's.
 */
export interface TaskTerminal {
  id: number;
  terminalName: string;
  terminalId: string;
  networkStatus: OnlineState;
  occupancy: TerminalOccupancy;
  /** What it plays now, whatever task: it plays this one when `playing.taskId` is the task's (taskWireId). */
  playing: TerminalPlaying | null;
  status: TerminalStatus;
  /** The clock the task runs by on this terminal (the IANA zone it was sent). */
  timeZone: string;
  timeStatus: TaskTimeStatus;
  /** Its row of the task's latest dispatch (the command ledger); null if it was never sent the task. */
  delivery: DispatchItemState | null;
  lastError: string | null;
}

export interface TaskTerminalPageQuery extends PageQuery {
  /** The task. */
  id: number;
}

/** GET /api/broadcast/taskDetail: the task as its list row, with what the edit form needs. */
export interface BroadcastTaskDetail extends BroadcastTaskRow {
  playlistId: number | null;
  /** Its terminals (device ids), as last sent. */
  terminalIds: number[];
  /** The next period (under way or to come) by its first terminal's clock, ISO 8601; null when none is left or immediate. */
  nextWindow: { start: string; end: string } | null;
}

/**
 * POST /api/broadcast/taskControl: play, pause, cancel pause or stop one task on its terminals (all of them, or
 * `ids` among them), through the command ledger. Other tasks on those terminals are left as they are.
 */
export interface TaskControlRequest {
  id: number;
  /** The spec's play actions: play, pause, cancelPause ("cancel pause"), stop. */
  action: PlayAction;
  ids?: number[];
}

export interface BroadcastTaskPageQuery extends PageQuery {
  taskName?: string;
  taskMode?: BroadcastTaskMode;
}
