import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { BROADCAST_FAMILY, OnlineState, TerminalOccupancy, TerminalStatus, type TerminalStateMessage } from '@sc/contracts';
import { terminalFields } from './terminal-fields.fixture';
import { reduceTerminal, terminalCommandOf, terminalHandler, terminalVolumesOf, type TerminalEvent, type TerminalFields } from './terminal.handler';

const AT = '2026-11-21T10:00:00.000Z';
const TASK = {
  taskId: 'T-1',
  title: 'Evening notice',
  priority: 3,
  volume: 60,
  mode: 'list_cycle_mode',
  timeZone: 'Asia/Shanghai',
  items: [{ mediaId: 4, title: 'Notice', url: 'https://console.example/media/4?sig=x', sha256: 'a'.repeat(64), bytes: 1024, durationMs: 5000 }],
  schedule: null,
};
const terminal = terminalFields;
const report = (state: Partial<TerminalStateMessage>): TerminalEvent => ({
  kind: 'report',
  channel: 'state',
  report: { online: true, occupancy: TerminalOccupancy.Idle, broadcastVolume: 60, interphoneVolume: 40, ...state } as TerminalStateMessage,
  at: AT,
});
const status = (fields: TerminalFields) => terminalHandler.derive!(fields).status;

describe('broadcast terminal state', () => {
  it('comes online idle with the volumes it reports', () => {
    const next = reduceTerminal(terminal(), report({ softwareVersion: '2.0.1' }));
    expect(next).toEqual(
      terminal({ networkStatus: OnlineState.Online, broadcastVolume: 60, interphoneVolume: 40, softwareVersion: '2.0.1', reportedAt: AT }),
    );
    expect(status(next)).toBe(TerminalStatus.Online);
  });

  it('is occupied while it plays a task or carries a call, with what and since when', () => {
    const playing = { title: 'Evening notice', taskId: 'T-12', since: AT, paused: false };
    const busy = reduceTerminal(terminal(), report({ occupancy: TerminalOccupancy.Task, playing }));
    expect(busy.occupancy).toBe(TerminalOccupancy.Task);
    expect(busy.playing).toEqual(playing);
    expect(status(busy)).toBe(TerminalStatus.Occupied);
    const call = reduceTerminal(busy, report({ occupancy: TerminalOccupancy.Intercom, playing: { title: '8001', since: AT, paused: false } }));
    expect(call.playing).toEqual({ title: '8001', taskId: null, since: AT, paused: false });
    expect(status(call)).toBe(TerminalStatus.Occupied);
    const idle = reduceTerminal(call, report({ occupancy: TerminalOccupancy.Idle, playing: { title: 'left over', since: AT, paused: false } }));
    expect(idle.playing).toBeNull();
    expect(status(idle)).toBe(TerminalStatus.Online);
  });

  it('is offline and busy with nothing after its Last Will, and stays so until it reports', () => {
    const busy = reduceTerminal(terminal(), report({ occupancy: TerminalOccupancy.Task, playing: { title: 'x', since: AT, paused: true } }));
    const gone = reduceTerminal(busy, { kind: 'offline', at: AT });
    expect(gone).toMatchObject({ networkStatus: OnlineState.Offline, occupancy: TerminalOccupancy.Idle, playing: null });
    expect(status(gone)).toBe(TerminalStatus.Offline);
    expect(reduceTerminal(gone, { kind: 'sending', action: 'volume' })).toEqual(gone);
  });

  it('records a volume the terminal acknowledged, and nothing for one refused or expired', () => {
    const online = reduceTerminal(terminal(), report({}));
    const answered = (delivered: boolean, params: unknown): TerminalEvent => ({ kind: 'answered', action: 'volume', params, delivered });
    expect(reduceTerminal(online, answered(true, { broadcastVolume: 80 }))).toMatchObject({ broadcastVolume: 80, interphoneVolume: 40 });
    expect(reduceTerminal(online, answered(true, { broadcastVolume: 0, interphoneVolume: 100 }))).toMatchObject({
      broadcastVolume: 0,
      interphoneVolume: 100,
    });
    expect(reduceTerminal(online, answered(false, { broadcastVolume: 80 }))).toEqual(online);
    expect(reduceTerminal(online, { kind: 'answered', action: 'stop', params: {}, delivered: true })).toEqual(online);
  });
});

