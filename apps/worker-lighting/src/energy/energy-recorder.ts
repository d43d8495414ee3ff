import type { PoolClient } from 'pg';
import { DeviceFamily } from '@sc/contracts';
import type { ChangeObserver, RowChange } from '@sc/device-runtime';
import type { LampEvent } from '../families/lamp.handler';
import { DEFAULT_INTEGRATION, integrateReadings, type IntegrationOptions, type PowerReading } from './energy-integration';

/** A reading stamped this far ahead of its arrival is taken at its arrival time (a device clock running fast). */
const MAX_CLOCK_AHEAD_MS = 60_000;

function readingOf(ts: string, watts: number, arrivedAt: string): PowerReading {
  const at = Date.parse(ts);
  const arrived = Date.parse(arrivedAt);
  return { at: Number.isFinite(at) && at <= arrived + MAX_CLOCK_AHEAD_MS ? at : arrived, watts };
}

/**
 * The intake's energy part: each lamp's new power readings are integrated from the reading stored before them, and
 * added to its hourly sums (lamp_energy_hourly) in the batch's transaction, so a reading is counted exactly when
 * it replaces the stored one.
 */
export class EnergyRecorder implements ChangeObserver<DeviceFamily.Lamp> {
  readonly family = DeviceFamily.Lamp;

  constructor(private readonly options: IntegrationOptions = DEFAULT_INTEGRATION) {}

  async observe(
    client: PoolClient,
    changes: readonly RowChange<DeviceFamily.Lamp>[],
    events: ReadonlyMap<number, readonly LampEvent[]>,
  ): Promise<() => void> {
    const rows = new Map<string, { deviceId: number; hour: number; wh: number; lit: number; covered: number }>();
    for (const change of changes) {
      if (!('telemetry' in change.changed)) continue;
      const readings = (events.get(change.recordId) ?? []).flatMap((e) =>
        e.kind === 'report' && e.channel === 'telemetry' ? [readingOf(e.report.ts, e.report.power, e.at)] : [],
      );
      const before = change.before.telemetry;
      const previous = before ? { at: Date.parse(before.ts), watts: before.power } : null;
      for (const slice of integrateReadings(previous, readings, this.options)) {
        rows.set(`${change.recordId}:${slice.hour}`, {
          deviceId: change.recordId,
          hour: slice.hour,
          wh: slice.wh,
          lit: slice.litSeconds,
          covered: slice.coveredSeconds,
        });
      }
    }
    if (rows.size > 0) {
      const list = [...rows.values()].sort((a, b) => a.deviceId - b.deviceId || a.hour - b.hour);
      await client.query(
        `INSERT INTO lamp_energy_hourly AS e (device_id, hour, energy_wh, lit_seconds, covered_seconds)
         SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::float8[], $4::float8[], $5::float8[])
         ON CONFLICT (device_id, hour) DO UPDATE SET energy_wh = e.energy_wh + excluded.energy_wh,
                lit_seconds = e.lit_seconds + excluded.lit_seconds, covered_seconds = e.covered_seconds + excluded.covered_seconds`,
        [
          list.map((r) => r.deviceId),
          list.map((r) => new Date(r.hour).toISOString()),
          list.map((r) => r.wh),
          list.map((r) => r.lit),
          list.map((r) => r.covered),
        ],
      );
    }
    return () => undefined;
  }
}
