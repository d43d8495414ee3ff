import {
  BroadcastTaskMode,
  DeviceFamily,
  DispatchStatus,
  PlaybackMode,
  TASK_PLAYERS_SHOWN,
  TaskPlayStatus,
  TaskTimeStatus,
  TerminalOccupancy,
  type BroadcastTaskRow,
  type DeviceStateChangedEvent,
  type PageResult,
  type TerminalPlaying,
} from '@sc/contracts';
import { nextListEnd, patchTaskDispatch, patchTaskPlayers, playerNames, timeStatusNow } from './task-live';

const sent = '2026-03-01T10:00:00.000Z';
const task = (id: number, overrides: Partial<BroadcastTaskRow> = {}): BroadcastTaskRow => ({
  id,
  taskName: `Task ${id}`,
  taskMode: BroadcastTaskMode.Immediate,
  playbackMode: PlaybackMode.Normal,
  volume: 50,
  priority: 3,
  media: [{ mediaId: 1, title: 'Chime', durationMs: 10_000 }],
  durationMs: 10_000,
  schedule: null,
  terminalCount: 3,
  dispatchId: `d-${id}`,
  dispatchStatus: DispatchStatus.ToBeSent,
  timeStatus: TaskTimeStatus.InProgress,
  playStatus: TaskPlayStatus.Idle,
  createdBy: 'editor',
  createdAt: sent,
  stoppedAt: null,
  stoppedBy: null,
  players: [],
  playingCount: 0,
  ...overrides,
});
const page = (...list: BroadcastTaskRow[]): PageResult<BroadcastTaskRow> => ({ total: list.length, list });
const playing = (taskId: string | null, media = 'Chime'): TerminalPlaying => ({ title: 'T', taskId, since: sent, paused: false, media });
const changed = (...changes: [recordId: number, code: string, fields: Record<string, unknown>][]): DeviceStateChangedEvent => ({
  family: DeviceFamily.Broadcast,
  at: sent,
  changes: changes.map(([recordId, deviceCode, fields]) => ({ recordId, deviceCode, changed: fields })),
});

