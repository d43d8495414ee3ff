import { DataSource } from 'typeorm';
import { AlarmKind, FaultCode } from '@sc/contracts';
import { dataSourceOptions } from '@sc/database';
import { DEMO_LAMPS } from './demo-lamps';

/** Days of energy history the demo starts with, so the month's charts are not empty on the first day. */
export const DEMO_ENERGY_DAYS = 30;

/** Alarms the demo starts with: a few still open (the lamps keep the fault), the rest in the history. */
const DEMO_ALARMS: readonly { lamp: number; kind: AlarmKind; code: FaultCode | 0; hoursAgo: number; open?: boolean; acknowledged?: boolean }[] = [
  { lamp: 7, kind: AlarmKind.Fault, code: FaultCode.ALedFailure, hoursAgo: 5, open: true },
  { lamp: 42, kind: AlarmKind.Fault, code: FaultCode.VoltageLow, hoursAgo: 30, open: true, acknowledged: true },
  { lamp: 118, kind: AlarmKind.Fault, code: FaultCode.NotGrounded, hoursAgo: 2, open: true },
  { lamp: 15, kind: AlarmKind.Fault, code: FaultCode.TemperatureHigh, hoursAgo: 50 },
  { lamp: 88, kind: AlarmKind.Fault, code: FaultCode.BFlashes, hoursAgo: 75, acknowledged: true },
  { lamp: 160, kind: AlarmKind.DayBurning, code: 0, hoursAgo: 100, acknowledged: true },
  { lamp: 203, kind: AlarmKind.DarkLamp, code: 0, hoursAgo: 140 },
  { lamp: 250, kind: AlarmKind.Fault, code: FaultCode.VoltageHigh, hoursAgo: 200 },
];

export type DemoAlarmsEnergyOutcome = 'loaded' | 'already-loaded' | 'not-a-demo-database';

/**
 * Gives a demo database, once, a month of hourly energy for every demo lamp (lit dusk to dawn, dimmed to 40 % after
 * midnight, as the demo's strategy runs them) and a few alarms, some open. From then on the simulated lamps' readings
 * and faults add to both live.
 */
export async function loadDemoAlarmsAndEnergy(databaseUrl: string, timeZone: string): Promise<DemoAlarmsEnergyOutcome> {
  const db = new DataSource(dataSourceOptions(databaseUrl));
  await db.initialize();
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`LOCK TABLE app_setting IN EXCLUSIVE MODE`);
      const markers: { key: string }[] = await tx.query(`SELECT key FROM app_setting WHERE key IN ('demo_data', 'demo_alarms_energy')`);
      if (!markers.some((m) => m.key === 'demo_data')) return 'not-a-demo-database';
      if (markers.some((m) => m.key === 'demo_alarms_energy')) return 'already-loaded';
      const codes = DEMO_LAMPS.map((l) => l.code);
      // Watts by local hour: full from 18:00, 40 % from midnight, full again 05:00 to 06:00, standby by day.
      await tx.query(
        `INSERT INTO lamp_energy_hourly (device_id, hour, energy_wh, lit_seconds, covered_seconds)
         SELECT d.id, h, w.watts * (0.97 + random() * 0.05), CASE WHEN w.watts > 2 THEN 3600 ELSE 0 END, 3600
           FROM device d JOIN lamp l ON l.device_id = d.id
          CROSS JOIN generate_series(date_trunc('hour', now()) - $3 * interval '1 day', date_trunc('hour', now()) - interval '1 hour', interval '1 hour') h
          CROSS JOIN LATERAL (SELECT CASE WHEN extract(hour FROM h AT TIME ZONE $2) >= 18 OR extract(hour FROM h AT TIME ZONE $2) = 5 THEN l.rated_power
                                          WHEN extract(hour FROM h AT TIME ZONE $2) < 5 THEN l.rated_power * 0.4
                                          ELSE 0.6 END AS watts) w
          WHERE d.code = ANY($1::text[])
         ON CONFLICT DO NOTHING`,
        [codes, timeZone, DEMO_ENERGY_DAYS],
      );
      for (const alarm of DEMO_ALARMS) {
        const code = codes[alarm.lamp - 1];
        const [row]: { device_id: number }[] = await tx.query(
          `INSERT INTO device_alarm (device_id, family, kind, code, state, raised_at, acknowledged_at, acknowledged_by, cleared_at)
           SELECT d.id, 'lamp', $2, $3, $4, now() - $5 * interval '1 hour',
                  CASE WHEN $6 THEN now() - ($5 - 1) * interval '1 hour' END, CASE WHEN $6 THEN 'admin' END,
                  CASE WHEN $7 THEN NULL ELSE now() - ($5 - 3) * interval '1 hour' END
             FROM device d WHERE d.code = $1
           RETURNING device_id`,
          [
            code,
            alarm.kind,
            alarm.code,
            alarm.open ? (alarm.acknowledged ? 'acknowledged' : 'active') : 'cleared',
            alarm.hoursAgo,
            !!alarm.acknowledged,
            !!alarm.open,
          ],
        );
        // An open fault is one the lamp still has.
        if (row && alarm.open && alarm.kind === AlarmKind.Fault) {
          await tx.query(`UPDATE lamp SET faults = array(SELECT DISTINCT unnest(faults || $2::smallint)) WHERE device_id = $1`, [
            row.device_id,
            alarm.code,
          ]);
        }
      }
      await tx.query(`INSERT INTO app_setting (key, value) VALUES ('demo_alarms_energy', $1)`, [
        JSON.stringify({ loadedAt: new Date().toISOString(), days: DEMO_ENERGY_DAYS, alarms: DEMO_ALARMS.length }),
      ]);
      return 'loaded';
    });
  } finally {
    await db.destroy();
  }
}
