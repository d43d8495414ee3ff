// Broadcast tasks (spec: taskName, taskMode, playCycle, playTime, volume, playStatus; task time status): media played
// on terminals now (an immediate broadcast) or in a schedule the terminals keep (broadcast-programme.ts).
import type { TerminalSelection } from './broadcast';
import type { BroadcastSchedule } from './broadcast-programme';
import { PlaybackMode, TaskTimeStatus, type DispatchStatus } from './statuses';
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

/** The id a task has on the terminals (the device contract's taskId, and `playing.taskId` while one plays it). */
export const taskWireId = (id: number): string => `task-${id}`;

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

/** A task row lists at most this many of the terminals playing it (`playingCount` counts them all). */
export const TASK_PLAYERS_SHOWN = 50;

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
  createdBy: string;
  createdAt: string;
  /** When and by whom it was stopped on its terminals (POST /api/broadcast/taskStop); null while it was not. */
  stoppedAt: string | null;
  stoppedBy: string | null;
  /** The terminals playing it now, in name order (at most TASK_PLAYERS_SHOWN), and how many they are. */
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

/** The length of a task's list of media, ms. */
export const taskListMs = (media: readonly TaskMedium[]): number => media.reduce((sum, m) => sum + m.durationMs, 0);

/**
 * When an immediate broadcast's list has played once from its sending (ms since the epoch), or null when it cycles:
 * it then plays until it is stopped.
 */
export function immediateListEnds(task: Pick<BroadcastTaskRow, 'createdAt' | 'media' | 'playbackMode'>): number | null {
  if (task.playbackMode !== PlaybackMode.Normal) return null;
  return new Date(task.createdAt).getTime() + taskListMs(task.media);
}

/**
 * An immediate broadcast's time status: ended once stopped; else in progress while its list plays from its sending
 * (for ever when it cycles) or any terminal still plays it (one that took it late, after downloading or after a
 * broadcast of a first priority); else ended. It never waits for a clock, so it is never "not started". The gateway
 * answers it and the console recomputes it as terminals report and time passes; the media library's deletion check
 * is the same rule in SQL (docs/broadcast-media.md).
 */
export function immediateTimeStatus(
  task: Pick<BroadcastTaskRow, 'createdAt' | 'media' | 'playbackMode' | 'stoppedAt'>,
  now: Date,
  playingCount: number,
): TaskTimeStatus {
  if (task.stoppedAt) return TaskTimeStatus.Ended;
  const ends = immediateListEnds(task);
  return ends === null || playingCount > 0 || now.getTime() < ends ? TaskTimeStatus.InProgress : TaskTimeStatus.Ended;
}

export interface BroadcastTaskPageQuery extends PageQuery {
  taskName?: string;
  taskMode?: BroadcastTaskMode;
}
