import { STRIP_FAMILY, StrategyMode, Zone, type LampSchedule, type StripCommand } from '@sc/contracts';
import { CommandReader, type DeviceContext } from '../kit';
import { stripFamily, type StripState } from './strip.sim';

const later = new Date(Date.now() + 60_000).toISOString();
const json = (body: unknown) => JSON.stringify(body);
const family = stripFamily(500);
const reader = new CommandReader<StripCommand>(STRIP_FAMILY, family.accepts);

const schedule: LampSchedule = {
  strategyId: 9,
  name: 'Evenings',
  rules: { mode: StrategyMode.Week, modeData: { weekdays: [] }, periods: [{ start: '18:00', end: '23:00', level: 60 }] },
  place: { latitude: 22.54, longitude: 114.06, timeZone: 'Asia/Shanghai' },
};

describe('a strip light reading its commands', () => {
  it('takes the effects of the spec and a strip strategy', () => {
    for (const params of [
      { type: 1, effect: -1, zones: ['L'] },
      { type: 1, effect: -3, zones: ['L', 'R'] },
      { type: 2, effect: 7, zones: ['R'] },
      { type: 3, effect: 8, zones: ['L'] },
      { type: 6, color: '#ff8800', zones: ['L', 'R'] },
    ]) {
      expect(reader.read(json({ id: 'a', type: 'effect', params, expiresAt: later }))).toEqual({
        kind: 'command',
        command: { id: 'a', type: 'effect', params, expiresAt: later },
        expiresAtMs: Date.parse(later),
      });
    }
    expect(reader.read(json({ id: 's', type: 'schedule', params: schedule, expiresAt: later }))).toMatchObject({ kind: 'command' });
  });

  it('refuses effects of another type, unknown zones and colours, and schedules it cannot run', () => {
    for (const params of [
      { type: 2, effect: -1, zones: ['L'] },
      { type: 3, effect: 3, zones: ['L'] },
      { type: 1, zones: ['L'] },
      { type: 6, zones: ['L'] },
      { type: 6, color: '#FF8800', zones: ['L'] },
      { type: 4, effect: 1, zones: ['L'] },
      { type: 1, effect: -1, zones: [] },
      { type: 1, effect: -1, zones: ['M'] },
    ]) {
      expect(reader.read(json({ id: 'x', type: 'effect', params, expiresAt: later }))).toEqual({ kind: 'invalid', id: 'x' });
    }
    const mars = { ...schedule, place: { ...schedule.place, timeZone: 'Mars/Base' } };
    expect(reader.read(json({ id: 'x', type: 'schedule', params: mars, expiresAt: later }))).toEqual({ kind: 'invalid', id: 'x' });
    expect(reader.read(json({ id: 'x', type: 'dim', params: { level: 40 }, expiresAt: later }))).toEqual({ kind: 'invalid', id: 'x' });
  });
});

describe('a strip light', () => {
  const tonight = Date.parse('2026-11-21T20:00:00+08:00');
  const context = { random: () => 0.5, clock: () => tonight, after: () => undefined, report: () => undefined, restart: () => undefined };

  it('lights its zones, runs its schedule and reports the brightness', () => {
    const strip = family.initial({ code: 'S-1' }, context);
    family.apply(strip, { id: 'a', type: 'effect', params: { type: 6, color: '#ff8800', zones: [Zone.Left] }, expiresAt: later }, context);
    expect(family.report(strip, { code: 'S-1', gatewayId: 'SGW-1' })).toMatchObject({
      online: true,
      bri: 50,
      zones: { L: { on: true, type: 6, color: '#ff8800' }, R: { on: false } },
      gatewayId: 'SGW-1',
    });
    family.apply(strip, { id: 'b', type: 'schedule', params: schedule, expiresAt: later }, context);
    expect(family.report(strip, { code: 'S-1', gatewayId: 'SGW-1' })).toMatchObject({ bri: 60, zones: { L: { on: true }, R: { on: true } } });
    expect(family.tick!(strip, context)).toBe(false);
  });

  it('synchronizes for a moment each time it comes online', () => {
    const strip = family.initial({ code: 'S-2' }, context);
    expect(strip.synchronizing).toBe(true);
    const later: [number, (s: StripState) => boolean][] = [];
    const device: DeviceContext<StripState> = { ...context, after: (ms, change) => later.push([ms, change]) };
    family.connected!(strip, device);
    expect(later.map(([ms]) => ms)).toEqual([500]);
    expect(later[0][1](strip)).toBe(true);
    expect(strip.synchronizing).toBe(false);
    family.connected!(strip, device);
    expect(strip.synchronizing).toBe(true);
  });
});
