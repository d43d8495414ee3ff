import { DataSource } from 'typeorm';
import { DeviceType } from '@sc/contracts';
import { dataSourceOptions } from '@sc/database';
import { DEMO_LAMPS } from './demo-lamps';

/** Where each demo street starts and which way its lamps run (degrees per lamp, about 30 m apart). */
interface DemoStreet {
  gatewayId: string;
  gatewayName: string;
  regionName: string;
  start: [latitude: number, longitude: number];
  step: [latitude: number, longitude: number];
  /** Main roads and smaller streets are managed as groups. */
  groupName: string;
}

/** One gateway per demo street (LGW-01 … LGW-08 as in demo-lamps.ts), in the real streets of the demo districts. */
export const DEMO_STREETS: readonly DemoStreet[] = [
  {
    gatewayId: 'LGW-01',
    gatewayName: 'Huaqiang North concentrator',
    regionName: 'Huaqiangbei Subdistrict',
    start: [22.5402, 114.0853],
    step: [0.00027, 0.00001],
    groupName: 'Main roads',
  },
  {
    gatewayId: 'LGW-02',
    gatewayName: 'Hongli Road concentrator',
    regionName: 'Lianhua Subdistrict',
    start: [22.5528, 114.0512],
    step: [0.00001, 0.00029],
    groupName: 'Main roads',
  },
  {
    gatewayId: 'LGW-03',
    gatewayName: 'Keyuan Road concentrator',
    regionName: 'Yuehai Subdistrict',
    start: [22.5262, 113.9516],
    step: [0.00027, -0.00001],
    groupName: 'Science park',
  },
  {
    gatewayId: 'LGW-04',
    gatewayName: 'Wanghai Road concentrator',
    regionName: 'Shekou Subdistrict',
    start: [22.4822, 113.9151],
    step: [0.00019, 0.0002],
    groupName: 'Seafront',
  },
  {
    gatewayId: 'LGW-05',
    gatewayName: 'Beishan Street concentrator',
    regionName: 'Beishan Subdistrict',
    start: [30.2598, 120.1372],
    step: [-0.00006, 0.00028],
    groupName: 'West Lake',
  },
  {
    gatewayId: 'LGW-06',
    gatewayName: 'Lingyin Road concentrator',
    regionName: 'Lingyin Subdistrict',
    start: [30.2472, 120.1046],
    step: [0.00009, 0.00026],
    groupName: 'West Lake',
  },
  {
    gatewayId: 'LGW-07',
    gatewayName: 'Hubin Road concentrator',
    regionName: 'Hubin Subdistrict',
    start: [30.2524, 120.1636],
    step: [0.00027, 0.00002],
    groupName: 'West Lake',
  },
  {
    gatewayId: 'LGW-08',
    gatewayName: 'Nanshan Road concentrator',
    regionName: 'Qingbo Subdistrict',
    start: [30.2413, 120.1561],
    step: [0.00018, 0.0002],
    groupName: 'West Lake',
  },
];

/** Each gateway drives its street in two loops: the lamps of the first half, then the second. */
export const DEMO_LOOPS = ['L1', 'L2'] as const;

export type DemoEquipmentOutcome = 'loaded' | 'already-loaded' | 'not-a-demo-database';

/**
 * Gives the demo lamps their equipment, once: a gateway record per street (the codes the simulator's gateways use, as
 * the lamps' gatewayId), two loops per gateway, single-lamp groups, and a position along the street for every lamp.
 * Runs after loadDemoLamps and before the demo poles, which take their lamp's position.
 */
export async function loadDemoEquipment(databaseUrl: string): Promise<DemoEquipmentOutcome> {
  const db = new DataSource(dataSourceOptions(databaseUrl));
  await db.initialize();
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`LOCK TABLE app_setting IN EXCLUSIVE MODE`);
      const markers: { key: string }[] = await tx.query(`SELECT key FROM app_setting WHERE key IN ('demo_data', 'demo_equipment')`);
      if (!markers.some((m) => m.key === 'demo_data')) return 'not-a-demo-database';
      if (markers.some((m) => m.key === 'demo_equipment')) return 'already-loaded';

      const regions: { id: number; region_name: string }[] = await tx.query(`SELECT id, region_name FROM region WHERE region_name = ANY($1)`, [
        DEMO_STREETS.map((s) => s.regionName),
      ]);
      const regionId = new Map(regions.map((r) => [r.region_name, r.id]));
      const groupId = new Map<string, number>();
      for (const name of new Set(DEMO_STREETS.map((s) => s.groupName))) {
        const [row]: { id: number }[] = await tx.query(
          `INSERT INTO device_group (type, name) VALUES ($1, $2)
           ON CONFLICT (type, lower(name)) DO UPDATE SET updated_at = device_group.updated_at RETURNING id`,
          [DeviceType.SingleLamp, name],
        );
        groupId.set(name, row.id);
      }
      for (const street of DEMO_STREETS) {
        const lamps = DEMO_LAMPS.filter((l) => l.gatewayId === street.gatewayId);
        const [gateway]: { id: number }[] = await tx.query(
          `INSERT INTO lamp_gateway (code, name, region_id, addr, latitude, longitude) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (code) DO UPDATE SET updated_at = lamp_gateway.updated_at RETURNING id`,
          [street.gatewayId, street.gatewayName, regionId.get(street.regionName) ?? null, lamps[0]?.addr ?? '', ...street.start],
        );
        const loopIds: number[] = [];
        for (const [i, code] of DEMO_LOOPS.entries()) {
          const [loop]: { id: number }[] = await tx.query(
            `INSERT INTO lamp_loop (gateway_id, code, name) VALUES ($1, $2, $3)
             ON CONFLICT (gateway_id, code) DO UPDATE SET updated_at = lamp_loop.updated_at RETURNING id`,
            [gateway.id, code, i === 0 ? 'First half of the street' : 'Second half of the street'],
          );
          loopIds.push(loop.id);
        }
        const half = Math.ceil(lamps.length / 2);
        const positions = lamps.map((_, i) => [street.start[0] + street.step[0] * i, street.start[1] + street.step[1] * i]);
        // Only the demo's own lamps (by code), and only where nobody set a group or a position yet.
        await tx.query(
          `UPDATE device d SET group_id = coalesce(d.group_id, $2), latitude = coalesce(d.latitude, u.lat), longitude = coalesce(d.longitude, u.lon)
             FROM unnest($1::text[], $3::float8[], $4::float8[]) AS u(code, lat, lon)
            WHERE d.type = $5 AND d.code = u.code`,
          [lamps.map((l) => l.code), groupId.get(street.groupName), positions.map((p) => p[0]), positions.map((p) => p[1]), DeviceType.SingleLamp],
        );
        await tx.query(
          `UPDATE lamp l SET loop_id = coalesce(l.loop_id, u.loop_id)
             FROM device d, unnest($1::text[], $2::int[]) AS u(code, loop_id)
            WHERE d.id = l.device_id AND d.type = $3 AND d.code = u.code AND l.gateway_id = $4`,
          [lamps.map((l) => l.code), lamps.map((_, i) => loopIds[i < half ? 0 : 1]), DeviceType.SingleLamp, street.gatewayId],
        );
      }
      await tx.query(`INSERT INTO app_setting (key, value) VALUES ('demo_equipment', $1)`, [
        JSON.stringify({ loadedAt: new Date().toISOString(), gateways: DEMO_STREETS.length }),
      ]);
      return 'loaded';
    });
  } finally {
    await db.destroy();
  }
}
