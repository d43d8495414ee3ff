import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import {
  AC_FAMILY,
  AP_FAMILY,
  EXPORT_FILE_NAMES,
  WIFI_SERIES_HOURS,
  WIFI_SERIES_STEP_MINUTES,
  type Language,
  type WifiClientPoint,
  type WifiLoadPoint,
  type WifiRegionSeries,
} from '@sc/contracts';
import { translateField } from '@sc/i18n';
import { AppException } from '../common/app-exception';
import { REGION_AND_BELOW, assertRegionsExist } from '../common/device-selection';
import { Where } from '../common/sql';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { sendXlsx } from '../exports/list-export';
import { xlsxStream } from '../exports/xlsx-stream';
import { InjectDb } from '../infra/database';
import { regionLabelSql } from '../regions/region-label';
import type { WifiClientSeriesDto, WifiLoadSeriesDto, WifiRegionSeriesDto } from './dto/wifi.dto';

const STEP_SECONDS = WIFI_SERIES_STEP_MINUTES * 60;
/** The step a sample's minute falls in. */
const STEP = `to_timestamp(floor(extract(epoch FROM s.minute) / ${STEP_SECONDS}) * ${STEP_SECONDS})`;
const SINCE = `now() - interval '${WIFI_SERIES_HOURS} hours'`;

/** The Wi-Fi charts: a device's load over the last day, and how many clients access points had over it. */
@Injectable()
export class WifiSeriesService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

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

  /**
   * The clients of each region side by side: in each step of the last day, for each region (its access points and
   * those of its sub-regions, as the region filter reads them), the sum of each access point's mean client count, as
   * `clientSeries` answers for one region. A region without readings in a step counts 0 there.
   */
  async regions(q: WifiRegionSeriesDto, lng: Language): Promise<WifiRegionSeries> {
    return (await this.regionSeries(q, lng)).series;
  }

  /** The comparison as an xlsx: a row per step (the installation's local time), a column per region. */
  async exportRegions(reply: FastifyReply, q: WifiRegionSeriesDto, lng: Language): Promise<void> {
    const { series, local } = await this.regionSeries(q, lng);
    const header = [translateField(lng, 'seriesTime'), ...series.regions.map((r) => r.regionName)];
    const rows = series.points.map((p, i) => [local[i], ...p.clients]);
    async function* pages(this: void): AsyncGenerator<unknown[][]> {
      yield rows;
    }
    sendXlsx(reply, EXPORT_FILE_NAMES.regionClients, xlsxStream('clients', header, pages()));
  }

  /** The series, and each step's time as the installation's local time (for the export). */
  private async regionSeries(q: WifiRegionSeriesDto, lng: Language): Promise<{ series: WifiRegionSeries; local: string[] }> {
    const ids = [...new Set(q.regionIds)];
    await assertRegionsExist(this.db.manager, ids, 'regionIds');
    const named: { regionId: number; regionName: string }[] = await this.db.query(
      `SELECT r.id AS "regionId", ${regionLabelSql('r', lng)} AS "regionName" FROM region r WHERE r.id = ANY($1::int[])`,
      [ids],
    );
    const byId = new Map(named.map((r) => [r.regionId, r]));
    const regions = ids.map((id) => byId.get(id) as { regionId: number; regionName: string });
    // Each region numbered by its place in the list, with every region below it; an access point in two of the
    // regions (a region and one below it) counts in both.
    const sums: { at: Date; local: string; n: number; clients: number }[] = await this.db.query(
      `WITH RECURSIVE picked AS (
         SELECT t.id, t.n::int AS n FROM unnest($1::int[]) WITH ORDINALITY AS t(id, n)
       ), below AS (
         SELECT n, id FROM picked UNION SELECT b.n, c.id FROM region c JOIN below b ON c.parent_id = b.id
       ), per_ap AS (
         SELECT s.device_id, ${STEP} AS at, avg(s.client_count) AS clients
           FROM wifi_load_sample s JOIN wifi_ap w ON w.device_id = s.device_id
          WHERE s.minute >= ${SINCE} AND s.device_id IN (SELECT d.id FROM device d JOIN below b ON b.id = d.region_id)
          GROUP BY 1, 2
       )
       SELECT p.at, to_char(p.at AT TIME ZONE $2, 'YYYY-MM-DD HH24:MI') AS local, b.n, round(sum(p.clients))::int AS clients
         FROM per_ap p JOIN device d ON d.id = p.device_id JOIN below b ON b.id = d.region_id
        GROUP BY 1, 2, 3 ORDER BY 1, 3`,
      [ids, this.config.defaultPlace.timeZone],
    );
    const points: WifiRegionSeries['points'] = [];
    const local: string[] = [];
    for (const sum of sums) {
      const at = new Date(sum.at).toISOString();
      if (points.length === 0 || points[points.length - 1].at !== at) {
        points.push({ at, clients: regions.map(() => 0) });
        local.push(sum.local);
      }
      points[points.length - 1].clients[sum.n - 1] = sum.clients;
    }
    return { series: { regions, points }, local };
  }
}
