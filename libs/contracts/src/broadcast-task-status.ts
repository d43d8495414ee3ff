// How a broadcast task stands: its id on the terminals and its time status. A module of its own: only the task pages
// use it in the console, so it loads with them rather than with every page.
import type { BroadcastTaskRow, TaskMedium } from './broadcast-tasks';
import { PlaybackMode, TaskTimeStatus } from './statuses';

/** The id a task has on the terminals (the device contract's taskId, and `playing.taskId` while one plays it). */
export const taskWireId = (id: number): string => `task-${id}`;

/** A task row lists at most this many of the terminals playing it (`playingCount` counts them all). */
export const TASK_PLAYERS_SHOWN = 50;

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
