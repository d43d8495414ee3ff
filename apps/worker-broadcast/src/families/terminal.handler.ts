import {
  BROADCAST_FAMILY,
  NUMBER_BOUNDS,
  OnlineState,
  PlayAction,
  TerminalOccupancy,
  numberProblem,
  terminalStatusOf,
  type TerminalCommand,
  type TerminalPlaying,
  type TerminalTaskControlParams,
  type TerminalTaskParams,
  type TerminalStateMessage,
  type TerminalVolumeParams,
} from '@sc/contracts';
import type { CommandBody, DeviceEvent, FamilyHandler, StoredFields } from '@sc/device-runtime';

/** What terminals report: the declared payloads of BROADCAST_FAMILY. */
export type TerminalReports = { state: TerminalStateMessage };
export type TerminalEvent = DeviceEvent<TerminalReports>;
/** The terminal status (online, offline, occupy) is computed from the network status and the occupancy. */
type Derived = 'status';
export type TerminalFields = StoredFields<typeof BROADCAST_FAMILY.family, Derived>;

/** The volumes of a dispatch's params, or null when they are not one or two volumes within bounds. */
export function terminalVolumesOf(params: unknown): TerminalVolumeParams | null {
  if (!params || typeof params !== 'object') return null;
  const p = params as Record<string, unknown>;
  const volumes: TerminalVolumeParams = {};
  for (const key of ['broadcastVolume', 'interphoneVolume'] as const) {
    const value = p[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || numberProblem(value, NUMBER_BOUNDS.volume)) return null;
    volumes[key] = value;
  }
  return Object.keys(volumes).length > 0 ? volumes : null;
}

/** A task the gateway built (it checked it against TERMINAL_TASK_SCHEMA's rules); null when it is not one. */
function terminalTaskOf(params: unknown): Pick<TerminalCommand, 'type' | 'params'> | null {
  const p = params as Partial<TerminalTaskParams> | null;
  if (typeof p?.taskId !== 'string' || typeof p.title !== 'string' || !Array.isArray(p.items) || p.items.length === 0) return null;
  if (typeof p.timeZone !== 'string' || p.schedule === undefined) return null;
  return { type: 'task', params: p as TerminalTaskParams };
}

/** The console's play actions on one task (spec words) in the device's words: its "cancel pause" is `resume`. */
const TASK_CONTROL_OF: Readonly<Record<PlayAction, TerminalTaskControlParams['action']>> = {
  [PlayAction.Play]: 'play',
  [PlayAction.Pause]: 'pause',
  [PlayAction.CancelPause]: 'resume',
  [PlayAction.Stop]: 'stop',
};

/** A `taskControl` dispatch's params ({ taskId, action }) as the command; null when they are not one. */
function terminalTaskControlOf(params: unknown): Pick<TerminalCommand, 'type' | 'params'> | null {
  const p = params as { taskId?: unknown; action?: unknown } | null;
  const action = Object.hasOwn(TASK_CONTROL_OF, String(p?.action)) ? TASK_CONTROL_OF[p!.action as PlayAction] : undefined;
  if (typeof p?.taskId !== 'string' || p.taskId.length === 0 || !action) return null;
  return { type: 'taskControl', params: { taskId: p.taskId, action } };
}

