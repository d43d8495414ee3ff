import { FAMILIES } from '@sc/contracts';

/**
 * The families whose devices are records of their own (lamp gateways, floor-standing screens): their alarms name the
 * record (`record_id`) in the family's table, which has the id, code, name and region every device table has.
 */
const OWN_RECORD_TABLES = FAMILIES.filter((f) => f.deviceType === null).map((f, i) => ({ family: f.family, table: f.table, alias: `o${i}` }));

/**
 * The alarm's device as `d` (id, code, name, region_id), whichever it is: the registry's (`device_id`) or a record
 * of its family's own table (`record_id`); the columns are expressions the planner folds into the join. Only the
 * tables of the families given are joined (all when none are given): the lamps' alarms join the registry alone.
 */
function deviceOfAlarm(families?: readonly string[]): string {
  const own = OWN_RECORD_TABLES.filter((o) => !families || families.includes(o.family));
  const either = (column: string) =>
    own.length === 0 ? `dv.${column}` : `COALESCE(dv.${column}${own.map((o) => `, ${o.alias}.${column}`).join('')})`;
  return [
    `LEFT JOIN device dv ON dv.id = a.device_id`,
    ...own.map((o) => `LEFT JOIN ${o.table} ${o.alias} ON a.family = '${o.family}' AND ${o.alias}.id = a.record_id`),
    `CROSS JOIN LATERAL (SELECT ${either('id')} AS id, ${either('code')} AS code, ${either('name')} AS name, ${either('region_id')} AS region_id) d`,
  ].join(' ');
}

/**
 * The columns of an AlarmRow (libs/contracts alarms.ts) over ALARM_ROW_FROM: the worker publishes the rows it raised
 * or cleared and the gateway pages them, in the same shape. `deviceId` is the registry device's id, or the record's
 * id within its family.
 */
export const ALARM_ROW_COLUMNS = `a.id, a.family, d.id AS "deviceId", d.code AS "deviceCode", d.name AS "deviceName", d.region_id AS "regionId",
  r.region_name AS "regionName", a.kind, a.code, a.state, a.raised_at AS "raisedAt", a.acknowledged_at AS "acknowledgedAt",
  a.acknowledged_by AS "acknowledgedBy", a.cleared_at AS "clearedAt", a.cleared_by AS "clearedBy"`;

/**
 * Alarms `a` of these families (all when none are given) with their device `d` and its region `r` (`from`), and the
 * same without the region, for counting with the same filters (`countFrom`).
 */
export function alarmRowsFrom(families?: readonly string[]): { from: string; countFrom: string } {
  const countFrom = `device_alarm a ${deviceOfAlarm(families)}`;
  return { from: `${countFrom} LEFT JOIN region r ON r.id = d.region_id`, countFrom };
}

/** Any family's alarms with their device and its region (alarmRowsFrom). */
export const ALARM_ROW_FROM = alarmRowsFrom().from;
