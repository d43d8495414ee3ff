import { DataSource } from 'typeorm';
import { DeviceType } from '@sc/contracts';
import { dataSourceOptions } from '@sc/database';

/** Demo terminals per region, and the regions they stand in (those of the demo poles). */
export const DEMO_TERMINALS_PER_REGION = 6;
const REGIONS = [
  'Huaqiangbei Subdistrict',
  'Lianhua Subdistrict',
  'Yuehai Subdistrict',
  'Shekou Subdistrict',
  'Hubin Subdistrict',
  'Qingbo Subdistrict',
];
const TYPES = ['IP column speaker', 'IP horn speaker'];

export const DEMO_TERMINAL_COUNT = REGIONS.length * DEMO_TERMINALS_PER_REGION;

/**
 * Adds the demo broadcast terminals to a demo database, once, after its poles: BC-0001 onwards, six per region, each
 * mounted on one of its region's demo poles (every fourth one), with an IP of the region's subnet and a call code;
 * BC-0001 is the default terminal. Terminals whose code is taken are left as they are.
 */
export async function loadDemoTerminals(databaseUrl: string): Promise<'loaded' | 'already-loaded' | 'not-a-demo-database'> {
  const db = new DataSource(dataSourceOptions(databaseUrl));
  await db.initialize();
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`LOCK TABLE app_setting IN EXCLUSIVE MODE`);
      const markers: { key: string }[] = await tx.query(`SELECT key FROM app_setting WHERE key IN ('demo_poles', 'demo_terminals')`);
      if (!markers.some((m) => m.key === 'demo_poles')) return 'not-a-demo-database';
      if (markers.some((m) => m.key === 'demo_terminals')) return 'already-loaded';

      const added: { id: number; n: number }[] = await tx.query(
        `WITH wanted AS (
           SELECT r.id AS region_id, r.region_name, ord AS region_n, i
             FROM unnest($2::text[]) WITH ORDINALITY AS w(name, ord) JOIN region r ON r.region_name = w.name,
                  generate_series(1, $3::int) AS i
         ), poles AS (
           SELECT id, region_id, row_number() OVER (PARTITION BY region_id ORDER BY code) AS n FROM device WHERE type = $4 AND code LIKE 'POLE-%'
         ), numbered AS (
           SELECT w.*, (w.region_n - 1) * $3 + w.i AS n, p.id AS pole_id
             FROM wanted w LEFT JOIN poles p ON p.region_id = w.region_id AND p.n = w.i * 4
         )
         INSERT INTO device (type, code, name, region_id, pole_id)
         SELECT $1, 'BC-' || lpad(n::text, 4, '0'), split_part(region_name, ' ', 1) || ' terminal ' || i, region_id, pole_id FROM numbered
         ON CONFLICT (type, code) DO NOTHING
         RETURNING id, substr(code, 4)::int AS n`,
        [DeviceType.Broadcast, REGIONS, DEMO_TERMINALS_PER_REGION, DeviceType.LampPole],
      );
      await tx.query(
        `INSERT INTO broadcast_terminal (device_id, terminal_ip, call_code, is_default, priority, relay_server, terminal_type, broadcast_volume, interphone_volume)
         SELECT id, '10.20.' || ((n - 1) / $3 + 1) || '.' || ((n - 1) % $3 + 11), (8000 + n)::text, n = 1, 1 + n % 5,
                'relay-' || ((n - 1) / $3 + 1) || '.city.local', ($2::text[])[1 + n % 2], 60, 50
           FROM unnest($1::int[], $4::int[]) AS t(id, n)`,
        [added.map((a) => a.id), TYPES, DEMO_TERMINALS_PER_REGION, added.map((a) => a.n)],
      );
      await tx.query(`INSERT INTO app_setting (key, value) VALUES ('demo_terminals', $1)`, [
        JSON.stringify({ loadedAt: new Date().toISOString(), count: added.length }),
      ]);
      return 'loaded';
    });
  } finally {
    await db.destroy();
  }
}
