import { DataSource } from 'typeorm';
import { ScreenOrientation } from '@sc/contracts';
import { dataSourceOptions } from '@sc/database';

/** The demo floor-screen groups, each with its players: where they stand, and how their panels are mounted. */
export const DEMO_SIGNAGE_GROUPS = [
  { name: 'Metro line 2', place: 'Metro line 2 station hall', count: 12, latitude: 22.543, longitude: 114.057 },
  { name: 'Airport T3', place: 'Airport T3 departures', count: 10, latitude: 22.639, longitude: 113.81 },
  { name: 'Civic center', place: 'Civic center plaza', count: 8, latitude: 22.547, longitude: 114.059 },
];
/** Players added without a group: the binding examples. */
const UNBOUND = 4;

export const DEMO_SIGNAGE_COUNT = DEMO_SIGNAGE_GROUPS.reduce((n, g) => n + g.count, 0) + UNBOUND;

/**
 * Adds the demo floor screens to a demo database, once: FS-0001 onwards, in three groups and a few unbound, every
 * third one landscape (16:9), the others portrait (9:16), each with its cMark, address and position. The unbound
 * ones lack an address, so binding them first needs it ('Device binding needs complete information').
 */
export async function loadDemoSignage(databaseUrl: string): Promise<'loaded' | 'already-loaded' | 'not-a-demo-database'> {
  const db = new DataSource(dataSourceOptions(databaseUrl));
  await db.initialize();
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`LOCK TABLE app_setting IN EXCLUSIVE MODE`);
      const markers: { key: string }[] = await tx.query(`SELECT key FROM app_setting WHERE key IN ('demo_data', 'demo_signage')`);
      if (!markers.some((m) => m.key === 'demo_data')) return 'not-a-demo-database';
      if (markers.some((m) => m.key === 'demo_signage')) return 'already-loaded';
      let n = 0;
      const add = async (groupId: number | null, name: string, address: string, latitude: number, longitude: number) => {
        n++;
        const code = `FS-${String(n).padStart(4, '0')}`;
        await tx.query(
          `INSERT INTO signage_device (code, name, c_mark, address, latitude, longitude, group_id, serial_number, orientation, volume)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (code) DO NOTHING`,
          [
            code,
            name,
            `CM-${String(n).padStart(4, '0')}`,
            address,
            latitude,
            longitude,
            groupId,
            `SN2026${String(n).padStart(5, '0')}`,
            n % 3 === 0 ? ScreenOrientation.Landscape : ScreenOrientation.Portrait,
            40 + (n % 5) * 10,
          ],
        );
      };
      for (const group of DEMO_SIGNAGE_GROUPS) {
        const [{ id }]: { id: number }[] = await tx.query(`INSERT INTO signage_group (name) VALUES ($1) RETURNING id`, [group.name]);
        for (let i = 1; i <= group.count; i++) {
          await add(id, `${group.name} screen ${i}`, `${group.place}, position ${i}`, group.latitude + i * 0.0004, group.longitude + i * 0.0003);
        }
      }
      for (let i = 1; i <= UNBOUND; i++) await add(null, `New screen ${i}`, '', 22.55 + i * 0.001, 114.06);
      await tx.query(`INSERT INTO app_setting (key, value) VALUES ('demo_signage', $1)`, [
        JSON.stringify({ loadedAt: new Date().toISOString(), count: n }),
      ]);
      return 'loaded';
    });
  } finally {
    await db.destroy();
  }
}
