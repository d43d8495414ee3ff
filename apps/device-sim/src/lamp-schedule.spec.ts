import { StrategyMode, type LampSchedule } from '@sc/contracts';
import { ScheduleRunner, SimClock, parseSchedule } from './lamp-schedule';
import { parseLampCommand } from './lamp-behaviour';

const schedule: LampSchedule = {
  strategyId: 7,
  name: 'Sensing',
  rules: {
    mode: StrategyMode.Sensing,
    modeData: { radarCodes: ['R-1'], brightness: 100, holdSeconds: 60 },
    periods: [{ start: '19:00', end: '06:00', level: 20 }],
  },
  place: { latitude: 22.54, longitude: 114.06, timeZone: 'Asia/Shanghai' },
};

describe('the simulated clock', () => {
  it('runs from a set time at its speed', () => {
    const clock = new SimClock(new Date('2026-11-21T10:00:00Z'), 3600);
    const start = clock.now();
    expect(Math.abs(start - Date.parse('2026-11-21T10:00:00Z'))).toBeLessThan(3600 * 50);
    clock.set(new Date('2030-01-01T00:00:00Z'), 1);
    expect(Math.abs(clock.now() - Date.parse('2030-01-01T00:00:00Z'))).toBeLessThan(50);
    expect(clock.rate).toBe(1);
  });
});

describe('a lamp’s schedule', () => {
  it('accepts a schedule command and refuses one without a usable place', () => {
    const command = { id: 'c1', type: 'schedule', params: schedule, expiresAt: new Date(Date.now() + 60_000).toISOString() };
    expect(parseLampCommand(JSON.stringify(command))).toMatchObject({ kind: 'command', command: { type: 'schedule' } });
    const bad = { ...command, params: { ...schedule, place: { latitude: 1, longitude: 2, timeZone: 'Mars/Base' } } };
    expect(parseLampCommand(JSON.stringify(bad))).toEqual({ kind: 'invalid', id: 'c1' });
    expect(parseSchedule({ strategyId: 'x' })).toBeNull();
  });

  it('gives the period level, raised for the hold time after an event of its radar', () => {
    const runner = new ScheduleRunner(schedule);
    const night = Date.parse('2026-11-21T22:00:00+08:00');
    expect(runner.levelAt(Date.parse('2026-11-21T15:00:00+08:00'))).toBe(0);
    expect(runner.levelAt(night)).toBe(20);
    expect(runner.listensTo('R-1')).toBe(true);
    expect(runner.listensTo('R-2')).toBe(false);
    runner.lastRadarAt = night;
    expect(runner.levelAt(night + 59_000)).toBe(100);
    expect(runner.levelAt(night + 60_000)).toBe(20);
  });
});
