import { AP_FAMILY, MAC_PATTERN, OnlineState, type WifiClientFilters } from '@sc/contracts';
import { REGION_AND_BELOW } from '../common/device-selection';
import { Where, likeContains, likeStarts } from '../common/sql';

export interface WifiDeviceFilters {
  name?: string;
  regionId?: number;
  networkStatus?: OnlineState;
  /** Access points only: those of this controller. */
  acId?: number;
}

export interface WifiSessionFilters extends WifiClientFilters {
  from: string;
  to: string;
  minDuration?: number;
}

/** Access controllers over `device d JOIN wifi_ac w`, with their region r and pole p. */
export const AC_FROM = `device d JOIN wifi_ac w ON w.device_id = d.id
  LEFT JOIN region r ON r.id = d.region_id LEFT JOIN device p ON p.id = d.pole_id`;

/** Access points over `device d JOIN wifi_ap w`, with their controller c, region r and pole p. */
export const AP_FROM = `device d JOIN wifi_ap w ON w.device_id = d.id JOIN device c ON c.id = w.ac_id
  LEFT JOIN region r ON r.id = d.region_id LEFT JOIN device p ON p.id = d.pole_id`;

/** The columns both lists share: the record, its place and what it reports. */
const DEVICE_COLUMNS = `d.id, d.name AS "devName", d.code AS "devSN", w.dev_mac AS "devMac", w.dev_model AS "devModel", w.dev_type AS "devType",
  d.region_id AS "regionId", r.region_name AS "regionName", d.pole_id AS "poleId", p.code AS "poleCode", p.name AS "poleName",
  w.network_status AS "networkStatus", w.cpu_ratio AS "cpuRatio", w.memory_ratio AS "memoryRatio", w.disk_ratio AS "diskRatio",
  w.software_version AS "softwareVersion", w.reported_at AS "reportedAt"`;

export const AC_COLUMNS = `${DEVICE_COLUMNS},
  (SELECT count(*)::int FROM wifi_ap a WHERE a.ac_id = d.id) AS "apCount",
  (SELECT count(*)::int FROM wifi_ap a WHERE a.ac_id = d.id AND a.network_status = ${OnlineState.Online}) AS "apOnline"`;

export const AP_COLUMNS = `${DEVICE_COLUMNS}, w.ac_id AS "acId", c.name AS "acName", c.code AS "acSN", w.client_count AS "clientCount"`;

/** Either list's filters, shared by its page and its export (imports/wifi-import.table.ts): name, serial number or MAC; region and below; online or not. */
export function wifiDeviceWhere(f: WifiDeviceFilters): Where {
  return new Where()
    .addIf(f.name, `lower(d.name || chr(1) || d.code || chr(1) || w.dev_mac) LIKE ?`, f.name && likeContains(f.name))
    .addIf(f.regionId, `d.region_id IN (${REGION_AND_BELOW})`)
    .addIf(f.networkStatus, `w.network_status = ?`)
    .addIf(f.acId, `w.ac_id = ?`);
}

/**
 * A client's address from its start: its MAC (any case) or its IP address, whole or their first part ('02:1a',
 * '10.42.'); each is an index range in the history (the address with the date). IPv6 addresses are kept in lower case.
 * A whole MAC (no IP address is written so) is one client: an equality, which PostgreSQL estimates from the column's
 * distinct values, where a prefix is estimated from a histogram that can be off by a thousand times for one client
 * and then make it walk a month of sessions in date order looking for its few.
 */
function addClient(where: Where, client: string | undefined): Where {
  const text = client?.trim();
  if (!text) return where;
  if (MAC_PATTERN.test(text)) return where.add(`t.client_mac = ?`, text.toUpperCase());
  return where.addSame(`(t.client_mac LIKE upper(?) OR t.client_ip LIKE lower(?))`, likeStarts(text));
}

/** Who is online now (`wifi_client t`): the access point's controller and region as they are. */
export function wifiClientWhere(f: WifiClientFilters): Where {
  return addClient(new Where(), f.client)
    .addIf(f.apId, `t.ap_id = ?`)
    .addIf(f.acId, `t.ap_id IN (SELECT device_id FROM wifi_ap WHERE ac_id = ?)`)
    .addIf(f.clientSsid, `t.client_ssid = ?`)
    .addIf(f.regionId, `t.ap_id IN (SELECT id FROM device WHERE type = ${AP_FAMILY.deviceType} AND region_id IN (${REGION_AND_BELOW}))`);
}

/**
 * The history's window and filters (`wifi_session t`): sessions that ended from `from` up to `to` (the partitions of
 * those months only), by the controller and region their access point had then (each an index with the date).
 */
export function wifiSessionWhere(f: WifiSessionFilters): Where {
  const where = new Where().add(`t.off_line_date >= ?::timestamptz`, f.from).add(`t.off_line_date < ?::timestamptz`, f.to);
  return addClient(where, f.client)
    .addIf(f.apId, `t.ap_id = ?`)
    .addIf(f.acId, `t.ac_id = ?`)
    .addIf(f.clientSsid, `t.client_ssid = ?`)
    .addIf(f.regionId, `t.region_id IN (${REGION_AND_BELOW})`)
    .addIf(f.minDuration, `t.duration >= ?`);
}
