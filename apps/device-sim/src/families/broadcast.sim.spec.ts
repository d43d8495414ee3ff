import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { TERMINAL_STATE_SCHEMA, TerminalOccupancy, type TerminalStateMessage } from '@sc/contracts';
import type { FamilyContext } from '../kit';
import { broadcastFamily } from './broadcast.sim';

const later = '2099-01-01T00:00:00.000Z';
const validState = addFormats(new Ajv({ strict: false }), ['date-time']).compile(TERMINAL_STATE_SCHEMA);

describe('simulated broadcast terminal', () => {
  let now = Date.parse('2026-11-21T08:00:00Z');
  const context: FamilyContext = { random: () => 0.5, clock: () => now };
  const family = broadcastFamily();
  const report = (terminal: ReturnType<typeof family.initial>) => family.report(terminal, { code: 'BC-1', gatewayId: '' }) as TerminalStateMessage;

  it('starts idle, takes volumes, and reports what the contract declares', () => {
    const terminal = family.initial({ code: 'BC-1' }, context);
    expect(report(terminal)).toMatchObject({ online: true, occupancy: TerminalOccupancy.Idle, playing: null });
    family.apply(terminal, { id: 'a', type: 'volume', params: { broadcastVolume: 80 }, expiresAt: later }, context);
    expect(report(terminal)).toMatchObject({ broadcastVolume: 80, interphoneVolume: 50 });
    expect(validState(report(terminal))).toBe(true);
  });

  it('is occupied while it plays, pauses without losing its time, and is idle when the programme ends', () => {
    const terminal = family.initial({ code: 'BC-1' }, context);
    family.apply(
      terminal,
      { id: 'p', type: 'play', params: { title: 'Evening notice', taskId: 'T-7', durationSeconds: 30 }, expiresAt: later },
      context,
    );
    expect(report(terminal)).toMatchObject({
      occupancy: TerminalOccupancy.Task,
      playing: { title: 'Evening notice', taskId: 'T-7', since: new Date(now).toISOString(), paused: false },
    });
    expect(validState(report(terminal))).toBe(true);
    now += 10_000;
    family.apply(terminal, { id: 'q', type: 'pause', params: {}, expiresAt: later }, context);
    now += 60_000;
    expect(family.tick!(terminal, context)).toBe(false);
    expect(report(terminal).playing).toMatchObject({ paused: true });
    family.apply(terminal, { id: 'r', type: 'resume', params: {}, expiresAt: later }, context);
    now += 19_000;
    expect(family.tick!(terminal, context)).toBe(false);
    now += 1_000;
    expect(family.tick!(terminal, context)).toBe(true);
    expect(report(terminal)).toMatchObject({ occupancy: TerminalOccupancy.Idle, playing: null });
  });

  it('stops what it plays at once, and plays until stopped without a duration', () => {
    const terminal = family.initial({ code: 'BC-1' }, context);
    family.apply(terminal, { id: 'p', type: 'play', params: { title: 'Music' }, expiresAt: later }, context);
    now += 3_600_000;
    expect(family.tick!(terminal, context)).toBe(false);
    family.apply(terminal, { id: 's', type: 'stop', params: {}, expiresAt: later }, context);
    expect(report(terminal)).toMatchObject({ occupancy: TerminalOccupancy.Idle, playing: null });
  });

  it('starts programmes and calls by itself in a demo, and none in a test', () => {
    const busy = broadcastFamily(1);
    const terminal = busy.initial({ code: 'BC-2' }, { random: () => 0, clock: () => now });
    expect(terminal.occupancy).not.toBe(TerminalOccupancy.Idle);
    expect(validState(busy.report(terminal, { code: 'BC-2', gatewayId: '' }))).toBe(true);
    const quiet = family.initial({ code: 'BC-3' }, { random: () => 0, clock: () => now });
    expect(family.tick!(quiet, { random: () => 0, clock: () => now })).toBe(false);
  });
});
