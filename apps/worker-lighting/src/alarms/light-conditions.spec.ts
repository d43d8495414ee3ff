import { AlarmKind, DeviceFamily, FaultCode, StrategyMode, type LampSchedule } from '@sc/contracts';
import { faultTransitions } from './fault-transitions';
import { lightConditions, sunIsUp } from './light-conditions';
import type { LampEvent } from '../families/lamp.handler';

const EQUATOR_UTC = { latitude: 0, longitude: 0, timeZone: 'UTC' };
const NOON = new Date('2026-11-21T12:00:00Z');
const MIDNIGHT = new Date('2026-11-22T00:00:00Z');
const nightly: Pick<LampSchedule, 'rules' | 'place'> = {
  rules: { mode: StrategyMode.Week, modeData: { weekdays: [] }, periods: [{ start: '18:30', end: '06:00', level: 80 }] },
  place: EQUATOR_UTC,
};
const lamp = (on: boolean, schedule: Pick<LampSchedule, 'rules' | 'place'> | null = null) => ({
  online: true,
  on,
  busy: false,
  place: EQUATOR_UTC,
  schedule,
});

describe('light conditions', () => {
  it('the sun is up at noon and down at midnight on the equator', () => {
    expect(sunIsUp(EQUATOR_UTC, NOON)).toBe(true);
    expect(sunIsUp(EQUATOR_UTC, MIDNIGHT)).toBe(false);
    // Polar night at the North Pole in November, midnight sun at the South Pole.
    expect(sunIsUp({ latitude: 89.9, longitude: 0, timeZone: 'UTC' }, NOON)).toBe(false);
    expect(sunIsUp({ latitude: -89.9, longitude: 0, timeZone: 'UTC' }, MIDNIGHT)).toBe(true);
  });

  it('a lamp lit at noon is day-burning, unless its schedule lights it', () => {
    expect(lightConditions(lamp(true), NOON, 60_000)).toEqual(new Set([AlarmKind.DayBurning]));
    expect(lightConditions(lamp(false), NOON, 60_000)).toEqual(new Set());
    const litAtNoon = { ...nightly, rules: { ...nightly.rules, periods: [{ start: '12:00', end: '13:00', level: 40 as const }] } };
    expect(lightConditions(lamp(true, litAtNoon as typeof nightly), new Date('2026-11-21T12:30:00Z'), 60_000)).toEqual(new Set());
  });

  it('a lamp dark while its schedule says lit is a dark lamp, after the grace time', () => {
    expect(lightConditions(lamp(false, nightly), MIDNIGHT, 60_000)).toEqual(new Set([AlarmKind.DarkLamp]));
    expect(lightConditions(lamp(true, nightly), MIDNIGHT, 60_000)).toEqual(new Set());
    // 18:31, one minute into the period: with two minutes' grace the lamp has not had time yet.
    expect(lightConditions(lamp(false, nightly), new Date('2026-11-21T18:31:00Z'), 120_000)).toEqual(new Set());
    expect(lightConditions({ ...lamp(false, nightly), online: false }, MIDNIGHT, 0)).toBeNull();
    expect(lightConditions({ ...lamp(false, nightly), busy: true }, MIDNIGHT, 0)).toBeNull();
  });
});

describe('fault transitions', () => {
  const at = NOON.toISOString();
  it('raises a code that becomes active and clears one that stops, ignoring repeats', () => {
    const fault = (code: FaultCode, active: boolean): LampEvent => ({ kind: 'report', channel: 'event', report: { ts: at, code, active }, at });
    const events: LampEvent[] = [
      fault(FaultCode.VoltageLow, true),
      fault(FaultCode.VoltageLow, true),
      fault(FaultCode.TemperatureHigh, false),
      { kind: 'report', channel: 'telemetry', report: { ts: at, voltage: 180, current: 0.5, power: 90, powerFactor: 0.9, signal: -70 }, at },
      fault(FaultCode.NotGrounded, false),
    ];
    expect(faultTransitions(7, [FaultCode.TemperatureHigh], events)).toEqual([
      { deviceId: 7, family: DeviceFamily.Lamp, kind: AlarmKind.Fault, code: FaultCode.VoltageLow, raise: true, at },
      { deviceId: 7, family: DeviceFamily.Lamp, kind: AlarmKind.Fault, code: FaultCode.TemperatureHigh, raise: false, at },
    ]);
  });
});
