import { DeviceType } from '@sc/contracts';
import { DEMO_DEVICE_REGIONS, addDemoDevices, loadDemoOnce, type DemoLoad } from './demo-once';

/** Demo LED screens per region, in the regions of the demo poles. */
export const DEMO_LEDS_PER_REGION = 5;
const REGIONS = DEMO_DEVICE_REGIONS;
/** The panels' resolutions, by turn. */
const SIZES: [number, number][] = [
  [1920, 1080],
  [1080, 1920],
  [960, 320],
];

export const DEMO_LED_COUNT = REGIONS.length * DEMO_LEDS_PER_REGION;

/**
 * Adds the demo LED screens to a demo database, once, after its poles: LED-0001 onwards, five per region, each
 * mounted on one of its region's demo poles (the second of every four), with an IP of the region's subnet and a
 * resolution; every third screen keeps the daylight rule (full by day, 30 % at night) at the installation's place.
 */
export function loadDemoLeds(databaseUrl: string, place: { latitude: number; longitude: number; timeZone: string }): Promise<DemoLoad> {
  return loadDemoOnce(databaseUrl, 'demo_leds', async (tx) => {
    const added = await addDemoDevices(tx, {
      type: DeviceType.LedScreen,
      prefix: 'LED-',
      regions: REGIONS,
      perRegion: DEMO_LEDS_PER_REGION,
      word: 'screen',
      poleShift: 2,
    });
    await tx.query(
      `INSERT INTO led_screen (device_id, ip_address, width, height, time_zone, daylight_day, daylight_night, daylight_place)
       SELECT id, '10.30.' || ((n - 1) / $3 + 1) || '.' || ((n - 1) % $3 + 21), ($4::int[])[1 + n % 3], ($5::int[])[1 + n % 3], $6,
              CASE WHEN n % 3 = 0 THEN 100 END, CASE WHEN n % 3 = 0 THEN 30 END, CASE WHEN n % 3 = 0 THEN $7::jsonb END
         FROM unnest($1::int[], $2::int[]) AS t(id, n)`,
      [
        added.map((a) => a.id),
        added.map((a) => a.n),
        DEMO_LEDS_PER_REGION,
        SIZES.map((s) => s[0]),
        SIZES.map((s) => s[1]),
        place.timeZone,
        JSON.stringify(place),
      ],
    );
    return added.length;
  });
}
