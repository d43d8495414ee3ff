import { FaultCode } from '@sc/contracts';
import {
  INITIAL_SETTING,
  RecentResults,
  applyLampCommand,
  drawLampProfile,
  parseLampCommand,
  readTelemetry,
  type LampSetting,
} from './lamp-behaviour';

const later = new Date(Date.now() + 60_000).toISOString();
const json = (body: unknown) => Buffer.from(JSON.stringify(body));

/** A small deterministic generator, so telemetry bounds are checked over many draws the same way every run. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

describe('parseLampCommand', () => {
  it('accepts switch and dim commands of the contract', () => {
    expect(parseLampCommand(json({ id: 'a', type: 'switch', params: { on: true }, expiresAt: later }))).toEqual({
      kind: 'command',
      command: { id: 'a', type: 'switch', params: { on: true }, expiresAt: later },
      expiresAtMs: Date.parse(later),
    });
    const dim = parseLampCommand(json({ id: 'b', type: 'dim', params: { level: 40 }, expiresAt: later }));
    expect(dim.kind === 'command' && dim.command).toEqual({ id: 'b', type: 'dim', params: { level: 40 }, expiresAt: later });
    const sync = parseLampCommand(json({ id: 'c', type: 'sync', params: {}, expiresAt: later }));
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
      expect(parseLampCommand(json(body))).toEqual({ kind: 'invalid', id: 'x' });
    }
  });

  it('cannot answer payloads without a usable id', () => {
    for (const payload of ['not json', '[]', 'null', '{"type":"switch"}', '{"id":""}', '{"id":42}', JSON.stringify({ id: 'x'.repeat(200) })]) {
      expect(parseLampCommand(payload)).toEqual({ kind: 'unreadable' });
    }
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

describe('RecentResults', () => {
  it('returns the first answer for an id it has seen', () => {
    const recent = new RecentResults();
    recent.remember({ id: 'a', ok: true }, 10_000, 0);
    recent.remember({ id: 'b', ok: false, error: 'driver fault' }, 10_000, 0);
    expect(recent.get('a')).toEqual({ id: 'a', ok: true });
    expect(recent.get('b')).toEqual({ id: 'b', ok: false, error: 'driver fault' });
    expect(recent.get('c')).toBeUndefined();
  });

  it('forgets ids whose commands have expired, and stays within its capacity', () => {
    const recent = new RecentResults(3);
    recent.remember({ id: 'old', ok: true }, 1_000, 0);
    recent.remember({ id: 'live', ok: true }, 50_000, 500);
    recent.remember({ id: 'new', ok: true }, 60_000, 2_000);
    expect(recent.get('old')).toBeUndefined();
    expect(recent.get('live')).toBeDefined();
    for (let i = 0; i < 10; i++) recent.remember({ id: `n${i}`, ok: true }, 60_000, 2_000);
    expect(recent.size).toBe(3);
    expect(recent.get('n9')).toBeDefined();
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
