import type { PoolClient } from 'pg';
import { LAMP_FAMILY, type DimmingLevel, type RaisedLamp } from '@sc/contracts';
import { commandLedger } from '@sc/device-runtime';
import type { LampTarget } from './radar-lamp-rules';

/** Who the ledger names as the sender of the raises and returns. */
export const RADAR_SENDER = 'radar strategy';

/** How long a lamp has to take its return (it is re-sent until then). */
const RETURN_TTL_SECONDS = 5 * 60;

/** Lamps returned per pass. */
const RETURN_BATCH = 5000;

interface LampNow {
  id: number;
  code: string;
  /** Its level now (0 when switched off). */
  current: number;
  /** The radars its own sensing schedule hears (it rises by itself on their events). */
  hears: string[];
}

/** One detection's lamps to raise: its radar and what its strategies ask of each lamp. */
export interface RaiseRequest {
  radarCode: string;
  targets: readonly LampTarget[];
}

/** What one detection raised, and the dispatch of its lamps' commands (null: none needed). */
export interface RaiseResult {
  lamps: RaisedLamp[];
  dispatchId: string | null;
}

/** Sends one dim command per level to these lamps through the ledger; answers the dispatch ids. */
async function dim(client: PoolClient, byLevel: Map<number, number[]>, ttlSeconds: number): Promise<string[]> {
  const ids: string[] = [];
  for (const [level, deviceIds] of byLevel) {
    ids.push(
      await commandLedger.create(client, {
        family: LAMP_FAMILY,
        action: 'dim',
        params: { level },
        createdBy: RADAR_SENDER,
        deviceIds,
        ttlSeconds,
      }),
    );
  }
  return ids;
}

const group = (entries: Iterable<[number, number]>) => {
  const byLevel = new Map<number, number[]>();
  for (const [level, id] of entries) byLevel.set(level, [...(byLevel.get(level) ?? []), id]);
  return byLevel;
};

/**
 * Raises and returns lamps for radar detections, in the caller's transaction, every command through the command
 * ledger (the lighting worker sends them; the dispatch panel and the ledger show each one).
 *
 * `radar_lamp_raise` holds each raised lamp with the level it had before and when it returns. A detection raises a
 * lamp not yet raised (or raised lower) and moves its return later; a lamp already at or above the level is left as
 * it is. A lamp whose own sensing schedule names the radar rises by itself on the radar's event (the device contract
 * lets it hear the radar): it is recorded but sent nothing, so the platform adds no round trip to what the lamp does
 * alone.
 */
