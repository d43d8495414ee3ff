import type { PoolClient } from 'pg';
import type { FamilyName } from '@sc/contracts';
import type { ChangeObserver, DeviceEvent } from '@sc/device-runtime';

interface Sample {
  id: number;
  minute: string;
  cpu: number;
  memory: number;
  disk: number;
  clients: number | null;
}

/** The last load report of each device in a write, as the sample of its minute. Pure, for the unit tests. */
export function samplesOf(events: ReadonlyMap<number, readonly DeviceEvent[]>): Sample[] {
  const samples: Sample[] = [];
  for (const [id, list] of events) {
    for (let i = list.length - 1; i >= 0; i--) {
      const event = list[i];
      if (event.kind !== 'report' || event.channel === 'event') continue;
      const r = event.report as { cpuRatio: number; memoryRatio: number; diskRatio: number; clients?: number };
      const minute = new Date(Math.floor(Date.parse(event.at) / 60_000) * 60_000).toISOString();
      samples.push({ id, minute, cpu: r.cpuRatio, memory: r.memoryRatio, disk: r.diskRatio, clients: r.clients ?? null });
      break;
    }
  }
  return samples;
}

/**
 * Keeps the load of a Wi-Fi family's devices over time (`wifi_load_sample`): the last reading of each minute, written
 * in the same transaction as their rows, for the charts of the last day and the client counts over time.
 */
export class LoadSamples<F extends FamilyName> implements ChangeObserver<F> {
  constructor(readonly family: F) {}

  async observe(client: PoolClient, _changes: unknown, events: ReadonlyMap<number, readonly DeviceEvent[]>): Promise<void> {
    const samples = samplesOf(events);
    if (samples.length === 0) return;
    await client.query(
      `INSERT INTO wifi_load_sample (device_id, minute, cpu_ratio, memory_ratio, disk_ratio, client_count)
       SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::real[], $4::real[], $5::real[], $6::int[])
       ON CONFLICT (device_id, minute) DO UPDATE SET cpu_ratio = excluded.cpu_ratio, memory_ratio = excluded.memory_ratio,
         disk_ratio = excluded.disk_ratio, client_count = excluded.client_count`,
      [
        samples.map((s) => s.id),
        samples.map((s) => s.minute),
        samples.map((s) => s.cpu),
        samples.map((s) => s.memory),
        samples.map((s) => s.disk),
        samples.map((s) => s.clients),
      ],
    );
  }
}
