import type { Logger } from 'pino';
import type { PoolClient } from 'pg';
import { CallDirection, CallType, DeviceFamily, IncidentActionKind, type AlarmLevel, type AlarmPressedEvent } from '@sc/contracts';
import { groupOfColumn, logIncidentAction } from '@sc/database';
import { believedTime, type ChangeObserver, type DeviceEvent, type RowChange } from '@sc/device-runtime';
import type { RedisBus } from '@sc/messaging';
import type { CallRouter } from '../calls/call-router';
import type { AlarmEvent } from '../families/alarm.handler';

/** One press of a write, before it is stored. */
export interface PressToStore {
  columnId: number;
  code: string;
  level: AlarmLevel;
  ts: string;
  at: string;
  /** The column's press count once this press is counted. */
  pressCount: number;
}

/** The presses of one write, in each column's order, each with the count it brings the column to. Pure, for the unit tests. */
export function pressesOf(changes: readonly RowChange<DeviceFamily.Alarm>[], events: ReadonlyMap<number, readonly DeviceEvent[]>): PressToStore[] {
  return changes.flatMap((change) => {
    let count = change.before.pressCount;
    return ((events.get(change.recordId) ?? []) as readonly AlarmEvent[]).flatMap((e) =>
      e.kind === 'report' && e.channel === 'event' && e.report.kind === 'press'
        ? [
            {
              columnId: change.recordId,
              code: change.deviceCode,
              level: e.report.level as AlarmLevel,
              ts: believedTime(e.report.ts, e.at),
              at: e.at,
              pressCount: ++count,
            },
          ]
        : [],
    );
  });
}

/** The user group whose agents take a column's calls (groupOfColumn); `$1` is the column's device id. */
export const GROUP_OF_COLUMN = groupOfColumn('$1');

/**
 * Records every press of an alarm column's button in `alarm_press`, in the transaction that stores the column's row
 * (its last press and count), and opens its incident there with its call (incoming, waiting for an agent of the
 * column's user group for `waitMs` at most). Once the transaction has committed it announces each press
 * (AlarmPressed) and incident (IncidentChanged), so the consoles show it at once, and has the call router offer the
 * calls. Presses are rare (a few a day a column at most): a few statements each.
 */
export class PressRecorder implements ChangeObserver<DeviceFamily.Alarm> {
  readonly family = DeviceFamily.Alarm;

  constructor(
    private readonly bus: RedisBus,
    private readonly logger: Logger,
    private readonly router: CallRouter,
    private readonly waitMs: number,
  ) {}

  async observe(
    client: PoolClient,
    changes: readonly RowChange<DeviceFamily.Alarm>[],
    events: ReadonlyMap<number, readonly DeviceEvent[]>,
  ): Promise<() => void> {
    const announced: AlarmPressedEvent[] = [];
    const incidents: string[] = [];
    for (const press of pressesOf(changes, events)) {
      const [{ id }]: { id: string }[] = (
        await client.query(
          `INSERT INTO alarm_press (device_id, device_code, region_id, level, pressed_at, stored_at)
           VALUES ($1, $2, (SELECT region_id FROM device WHERE id = $1), $3, $4, $5) RETURNING id::text`,
          [press.columnId, press.code, press.level, press.ts, press.at],
        )
      ).rows;
      const incident = await this.open(client, id, press);
      incidents.push(incident);
      announced.push({
        family: DeviceFamily.Alarm,
        pressId: id,
        columnId: press.columnId,
        code: press.code,
        level: press.level,
        ts: press.ts,
        at: press.at,
        pressCount: press.pressCount,
      });
    }
    return () => {
      if (announced.length === 0) return;
      for (const event of announced) {
        this.bus.publish('AlarmPressed', event).catch((err: Error) => this.logger.warn({ err: err.message }, 'AlarmPressed not published'));
      }
      this.router.announce(incidents).catch((err: Error) => this.logger.warn({ err: err.message }, 'IncidentChanged not published'));
      this.router.kick();
    };
  }

  /** The press's incident and its incoming call, waiting for an agent; answers the incident's id. */
  private async open(client: PoolClient, pressId: string, press: PressToStore): Promise<string> {
    const [{ id }]: { id: string }[] = (
      await client.query(
        `INSERT INTO alarm_incident (press_id, device_id, device_code, device_name, region_id, group_id, level, pressed_at)
         SELECT $2, d.id, $3, d.name, d.region_id, ${GROUP_OF_COLUMN}, $4, $5 FROM device d WHERE d.id = $1
         RETURNING id::text`,
        [press.columnId, pressId, press.code, press.level, press.ts],
      )
    ).rows;
    await client.query(
      `INSERT INTO alarm_call (incident_id, device_id, device_code, device_name, column_sip, group_id, call_type, direction,
                               started_at, wait_until)
       SELECT i.id, i.device_id, i.device_code, i.device_name, COALESCE(a.sip_account, ''), i.group_id, $2, $3, $4::timestamptz,
              $4::timestamptz + make_interval(secs => $5::double precision / 1000)
         FROM alarm_incident i LEFT JOIN alarm_column a ON a.device_id = i.device_id WHERE i.id = $1`,
      [id, CallType.OnNet, CallDirection.Incoming, press.at, this.waitMs],
    );
    await logIncidentAction(client, id, IncidentActionKind.Pressed, { level: press.level });
    return id;
  }
}