/** The command a terminal dispatch sends; null for an action or params terminals cannot run (the row fails). */
export function terminalCommandOf(action: string, params: unknown): Pick<TerminalCommand, 'type' | 'params'> | null {
  switch (action) {
    case 'volume': {
      const volumes = terminalVolumesOf(params);
      return volumes && { type: 'volume', params: volumes };
    }
    case 'play': {
      const p = params as { title?: unknown; taskId?: unknown; durationSeconds?: unknown } | null;
      if (typeof p?.title !== 'string' || p.title.length === 0) return null;
      return {
        type: 'play',
        params: {
          title: p.title,
          ...(typeof p.taskId === 'string' ? { taskId: p.taskId } : {}),
          ...(Number.isInteger(p.durationSeconds) ? { durationSeconds: p.durationSeconds as number } : {}),
        },
      };
    }
    case 'task':
      return terminalTaskOf(params);
    case 'cancelTask': {
      const taskId = (params as { taskId?: unknown } | null)?.taskId;
      return typeof taskId === 'string' && taskId.length > 0 ? { type: 'cancelTask', params: { taskId } } : null;
    }
    case 'taskControl':
      return terminalTaskControlOf(params);
    case 'pause':
      return { type: 'pause', params: {} };
    case 'cancelPause':
      return { type: 'resume', params: {} };
    case 'stop':
      return { type: 'stop', params: {} };
    default:
      return null;
  }
}

/** What it plays, as stored: null when idle (whatever the device sent beside it), the task id null when none. */
function playingOf(state: TerminalStateMessage): TerminalPlaying | null {
  if (state.occupancy === TerminalOccupancy.Idle || !state.playing) return null;
  const { title, taskId, since, paused, media, priority } = state.playing;
  return { title, taskId: taskId ?? null, since, paused, ...(media ? { media } : {}), ...(priority ? { priority } : {}) };
}

/**
 * The terminal after one event. Its reports are the truth of what it plays and of its volumes; an acknowledged volume
 * command is recorded at once (the terminal reports the same right after), and a playback command waits for the
 * terminal's own report, since only the terminal knows what it was playing when the command came.
 */
export function reduceTerminal(terminal: TerminalFields, event: TerminalEvent): TerminalFields {
  switch (event.kind) {
    case 'report': {
      const s = event.report;
      return {
        ...terminal,
        networkStatus: OnlineState.Online,
        occupancy: s.occupancy,
        playing: playingOf(s),
        broadcastVolume: s.broadcastVolume,
        interphoneVolume: s.interphoneVolume,
        heldTasks: s.tasks ?? terminal.heldTasks,
        download: s.download === undefined ? terminal.download : s.download,
        hardwareVersion: s.hardwareVersion ?? terminal.hardwareVersion,
        softwareVersion: s.softwareVersion ?? terminal.softwareVersion,
        reportedAt: event.at,
      };
    }
    // A terminal gone is busy with nothing the console can reach.
    case 'offline':
      return { ...terminal, networkStatus: OnlineState.Offline, occupancy: TerminalOccupancy.Idle, playing: null };
    case 'sending':
      return terminal;
    case 'answered': {
      const volumes = event.delivered && event.action === 'volume' ? terminalVolumesOf(event.params) : null;
      return volumes ? { ...terminal, ...volumes } : terminal;
    }
  }
}

/** Broadcast terminals on the device runtime: their columns in `broadcast_terminal`, their occupancy and their commands. */
export const terminalHandler: FamilyHandler<typeof BROADCAST_FAMILY.family, TerminalReports, Derived> = {
  declaration: BROADCAST_FAMILY,
  columns: {
    networkStatus: { column: 'network_status', type: 'smallint' },
    occupancy: { column: 'occupancy', type: 'text' },
    playing: { column: 'playing', type: 'jsonb' },
    heldTasks: { column: 'held_tasks', type: 'jsonb' },
    download: { column: 'download', type: 'jsonb' },
    broadcastVolume: { column: 'broadcast_volume', type: 'smallint' },
    interphoneVolume: { column: 'interphone_volume', type: 'smallint' },
    hardwareVersion: { column: 'hardware_version', type: 'text' },
    softwareVersion: { column: 'software_version', type: 'text' },
    reportedAt: { column: 'reported_at', type: 'timestamptz' },
  },
  reduce: reduceTerminal,
  derive: (terminal) => ({ status: terminalStatusOf(terminal.networkStatus, terminal.occupancy) }),
  command: terminalCommandOf as (action: string, params: unknown) => CommandBody | null,
};
