/**
 * The columns of an AlarmRow (libs/contracts alarms.ts) over `device_alarm a JOIN device d LEFT JOIN region r`:
 * the worker publishes the rows it raised or cleared and the gateway pages them, in the same shape.
 */
export const ALARM_ROW_COLUMNS = `a.id, a.family, a.device_id AS "deviceId", d.code AS "deviceCode", d.name AS "deviceName", d.region_id AS "regionId",
  r.region_name AS "regionName", a.kind, a.code, a.state, a.raised_at AS "raisedAt", a.acknowledged_at AS "acknowledgedAt",
  a.acknowledged_by AS "acknowledgedBy", a.cleared_at AS "clearedAt", a.cleared_by AS "clearedBy"`;

export const ALARM_ROW_FROM = `device_alarm a JOIN device d ON d.id = a.device_id LEFT JOIN region r ON r.id = d.region_id`;
