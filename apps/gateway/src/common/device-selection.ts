import type { EntityManager } from 'typeorm';
import { AppException } from './app-exception';
import { shownList } from './shown-list';

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
export async function devicesOfRegion(tx: EntityManager, family: FamilyTable, regionId: number, empty: () => AppException): Promise<number[]> {
  await assertRegionExists(tx, regionId);
  const { from, id, lock, regionColumn } = selectionOf(family);
  const rows: { id: number }[] = await tx.query(
    `SELECT ${id} AS id FROM ${from}
      WHERE ${regionColumn} IN (${REGION_AND_BELOW.replace('?', '$1')})
      ORDER BY ${id} FOR KEY SHARE ${lock}`,
    [regionId],
  );
  if (rows.length === 0) throw empty();
  return rows.map((r) => r.id);
}