describe('the immediate broadcasts kept live', () => {
  it('moves a task to its dispatch status, leaving other pages as they are', () => {
    const before = page(task(1), task(2));
    const after = patchTaskDispatch(before, {
      dispatchId: 'd-2',
      family: DeviceFamily.Broadcast,
      status: DispatchStatus.AllSuccessful,
      counts: { queued: 0, sent: 0, delivered: 3, failed: 0, expired: 0 },
      total: 3,
      at: sent,
    });
    expect(after.list.map((r) => r.dispatchStatus)).toEqual([DispatchStatus.ToBeSent, DispatchStatus.AllSuccessful]);
    expect(after.list[0]).toBe(before.list[0]);
    const other = page(task(3));
    expect(
      patchTaskDispatch(other, {
        ...after.list[1],
        dispatchId: 'd-9',
        family: DeviceFamily.Broadcast,
        status: DispatchStatus.AllFailures,
        counts: { queued: 0, sent: 0, delivered: 0, failed: 1, expired: 0 },
        total: 1,
        at: sent,
      }),
    ).toBe(other);
  });

  it('adds a terminal that starts playing a task, by its code, with the medium; moves it when it plays another; drops it when idle', () => {
    let current = page(task(1), task(2));
    current = patchTaskPlayers(current, changed([10, 'BC-10', { occupancy: TerminalOccupancy.Task, playing: playing('task-1') }]), new Map());
    expect(current.list[0]).toMatchObject({ playingCount: 1, players: [{ id: 10, terminalId: 'BC-10', media: 'Chime', paused: false }] });
    expect(current.list[0].players[0].terminalName).toBeUndefined();

    // A first-priority broadcast pre-empts it on that terminal; the name it was listed with is kept.
    current = patchTaskPlayers(current, changed([10, 'BC-10', { playing: playing('task-2', 'Siren') }]), new Map([[10, 'Square 10']]));
    expect(current.list.map((r) => r.playingCount)).toEqual([0, 1]);
    expect(current.list[1].players).toEqual([{ id: 10, terminalId: 'BC-10', terminalName: 'Square 10', media: 'Siren', paused: false }]);

    // The next medium of the same task, paused: the same player, changed in place.
    current = patchTaskPlayers(current, changed([10, 'BC-10', { playing: { ...playing('task-2', 'Bell'), paused: true } }]), new Map());
    expect(current.list[1]).toMatchObject({ playingCount: 1, players: [{ id: 10, media: 'Bell', paused: true }] });

    // Idle, or gone offline (its Last Will clears what it played): it plays nothing.
    current = patchTaskPlayers(current, changed([10, 'BC-10', { occupancy: TerminalOccupancy.Idle, playing: null }]), new Map());
    expect(current.list.map((r) => [r.playingCount, r.players.length])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it('gives each task its play status from its players: playing, paused once every player is paused, idle when none is left', () => {
    let current = page(task(1));
    current = patchTaskPlayers(
      current,
      changed([10, 'BC-10', { playing: playing('task-1') }], [11, 'BC-11', { playing: playing('task-1') }]),
      new Map(),
    );
    expect(current.list[0]).toMatchObject({ playingCount: 2, playStatus: TaskPlayStatus.Playing });
    current = patchTaskPlayers(current, changed([10, 'BC-10', { playing: { ...playing('task-1'), paused: true } }]), new Map());
    expect(current.list[0].playStatus).toBe(TaskPlayStatus.Playing);
    current = patchTaskPlayers(current, changed([11, 'BC-11', { playing: { ...playing('task-1'), paused: true } }]), new Map());
    expect(current.list[0].playStatus).toBe(TaskPlayStatus.Paused);
    current = patchTaskPlayers(current, changed([10, 'BC-10', { playing: null }], [11, 'BC-11', { playing: null }]), new Map());
    expect(current.list[0]).toMatchObject({ playingCount: 0, playStatus: TaskPlayStatus.Idle });
  });

  it('ignores changes that do not touch what is played, calls and other tasks', () => {
    const before = page(task(1));
    expect(patchTaskPlayers(before, changed([10, 'BC-10', { broadcastVolume: 30 }]), new Map())).toBe(before);
    expect(patchTaskPlayers(before, changed([10, 'BC-10', { playing: playing(null) }]), new Map())).toBe(before);
    expect(patchTaskPlayers(before, changed([10, 'BC-10', { playing: playing('task-7') }]), new Map())).toBe(before);
  });

  it('counts players beyond those it lists', () => {
    const full = Array.from({ length: TASK_PLAYERS_SHOWN }, (_, i) => ({ id: i + 1, terminalId: `BC-${i + 1}`, media: 'Chime', paused: false }));
    const before = page(task(1, { players: full, playingCount: TASK_PLAYERS_SHOWN }));
    const after = patchTaskPlayers(before, changed([999, 'BC-999', { playing: playing('task-1') }]), new Map());
    expect(after.list[0].playingCount).toBe(TASK_PLAYERS_SHOWN + 1);
    expect(after.list[0].players).toHaveLength(TASK_PLAYERS_SHOWN);
  });

  it('learns the names the rows list', () => {
    const names = playerNames(
      [page(task(1, { players: [{ id: 4, terminalId: 'BC-4', terminalName: 'Gate', media: null, paused: false }] })), undefined],
      new Map(),
    );
    expect([...names]).toEqual([[4, 'Gate']]);
  });

  it("recomputes an immediate broadcast's time status as its list ends, and says when the next one does", () => {
    const row = task(1);
    const at = (seconds: number) => new Date(Date.parse(sent) + seconds * 1000);
    expect(timeStatusNow(row, at(5))).toBe(TaskTimeStatus.InProgress);
    expect(timeStatusNow(row, at(10))).toBe(TaskTimeStatus.Ended);
    expect(timeStatusNow({ ...row, playingCount: 1 }, at(60))).toBe(TaskTimeStatus.InProgress);
    expect(timeStatusNow({ ...row, taskMode: BroadcastTaskMode.Scheduled, timeStatus: TaskTimeStatus.NotStarted }, at(60))).toBe(
      TaskTimeStatus.NotStarted,
    );
    const cycling = task(2, { playbackMode: PlaybackMode.ListCycle });
    const later = task(3, { createdAt: at(20).toISOString() });
    expect(nextListEnd([row, cycling, later], Date.parse(sent))).toBe(Date.parse(sent) + 10_000);
    expect(nextListEnd([row, cycling, later], Date.parse(sent) + 10_000)).toBe(Date.parse(sent) + 30_000);
    expect(nextListEnd([cycling], Date.parse(sent))).toBeNull();
  });
});