export const lampRaiser = {
  /**
   * Raises the lamps of a batch of detections at once (one read, one write and one dispatch per level for the whole
   * batch, however many detections it holds), `at` the time they were stored; answers each detection's lamps.
   */
  async raise(client: PoolClient, requests: readonly RaiseRequest[], at: number): Promise<RaiseResult[]> {
    const wanted = [...new Set(requests.flatMap((r) => r.targets.map((t) => t.lampId)))];
    if (wanted.length === 0) return requests.map(() => ({ lamps: [], dispatchId: null }));
    const { rows: now } = await client.query<LampNow>(
      `SELECT d.id, d.code, CASE WHEN l.switch_state = 1 THEN l.bri ELSE 0 END AS current,
              CASE WHEN l.mode = 3 AND jsonb_typeof(l.mode_data->'radarCodes') = 'array'
                   THEN ARRAY(SELECT jsonb_array_elements_text(l.mode_data->'radarCodes')) ELSE '{}' END AS hears
         FROM device d JOIN lamp l ON l.device_id = d.id WHERE d.id = ANY($1::int[])`,
      [wanted],
    );
    const lampOf = new Map(now.map((l) => [l.id, l]));
    // Each lamp once: the highest level and the latest return any detection of the batch asks, and whether every one
    // of them is a radar the lamp hears itself (else the platform sends it the command).
    const merged = new Map<number, { level: number; until: number; byItself: boolean; current: number }>();
    for (const { radarCode, targets } of requests) {
      for (const t of targets) {
        const lamp = lampOf.get(t.lampId);
        if (!lamp) continue;
        const until = at + (t.after + t.closeInterval) * 1000;
        const byItself = lamp.hears.includes(radarCode);
        const held = merged.get(lamp.id);
        merged.set(
          lamp.id,
          held
            ? { level: Math.max(held.level, t.level), until: Math.max(held.until, until), byItself: held.byItself && byItself, current: lamp.current }
            : { level: t.level, until, byItself, current: lamp.current },
        );
      }
    }
    const ids = [...merged.keys()];
    const { rows: raised } = await client.query<{ id: number; level: number; old: number | null; until: Date }>(
      `WITH input AS (
         SELECT * FROM unnest($1::int[], $2::smallint[], $3::smallint[], $4::timestamptz[], $5::boolean[]) AS t(lamp_id, level, current, until, by_itself)
       ), old AS (
         SELECT r.lamp_id, r.level FROM radar_lamp_raise r JOIN input USING (lamp_id) FOR UPDATE OF r
       ), up AS (
         INSERT INTO radar_lamp_raise AS r (lamp_id, level, restore_level, until, by_itself)
         SELECT lamp_id, level, current, until, by_itself FROM input WHERE level > current OR lamp_id IN (SELECT lamp_id FROM old)
         ON CONFLICT (lamp_id) DO UPDATE SET level = greatest(r.level, excluded.level), until = greatest(r.until, excluded.until),
                                             by_itself = r.by_itself AND excluded.by_itself
         RETURNING r.lamp_id, r.level, r.until
       )
       SELECT up.lamp_id AS id, up.level, old.level AS old, up.until FROM up LEFT JOIN old USING (lamp_id)`,
      [
        ids,
        ids.map((id) => merged.get(id)!.level),
        ids.map((id) => merged.get(id)!.current),
        ids.map((id) => new Date(merged.get(id)!.until).toISOString()),
        ids.map((id) => merged.get(id)!.byItself),
      ],
    );
    const raisedOf = new Map(raised.map((r) => [r.id, r]));
    // A lamp rises when it was not raised, or was raised lower; a lamp that rises by itself is sent nothing.
    const rising = raised.filter((r) => (r.old === null || r.level > r.old) && !merged.get(r.id)!.byItself);
    const ttl = Math.max(...requests.flatMap((r) => r.targets.map((t) => t.closeInterval)));
    const byLevel = group(rising.map((r): [number, number] => [r.level, r.id]));
    const dispatchIds = await dim(client, byLevel, ttl);
    const dispatchOf = new Map<number, string>();
    [...byLevel.values()].forEach((lampIds, i) => lampIds.forEach((id) => dispatchOf.set(id, dispatchIds[i])));
    return requests.map(({ radarCode, targets }) => {
      const lamps = targets.flatMap((t): RaisedLamp[] => {
        const lamp = lampOf.get(t.lampId);
        const r = raisedOf.get(t.lampId);
        if (!lamp || !r) return [];
        return [
          {
            id: lamp.id,
            code: lamp.code,
            level: r.level as DimmingLevel,
            byItself: lamp.hears.includes(radarCode),
            after: t.after,
            until: new Date(r.until).toISOString(),
          },
        ];
      });
      return { lamps, dispatchId: lamps.map((l) => dispatchOf.get(l.id)).find((id) => id !== undefined) ?? null };
    });
  },

  /** Returns the lamps whose hold has ended to the level they had before; answers how many. */
  async returnDue(client: PoolClient): Promise<number> {
    const { rows } = await client.query<{ id: number; level: number; byItself: boolean }>(
      `WITH due AS (SELECT lamp_id FROM radar_lamp_raise WHERE until <= now() ORDER BY until LIMIT ${RETURN_BATCH} FOR UPDATE SKIP LOCKED)
       DELETE FROM radar_lamp_raise r USING due WHERE r.lamp_id = due.lamp_id
       RETURNING r.lamp_id AS id, r.restore_level AS level, r.by_itself AS "byItself"`,
    );
    await dim(client, group(rows.filter((r) => !r.byItself).map((r) => [r.level, r.id])), RETURN_TTL_SECONDS);
    return rows.length;
  },
};
