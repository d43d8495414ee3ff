import type { DeviceEvent } from '@sc/device-runtime';
import { playsOf } from './play-recorder';

const play = (ts: string, adId: number, seconds = 30): DeviceEvent =>
  ({ kind: 'report', channel: 'event', report: { ts, planId: 'p-1', adId, seconds }, at: ts }) as DeviceEvent;

describe('proof of play from the players’ events', () => {
  it('takes each run once, by player, start and ad, and nothing from other reports', () => {
    const events = new Map<number, DeviceEvent[]>([
      [
        1,
        [
          play('2026-12-07T02:00:00Z', 11),
          // Sent again (a redelivery): the same run.
          play('2026-12-07T02:00:00.000Z', 11),
          play('2026-12-07T02:00:30Z', 12, 20),
          { kind: 'report', channel: 'state', report: { online: true }, at: '2026-12-07T02:00:31Z' } as DeviceEvent,
          { kind: 'offline', at: '2026-12-07T02:01:00Z' } as DeviceEvent,
        ],
      ],
      [2, [play('2026-12-07T02:00:00Z', 11)]],
    ]);
    expect(playsOf(events)).toEqual([
      { deviceId: 1, planId: 'p-1', adId: 11, startedAt: '2026-12-07T02:00:00.000Z', seconds: 30 },
      { deviceId: 1, planId: 'p-1', adId: 12, startedAt: '2026-12-07T02:00:30.000Z', seconds: 20 },
      { deviceId: 2, planId: 'p-1', adId: 11, startedAt: '2026-12-07T02:00:00.000Z', seconds: 30 },
    ]);
  });
});
