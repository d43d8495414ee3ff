import type { AlarmColumnFilters } from '@sc/contracts';
import { REGION_AND_BELOW } from '../common/device-selection';
import { Where, likeContains } from '../common/sql';

/** The alarm columns over `device d JOIN alarm_column a`, with their region r and pole p. */
export const ALARM_COLUMN_FROM = `device d JOIN alarm_column a ON a.device_id = d.id
  LEFT JOIN region r ON r.id = d.region_id LEFT JOIN device p ON p.id = d.pole_id`;

/** One row of the list (AlarmColumnRow). */
export const ALARM_COLUMN_COLUMNS = `d.id, d.name, d.code, a.sip_account AS "sipAccount", d.latitude, d.longitude,
  d.region_id AS "regionId", r.region_name AS "regionName", d.pole_id AS "poleId", p.code AS "poleCode", p.name AS "poleName",
  a.network_status AS "networkStatus", a.ip_address AS "ipAddress", a.swver, a.hwver, a.volume, a.reported_at AS "reportedAt",
  a.last_press_at AS "lastPressAt", a.last_press_level AS "lastPressLevel", a.press_count AS "pressCount"`;

/** The list's filters over `device d JOIN alarm_column a`, shared by the page and the export. */
export function alarmColumnWhere(f: AlarmColumnFilters): Where {
  return (
    new Where()
      // The name, the code or the SIP account (the separator keeps a match from spanning two).
      .addIf(f.name, `lower(d.name || chr(1) || d.code || chr(1) || a.sip_account) LIKE ?`, f.name && likeContains(f.name))
      .addIf(f.regionId, `d.region_id IN (${REGION_AND_BELOW})`)
      .addIf(f.networkStatus, `a.network_status = ?`)
  );
}
