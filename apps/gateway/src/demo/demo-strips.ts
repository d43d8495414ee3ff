import { DataSource } from 'typeorm';
import { DeviceType } from '@sc/contracts';
import { dataSourceOptions } from '@sc/database';

export interface DemoStrip {
  /** The device code and clientId, also the strip's MQTT topic level. */
  code: string;
  name: string;
  regionName: string;
  groupName: string;
  /** The gateway it hangs off: one per subdistrict. */
  gatewayId: string;
  addr: string;
  mac: string;
}

/** Where the demo strips light: building facades and bridge rails in six subdistricts. */
const SITES: readonly { regionName: string; site: string; groupName: string }[] = [
  { regionName: 'Huaqiangbei Subdistrict', site: 'SEG Plaza facade', groupName: 'Facades' },
  { regionName: 'Lianhua Subdistrict', site: 'Civic Center canopy', groupName: 'Facades' },
  { regionName: 'Yuehai Subdistrict', site: 'Science Park bridge', groupName: 'Bridges' },
  { regionName: 'Shekou Subdistrict', site: 'Sea World promenade', groupName: 'Promenades' },
  { regionName: 'Hubin Subdistrict', site: 'West Lake pier', groupName: 'Promenades' },
  { regionName: 'Qingbo Subdistrict', site: 'Qiantang bridge', groupName: 'Bridges' },
];

export const DEMO_STRIPS_PER_SITE = 6;

/** The gateway of the demo strips of the site at `index` (SGW-01 …). */
const stripGatewayCode = (index: number): string => `SGW-${String(index + 1).padStart(2, '0')}`;

export const DEMO_STRIPS: readonly DemoStrip[] = SITES.flatMap(({ regionName, site, groupName }, s) =>
  Array.from({ length: DEMO_STRIPS_PER_SITE }, (_, i) => {
    const n = s * DEMO_STRIPS_PER_SITE + i + 1;
    return {
      code: `STRIP-${String(n).padStart(4, '0')}`,
      name: `${site} strip ${i + 1}`,
      regionName,
      groupName,
      gatewayId: stripGatewayCode(s),
      addr: `${site}, section ${i + 1}`,
      mac: `02:5d:00:00:00:${n.toString(16).padStart(2, '0')}`,
    };
  }),
);

/**
 * Adds the demo strip lights (and their device groups) to a demo database, once, like the demo lamps: never to a
 * database with real data; strips whose code is taken are left as they are.
 */
export async function loadDemoStrips(databaseUrl: string): Promise<'loaded' | 'already-loaded' | 'not-a-demo-database'> {
  const db = new DataSource(dataSourceOptions(databaseUrl));
  await db.initialize();
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`LOCK TABLE app_setting IN EXCLUSIVE MODE`);
      const markers: { key: string }[] = await tx.query(`SELECT key FROM app_setting WHERE key IN ('demo_data', 'demo_strips')`);
      if (!markers.some((m) => m.key === 'demo_data')) return 'not-a-demo-database';

      const regions: { id: number; region_name: string }[] = await tx.query(`SELECT id, region_name FROM region WHERE region_name = ANY($1)`, [
        SITES.map((s) => s.regionName),
      ]);
      const regionId = new Map(regions.map((r) => [r.region_name, r.id]));
      // Each site's strips hang off a gateway of its own, recorded as the lamps' gateways are: it logs in to the broker
      // and its connection shows as the gateway's network status. Also, while demo strips still name it, for a
      // database whose demo strips came before their gateways were recorded.
      const loaded = markers.some((m) => m.key === 'demo_strips');
      await tx.query(
        `INSERT INTO lamp_gateway (code, name, region_id, addr)
         SELECT t.code, t.name, t.region_id, t.addr FROM unnest($1::text[], $2::text[], $3::int[], $4::text[]) AS t(code, name, region_id, addr)
          WHERE NOT $5 OR EXISTS (SELECT 1 FROM strip_light s WHERE s.gateway_id = t.code)
         ON CONFLICT (code) DO NOTHING`,
        [
          SITES.map((_, s) => stripGatewayCode(s)),
          SITES.map((site) => `${site.site} gateway`),
          SITES.map((site) => regionId.get(site.regionName) ?? null),
          SITES.map((site) => site.site),
          loaded,
        ],
      );
      if (loaded) return 'already-loaded';

      const groupNames = [...new Set(SITES.map((s) => s.groupName))];
      await tx.query(`INSERT INTO device_group (type, name) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`, [
        DeviceType.LightStrip,
        groupNames,
      ]);
      const groups: { id: number; name: string }[] = await tx.query(`SELECT id, name FROM device_group WHERE type = $1 AND name = ANY($2)`, [
        DeviceType.LightStrip,
        groupNames,
      ]);
      const groupId = new Map(groups.map((g) => [g.name, g.id]));
      const added: { id: number; code: string }[] = await tx.query(
        `INSERT INTO device (type, code, name, region_id, group_id)
         SELECT $1, code, name, region_id, group_id FROM unnest($2::text[], $3::text[], $4::int[], $5::int[]) AS t(code, name, region_id, group_id)
         ON CONFLICT (type, code) DO NOTHING
         RETURNING id, code`,
        [
          DeviceType.LightStrip,
          DEMO_STRIPS.map((s) => s.code),
          DEMO_STRIPS.map((s) => s.name),
          DEMO_STRIPS.map((s) => regionId.get(s.regionName) ?? null),
          DEMO_STRIPS.map((s) => groupId.get(s.groupName) ?? null),
        ],
      );
      const byCode = new Map(DEMO_STRIPS.map((s) => [s.code, s]));
      const strips = added.map((row) => ({ id: row.id, strip: byCode.get(row.code) as DemoStrip }));
      await tx.query(
        `INSERT INTO strip_light (device_id, gateway_id, addr, mac) SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[])`,
        [strips.map((s) => s.id), strips.map((s) => s.strip.gatewayId), strips.map((s) => s.strip.addr), strips.map((s) => s.strip.mac)],
      );
      await tx.query(`INSERT INTO app_setting (key, value) VALUES ('demo_strips', $1)`, [
        JSON.stringify({ loadedAt: new Date().toISOString(), count: strips.length }),
      ]);
      return 'loaded';
    });
  } finally {
    await db.destroy();
  }
}
