// Broadcast tasks (spec: taskName, taskMode, playCycle, playTime, volume, playStatus; task time status): media played
// on terminals now (an immediate broadcast) or in a schedule the terminals keep (broadcast-programme.ts).
import type { BroadcastSchedule } from './broadcast-programme';
import type { TerminalOccupancy, TerminalPlaying } from './broadcast';
import type { OnlineState } from './devices';
import type { DispatchItemState } from './lighting';
import type { DispatchStatus, PlayAction, PlaybackMode, TaskTimeStatus, TerminalStatus } from './statuses';
import type { PageQuery } from './envelope';

export const TASK_NAME_MAX = 64;

/** The wire id of a task on the terminals (the device contract's taskId, what `playing.taskId` reports). */
export const terminalTaskId = (id: number) => `task-${id}`;

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
 * `playbackMode`) on terminals now. Terminals are chosen by ids or by region. A task of a first priority (1) pre-empts
 * whatever plays with a later one; the pre-empted task plays on after it.
 */
export interface ImmediateBroadcastRequest {
  taskName: string;
  playlistId?: number;
  mediaIds?: number[];
  playbackMode?: PlaybackMode;
  ids?: number[];
  regionId?: number;
  /** 1 (first) to 10. */
  priority: number;
  /** Broadcast volume while it plays, 0 to 100. */
  volume: number;
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
  /** Its terminals playing it now (paused ones included). */
  playingCount: number;
  createdBy: string;
  createdAt: string;
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
  /** What it plays now, whatever task: it plays this one when `playing.taskId` is the task's (terminalTaskId). */
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
