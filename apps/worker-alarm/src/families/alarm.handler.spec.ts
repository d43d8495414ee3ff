import { AlarmLevel, OnlineState } from '@sc/contracts';
import { alarmCommandOf, reduceAlarm, type AlarmFields } from './alarm.handler';

const fresh: AlarmFields = {
  networkStatus: OnlineState.Offline,
  ipAddress: '',
  swver: '',
  hwver: '',
  volume: null,
  reportedAt: null,
  lastPressAt: null,
  lastPressLevel: null,
  pressCount: 0,
};
const at = (s: number) => new Date(Date.UTC(2026, 10, 28, 9, 0, s)).toISOString();

describe('alarm column handler', () => {
  it('takes its address, versions and volume from its state, online', () => {
    const column = reduceAlarm(fresh, {
      kind: 'report',
      channel: 'state',
      report: { online: true, ipAddress: '10.20.0.7', swver: '3.1.0', hwver: 'AC-2', volume: 70 },
      at: at(0),
    });
    expect(column).toMatchObject({
      networkStatus: OnlineState.Online,
      ipAddress: '10.20.0.7',
      swver: '3.1.0',
      hwver: 'AC-2',
      volume: 70,
      reportedAt: at(0),
    });
    // A later state that leaves a field out keeps it.
    expect(reduceAlarm(column, { kind: 'report', channel: 'state', report: { online: true }, at: at(60) })).toMatchObject({
      volume: 70,
      swver: '3.1.0',
    });
  });

  it('counts each press as its last, at the time the column stamped it unless its clock is far off', () => {
    let column = reduceAlarm(fresh, { kind: 'report', channel: 'event', report: { ts: at(1), kind: 'press', level: AlarmLevel.Three }, at: at(2) });
    expect(column).toMatchObject({ networkStatus: OnlineState.Online, lastPressAt: at(1), lastPressLevel: AlarmLevel.Three, pressCount: 1 });
    column = reduceAlarm(column, {
      kind: 'report',
      channel: 'event',
      report: { ts: '2001-01-01T00:00:00Z', kind: 'press', level: AlarmLevel.One },
      at: at(30),
    });
    expect(column).toMatchObject({ lastPressAt: at(30), lastPressLevel: AlarmLevel.One, pressCount: 2 });
  });

  it('goes offline on its Last Will, keeping what it last reported', () => {
    const online = reduceAlarm(fresh, { kind: 'report', channel: 'state', report: { online: true, volume: 40 }, at: at(0) });
    expect(reduceAlarm(online, { kind: 'offline', at: at(1) })).toMatchObject({ networkStatus: OnlineState.Offline, volume: 40 });
  });

  it('sends reboot and volume, and refuses a volume out of range', () => {
    expect(alarmCommandOf('reboot', {})).toEqual({ type: 'reboot', params: {} });
    expect(alarmCommandOf('volume', { volume: 35 })).toEqual({ type: 'volume', params: { volume: 35 } });
    expect(alarmCommandOf('volume', { volume: 101 })).toBeNull();
    expect(alarmCommandOf('volume', { volume: 2.5 })).toBeNull();
    expect(alarmCommandOf('volume', null)).toBeNull();
    expect(alarmCommandOf('mute', {})).toBeNull();
  });

  it('takes an acknowledged volume at once; a refused one changes nothing', () => {
    const online = reduceAlarm(fresh, { kind: 'report', channel: 'state', report: { online: true, volume: 40 }, at: at(0) });
    expect(reduceAlarm(online, { kind: 'answered', action: 'volume', params: { volume: 80 }, delivered: true }).volume).toBe(80);
    expect(reduceAlarm(online, { kind: 'answered', action: 'volume', params: { volume: 80 }, delivered: false }).volume).toBe(40);
    expect(reduceAlarm(online, { kind: 'answered', action: 'reboot', params: {}, delivered: true })).toEqual(online);
  });
});
