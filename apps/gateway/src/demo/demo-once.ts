import { DataSource, type EntityManager } from 'typeorm';
import { DeviceType } from '@sc/contracts';
import { dataSourceOptions } from '@sc/database';

export type DemoLoad = 'loaded' | 'already-loaded' | 'not-a-demo-database';

/**
 * Adds one part of the demo to a demo database (one with the demo poles), once: `add` runs in a transaction that
 * records `marker` in app_setting with what it added, so a second start (or a second gateway) adds nothing.
 */
export async function loadDemoOnce(databaseUrl: string, marker: string, add: (tx: EntityManager) => Promise<number>): Promise<DemoLoad> {
  const db = new DataSource(dataSourceOptions(databaseUrl));
  await db.initialize();
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`LOCK TABLE app_setting IN EXCLUSIVE MODE`);
      const markers: { key: string }[] = await tx.query(`SELECT key FROM app_setting WHERE key IN ('demo_poles', $1)`, [marker]);
      if (!markers.some((m) => m.key === 'demo_poles')) return 'not-a-demo-database';
      if (markers.some((m) => m.key === marker)) return 'already-loaded';
      const count = await add(tx);
      await tx.query(`INSERT INTO app_setting (key, value) VALUES ($1, $2)`, [marker, JSON.stringify({ loadedAt: new Date().toISOString(), count })]);
      return 'loaded';
    });
  } finally {
    await db.destroy();
  }
}

/** The regions of the demo poles, where the demo's pole-mounted devices stand. */
export const DEMO_DEVICE_REGIONS = [
  'Huaqiangbei Subdistrict',
  'Lianhua Subdistrict',
  'Yuehai Subdistrict',
  'Shekou Subdistrict',
  'Hubin Subdistrict',
  'Qingbo Subdistrict',
];

/** Demo devices of one type, `perRegion` in each region, mounted on the regions' demo poles. */
export interface DemoDevices {
  type: DeviceType;
  /** Their codes: the prefix and a four-digit number from 1 ('BC-' makes BC-0001). */
  prefix: string;
  regions: readonly string[];
  perRegion: number;
  /** Their names: the region's first word, this word and their number in the region ('Lianhua terminal 2'). */
  word: string;
  /** The i-th device of a region is mounted on its region's pole number i × 4 − poleShift (by code). */
  poleShift: number;
}

/** Adds the registry records of demo devices (codes already taken are left as they are); answers each added one's id and number. */
export function addDemoDevices(tx: EntityManager, d: DemoDevices): Promise<{ id: number; n: number }[]> {
  return tx.query(
    `WITH wanted AS (
       SELECT r.id AS region_id, r.region_name, ord AS region_n, i
         FROM unnest($2::text[]) WITH ORDINALITY AS w(name, ord) JOIN region r ON r.region_name = w.name,
              generate_series(1, $3::int) AS i
     ), poles AS (
       SELECT id, region_id, row_number() OVER (PARTITION BY region_id ORDER BY code) AS n FROM device WHERE type = $4 AND code LIKE 'POLE-%'
     ), numbered AS (
       SELECT w.*, (w.region_n - 1) * $3 + w.i AS n, p.id AS pole_id
         FROM wanted w LEFT JOIN poles p ON p.region_id = w.region_id AND p.n = w.i * 4 - $7
     )
     INSERT INTO device (type, code, name, region_id, pole_id)
     SELECT $1, $5 || lpad(n::text, 4, '0'), split_part(region_name, ' ', 1) || ' ' || $6 || ' ' || i, region_id, pole_id FROM numbered
     ON CONFLICT (type, code) DO NOTHING
     RETURNING id, substr(code, length($5) + 1)::int AS n`,
    [d.type, d.regions, d.perRegion, DeviceType.LampPole, d.prefix, d.word, d.poleShift],
  );
}
