import type { Logger } from 'pino';
import type { PoolClient } from 'pg';
import {
  DeviceFamily,
  DeviceType,
  stripEffectOf,
  stripStatusLabels,
  type LampSchedule,
  type LampStatus,
  type OnlineState,
  type StripCommand,
} from '@sc/contracts';
import { parseLampTelemetry, parseStripState, type RedisBus } from '@sc/messaging';
import type { CommonDeviceEvent, FamilyStore } from '../intake/family-store';
import { applyStripEvents, changedStripFields, type StripEvent, type StripFields } from './strip-state';

interface StripDbRow {
  device_id: number;
  code: string;
  status: number;
  network_status: number;
  bri: number;
  zones: StripFields['zones'];
  telemetry: StripFields['telemetry'];
  faults: number[];
  reported_at: Date | null;
  gateway_id: string;
  hardware_version: string;
  software_version: string;
}

function fieldsOf(row: StripDbRow): StripFields {
  return {
    status: row.status as LampStatus,
    networkStatus: row.network_status as OnlineState,
    bri: row.bri,
    zones: row.zones,
    telemetry: row.telemetry,
    faults: row.faults,
    reportedAt: row.reported_at?.toISOString() ?? null,
    gatewayId: row.gateway_id,
    hardwareVersion: row.hardware_version,
    softwareVersion: row.software_version,
  };
}

/**
 * Strip lights (family `strip`): their traffic, their effect commands, and their rows in `strip_light`, changed
 * like lamps' (rows locked in id order, one UPDATE for the batch) and announced with DeviceStateChanged after the
 * commit. A change of status or faults carries the recomputed status labels.
 */
export class StripStore implements FamilyStore<StripEvent> {
  readonly family = DeviceFamily.Strip;
  readonly deviceType = DeviceType.LightStrip;

  constructor(
    private readonly bus: RedisBus,
    private readonly logger: Logger,
  ) {}

  parse(channel: 'state' | 'telemetry', payload: Buffer, at: string): StripEvent | null {
    if (channel === 'state') {
      const state = parseStripState(payload);
      return state && { kind: 'state', state, at };
    }
    const telemetry = parseLampTelemetry(payload);
    return telemetry && { kind: 'telemetry', telemetry, at };
  }

  commandOf(action: string, params: unknown): Pick<StripCommand, 'type' | 'params'> | null {
    if (action === 'schedule') return isSchedule(params) ? { type: 'schedule', params } : null;
    const effect = stripEffectOf(params);
    return effect && { type: 'effect', params: effect };
  }

  /** An effect leaves its zones as applyStripEffect says; a schedule changes nothing until the strip reports its level. */
  delivered(action: string, params: unknown): StripEvent {
    return { kind: 'delivered', effect: action === 'schedule' ? null : stripEffectOf(params) };
  }

  async apply(client: PoolClient, events: ReadonlyMap<number, readonly (StripEvent | CommonDeviceEvent)[]>): Promise<() => void> {
    if (events.size === 0) return () => undefined;
    const { rows } = await client.query<StripDbRow>(
      `SELECT s.*, d.code FROM strip_light s JOIN device d ON d.id = s.device_id
        WHERE s.device_id = ANY($1::int[]) ORDER BY s.device_id FOR UPDATE OF s`,
      [[...events.keys()]],
    );
    const changes: { deviceId: number; deviceCode: string; changed: Record<string, unknown> }[] = [];
    const updated: { id: number; strip: StripFields }[] = [];
    for (const row of rows) {
      const before = fieldsOf(row);
      const after = applyStripEvents(before, events.get(row.device_id) ?? []);
      const changed: Record<string, unknown> = changedStripFields(before, after);
      if (Object.keys(changed).length === 0) continue;
      if ('status' in changed || 'faults' in changed) changed.statusLabels = stripStatusLabels(after.status, after.faults);
      if ('zones' in changed) changed.color = after.zones?.L.color ?? after.zones?.R.color ?? '';
      changes.push({ deviceId: row.device_id, deviceCode: row.code, changed });
      updated.push({ id: row.device_id, strip: after });
    }
    if (updated.length > 0) {
      const column = <T>(pick: (strip: StripFields) => T) => updated.map((u) => pick(u.strip));
      await client.query(
        `UPDATE strip_light s SET status = u.status, network_status = u.network_status, bri = u.bri, zones = u.zones,
                telemetry = u.telemetry, faults = u.faults::smallint[], reported_at = u.reported_at, gateway_id = u.gateway_id,
                hardware_version = u.hardware_version, software_version = u.software_version
           FROM unnest($1::int[], $2::smallint[], $3::smallint[], $4::smallint[], $5::jsonb[], $6::jsonb[], $7::text[],
                       $8::timestamptz[], $9::text[], $10::text[], $11::text[])
                AS u(device_id, status, network_status, bri, zones, telemetry, faults, reported_at, gateway_id, hardware_version, software_version)
          WHERE s.device_id = u.device_id`,
        [
          updated.map((u) => u.id),
          column((s) => s.status),
          column((s) => s.networkStatus),
          column((s) => s.bri),
          column((s) => (s.zones === null ? null : JSON.stringify(s.zones))),
          column((s) => (s.telemetry === null ? null : JSON.stringify(s.telemetry))),
          column((s) => `{${s.faults.join(',')}}`),
          column((s) => s.reportedAt),
          column((s) => s.gatewayId),
          column((s) => s.hardwareVersion),
          column((s) => s.softwareVersion),
        ],
      );
    }
    return () => {
      const at = new Date().toISOString();
      for (const change of changes) {
        this.bus
          .publish('DeviceStateChanged', {
            family: DeviceFamily.Strip,
            recordId: change.deviceId,
            deviceCode: change.deviceCode,
            changed: change.changed,
            at,
          })
          .catch((err: Error) => this.logger.warn({ err: err.message }, 'DeviceStateChanged not published'));
      }
    };
  }
}

/** Enough of a schedule to send: the gateway validated the rules when it compiled it. */
function isSchedule(params: unknown): params is LampSchedule {
  const p = params as Partial<LampSchedule> | null;
  return !!p && typeof p.strategyId === 'number' && !!p.rules && !!p.place && typeof p.place.timeZone === 'string';
}
