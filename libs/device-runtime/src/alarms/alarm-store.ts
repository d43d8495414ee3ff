import type { Logger } from 'pino';
import type { PoolClient } from 'pg';
import type { AlarmChangedEvent, AlarmKind, AlarmRow, FamilyName, FaultCode } from '@sc/contracts';
import { ALARM_ROW_COLUMNS, ALARM_ROW_FROM } from '@sc/database';
import type { RedisBus } from '@sc/messaging';

/** An alarm to raise, or the open alarm of that device and condition to clear. */
export interface AlarmTransition {
  /** The registry device's id; for a family whose devices are records of their own (`ownRecord`), the record's. */
  deviceId: number;
  family: FamilyName;
  /** The device is a record of its family's own table (lamp gateways, floor screens), not a registry device. */
  ownRecord?: boolean;
  kind: AlarmKind;
  /** The fault code for kind fault; 0 otherwise. */
  code: FaultCode | 0;
  raise: boolean;
  /** ISO time it happened. */
  at: string;
}

export interface AlarmChange {
  change: 'raised' | 'cleared';
  alarm: AlarmRow;
}

/**
 * Raises and clears device alarms inside the caller's transaction. Raising an alarm that is already open, or clearing
 * one that is not, changes nothing (a partial unique index keeps one open alarm per device and condition), so two
 * replicas or a redelivered message cannot double an alarm; only rows that really changed are reported.
 */
export class AlarmStore {
  async apply(client: PoolClient, transitions: readonly AlarmTransition[]): Promise<AlarmChange[]> {
    const done: { id: number; change: AlarmChange['change'] }[] = [];
    // Alarms are rare next to telemetry: one statement per transition keeps a raise-then-clear of one batch in order.
    for (const t of transitions) {
      // A registry device's alarm names it in device_id; a record of a family's own table in record_id (with the family).
      const column = t.ownRecord ? 'record_id' : 'device_id';
      // The open-alarm index of that kind of device makes a second raise a no-op (any other conflict is an error).
      const openAlarm = t.ownRecord
        ? `(family, record_id, kind, code) WHERE state <> 'cleared' AND record_id IS NOT NULL`
        : `(device_id, kind, code) WHERE state <> 'cleared'`;
      const { rows } = t.raise
        ? await client.query<{ id: number }>(
            `INSERT INTO device_alarm (${column}, family, kind, code, raised_at) VALUES ($1, $5, $2, $3, $4)
             ON CONFLICT ${openAlarm} DO NOTHING RETURNING id`,
            [t.deviceId, t.kind, t.code, t.at, t.family],
          )
        : await client.query<{ id: number }>(
            `UPDATE device_alarm SET state = 'cleared', cleared_at = $4, cleared_by = NULL
              WHERE ${column} = $1 AND family = $5 AND kind = $2 AND code = $3 AND state <> 'cleared' RETURNING id`,
            [t.deviceId, t.kind, t.code, t.at, t.family],
          );
      for (const row of rows) done.push({ id: row.id, change: t.raise ? 'raised' : 'cleared' });
    }
    if (done.length === 0) return [];
    const { rows } = await client.query<AlarmRow>(`SELECT ${ALARM_ROW_COLUMNS} FROM ${ALARM_ROW_FROM} WHERE a.id = ANY($1::int[])`, [
      [...new Set(done.map((d) => d.id))],
    ]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return done.flatMap(({ id, change }) => {
      const alarm = byId.get(id);
      return alarm ? [{ change, alarm }] : [];
    });
  }
}

/** Publishes AlarmChanged after the commit, so a console never shows an alarm that was rolled back. */
export class AlarmNotifier {
  constructor(
    private readonly bus: RedisBus,
    private readonly logger: Logger,
  ) {}

  notify(changes: readonly AlarmChange[]): void {
    const at = new Date().toISOString();
    for (const { change, alarm } of changes) {
      const event: AlarmChangedEvent = { family: alarm.family, change, alarm, at };
      this.bus.publish('AlarmChanged', event).catch((err: Error) => this.logger.warn({ err: err.message }, 'AlarmChanged not published'));
    }
  }
}
