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

/** The alarm a transition raises or clears: its device (registry or own record), condition and code. */
function alarmKey(t: AlarmTransition): string {
  return `${t.ownRecord ? 'r' : 'd'}|${t.family}|${t.deviceId}|${t.kind}|${t.code}`;
}

/**
 * The transitions in rounds, each alarm at most once a round and in the order given (a raise, then its clear, of one
 * batch): a round is written with one statement of each sort, however many devices it moves.
 */
export function alarmRounds(transitions: readonly AlarmTransition[]): AlarmTransition[][] {
  const rounds: AlarmTransition[][] = [];
  const next = new Map<string, number>();
  for (const t of transitions) {
    const key = alarmKey(t);
    const round = next.get(key) ?? 0;
    next.set(key, round + 1);
    (rounds[round] ??= []).push(t);
  }
  return rounds;
}

/** Where an alarm names its device, and the open-alarm index that makes a second raise of it a no-op. */
const SUBJECTS = [
  { ownRecord: false, column: 'device_id', openAlarm: `(device_id, kind, code) WHERE state <> 'cleared'` },
  { ownRecord: true, column: 'record_id', openAlarm: `(family, record_id, kind, code) WHERE state <> 'cleared' AND record_id IS NOT NULL` },
] as const;

/**
 * Raises and clears device alarms inside the caller's transaction. Raising an alarm that is already open, or clearing
 * one that is not, changes nothing (a partial unique index keeps one open alarm per device and condition), so two
 * replicas or a redelivered message cannot double an alarm; only rows that really changed are reported. A fleet
 * dropping off or coming back at once (a broker restart) is a few statements, not one per device.
 */
export class AlarmStore {
  async apply(client: PoolClient, transitions: readonly AlarmTransition[]): Promise<AlarmChange[]> {
    const done: { id: number; change: AlarmChange['change'] }[] = [];
    for (const round of alarmRounds(transitions)) {
      for (const { ownRecord, column, openAlarm } of SUBJECTS) {
        const of = (raise: boolean) => round.filter((t) => Boolean(t.ownRecord) === ownRecord && t.raise === raise);
        const columns = (list: AlarmTransition[]) => [
          list.map((t) => t.deviceId),
          list.map((t) => t.family),
          list.map((t) => t.kind),
          list.map((t) => t.code),
          list.map((t) => t.at),
        ];
        const raises = of(true);
        if (raises.length > 0) {
          // Any conflict but the open-alarm index's is an error.
          const { rows } = await client.query<{ id: number }>(
            `INSERT INTO device_alarm (${column}, family, kind, code, raised_at)
             SELECT * FROM unnest($1::int[], $2::varchar[], $3::varchar[], $4::smallint[], $5::timestamptz[])
             ON CONFLICT ${openAlarm} DO NOTHING RETURNING id`,
            columns(raises),
          );
          for (const row of rows) done.push({ id: row.id, change: 'raised' });
        }
        const clears = of(false);
        if (clears.length > 0) {
          const { rows } = await client.query<{ id: number }>(
            `UPDATE device_alarm a SET state = 'cleared', cleared_at = v.at, cleared_by = NULL
               FROM unnest($1::int[], $2::varchar[], $3::varchar[], $4::smallint[], $5::timestamptz[]) AS v(subject, family, kind, code, at)
              WHERE a.${column} = v.subject AND a.family = v.family AND a.kind = v.kind AND a.code = v.code AND a.state <> 'cleared'
              RETURNING a.id`,
            columns(clears),
          );
          for (const row of rows) done.push({ id: row.id, change: 'cleared' });
        }
      }
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
