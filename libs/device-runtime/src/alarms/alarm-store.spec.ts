import { AlarmKind, DeviceFamily } from '@sc/contracts';
import { alarmRounds, type AlarmTransition } from './alarm-store';

const AT = '2026-11-29T10:00:00.000Z';
const t = (deviceId: number, raise: boolean, more: Partial<AlarmTransition> = {}): AlarmTransition => ({
  deviceId,
  family: DeviceFamily.Lamp,
  kind: AlarmKind.Offline,
  code: 0,
  raise,
  at: AT,
  ...more,
});
const shape = (rounds: AlarmTransition[][]) =>
  rounds.map((round) => round.map((x) => `${x.ownRecord ? 'r' : 'd'}${x.deviceId}${x.raise ? '+' : '-'}`));

describe('alarm rounds', () => {
  it('writes a whole fleet in one round, each alarm once a round and in its order', () => {
    const fleet = Array.from({ length: 1000 }, (_, i) => t(i + 1, true));
    expect(alarmRounds(fleet)).toHaveLength(1);
    // A device that dropped off and came back within one batch: raised, then cleared, in that order.
    expect(shape(alarmRounds([t(1, true), t(2, true), t(1, false), t(1, true)]))).toEqual([['d1+', 'd2+'], ['d1-'], ['d1+']]);
  });

  it('tells apart alarms of one device by condition and code, and a record from a registry device with its id', () => {
    const rounds = alarmRounds([
      t(1, true),
      t(1, true, { kind: AlarmKind.Fault, code: 3 }),
      t(1, true, { kind: AlarmKind.Fault, code: 4 }),
      t(1, true, { family: DeviceFamily.Signage, ownRecord: true }),
    ]);
    expect(rounds).toHaveLength(1);
    expect(shape(rounds)).toEqual([['d1+', 'd1+', 'd1+', 'r1+']]);
  });
});
