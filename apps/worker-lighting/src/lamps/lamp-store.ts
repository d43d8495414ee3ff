import type { Logger } from 'pino';
import type { PoolClient } from 'pg';
import { DeviceFamily, type LampStatus, type OnlineState } from '@sc/contracts';
import type { RedisBus } from '@sc/messaging';
import { applyLampEvents, changedLampFields, type LampEvent, type LampFields } from './lamp-state';

export interface LampChange {
  deviceId: number;
  deviceCode: string;
  changed: Partial<LampFields>;
  /** The lamp before this batch (alarms and energy read the faults and the last reading it replaced). */
  before: LampFields;
}

interface LampDbRow {
  device_id: number;
  code: string;
  status: number;
  network_status: number;
  switch_state: number;
  bri: number;
  telemetry: LampFields['telemetry'];
  faults: number[];
  reported_at: Date | null;
  gateway_id: string;
  hardware_version: string;
  software_version: string;
  total_illumination_hours: number | null;
}

function fieldsOf(row: LampDbRow): LampFields {
  return {
    status: row.status as LampStatus,
    networkStatus: row.network_status as OnlineState,
    switchState: row.switch_state === 1 ? 1 : 0,
    bri: row.bri as LampFields['bri'],
    telemetry: row.telemetry,
    faults: row.faults,
    reportedAt: row.reported_at?.toISOString() ?? null,
    gatewayId: row.gateway_id,
    hardwareVersion: row.hardware_version,
    softwareVersion: row.software_version,
    totalIlluminationHours: row.total_illumination_hours,
  };
}

/**
 * Applies lamp events to many lamps with two statements: the rows are locked (in id order, so concurrent batches
 * cannot deadlock on them), the rules of lamp-state.ts compute the new fields, and one UPDATE writes every lamp
 * that changed. Runs inside the caller's transaction, so ledger rows and lamp fields change together.
 */
export class LampStore {
  async apply(client: PoolClient, events: ReadonlyMap<number, readonly LampEvent[]>): Promise<LampChange[]> {
    if (events.size === 0) return [];
    const { rows } = await client.query<LampDbRow>(
      `SELECT l.*, d.code FROM lamp l JOIN device d ON d.id = l.device_id
        WHERE l.device_id = ANY($1::int[]) ORDER BY l.device_id FOR UPDATE OF l`,
      [[...events.keys()]],
    );
    const changes: LampChange[] = [];
    const updated: { id: number; lamp: LampFields }[] = [];
    for (const row of rows) {
      const before = fieldsOf(row);
      const after = applyLampEvents(before, events.get(row.device_id) ?? []);
      const changed = changedLampFields(before, after);
      if (Object.keys(changed).length === 0) continue;
      changes.push({ deviceId: row.device_id, deviceCode: row.code, changed, before });
      updated.push({ id: row.device_id, lamp: after });
    }
    if (updated.length === 0) return changes;
    const column = <T>(pick: (lamp: LampFields) => T) => updated.map((u) => pick(u.lamp));
    await client.query(
      `UPDATE lamp l SET status = u.status, network_status = u.network_status, switch_state = u.switch_state, bri = u.bri,
              telemetry = u.telemetry, faults = u.faults::smallint[], reported_at = u.reported_at, gateway_id = u.gateway_id,
              hardware_version = u.hardware_version, software_version = u.software_version, total_illumination_hours = u.hours
         FROM unnest($1::int[], $2::smallint[], $3::smallint[], $4::smallint[], $5::smallint[], $6::jsonb[], $7::text[],
                     $8::timestamptz[], $9::text[], $10::text[], $11::text[], $12::int[])
              AS u(device_id, status, network_status, switch_state, bri, telemetry, faults, reported_at, gateway_id,
                   hardware_version, software_version, hours)
        WHERE l.device_id = u.device_id`,
      [
        updated.map((u) => u.id),
        column((l) => l.status),
        column((l) => l.networkStatus),
        column((l) => l.switchState),
        column((l) => l.bri),
        column((l) => (l.telemetry === null ? null : JSON.stringify(l.telemetry))),
        column((l) => `{${l.faults.join(',')}}`),
        column((l) => l.reportedAt),
        column((l) => l.gatewayId),
        column((l) => l.hardwareVersion),
        column((l) => l.softwareVersion),
        column((l) => l.totalIlluminationHours),
      ],
    );
    return changes;
  }
}

/** Publishes DeviceStateChanged for stored lamp changes; after the commit, so listeners never see a change that was rolled back. */
export class LampChangeNotifier {
  constructor(
    private readonly bus: RedisBus,
    private readonly logger: Logger,
  ) {}

  notify(changes: readonly LampChange[]): void {
    const at = new Date().toISOString();
    for (const change of changes) {
      this.bus
        .publish('DeviceStateChanged', {
          family: DeviceFamily.Lamp,
          recordId: change.deviceId,
          deviceCode: change.deviceCode,
          changed: change.changed,
          at,
        })
        .catch((err: Error) => this.logger.warn({ err: err.message }, 'DeviceStateChanged not published'));
    }
  }
}
