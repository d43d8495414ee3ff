import type { EntityManager } from 'typeorm';
import { AppException } from './app-exception';

/** The ids of a region (the `?`) and of every region below it. */
export const REGION_AND_BELOW = `WITH RECURSIVE below AS (
    SELECT id FROM region WHERE id = ? UNION ALL SELECT child.id FROM region child JOIN below ON child.parent_id = below.id
  ) SELECT id FROM below`;

/** An error names at most this many unknown ids; the rest are counted. */
const UNKNOWN_IDS_SHOWN = 10;

export async function assertRegionExists(tx: EntityManager, regionId: number): Promise<void> {
  const rows: unknown[] = await tx.query(`SELECT 1 FROM region WHERE id = $1`, [regionId]);
  if (rows.length === 0) throw AppException.field('regionId', 'regionNotFound');
}

/**
 * The given devices of one family, locked against deletion until the caller's transaction ends (in id order, so
 * concurrent callers cannot deadlock); every id must be one of them, else `unknown` gets the ids that are not.
 */
export async function devicesByIds(
  tx: EntityManager,
  table: string,
  ids: readonly number[],
  unknown: (shown: string) => AppException,
): Promise<number[]> {
  const wanted = [...new Set(ids)].sort((a, b) => a - b);
  const rows: { id: number }[] = await tx.query(
    `SELECT d.id FROM device d JOIN ${table} f ON f.device_id = d.id WHERE d.id = ANY($1::int[]) ORDER BY d.id FOR KEY SHARE OF d`,
    [wanted],
  );
  if (rows.length < wanted.length) {
    const found = new Set(rows.map((r) => r.id));
    const missing = wanted.filter((id) => !found.has(id));
    throw unknown(
      missing.slice(0, UNKNOWN_IDS_SHOWN).join(', ') + (missing.length > UNKNOWN_IDS_SHOWN ? ` (+${missing.length - UNKNOWN_IDS_SHOWN})` : ''),
    );
  }
  return rows.map((r) => r.id);
}

/** The devices of one family in a region and its sub-regions, locked like devicesByIds; none at all gets `empty`. */
export async function devicesOfRegion(tx: EntityManager, table: string, regionId: number, empty: () => AppException): Promise<number[]> {
  await assertRegionExists(tx, regionId);
  const rows: { id: number }[] = await tx.query(
    `SELECT d.id FROM device d JOIN ${table} f ON f.device_id = d.id
      WHERE d.region_id IN (${REGION_AND_BELOW.replace('?', '$1')})
      ORDER BY d.id FOR KEY SHARE OF d`,
    [regionId],
  );
  if (rows.length === 0) throw empty();
  return rows.map((r) => r.id);
}
