import type { PoolClient } from 'pg';
import { DeviceFamily, type SignagePlayEvent } from '@sc/contracts';
import type { ChangeObserver, DeviceEvent, RowChange } from '@sc/device-runtime';

/** One run of an ad a player reported, as stored. */
export interface PlayRow {
  deviceId: number;
  planId: string;
  adId: number;
  startedAt: string;
  seconds: number;
}

/** The runs a write's events report, each once (a player's event sent again in the same write counts once). */
export function playsOf(events: ReadonlyMap<number, readonly DeviceEvent[]>): PlayRow[] {
  const plays = new Map<string, PlayRow>();
  for (const [deviceId, list] of events) {
    for (const event of list) {
      if (event.kind !== 'report' || event.channel !== 'event') continue;
      const play = event.report as SignagePlayEvent;
      const startedAt = new Date(play.ts).toISOString();
      plays.set(`${deviceId}/${startedAt}/${play.adId}`, { deviceId, planId: play.planId, adId: play.adId, startedAt, seconds: play.seconds });
    }
  }
  return [...plays.values()];
}

/**
 * Proof of play (signage_play), written in the intake's transaction: every run of an ad a player reports, once (a
 * redelivered report finds its row and adds nothing).
 */
export class PlayRecorder implements ChangeObserver<DeviceFamily.Signage> {
  readonly family = DeviceFamily.Signage;

  async observe(
    client: PoolClient,
    _changes: readonly RowChange<DeviceFamily.Signage>[],
    events: ReadonlyMap<number, readonly DeviceEvent[]>,
  ): Promise<void> {
    const plays = playsOf(events);
    if (plays.length === 0) return;
    await client.query(
      `INSERT INTO signage_play (device_id, plan_id, ad_id, started_at, seconds)
       SELECT * FROM unnest($1::int[], $2::varchar[], $3::int[], $4::timestamptz[], $5::int[])
       ON CONFLICT (device_id, started_at, ad_id) DO NOTHING`,
      [
        plays.map((p) => p.deviceId),
        plays.map((p) => p.planId),
        plays.map((p) => p.adId),
        plays.map((p) => p.startedAt),
        plays.map((p) => p.seconds),
      ],
    );
  }
}
