import { DeviceType } from '@sc/contracts';
import { DEMO_DEVICE_REGIONS, addDemoDevices, loadDemoOnce, type DemoLoad } from './demo-once';

/** One demo access controller per region, and this many access points under it. */
export const DEMO_APS_PER_REGION = 20;
const REGIONS = DEMO_DEVICE_REGIONS;

export const DEMO_AC_COUNT = REGIONS.length;
export const DEMO_AP_COUNT = REGIONS.length * DEMO_APS_PER_REGION;

/**
 * Adds the demo Wi-Fi to a demo database, once, after its poles: an access controller per region (AC-0001 onwards,
 * in a cabinet of the region's first demo pole) and twenty access points per region under it (AP-0001 onwards, on
 * the region's demo poles), with MAC addresses of one vendor block and their models.
 */
export function loadDemoWifi(databaseUrl: string): Promise<DemoLoad> {
  return loadDemoOnce(databaseUrl, 'demo_wifi', async (tx) => {
    const acs = await addDemoDevices(tx, {
      type: DeviceType.AccessController,
      prefix: 'AC-',
      regions: REGIONS,
      perRegion: 1,
      word: 'access controller',
      poleShift: 3,
    });
    await tx.query(
      `INSERT INTO wifi_ac (device_id, dev_mac, dev_model, dev_type)
       SELECT id, '58:2A:F7:00:00:' || lpad(upper(to_hex(n)), 2, '0'), 'AC6508', 'Access controller' FROM unnest($1::int[], $2::int[]) AS t(id, n)`,
      [acs.map((a) => a.id), acs.map((a) => a.n)],
    );
    const aps = await addDemoDevices(tx, {
      type: DeviceType.AccessPoint,
      prefix: 'AP-',
      regions: REGIONS,
      perRegion: DEMO_APS_PER_REGION,
      word: 'AP',
      poleShift: 1,
    });
    // Each access point under its region's controller (the n-th region's is AC-000n).
    await tx.query(
      `INSERT INTO wifi_ap (device_id, dev_mac, dev_model, dev_type, ac_id)
       SELECT t.id, '58:2A:F7:01:' || lpad(upper(to_hex(t.n / 256)), 2, '0') || ':' || lpad(upper(to_hex(t.n % 256)), 2, '0'),
              CASE WHEN t.n % 4 = 0 THEN 'AirEngine 5761' ELSE 'AirEngine 6760R' END, CASE WHEN t.n % 4 = 0 THEN 'Indoor' ELSE 'Outdoor' END, c.id
         FROM unnest($1::int[], $2::int[]) AS t(id, n)
         JOIN device c ON c.type = $3 AND c.code = 'AC-' || lpad(((t.n - 1) / $4 + 1)::text, 4, '0')`,
      [aps.map((a) => a.id), aps.map((a) => a.n), DeviceType.AccessController, DEMO_APS_PER_REGION],
    );
    return acs.length + aps.length;
  });
}
