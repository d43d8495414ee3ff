import { DeviceType, RadarEventId, normalisedRadarEvents } from '@sc/contracts';
import { DEMO_DEVICE_REGIONS, addDemoDevices, loadDemoOnce, type DemoLoad } from './demo-once';

/** Demo radars per region, on the regions' demo poles along their streets. */
export const DEMO_RADARS_PER_REGION = 4;
export const DEMO_RADAR_COUNT = DEMO_DEVICE_REGIONS.length * DEMO_RADARS_PER_REGION;
/** A radar's group lights the demo lamps this many poles either side of it. */
const LAMPS_EITHER_SIDE = 3;

/** The demo strategy of every group: people brightest and longest, vehicles passing quicker. */
const DEMO_EVENTS = normalisedRadarEvents([
  { uniqueIndex: 1, event: RadarEventId.Pedestrian, brightness: 100, openInterval: 0, closeInterval: 30 },
  { uniqueIndex: 2, event: RadarEventId.NonMotorVehicle, brightness: 80, openInterval: 0, closeInterval: 20 },
  { uniqueIndex: 3, event: RadarEventId.MotorVehicle, brightness: 60, openInterval: 0, closeInterval: 15 },
]);

/**
 * Adds the demo radars to a demo database, once, after its poles: RADAR-0001 onwards, four per region, each on one of
 * its region's demo poles (the third of every four); one group per region with its radars and the demo lamps within
 * three poles of each, and one strategy per group. RADAR-0001 and RADAR-0002 are also the radars the demo sensing
 * strategy names, so lamps running it rise by themselves.
 */
export function loadDemoRadars(databaseUrl: string): Promise<DemoLoad> {
  return loadDemoOnce(databaseUrl, 'demo_radars', async (tx) => {
    const added = await addDemoDevices(tx, {
      type: DeviceType.Radar,
      prefix: 'RADAR-',
      regions: DEMO_DEVICE_REGIONS,
      perRegion: DEMO_RADARS_PER_REGION,
      word: 'radar',
      poleShift: 1,
    });
    await tx.query(`INSERT INTO radar_terminal (device_id) SELECT unnest($1::int[])`, [added.map((a) => a.id)]);
    const groups: { id: number }[] = await tx.query(
      `INSERT INTO radar_group (name, remark)
       SELECT split_part(r.region_name, ' ', 1) || ' street', 'Demo radars of ' || r.region_name
         FROM region r WHERE r.region_name = ANY($1::text[])
       ON CONFLICT DO NOTHING RETURNING id`,
      [DEMO_DEVICE_REGIONS],
    );
    await tx.query(
      `INSERT INTO radar_group_radar (group_id, device_id)
       SELECT g.id, d.id FROM device d JOIN region r ON r.id = d.region_id
         JOIN radar_group g ON g.name = split_part(r.region_name, ' ', 1) || ' street'
        WHERE d.id = ANY($1::int[])`,
      [added.map((a) => a.id)],
    );
    // The lamps on the poles either side of each radar's pole (POLE-00012 carries LAMP-00012).
    await tx.query(
      `INSERT INTO radar_group_lamp (group_id, device_id)
       SELECT DISTINCT m.group_id, lamp.id
         FROM radar_group_radar m JOIN device radar ON radar.id = m.device_id JOIN device pole ON pole.id = radar.pole_id
         JOIN device lamp ON lamp.type = $2 AND lamp.code LIKE 'LAMP-%'
          AND abs(substr(lamp.code, 6)::int - substr(pole.code, 6)::int) <= $3
        WHERE m.device_id = ANY($1::int[]) AND pole.code ~ '^POLE-[0-9]+$' AND lamp.code ~ '^LAMP-[0-9]+$'
       ON CONFLICT DO NOTHING`,
      [added.map((a) => a.id), DeviceType.SingleLamp, LAMPS_EITHER_SIDE],
    );
    await tx.query(
      `INSERT INTO radar_strategy (name, group_id, event_infos) SELECT g.name || ' lighting', g.id, $2 FROM radar_group g WHERE g.id = ANY($1::int[])`,
      [groups.map((g) => g.id), JSON.stringify(DEMO_EVENTS)],
    );
    return added.length;
  });
}
