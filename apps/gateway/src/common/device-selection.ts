import type { EntityManager } from 'typeorm';
import { AppException } from './app-exception';
import { shownList } from './shown-list';

/** The ids of the regions `ids` (SQL of an int[]) names and of every region below them. */
export const regionsAndBelow = (ids: string) => `WITH RECURSIVE below AS (
    SELECT id FROM region WHERE id = ANY(${ids}) UNION SELECT child.id FROM region child JOIN below ON child.parent_id = below.id
  ) SELECT id FROM below`;

/** The ids of a region (the `?`) and of every region below it. */
export const REGION_AND_BELOW = regionsAndBelow('ARRAY[?]::int[]');

/** An error names at most this many unknown ids; the rest are counted. */
const UNKNOWN_IDS_SHOWN = 10;

export function assertRegionExists(tx: EntityManager, regionId: number): Promise<void> {
  return assertRegionsExist(tx, [regionId], 'regionId');
}

/** Refuses, under `field` ('The selected region does not exist'), regions of which one is not. */
export async function assertRegionsExist(tx: EntityManager, regionIds: readonly number[], field: string): Promise<void> {
  const wanted = [...new Set(regionIds)];
  const rows: unknown[] = await tx.query(`SELECT id FROM region WHERE id = ANY($1::int[])`, [wanted]);
  if (rows.length < wanted.length) throw AppException.field(field, 'regionNotFound');
}

/**
 * A family's table: a registry family's (a table name, or a declaration naming a device type), whose rows are keyed by
 * `device_id`, or the table of a family with records of their own (a declaration without a device type), keyed by `id`.
 */
export type FamilyTable = string | { table: string; deviceType: unknown };

/** Where a family's devices are selected from, their id and region columns, and the row a selection locks. */
function selectionOf(family: FamilyTable): { from: string; id: string; lock: string; regionColumn: string } {
  if (typeof family !== 'string' && family.deviceType === null) {
    return { from: `${family.table} f`, id: 'f.id', lock: 'OF f', regionColumn: 'f.region_id' };
  }
  const table = typeof family === 'string' ? family : family.table;
  return { from: `device d JOIN ${table} f ON f.device_id = d.id`, id: 'd.id', lock: 'OF d', regionColumn: 'd.region_id' };
}

/**
 * The given devices of one family, locked against deletion until the caller's transaction ends (in id order, so
 * concurrent callers cannot deadlock); every id must be one of them, else `unknown` gets the ids that are not.
 */
export async function devicesByIds(
  tx: EntityManager,
  family: FamilyTable,
  ids: readonly number[],
  unknown: (shown: string) => AppException,
): Promise<number[]> {
  const wanted = [...new Set(ids)].sort((a, b) => a - b);
  const { from, id, lock } = selectionOf(family);
  const rows: { id: number }[] = await tx.query(`SELECT ${id} AS id FROM ${from} WHERE ${id} = ANY($1::int[]) ORDER BY ${id} FOR KEY SHARE ${lock}`, [
    wanted,
  ]);
  if (rows.length < wanted.length) throw unknown(missingShown(wanted, rows));
  return rows.map((r) => r.id);
}

/** The wanted ids not found, as an error names them: the first few, the rest counted. */
export function missingShown(wanted: readonly number[], found: readonly { id: number }[]): string {
  const present = new Set(found.map((r) => r.id));
  const missing = wanted.filter((id) => !present.has(id));
  return shownList(missing, UNKNOWN_IDS_SHOWN);
}

/** The devices of one family in a region and its sub-regions, locked like devicesByIds; none at all gets `empty`. */
export function devicesOfRegion(tx: EntityManager, family: FamilyTable, regionId: number, empty: () => AppException): Promise<number[]> {
  return devicesOfRegions(tx, family, [regionId], { field: 'regionId', empty });
}

/**
 * The devices of one family in any of the regions and their sub-regions, locked like devicesByIds (in id order, each
 * once). An unknown region is refused under `field`; with `empty`, so is a region without devices of the family (a
 * region chosen to reach nothing is a mistake to say), `empty` naming the first such region.
 */
