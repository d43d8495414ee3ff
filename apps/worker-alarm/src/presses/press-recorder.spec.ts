import { AlarmLevel, DeviceFamily, OnlineState } from '@sc/contracts';
import type { DeviceEvent, RowChange } from '@sc/device-runtime';
import { pressesOf } from './press-recorder';

const at = (s: number) => new Date(Date.UTC(2026, 10, 28, 9, 0, s)).toISOString();
const change = (recordId: number, pressCount: number): RowChange<DeviceFamily.Alarm> => ({
  recordId,
  deviceCode: `ALARM-${recordId}`,
  before: {
    networkStatus: OnlineState.Online,
    ipAddress: '',
    swver: '',
    hwver: '',
    volume: null,
    reportedAt: null,
    lastPressAt: null,
    lastPressLevel: null,
    pressCount,
  },
  changed: {},
});
const press = (s: number, level: AlarmLevel): DeviceEvent => ({
  kind: 'report',
  channel: 'event',
  report: { ts: at(s), kind: 'press', level },
  at: at(s),
});

describe('press recorder', () => {
  it('takes every press of a write in order, each with the count it brings its column to, and nothing else', () => {
    const events = new Map<number, DeviceEvent[]>([
      [1, [press(1, AlarmLevel.One), { kind: 'report', channel: 'state', report: { online: true }, at: at(2) }, press(3, AlarmLevel.Three)]],
      [2, [{ kind: 'offline', at: at(4) }]],
    ]);
    expect(pressesOf([change(1, 5), change(2, 0)], events)).toEqual([
      { columnId: 1, code: 'ALARM-1', level: AlarmLevel.One, ts: at(1), at: at(1), pressCount: 6 },
      { columnId: 1, code: 'ALARM-1', level: AlarmLevel.Three, ts: at(3), at: at(3), pressCount: 7 },
    ]);
  });
});
