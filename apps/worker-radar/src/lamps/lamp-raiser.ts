import type { PoolClient } from 'pg';
import { LAMP_FAMILY, type DimmingLevel, type RadarLampMove, type RaisedLamp } from '@sc/contracts';
import { commandLedger } from '@sc/device-runtime';
import type { LampTarget } from './radar-lamp-rules';

/** Who the ledger names as the sender of the raises and returns. */
export const RADAR_SENDER = 'radar strategy';

/** How long a lamp has to take its return (it is re-sent until then). */
const RETURN_TTL_SECONDS = 5 * 60;

/** Lamps returned, and delayed rises raised, per pass. */
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
  radarId: number;
  radarCode: string;
  targets: readonly LampTarget[];
  /** When the hold counts from (ms since the epoch; the batch's `at` unless given): a delayed rise, from when it was due. */
  at?: number;
}

/** One detection's lamps that rise after its event's open interval (their targets' `after` > 0). */
export interface HoldRequest extends RaiseRequest {
  /** ISO 8601: the detection's `at`, as RadarDetected announces it. */
  detectedAt: string;
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
 * `radar_lamp_raise` holds each raised lamp with the level it had before, when it returns and the radar of the
 * detection that holds it longest; `radar_lamp_pending` the rises that wait for their open interval. A detection
 * raises a lamp not yet raised (or raised lower) and moves its return later; a lamp already at or above the level is
 * left as it is. A lamp whose own sensing schedule names the radar rises by itself on the radar's event (the device
 * contract lets it hear the radar): it is recorded but sent nothing, so the platform adds no round trip to what the
 * lamp does alone.
 */
