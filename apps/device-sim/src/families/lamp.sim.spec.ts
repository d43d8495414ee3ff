import { FaultCode, LAMP_FAMILY, StrategyMode, type LampCommand, type LampSchedule } from '@sc/contracts';
import { CommandReader } from '../kit';
import {
  INITIAL_SETTING,
  ScheduleRunner,
  applyLampCommand,
  drawLampProfile,
  generateLampCodes,
  lampFamily,
  readTelemetry,
  type LampSetting,
} from './lamp.sim';

const later = new Date(Date.now() + 60_000).toISOString();
const json = (body: unknown) => Buffer.from(JSON.stringify(body));
const family = lampFamily({ hardwareVersion: 'HW', softwareVersion: 'SW' });
const reader = new CommandReader<LampCommand>(LAMP_FAMILY, family.accepts);

/** A small deterministic generator, so telemetry bounds are checked over many draws the same way every run. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

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

describe('generateLampCodes', () => {
  it('numbers codes from 1 with five digits', () => {
    expect(generateLampCodes(3, 'T-')).toEqual(['T-00001', 'T-00002', 'T-00003']);
  });
});

describe('a lamp reading its commands', () => {
  it('accepts switch and dim commands of the contract', () => {
    expect(reader.read(json({ id: 'a', type: 'switch', params: { on: true }, expiresAt: later }))).toEqual({
      kind: 'command',
      command: { id: 'a', type: 'switch', params: { on: true }, expiresAt: later },
      expiresAtMs: Date.parse(later),
    });
    const dim = reader.read(json({ id: 'b', type: 'dim', params: { level: 40 }, expiresAt: later }));
    expect(dim.kind === 'command' && dim.command).toEqual({ id: 'b', type: 'dim', params: { level: 40 }, expiresAt: later });
    const sync = reader.read(json({ id: 'c', type: 'sync', params: {}, expiresAt: later }));
    expect(sync.kind === 'command' && sync.command).toEqual({ id: 'c', type: 'sync', params: {}, expiresAt: later });
    expect(sync.kind === 'command' && applyLampCommand({ on: true, level: 60, resumeLevel: 60 }, sync.command)).toEqual({
      on: true,
      level: 60,
      resumeLevel: 60,
    });
  });

  it('answers a readable id with a bad-command verdict when the rest is wrong', () => {
    for (const body of [
      { id: 'x', type: 'dim', params: { level: 33 }, expiresAt: later },
      { id: 'x', type: 'dim', params: { level: '40' }, expiresAt: later },
      { id: 'x', type: 'switch', params: { on: 'yes' }, expiresAt: later },
      { id: 'x', type: 'blink', params: {}, expiresAt: later },
      { id: 'x', type: 'switch', params: { on: true } },
      { id: 'x', type: 'switch', params: { on: true }, expiresAt: 'tomorrow' },
      { id: 'x', type: 'switch', expiresAt: later },
    ]) {
      expect(reader.read(json(body))).toEqual({ kind: 'invalid', id: 'x' });
    }
  });

  it('cannot answer payloads without a usable id', () => {
    for (const payload of ['not json', '[]', 'null', '{"type":"switch"}', '{"id":""}', '{"id":42}', JSON.stringify({ id: 'x'.repeat(200) })]) {
      expect(reader.read(payload)).toEqual({ kind: 'unreadable' });
    }
  });

  it('accepts a schedule command and refuses one without a usable place', () => {
    const command = { id: 'c1', type: 'schedule', params: schedule, expiresAt: later };
    expect(reader.read(JSON.stringify(command))).toMatchObject({ kind: 'command', command: { type: 'schedule' } });
    const bad = { ...command, params: { ...schedule, place: { latitude: 1, longitude: 2, timeZone: 'Mars/Base' } } };
    expect(reader.read(JSON.stringify(bad))).toEqual({ kind: 'invalid', id: 'c1' });
    expect(reader.takes('schedule', { strategyId: 'x' })).toBe(false);
  });
});

describe('applyLampCommand', () => {
  const on: LampSetting = { on: true, level: 60, resumeLevel: 60 };

  it('switches off to level 0 and back on at the last dimming level', () => {
    const off = applyLampCommand(on, { id: '1', type: 'switch', params: { on: false }, expiresAt: later });
    expect(off).toEqual({ on: false, level: 0, resumeLevel: 60 });
    expect(applyLampCommand(off, { id: '2', type: 'switch', params: { on: true }, expiresAt: later })).toEqual(on);
    expect(applyLampCommand(INITIAL_SETTING, { id: '3', type: 'switch', params: { on: true }, expiresAt: later })).toMatchObject({
      on: true,
      level: 100,
    });
  });

  it('dims, level 0 meaning off', () => {
    expect(applyLampCommand(on, { id: '1', type: 'dim', params: { level: 20 }, expiresAt: later })).toEqual({ on: true, level: 20, resumeLevel: 20 });
    expect(applyLampCommand(on, { id: '2', type: 'dim', params: { level: 0 }, expiresAt: later })).toEqual({ on: false, level: 0, resumeLevel: 60 });
  });
});

describe('readTelemetry', () => {
  const random = seeded(7);
  const now = new Date('2024-11-21T10:00:00Z');

  it('gives readings in realistic ranges, power following the dimming level', () => {
    for (let i = 0; i < 500; i++) {
      const profile = drawLampProfile(random);
      const level = ([20, 40, 60, 80, 100] as const)[i % 5];
      const t = readTelemetry(profile, { on: true, level, resumeLevel: level }, new Set(), now, random);
      expect(t.ts).toBe(now.toISOString());
      expect(t.voltage).toBeGreaterThanOrEqual(219);
      expect(t.voltage).toBeLessThanOrEqual(231);
      expect(t.power).toBeGreaterThan(level * 0.9);
      expect(t.power).toBeLessThan(level * 1.1);
      expect(t.powerFactor).toBeGreaterThanOrEqual(0.9);
      expect(t.powerFactor).toBeLessThanOrEqual(0.99);
      expect(t.current).toBeCloseTo(t.power / (t.voltage * t.powerFactor), 2);
      expect(t.signal).toBeGreaterThanOrEqual(-100);
      expect(t.signal).toBeLessThanOrEqual(-60);
    }
  });

  it('draws standby power when off and shows voltage faults in the readings', () => {
    const profile = drawLampProfile(random);
    const off = readTelemetry(profile, INITIAL_SETTING, new Set(), now, random);
    expect(off.power).toBeLessThan(1);
    expect(readTelemetry(profile, INITIAL_SETTING, new Set([FaultCode.VoltageLow]), now, random).voltage).toBeLessThan(190);
    expect(readTelemetry(profile, INITIAL_SETTING, new Set([FaultCode.VoltageHigh]), now, random).voltage).toBeGreaterThan(245);
  });
});

describe('a lamp’s schedule', () => {
  const night = Date.parse('2026-11-21T22:00:00+08:00');

  it('gives the period level, raised for the hold time after an event of its radar', () => {
    const runner = new ScheduleRunner(schedule);
    expect(runner.levelAt(Date.parse('2026-11-21T15:00:00+08:00'))).toBe(0);
    expect(runner.levelAt(night)).toBe(20);
    expect(runner.listensTo('R-1')).toBe(true);
    expect(runner.listensTo('R-2')).toBe(false);
    runner.lastRadarAt = night;
    expect(runner.levelAt(night + 59_000)).toBe(100);
    expect(runner.levelAt(night + 60_000)).toBe(20);
  });

  it('is followed from the seed, holds a manual command until the schedule changes, and hears its radar', () => {
    let now = night;
    const context = { random: seeded(3), clock: () => now, after: () => undefined, report: () => undefined, restart: () => undefined };
    const lamp = family.initial({ code: 'L-1', schedule }, context);
    expect(lamp.setting).toMatchObject({ on: true, level: 20 });
    family.apply(lamp, { id: 'd', type: 'dim', params: { level: 80 }, expiresAt: later }, context);
    now += 60_000;
    expect(family.tick!(lamp, context)).toBe(false);
    expect(lamp.setting.level).toBe(80);
    const radar = family.listens!.read('city/v1/radar/R-1/event', Buffer.from('{}'))!;
    expect(family.listens!.hear(lamp, radar, context)).toBe(true);
    expect(lamp.setting.level).toBe(100);
    expect(family.listens!.hear(lamp, 'R-2', context)).toBe(false);
    now += 61_000;
    expect(family.tick!(lamp, context)).toBe(true);
    expect(lamp.setting.level).toBe(20);
  });
});
