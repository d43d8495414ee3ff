import { AlarmLevel, type CommandMessage } from '@sc/contracts';
import type { DeviceContext } from '../kit';
import { alarmFamily, drawLevel, type AlarmColumnState } from './alarm.sim';

describe('simulated alarm columns', () => {
  const at = Date.parse('2026-11-28T09:00:00Z');
  const ctx = { random: () => 0.5, clock: () => at };

  it('presses at the fleet’s activity, mostly at the first level, and hands each press over once', () => {
    const family = alarmFamily();
    const column = family.initial({ code: 'ALARM-0001' }, ctx);
    expect(family.act!(column, ctx)).toBe(false);
    expect(family.takeEvents!(column)).toEqual([{ ts: new Date(at).toISOString(), kind: 'press', level: AlarmLevel.One }]);
    expect(family.takeEvents!(column)).toEqual([]);
    expect([0.1, 0.8, 0.99].map((r) => drawLevel(() => r))).toEqual([AlarmLevel.One, AlarmLevel.Two, AlarmLevel.Three]);
  });

  it('takes a volume at once and restarts on a reboot; its state says its address and volume', () => {
    const family = alarmFamily();
    const column = family.initial({ code: 'ALARM-0001' }, ctx);
    const restarts: number[] = [];
    const device = {
      ...ctx,
      after: () => undefined,
      report: () => undefined,
      restart: (ms: number) => restarts.push(ms),
    } as DeviceContext<AlarmColumnState>;
    family.apply(column, { id: 'c1', type: 'volume', params: { volume: 25 } } as CommandMessage<'volume', { volume: number }>, device);
    family.apply(column, { id: 'c2', type: 'reboot', params: {} } as CommandMessage<'reboot', Record<string, never>>, device);
    expect(restarts).toHaveLength(1);
    expect(family.report(column, { code: 'ALARM-0001', gatewayId: '' })).toMatchObject({
      online: true,
      volume: 25,
      ipAddress: expect.stringMatching(/^10\.40\.\d+\.\d+$/),
    });
  });
});
