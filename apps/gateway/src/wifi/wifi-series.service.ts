import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { AC_FAMILY, AP_FAMILY, WIFI_SERIES_HOURS, WIFI_SERIES_STEP_MINUTES, type WifiClientPoint, type WifiLoadPoint } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { REGION_AND_BELOW } from '../common/device-selection';
import { Where } from '../common/sql';
import { InjectDb } from '../infra/database';
import type { WifiClientSeriesDto, WifiLoadSeriesDto } from './dto/wifi.dto';

const STEP_SECONDS = WIFI_SERIES_STEP_MINUTES * 60;
/** The step a sample's minute falls in. */
const STEP = `to_timestamp(floor(extract(epoch FROM s.minute) / ${STEP_SECONDS}) * ${STEP_SECONDS})`;
const SINCE = `now() - interval '${WIFI_SERIES_HOURS} hours'`;

/** The Wi-Fi charts: a device's load over the last day, and how many clients access points had over it. */
@Injectable()
export class WifiSeriesService {
  constructor(@InjectDb() private readonly db: DataSource) {}

  /** The device's mean ratios (and client count) in each step of the last day it reported in. */
  async load(q: WifiLoadSeriesDto): Promise<WifiLoadPoint[]> {
    const type = q.kind === 'ac' ? AC_FAMILY.deviceType : AP_FAMILY.deviceType;
    const found: unknown[] = await this.db.query(`SELECT 1 FROM device WHERE id = $1 AND type = $2`, [q.id, type]);
    if (found.length === 0) throw AppException.notFound();
    return this.db.query(
      `SELECT ${STEP} AS at, round(avg(s.cpu_ratio)::numeric, 1)::float8 AS "cpuRatio",
              round(avg(s.memory_ratio)::numeric, 1)::float8 AS "memoryRatio", round(avg(s.disk_ratio)::numeric, 1)::float8 AS "diskRatio",
              round(avg(s.client_count)::numeric, 1)::float8 AS "clientCount"
         FROM wifi_load_sample s WHERE s.device_id = $1 AND s.minute >= ${SINCE} GROUP BY 1 ORDER BY 1`,
      [q.id],
    );
  }

  /** In each step of the last day: the sum over the selected access points of each one's mean client count. */
  clients(q: WifiClientSeriesDto): Promise<WifiClientPoint[]> {
    const where = new Where().addIf(q.apId, `w.device_id = ?`).addIf(q.acId, `w.ac_id = ?`).addIf(q.regionId, `d.region_id IN (${REGION_AND_BELOW})`);
    const filters = where.toString().replace(/^WHERE /, 'AND ');
    return this.db.query(
      `SELECT at, round(sum(clients))::int AS clients
         FROM (SELECT s.device_id, ${STEP} AS at, avg(s.client_count) AS clients
                 FROM wifi_load_sample s JOIN wifi_ap w ON w.device_id = s.device_id JOIN device d ON d.id = s.device_id
                WHERE s.minute >= ${SINCE} ${filters}
                GROUP BY 1, 2) per_ap
        GROUP BY at ORDER BY at`,
      where.params,
    );
  }
}