export const lampRaiser = {
  /**
   * Raises the lamps of a batch of detections at once (one read, one write and one dispatch per level for the whole
   * batch, however many detections it holds), `at` the time they were stored (unless a request gives its own);
   * answers each detection's lamps.
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
    // The radar named is the one whose detection holds the lamp longest.
    const merged = new Map<number, { level: number; until: number; byItself: boolean; current: number; radarId: number }>();
    for (const request of requests) {
      for (const t of request.targets) {
        const lamp = lampOf.get(t.lampId);
        if (!lamp) continue;
        const until = (request.at ?? at) + (t.after + t.closeInterval) * 1000;
        const byItself = lamp.hears.includes(request.radarCode);
        const held = merged.get(lamp.id);
        merged.set(
          lamp.id,
          held
            ? {
                level: Math.max(held.level, t.level),
                until: Math.max(held.until, until),
                byItself: held.byItself && byItself,
                current: lamp.current,
                radarId: until >= held.until ? request.radarId : held.radarId,
              }
            : { level: t.level, until, byItself, current: lamp.current, radarId: request.radarId },
        );
      }
    }
    const ids = [...merged.keys()];
    const { rows: raised } = await client.query<{ id: number; level: number; old: number | null; until: Date }>(
      `WITH input AS (
         SELECT * FROM unnest($1::int[], $2::smallint[], $3::smallint[], $4::timestamptz[], $5::boolean[], $6::int[])
                  AS t(lamp_id, level, current, until, by_itself, radar_id)
       ), old AS (
         SELECT r.lamp_id, r.level FROM radar_lamp_raise r JOIN input USING (lamp_id) FOR UPDATE OF r
       ), up AS (
         INSERT INTO radar_lamp_raise AS r (lamp_id, level, restore_level, until, by_itself, radar_id)
         SELECT lamp_id, level, current, until, by_itself, radar_id FROM input WHERE level > current OR lamp_id IN (SELECT lamp_id FROM old)
         ON CONFLICT (lamp_id) DO UPDATE SET level = greatest(r.level, excluded.level), until = greatest(r.until, excluded.until),
                                             by_itself = r.by_itself AND excluded.by_itself,
                                             radar_id = CASE WHEN excluded.until >= r.until THEN excluded.radar_id ELSE r.radar_id END
         RETURNING r.lamp_id, r.level, r.until
       )
       SELECT up.lamp_id AS id, up.level, old.level AS old, up.until FROM up LEFT JOIN old USING (lamp_id)`,
      [
        ids,
        ids.map((id) => merged.get(id)!.level),
        ids.map((id) => merged.get(id)!.current),
        ids.map((id) => new Date(merged.get(id)!.until).toISOString()),
        ids.map((id) => merged.get(id)!.byItself),
        ids.map((id) => merged.get(id)!.radarId),
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

  /**
   * Keeps the lamps of a batch of detections that rise after their event's open interval in `radar_lamp_pending`, in
   * the caller's transaction (the one that stores the detections), due `after` seconds from `at`; `raiseDue` raises
   * them. Answers each detection's lamps as RadarDetected announces them (lamps no longer in the registry are left out).
   */
  async hold(client: PoolClient, requests: readonly HoldRequest[], at: number): Promise<RaisedLamp[][]> {
    const rows = requests.flatMap((r, i) => r.targets.map((t) => ({ i, r, t })));
    if (rows.length === 0) return requests.map(() => []);
    const { rows: held } = await client.query<{ i: number; id: number; code: string; level: number; after: number; until: Date; byItself: boolean }>(
      `WITH input AS (
         SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::smallint[], $6::int[], $7::int[], $8::timestamptz[]) WITH ORDINALITY
                  AS t(i, lamp_id, radar_id, radar_code, level, after, close_interval, detected_at, n)
       ), pending AS (
         INSERT INTO radar_lamp_pending (lamp_id, radar_id, radar_code, level, close_interval, detected_at, due_at)
         SELECT t.lamp_id, t.radar_id, t.radar_code, t.level, t.close_interval, t.detected_at, $9::timestamptz + t.after * interval '1 second'
           FROM input t JOIN lamp l ON l.device_id = t.lamp_id
       )
       SELECT t.i, d.id, d.code, t.level, t.after, $9::timestamptz + (t.after + t.close_interval) * interval '1 second' AS until,
              CASE WHEN l.mode = 3 AND jsonb_typeof(l.mode_data->'radarCodes') = 'array'
                   THEN (l.mode_data->'radarCodes') ? t.radar_code ELSE false END AS "byItself"
         FROM input t JOIN device d ON d.id = t.lamp_id JOIN lamp l ON l.device_id = d.id
        ORDER BY t.n`,
      [
        rows.map((x) => x.i),
        rows.map((x) => x.t.lampId),
        rows.map((x) => x.r.radarId),
        rows.map((x) => x.r.radarCode),
        rows.map((x) => x.t.level),
        rows.map((x) => x.t.after),
        rows.map((x) => x.t.closeInterval),
        rows.map((x) => x.r.detectedAt),
        new Date(at).toISOString(),
      ],
    );
    const lamps = requests.map((): RaisedLamp[] => []);
    for (const h of held) {
      lamps[h.i].push({
        id: h.id,
        code: h.code,
        level: h.level as DimmingLevel,
        byItself: h.byItself,
        after: h.after,
        until: new Date(h.until).toISOString(),
      });
    }
    return lamps;
  },

  /**
   * Raises the delayed rises whose open interval has passed (`FOR UPDATE SKIP LOCKED`: replicas share them, none
   * raises one twice), each held for its close interval from when it was due; a rise whose hold would already have
   * ended (every worker was stopped meanwhile) is dropped. Answers each lamp taken: raised (with its return time), or
   * left as it was (already at or above the level: `until` null).
   */
  async raiseDue(client: PoolClient): Promise<RadarLampMove[]> {
    const { rows } = await client.query<{
      lampId: number;
      code: string;
      radarId: number;
      radarCode: string;
      level: number;
      closeInterval: number;
      detectedAt: Date;
      dueAt: Date;
    }>(
      `WITH due AS (
         SELECT id FROM radar_lamp_pending WHERE due_at <= now() ORDER BY due_at LIMIT ${RETURN_BATCH} FOR UPDATE SKIP LOCKED
       ), taken AS (
         DELETE FROM radar_lamp_pending p USING due WHERE p.id = due.id
         RETURNING p.lamp_id, p.radar_id, p.radar_code, p.level, p.close_interval, p.detected_at, p.due_at
       )
       SELECT t.lamp_id AS "lampId", d.code, t.radar_id AS "radarId", t.radar_code AS "radarCode", t.level,
              t.close_interval AS "closeInterval", t.detected_at AS "detectedAt", t.due_at AS "dueAt"
         FROM taken t JOIN device d ON d.id = t.lamp_id
        WHERE t.due_at + t.close_interval * interval '1 second' > now()
        ORDER BY t.due_at, t.lamp_id`,
    );
    if (rows.length === 0) return [];
    // One request per detection (its radar, when it was stored and when its rise was due).
    const byDetection = new Map<string, typeof rows>();
    for (const row of rows) {
      const key = `${row.radarId} ${new Date(row.detectedAt).getTime()} ${new Date(row.dueAt).getTime()}`;
      byDetection.set(key, [...(byDetection.get(key) ?? []), row]);
    }
    const detections = [...byDetection.values()];
    const results = await lampRaiser.raise(
      client,
      detections.map((taken) => ({
        radarId: taken[0].radarId,
        radarCode: taken[0].radarCode,
        at: new Date(taken[0].dueAt).getTime(),
        targets: taken.map((t) => ({ lampId: t.lampId, level: t.level, after: 0, closeInterval: t.closeInterval })),
      })),
      Date.now(),
    );
    return detections.flatMap((taken, i) =>
      taken.map((t): RadarLampMove => {
        const raised = results[i].lamps.find((l) => l.id === t.lampId);
        return {
          id: t.lampId,
          code: raised?.code ?? t.code,
          level: raised?.level ?? t.level,
          byItself: raised?.byItself ?? false,
          radarId: t.radarId,
          radarCode: t.radarCode,
          detectedAt: new Date(t.detectedAt).toISOString(),
          until: raised?.until ?? null,
        };
      }),
    );
  },

  /** Returns the lamps whose hold has ended to the level they had before; answers each lamp returned. */
  async returnDue(client: PoolClient): Promise<RadarLampMove[]> {
    const { rows } = await client.query<Omit<RadarLampMove, 'detectedAt' | 'until'>>(
      `WITH due AS (
         SELECT lamp_id FROM radar_lamp_raise WHERE until <= now() ORDER BY until LIMIT ${RETURN_BATCH} FOR UPDATE SKIP LOCKED
       ), gone AS (
         DELETE FROM radar_lamp_raise r USING due WHERE r.lamp_id = due.lamp_id
         RETURNING r.lamp_id, r.restore_level, r.by_itself, r.radar_id
       )
       SELECT g.lamp_id AS id, d.code, g.restore_level AS level, g.by_itself AS "byItself", g.radar_id AS "radarId", rd.code AS "radarCode"
         FROM gone g JOIN device d ON d.id = g.lamp_id LEFT JOIN device rd ON rd.id = g.radar_id
        ORDER BY g.lamp_id`,
    );
    await dim(client, group(rows.filter((r) => !r.byItself).map((r) => [r.level, r.id])), RETURN_TTL_SECONDS);
    return rows.map((r) => ({ ...r, detectedAt: null, until: null }));
  },
};
