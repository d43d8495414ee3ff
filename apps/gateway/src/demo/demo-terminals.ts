import { DeviceType } from '@sc/contracts';
import { DEMO_DEVICE_REGIONS, addDemoDevices, loadDemoOnce, type DemoLoad } from './demo-once';

/** Demo terminals per region, and the regions they stand in (those of the demo poles). */
export const DEMO_TERMINALS_PER_REGION = 6;
const REGIONS = DEMO_DEVICE_REGIONS;
const TYPES = ['IP column speaker', 'IP horn speaker'];

export const DEMO_TERMINAL_COUNT = REGIONS.length * DEMO_TERMINALS_PER_REGION;

/**
 * Adds the demo broadcast terminals to a demo database, once, after its poles: BC-0001 onwards, six per region, each
 * mounted on one of its region's demo poles (every fourth one), with an IP of the region's subnet and a call code;
 * BC-0001 is the default terminal. Terminals whose code is taken are left as they are.
 */
export function loadDemoTerminals(databaseUrl: string): Promise<DemoLoad> {
  return loadDemoOnce(databaseUrl, 'demo_terminals', async (tx) => {
    const added = await addDemoDevices(tx, {
      type: DeviceType.Broadcast,
      prefix: 'BC-',
      regions: REGIONS,
      perRegion: DEMO_TERMINALS_PER_REGION,
      word: 'terminal',
      poleShift: 0,
    });
    await tx.query(
      `INSERT INTO broadcast_terminal (device_id, terminal_ip, call_code, is_default, priority, relay_server, terminal_type, broadcast_volume, interphone_volume)
     SELECT id, '10.20.' || ((n - 1) / $3 + 1) || '.' || ((n - 1) % $3 + 11), (8000 + n)::text, n = 1, 1 + n % 5,
            'relay-' || ((n - 1) / $3 + 1) || '.city.local', ($2::text[])[1 + n % 2], 60, 50
       FROM unnest($1::int[], $4::int[]) AS t(id, n)`,
      [added.map((a) => a.id), TYPES, DEMO_TERMINALS_PER_REGION, added.map((a) => a.n)],
    );
    return added.length;
  });
}
