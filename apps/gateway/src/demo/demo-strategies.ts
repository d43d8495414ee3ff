import { DataSource } from 'typeorm';
import { DeviceType, StrategyMode, type LampSchedule, type SchedulePlace, type StrategyRules } from '@sc/contracts';
import { dataSourceOptions } from '@sc/database';
import { lampPlaces } from '../strategies/lamp-places';

/** The demo's lamp strategies; the first is the one every demo lamp holds. */
export const DEMO_STRATEGIES: readonly { name: string; rules: StrategyRules }[] = [
  {
    name: 'Dusk to dawn, dimmed after midnight',
    rules: {
      mode: StrategyMode.SunriseSunset,
      modeData: { sunsetOffset: 10, sunriseOffset: -10, level: 100 },
      periods: [{ start: '00:00', end: '05:00', level: 40 }],
    },
  },
  {
    name: 'Weeknights',
    rules: {
      mode: StrategyMode.Week,
      modeData: { weekdays: ['1', '2', '3', '4', '5'] },
      periods: [
        { start: '18:00', end: '23:00', level: 100 },
        { start: '23:00', end: '06:00', level: 60 },
      ],
    },
  },
  {
    name: 'Spring Festival',
    rules: {
      mode: StrategyMode.Date,
      modeData: { startDate: '2027-02-05', endDate: '2027-02-11' },
      periods: [{ start: '17:30', end: '07:00', level: 100 }],
    },
  },
  {
    name: 'Lianhua park paths',
    rules: {
      mode: StrategyMode.Sensing,
      modeData: { radarCodes: ['RADAR-0001', 'RADAR-0002'], brightness: 100, holdSeconds: 60 },
      periods: [{ start: '19:00', end: '06:00', level: 20 }],
    },
  },
];

export type DemoStrategiesOutcome = 'loaded' | 'already-loaded' | 'not-a-demo-database';

/**
 * Adds the demo strategies to a demo database, once, and gives every demo lamp the first one as if it had been
 * distributed (its jobList compiled for its place): the simulator started from the registry runs it, so the demo
 * lamps light at dusk and dim after midnight by themselves. Shenzhen's district regions get the city's time zone.
 */
export async function loadDemoStrategies(databaseUrl: string, fallback: SchedulePlace): Promise<DemoStrategiesOutcome> {
  const db = new DataSource(dataSourceOptions(databaseUrl));
  await db.initialize();
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`LOCK TABLE app_setting IN EXCLUSIVE MODE`);
      const markers: { key: string }[] = await tx.query(`SELECT key FROM app_setting WHERE key IN ('demo_data', 'demo_strategies')`);
      if (!markers.some((m) => m.key === 'demo_data')) return 'not-a-demo-database';
      if (markers.some((m) => m.key === 'demo_strategies')) return 'already-loaded';

      await tx.query(`UPDATE region SET time_zone = 'Asia/Shanghai' WHERE parent_id IS NULL AND time_zone IS NULL`);
      const ids: number[] = [];
      for (const s of DEMO_STRATEGIES) {
        const [row]: { id: number }[] = await tx.query(
          `INSERT INTO strategy (family, name, mode, mode_data, periods, created_by) VALUES ('lamp', $1, $2, $3, $4, 'admin')
           ON CONFLICT (family, lower(name)) DO UPDATE SET updated_at = strategy.updated_at RETURNING id`,
          [s.name, s.rules.mode, JSON.stringify(s.rules.modeData), JSON.stringify(s.rules.periods)],
        );
        ids.push(row.id);
      }
      const lamps: { id: number }[] = await tx.query(
        `SELECT d.id FROM device d JOIN lamp l ON l.device_id = d.id WHERE d.type = $1 AND d.code LIKE 'LAMP-%' AND l.strategy_id IS NULL`,
        [DeviceType.SingleLamp],
      );
      const deviceIds = lamps.map((l) => l.id);
      const places = await lampPlaces((sql, params) => tx.query(sql, params), deviceIds, fallback);
      const [first] = DEMO_STRATEGIES;
      const schedules: LampSchedule[] = deviceIds.map((id) => ({
        strategyId: ids[0],
        name: first.name,
        rules: first.rules,
        place: (places.get(id) as { place: SchedulePlace }).place,
      }));
      await tx.query(
        `UPDATE lamp l SET strategy_id = $2, mode = $3, mode_data = $4, job_list = t.job_list
           FROM unnest($1::int[], $5::jsonb[]) AS t(device_id, job_list) WHERE l.device_id = t.device_id`,
        [deviceIds, ids[0], first.rules.mode, JSON.stringify(first.rules.modeData), schedules.map((s) => JSON.stringify(s))],
      );
      await tx.query(`INSERT INTO app_setting (key, value) VALUES ('demo_strategies', $1)`, [
        JSON.stringify({ loadedAt: new Date().toISOString(), strategies: ids.length, lamps: deviceIds.length }),
      ]);
      return 'loaded';
    });
  } finally {
    await db.destroy();
  }
}
