import {
  BroadcastTaskMode,
  DeviceFamily,
  TASK_PLAYERS_SHOWN,
  TaskPlayStatus,
  immediateListEnds,
  immediateTimeStatus,
  taskWireId,
  type BroadcastTaskRow,
  type DeviceStateChangedEvent,
  type DispatchProgressEvent,
  type PageResult,
  type TaskPlayer,
  type TaskTimeStatus,
  type TerminalPlaying,
} from '@sc/contracts';

type TaskPage = PageResult<BroadcastTaskRow>;

/** The task rows of a page whose dispatch moved take its status; the same page when none did. */
export function patchTaskDispatch(page: TaskPage, event: DispatchProgressEvent): TaskPage {
  if (!page.list.some((row) => row.dispatchId === event.dispatchId && row.dispatchStatus !== event.status)) return page;
  return { ...page, list: page.list.map((row) => (row.dispatchId === event.dispatchId ? { ...row, dispatchStatus: event.status } : row)) };
}

/**
 * What terminals now play, from their pushed changes: a terminal whose `playing` changed leaves the players of the
 * task it was listed under and joins those of the task it plays now (its name kept when it was listed before; live
 * events carry its code only). A row lists at most TASK_PLAYERS_SHOWN; `playingCount` counts them all, so a terminal
 * beyond those leaving is not seen until the list is read again. The same page when nothing it shows changed.
 */
export function patchTaskPlayers(page: TaskPage, event: DeviceStateChangedEvent, names: ReadonlyMap<number, string>): TaskPage {
  if (event.family !== DeviceFamily.Broadcast) return page;
  const now = new Map<number, { deviceCode: string; playing: TerminalPlaying | null }>();
  for (const change of event.changes) {
    if ('playing' in change.changed) now.set(change.recordId, { deviceCode: change.deviceCode, playing: change.changed.playing ?? null });
  }
  if (now.size === 0) return page;
  let changed = false;
  const list = page.list.map((row) => {
    const wire = taskWireId(row.id);
    let players = row.players;
    let count = row.playingCount;
    for (const [id, { deviceCode, playing }] of now) {
      const listed = players.findIndex((p) => p.id === id);
      const plays = playing?.taskId === wire;
      if (listed < 0 && !plays) continue;
      const player: TaskPlayer | null = plays
        ? { id, terminalId: deviceCode, terminalName: names.get(id), media: playing!.media ?? null, paused: playing!.paused }
        : null;
      if (listed >= 0 && player) players = players.map((p, i) => (i === listed ? player : p));
      else if (listed >= 0) {
        players = players.filter((_, i) => i !== listed);
        count = Math.max(0, count - 1);
      } else if (player) {
        if (players.length < TASK_PLAYERS_SHOWN) players = [...players, player];
        count += 1;
      }
    }
    if (players === row.players && count === row.playingCount) return row;
    changed = true;
    return { ...row, players, playingCount: count, playStatus: playStatusOf(players, count) };
  });
  return changed ? { ...page, list } : page;
}

/** The spec's playStatus of a task from its players: idle when none plays it, paused when every one shown is paused. */
export function playStatusOf(players: readonly TaskPlayer[], count: number): TaskPlayStatus {
  if (count === 0) return TaskPlayStatus.Idle;
  return players.length > 0 && players.every((p) => p.paused) ? TaskPlayStatus.Paused : TaskPlayStatus.Playing;
}

/** The terminals' names the rows list (device id to name), for players that join live. */
export function playerNames(pages: readonly (TaskPage | undefined)[], known: Map<number, string>): Map<number, string> {
  for (const page of pages) for (const row of page?.list ?? []) for (const p of row.players) if (p.terminalName) known.set(p.id, p.terminalName);
  return known;
}

/** A row's time status now: an immediate broadcast's recomputed from its list, its stop and its players; a scheduled task's as answered. */
export function timeStatusNow(row: BroadcastTaskRow, now: Date): TaskTimeStatus {
  return row.taskMode === BroadcastTaskMode.Immediate ? immediateTimeStatus(row, now, row.playingCount) : row.timeStatus;
}

/** When the first of the rows' immediate broadcasts still in progress by the clock reaches the end of its list (ms), or null. */
export function nextListEnd(rows: readonly BroadcastTaskRow[], now: number): number | null {
  const ends = rows
    .filter((row) => row.taskMode === BroadcastTaskMode.Immediate && !row.stoppedAt)
    .map((row) => immediateListEnds(row))
    .filter((end): end is number => end !== null && end > now);
  return ends.length ? Math.min(...ends) : null;
}
