import { DataSource } from 'typeorm';
import { DeviceType } from '@sc/contracts';
import { dataSourceOptions } from '@sc/database';

export interface DemoLamp {
  /** The device code and clientId, also the lamp's MQTT topic level. */
  code: string;
  name: string;
  /** The demo region (a subdistrict of demo-data.ts) the lamp stands in. */
  regionName: string;
  /** The lamp gateway it hangs off: one per subdistrict. */
  gatewayId: string;
  lampControlId: string;
  addr: string;
  mac: string;
}

/** The demo subdistricts, each with the street its lamps line. */
const STREETS: readonly { regionName: string; street: string }[] = [
  { regionName: 'Huaqiangbei Subdistrict', street: 'Huaqiang North Road' },
  { regionName: 'Lianhua Subdistrict', street: 'Hongli Road' },
  { regionName: 'Yuehai Subdistrict', street: 'Keyuan Road' },
  { regionName: 'Shekou Subdistrict', street: 'Wanghai Road' },
  { regionName: 'Beishan Subdistrict', street: 'Beishan Street' },
  { regionName: 'Lingyin Subdistrict', street: 'Lingyin Road' },
  { regionName: 'Hubin Subdistrict', street: 'Hubin Road' },
  { regionName: 'Qingbo Subdistrict', street: 'Nanshan Road' },
];

export const DEMO_LAMP_COUNT = 300;

export function demoLampCode(n: number): string {
  return `LAMP-${String(n).padStart(5, '0')}`;
}

/**
 * The demo fleet, in contiguous runs per subdistrict. The device simulator serves what the database holds (device
 * rows of type single lamp); this list is what seed-demo puts there.
 */
export const DEMO_LAMPS: readonly DemoLamp[] = Array.from({ length: DEMO_LAMP_COUNT }, (_, i) => {
  const n = i + 1;
  const block = Math.floor((i * STREETS.length) / DEMO_LAMP_COUNT);
  const { regionName, street } = STREETS[block];
  const first = Math.ceil((block * DEMO_LAMP_COUNT) / STREETS.length);
  const onStreet = i - first + 1;
  return {
    code: demoLampCode(n),
    name: `${street} lamp ${onStreet}`,
    regionName,
    gatewayId: `LGW-${String(block + 1).padStart(2, '0')}`,
    lampControlId: `LC-${String(n).padStart(5, '0')}`,
    addr: `${street} No. ${onStreet * 2}`,
    // Locally administered addresses: never a real vendor's.
    mac: `02:5c:00:00:${((n >> 8) & 0xff).toString(16).padStart(2, '0')}:${(n & 0xff).toString(16).padStart(2, '0')}`,
  };
});

export type DemoLampsOutcome = 'loaded' | 'already-loaded' | 'not-a-demo-database';

/**
 * Adds the demo lamps to a demo database (one holding the demo data marker), once. A database with real data never
 * gets them, like the rest of the demo data; a demo database loaded before the lamps existed gets them on the next
 * seed-demo. Lamps whose code is already taken are left as they are.
 */
export async function loadDemoLamps(databaseUrl: string): Promise<DemoLampsOutcome> {
  const db = new DataSource(dataSourceOptions(databaseUrl));
  await db.initialize();
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`LOCK TABLE app_setting IN EXCLUSIVE MODE`);
      const markers: { key: string }[] = await tx.query(`SELECT key FROM app_setting WHERE key IN ('demo_data', 'demo_lamps')`);
      if (!markers.some((m) => m.key === 'demo_data')) return 'not-a-demo-database';
      if (markers.some((m) => m.key === 'demo_lamps')) return 'already-loaded';

      const regions: { id: number; region_name: string }[] = await tx.query(`SELECT id, region_name FROM region WHERE region_name = ANY($1)`, [
        STREETS.map((s) => s.regionName),
      ]);
      const regionId = new Map(regions.map((r) => [r.region_name, r.id]));
      const added: { id: number; code: string }[] = await tx.query(
        `INSERT INTO device (type, code, name, region_id)
         SELECT $1, code, name, region_id FROM unnest($2::text[], $3::text[], $4::int[]) AS t(code, name, region_id)
         ON CONFLICT (type, code) DO NOTHING
         RETURNING id, code`,
        [
          DeviceType.SingleLamp,
          DEMO_LAMPS.map((l) => l.code),
          DEMO_LAMPS.map((l) => l.name),
          DEMO_LAMPS.map((l) => regionId.get(l.regionName) ?? null),
        ],
      );
      const byCode = new Map(DEMO_LAMPS.map((l) => [l.code, l]));
      const lamps = added.map((row) => ({ id: row.id, lamp: byCode.get(row.code) as DemoLamp }));
      await tx.query(
        `INSERT INTO lamp (device_id, gateway_id, lamp_control_id, addr, mac)
         SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[])`,
        [
          lamps.map((l) => l.id),
          lamps.map((l) => l.lamp.gatewayId),
          lamps.map((l) => l.lamp.lampControlId),
          lamps.map((l) => l.lamp.addr),
          lamps.map((l) => l.lamp.mac),
        ],
      );
      await tx.query(`INSERT INTO app_setting (key, value) VALUES ('demo_lamps', $1)`, [
        JSON.stringify({ loadedAt: new Date().toISOString(), count: lamps.length }),
      ]);
      return 'loaded';
    });
  } finally {
    await db.destroy();
  }
}
