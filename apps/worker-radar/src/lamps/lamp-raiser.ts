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
  /** Its own sensing schedule names the radar: it rises by itself. */
  byItself: boolean;
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
  async raise(
    client: PoolClient,
    radarCode: string,
    targets: readonly LampTarget[],
    at: number,
  ): Promise<{ lamps: RaisedLamp[]; dispatchIds: string[] }> {
    if (targets.length === 0) return { lamps: [], dispatchIds: [] };
    const { rows: now } = await client.query<LampNow>(
      `SELECT d.id, d.code, CASE WHEN l.switch_state = 1 THEN l.bri ELSE 0 END AS current,
              coalesce(l.mode = 3 AND l.mode_data->'radarCodes' ? $2, false) AS "byItself"
         FROM device d JOIN lamp l ON l.device_id = d.id WHERE d.id = ANY($1::int[])`,
      [targets.map((t) => t.lampId), radarCode],
    );
    const lampOf = new Map(now.map((l) => [l.id, l]));
    const rows = targets.flatMap((t) => {
      const lamp = lampOf.get(t.lampId);
      return lamp ? [{ target: t, lamp, until: new Date(at + (t.after + t.closeInterval) * 1000) }] : [];
    });
    if (rows.length === 0) return { lamps: [], dispatchIds: [] };
    const { rows: raised } = await client.query<{ id: number; level: number; old: number | null }>(
      `WITH input AS (
         SELECT * FROM unnest($1::int[], $2::smallint[], $3::smallint[], $4::timestamptz[], $5::boolean[]) AS t(lamp_id, level, current, until, by_itself)
       ), old AS (
         SELECT r.lamp_id, r.level FROM radar_lamp_raise r JOIN input USING (lamp_id) FOR UPDATE OF r
       ), up AS (
         INSERT INTO radar_lamp_raise AS r (lamp_id, level, restore_level, until, by_itself)
         SELECT lamp_id, level, current, until, by_itself FROM input WHERE level > current OR lamp_id IN (SELECT lamp_id FROM old)
         ON CONFLICT (lamp_id) DO UPDATE SET level = greatest(r.level, excluded.level), until = greatest(r.until, excluded.until),
                                             by_itself = r.by_itself AND excluded.by_itself
         RETURNING r.lamp_id, r.level
       )
       SELECT up.lamp_id AS id, up.level, old.level AS old FROM up LEFT JOIN old USING (lamp_id)`,
      [
        rows.map((r) => r.lamp.id),
        rows.map((r) => r.target.level),
        rows.map((r) => r.lamp.current),
        rows.map((r) => r.until.toISOString()),
        rows.map((r) => r.lamp.byItself),
      ],
    );
    const raisedOf = new Map(raised.map((r) => [r.id, r]));
    // A lamp rises when it was not raised, or was raised lower; a lamp that rises by itself is sent nothing.
    const rising = rows.filter(({ lamp }) => {
      const r = raisedOf.get(lamp.id);
      return r !== undefined && (r.old === null || r.level > r.old) && !lamp.byItself;
    });
    const ttl = Math.max(...rows.map((r) => r.target.closeInterval));
    const dispatchIds = await dim(client, group(rising.map(({ lamp }) => [raisedOf.get(lamp.id)!.level, lamp.id])), ttl);
    const lamps = rows
      .filter(({ lamp }) => raisedOf.has(lamp.id))
      .map(({ lamp, target, until }) => ({
        id: lamp.id,
        code: lamp.code,
        level: raisedOf.get(lamp.id)!.level as DimmingLevel,
        byItself: lamp.byItself,
        after: target.after,
        until: until.toISOString(),
      }));
    return { lamps, dispatchIds };
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
