import { DataSource } from 'typeorm';
import { DeviceType } from '@sc/contracts';
import { dataSourceOptions } from '@sc/database';

export type DemoPolesOutcome = 'loaded' | 'already-loaded' | 'not-a-demo-database';

export const DEMO_POLE_GROUP = 'Demo poles';

/** The pole a demo lamp stands on: POLE-00001 carries LAMP-00001. */
export function demoPoleCode(lampCode: string): string {
  return lampCode.replace(/^LAMP-/, 'POLE-');
}

/**
 * Gives every demo lamp the pole it stands on, once: same region, position and address as the lamp, in one pole
 * group, with the lamp mounted on it; the demo strip lights hang on poles of their region. Run after the lamps and strips
 * (and anything that places them) are loaded.
 */
export async function loadDemoPoles(databaseUrl: string): Promise<DemoPolesOutcome> {
  const db = new DataSource(dataSourceOptions(databaseUrl));
  await db.initialize();
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`LOCK TABLE app_setting IN EXCLUSIVE MODE`);
      const markers: { key: string }[] = await tx.query(`SELECT key FROM app_setting WHERE key IN ('demo_data', 'demo_lamps', 'demo_poles')`);
      if (!markers.some((m) => m.key === 'demo_data') || !markers.some((m) => m.key === 'demo_lamps')) return 'not-a-demo-database';
      if (markers.some((m) => m.key === 'demo_poles')) return 'already-loaded';

      const [group]: { id: number }[] = await tx.query(
        `INSERT INTO device_group (type, name) VALUES ($1, $2)
         ON CONFLICT (type, lower(name)) DO UPDATE SET updated_at = now() RETURNING id`,
        [DeviceType.LampPole, DEMO_POLE_GROUP],
      );
      const poles: { id: number; lampId: number }[] = await tx.query(
        `WITH lamps AS (
           SELECT d.id, d.code, d.name, d.region_id, d.latitude, d.longitude, l.addr
             FROM device d JOIN lamp l ON l.device_id = d.id
            WHERE d.type = $1 AND d.code LIKE 'LAMP-%' AND d.pole_id IS NULL
         ), added AS (
           INSERT INTO device (type, code, name, region_id, group_id, latitude, longitude)
           SELECT $2, 'POLE-' || substr(code, 6), replace(name, ' lamp ', ' pole '), region_id, $3, latitude, longitude FROM lamps
           ON CONFLICT (type, code) DO NOTHING
           RETURNING id, code
         )
         SELECT added.id, lamps.id AS "lampId" FROM added JOIN lamps ON 'POLE-' || substr(lamps.code, 6) = added.code`,
        [DeviceType.SingleLamp, DeviceType.LampPole, group.id],
      );
      await tx.query(
        `INSERT INTO lamp_pole (device_id, address)
         SELECT p.id, l.addr FROM unnest($1::int[], $2::int[]) AS p(id, lamp_id) JOIN lamp l ON l.device_id = p.lamp_id`,
        [poles.map((p) => p.id), poles.map((p) => p.lampId)],
      );
      await tx.query(`UPDATE device d SET pole_id = p.id FROM unnest($1::int[], $2::int[]) AS p(id, lamp_id) WHERE d.id = p.lamp_id`, [
        poles.map((p) => p.id),
        poles.map((p) => p.lampId),
      ]);
      // The demo strip lights hang on the poles of their region, one per pole, so a pole shows more than its lamp.
      await tx.query(
        `WITH strips AS (
           SELECT id, region_id, row_number() OVER (PARTITION BY region_id ORDER BY code) AS n
             FROM device WHERE type = $1 AND code LIKE 'STRIP-%' AND pole_id IS NULL
         ), poles AS (
           SELECT id, region_id, row_number() OVER (PARTITION BY region_id ORDER BY code) AS n
             FROM device WHERE type = $2 AND code LIKE 'POLE-%'
         )
         UPDATE device d SET pole_id = p.id FROM strips s JOIN poles p ON p.region_id = s.region_id AND p.n = s.n WHERE d.id = s.id`,
        [DeviceType.LightStrip, DeviceType.LampPole],
      );
      await tx.query(`INSERT INTO app_setting (key, value) VALUES ('demo_poles', $1)`, [
        JSON.stringify({ loadedAt: new Date().toISOString(), count: poles.length }),
      ]);
      return 'loaded';
    });
  } finally {
    await db.destroy();
  }
}
