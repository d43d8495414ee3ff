import { OnlineState, TerminalOccupancy, type TerminalPlaying } from '@sc/contracts';
import type { DeviceEvent, RowChange } from '@sc/device-runtime';
import type { DeviceFamily } from '@sc/contracts';
import { terminalFields } from '../families/terminal-fields.fixture';
import { historyOf } from './play-history';

const AT = '2026-11-26T08:00:05.000Z';
const NOW = '2026-11-26T08:00:06.000Z';
const playing = (over: Partial<TerminalPlaying> = {}): TerminalPlaying => ({
  title: 'Noon chime',
  taskId: 'T-1',
  since: '2026-11-26T08:00:00.000Z',
  paused: false,
  ...over,
});
const before = (occupancy: TerminalOccupancy, play: TerminalPlaying | null) =>
  ({
    ...terminalFields({ networkStatus: OnlineState.Online, occupancy, playing: play }),
    status: 1,
  }) as unknown as RowChange<DeviceFamily.Broadcast>['before'];
const change = (b: RowChange<DeviceFamily.Broadcast>['before'], changed: RowChange<DeviceFamily.Broadcast>['changed']) => ({
  recordId: 7,
  deviceCode: 'BC-7',
  before: b,
  changed,
});
const reported = new Map<number, DeviceEvent[]>([[7, [{ kind: 'report', channel: 'state', report: {}, at: AT }]]]);

describe('terminal play history', () => {
  it('begins a stretch when an idle terminal starts playing, at the time it says it started', () => {
    expect(
      historyOf([change(before(TerminalOccupancy.Idle, null), { occupancy: TerminalOccupancy.Task, playing: playing() })], reported, NOW),
    ).toEqual({
      ended: [{ deviceId: 7, at: AT }],
      began: [
        {
          deviceId: 7,
          at: '2026-11-26T08:00:00.000Z',
          occupancy: TerminalOccupancy.Task,
          title: 'Noon chime',
          taskId: 'T-1',
          media: null,
          since: '2026-11-26T08:00:00.000Z',
        },
      ],
    });
  });

  it('ends it when the terminal is idle or offline, and starts another for the next medium, not for a pause', () => {
    const busy = before(TerminalOccupancy.Task, playing({ media: 'Anthem' }));
    expect(historyOf([change(busy, { occupancy: TerminalOccupancy.Idle, playing: null })], reported, NOW)).toEqual({
      ended: [{ deviceId: 7, at: AT }],
      began: [],
    });
    // Offline comes with the Last Will's time.
    const will = new Map<number, DeviceEvent[]>([[7, [{ kind: 'offline', at: '2026-11-26T08:03:00.000Z' }]]]);
    expect(
      historyOf([change(busy, { networkStatus: OnlineState.Offline, occupancy: TerminalOccupancy.Idle, playing: null })], will, NOW).ended,
    ).toEqual([{ deviceId: 7, at: '2026-11-26T08:03:00.000Z' }]);
    const next = historyOf([change(busy, { playing: playing({ media: 'Notice', since: AT }) })], reported, NOW);
    expect(next.began).toEqual([expect.objectContaining({ media: 'Notice', at: AT })]);
    expect(historyOf([change(busy, { playing: playing({ media: 'Anthem', paused: true }) })], reported, NOW)).toEqual({ ended: [], began: [] });
    expect(historyOf([change(busy, { broadcastVolume: 20 })], new Map(), NOW)).toEqual({ ended: [], began: [] });
  });

  it('takes the write time when the terminal says nothing of when, and never a start after its report', () => {
    const ahead = playing({ since: '2026-11-26T09:00:00.000Z' });
    const idle = before(TerminalOccupancy.Idle, null);
    expect(historyOf([change(idle, { occupancy: TerminalOccupancy.Intercom, playing: ahead })], reported, NOW).began[0].at).toBe(AT);
    expect(historyOf([change(idle, { occupancy: TerminalOccupancy.Intercom, playing: ahead })], new Map(), NOW).began[0].at).toBe(NOW);
  });
});
