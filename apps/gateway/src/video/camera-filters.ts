import { VideoVendor, type CameraFilters } from '@sc/contracts';
import { REGION_AND_BELOW } from '../common/device-selection';
import { Where, likeContains } from '../common/sql';

/** Video equipment over `device d JOIN camera c`, with its region r and pole p. */
export const CAMERA_FROM = `device d JOIN camera c ON c.device_id = d.id
  LEFT JOIN region r ON r.id = d.region_id LEFT JOIN device p ON p.id = d.pole_id`;

/** Whether the console knows where the stream of the camera row `alias` is (rtspAddressOf in SQL). */
export const cameraHasStream = (alias: string): string =>
  `(${alias}.rtsp_url <> '' OR (${alias}.ip <> '' AND ${alias}.vendor IN (${VideoVendor.Dahua}, ${VideoVendor.Haikang})))`;

/** One row of the list (CameraRow): never the password, only whether one is kept. */
export const CAMERA_COLUMNS = `d.id, d.name, d.code, c.vendor, c.category, c.sub_type AS "subType", c.ip, c.rtsp_port AS "rtspPort",
  c.channel, c.rtsp_url AS "rtspUrl", c.username, (c.password_enc IS NOT NULL) AS "hasPassword",
  ${cameraHasStream('c')} AS "hasStream",
  d.latitude, d.longitude, d.region_id AS "regionId", r.region_name AS "regionName", d.pole_id AS "poleId", p.code AS "poleCode",
  p.name AS "poleName", c.network_status AS "networkStatus", c.access, c.reported_at AS "reportedAt"`;

/** The list's filters over `device d JOIN camera c`, shared by the page and the export. */
export function cameraWhere(f: CameraFilters): Where {
  return new Where()
    .addIf(f.name, `lower(d.name || chr(1) || d.code || chr(1) || c.ip) LIKE ?`, f.name && likeContains(f.name))
    .addIf(f.regionId, `d.region_id IN (${REGION_AND_BELOW})`)
    .addIf(f.poleId, `d.pole_id = ?`)
    .addIf(f.vendor, `c.vendor = ?`)
    .addIf(f.category, `c.category = ?`)
    .addIf(f.subType, `c.sub_type = ?`)
    .addIf(f.networkStatus, `c.network_status = ?`);
}