describe('broadcast terminal commands', () => {
  const ajv = addFormats(new Ajv({ strict: false }), ['date-time', 'uuid']);

  it('sends each action as the command the declaration describes', () => {
    const cases: [string, unknown][] = [
      ['volume', { broadcastVolume: 30 }],
      ['volume', { interphoneVolume: 70, broadcastVolume: 20 }],
      ['play', { title: 'Morning news', taskId: 'T-1', durationSeconds: 60 }],
      ['pause', {}],
      ['cancelPause', {}],
      ['stop', {}],
      ['task', TASK],
      ['task', { ...TASK, schedule: { weekdays: ['1', '5'], periods: [{ start: '08:00', end: '08:30' }], startDate: '2026-11-23', endDate: null } }],
      ['cancelTask', { taskId: 'T-1' }],
      ['taskControl', { taskId: 'T-1', action: 'play' }],
      ['taskControl', { taskId: 'T-1', action: 'stop' }],
    ];
    for (const [action, params] of cases) {
      const command = terminalCommandOf(action, params)!;
      expect(command).not.toBeNull();
      const declared = BROADCAST_FAMILY.commands[command.type as keyof typeof BROADCAST_FAMILY.commands];
      expect(ajv.validate(declared.params, command.params)).toBe(true);
    }
    expect(terminalCommandOf('cancelPause', {})).toEqual({ type: 'resume', params: {} });
    // The console's "cancel pause" of one task is the terminal's resume of it.
    expect(terminalCommandOf('taskControl', { taskId: 'T-1', action: 'cancelPause' })).toEqual({
      type: 'taskControl',
      params: { taskId: 'T-1', action: 'resume' },
    });
  });

  it('refuses volumes out of bounds, none at all, and unknown actions', () => {
    for (const params of [{}, { broadcastVolume: 101 }, { broadcastVolume: -1 }, { interphoneVolume: 2.5 }, { broadcastVolume: '50' }, null])
      expect(terminalCommandOf('volume', params)).toBeNull();
    expect(terminalVolumesOf({ broadcastVolume: 0 })).toEqual({ broadcastVolume: 0 });
    expect(terminalCommandOf('play', { title: '' })).toBeNull();
    expect(terminalCommandOf('reboot', {})).toBeNull();
    expect(terminalCommandOf('task', { ...TASK, items: [] })).toBeNull();
    expect(terminalCommandOf('task', { title: 'No id', items: TASK.items })).toBeNull();
    expect(terminalCommandOf('cancelTask', {})).toBeNull();
    for (const params of [
      { taskId: 'T-1', action: 'resume' },
      { taskId: 'T-1', action: 'toString' },
      { taskId: '', action: 'play' },
      { action: 'stop' },
      null,
    ])
      expect(terminalCommandOf('taskControl', params)).toBeNull();
  });

  it('keeps the tasks a terminal holds and how far its download got, as it reports them', () => {
    const download = { taskId: 'T-1', received: 10, total: 100, done: false };
    const next = reduceTerminal(terminal(), report({ tasks: ['T-1', 'T-2'], download }));
    expect(next).toMatchObject({ heldTasks: ['T-1', 'T-2'], download });
    // A report without them (an older firmware) leaves them as they were.
    expect(reduceTerminal(next, report({}))).toMatchObject({ heldTasks: ['T-1', 'T-2'], download });
    expect(reduceTerminal(next, report({ download: null, tasks: [] }))).toMatchObject({ heldTasks: [], download: null });
  });

  it('stores every live field of the declaration but the derived status', () => {
    expect(Object.keys(terminalHandler.columns).sort()).toEqual(BROADCAST_FAMILY.liveFields.filter((f) => f !== 'status').sort());
  });
});