export async function devicesOfRegions(
  tx: EntityManager,
  family: FamilyTable,
  regionIds: readonly number[],
  { field, empty }: { field: string; empty?: (regionId: number) => AppException },
): Promise<number[]> {
  await assertRegionsExist(tx, regionIds, field);
  const { from, id, lock, regionColumn } = selectionOf(family);
  const rows: { id: number }[] = await tx.query(
    `SELECT ${id} AS id FROM ${from}
      WHERE ${regionColumn} IN (${regionsAndBelow('$1::int[]')})
      ORDER BY ${id} FOR KEY SHARE ${lock}`,
    [regionIds],
  );
  if (empty && rows.length === 0) throw empty(regionIds[0]);
  if (empty && regionIds.length > 1) {
    const [bare]: { id: number }[] = await tx.query(
      `SELECT r AS id FROM unnest($1::int[]) WITH ORDINALITY AS given(r, n)
        WHERE NOT EXISTS (SELECT 1 FROM ${from} WHERE ${regionColumn} IN (${regionsAndBelow('ARRAY[given.r]')}))
        ORDER BY n LIMIT 1`,
      [regionIds],
    );
    if (bare) throw empty(bare.id);
  }
  return rows.map((r) => r.id);
}

/** Metres per degree of latitude (and of longitude at the equator): the mean Earth radius's. */
const METRES_PER_DEGREE = (Math.PI * 6_371_000) / 180;

/** A device of a family near a point, as nearestDevices answers it. */
export interface NearDevice {
  id: number;
  code: string;
  name: string;
  distanceMeters: number;
  networkStatus: number;
}

/**
 * The devices of one family (a registry family with a device table: network_status on its rows) within `radiusMeters`
 * of a point, the nearest first, at most `limit`: each at its own position or, without one, at its pole's. Distances
 * are great-circle (haversine); a box around the point keeps the rest of the fleet out before they are worked out.
 */
export function nearestDevices(
  db: Pick<EntityManager, 'query'>,
  family: { table: string },
  at: { latitude: number; longitude: number },
  radiusMeters: number,
  limit: number,
  /** A further condition on the family's row `f` (cameras: only those with a stream). */
  where = 'true',
): Promise<NearDevice[]> {
  const dLat = radiusMeters / METRES_PER_DEGREE;
  return db.query(
    `SELECT id, code, name, "networkStatus", round(distance)::int AS "distanceMeters" FROM (
       SELECT d.id, d.code, d.name, f.network_status AS "networkStatus",
              6371000 * 2 * asin(sqrt(power(sin(radians(pos.lat - $1) / 2), 2)
                + cos(radians($1)) * cos(radians(pos.lat)) * power(sin(radians(pos.lon - $2) / 2), 2))) AS distance
         FROM device d JOIN ${family.table} f ON f.device_id = d.id LEFT JOIN device p ON p.id = d.pole_id
        CROSS JOIN LATERAL (SELECT COALESCE(d.latitude, p.latitude) AS lat, COALESCE(d.longitude, p.longitude) AS lon) pos
        WHERE pos.lat BETWEEN $1 - $3 AND $1 + $3 AND ${longitudeBox(at, dLat)} AND ${where}
     ) near WHERE distance <= $4 ORDER BY distance, id LIMIT $5`,
    [at.latitude, at.longitude, dLat, radiusMeters, limit],
  );
}

/**
 * The longitudes within `dLat` degrees of arc of a point, as SQL over `pos.lon`: one range, two across the
 * antimeridian, or every longitude where the circle reaches a pole (or a degree of longitude is too short to bound).
 */
export function longitudeBox(at: { latitude: number; longitude: number }, dLat: number): string {
  const cos = Math.cos((at.latitude * Math.PI) / 180);
  const dLon = Math.abs(at.latitude) + dLat >= 90 || cos < 1e-6 ? 180 : dLat / cos;
  if (dLon >= 180) return 'true';
  const [lo, hi] = [at.longitude - dLon, at.longitude + dLon];
  if (lo < -180) return `(pos.lon >= ${lo + 360} OR pos.lon <= ${hi})`;
  if (hi > 180) return `(pos.lon >= ${lo} OR pos.lon <= ${hi - 360})`;
  return `pos.lon BETWEEN ${lo} AND ${hi}`;
}
