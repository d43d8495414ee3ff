import { Inject, Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import type { DataSource } from 'typeorm';
import {
  DeviceType,
  type AreaTreeNode,
  type EnergyFigures,
  type EnergyLampRow,
  type EnergyPeriod,
  type EnergyPoint,
  type EnergyRegionNode,
  type EnergySeries,
  type EnergyTree,
  type PageResult,
} from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { DATE_RANGE, yearInRange } from '../common/fields';
import { Where, likeContains } from '../common/sql';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { InjectDb } from '../infra/database';
import { REGION_AND_BELOW } from '../common/device-selection';
import { buildTree } from '../regions/regions.service';
import { lampPlaces, regionPlace } from '../strategies/lamp-places';
import type { EnergyLampPageDto, EnergyQueryDto, EnergySeriesDto, LampRatedPowerDto } from './dto/energy.dto';

interface Bounds {
  from: DateTime;
  to: DateTime;
}

/**
 * Each region's clock: its own time zone, else the nearest region above it that names one, else the installation's
 * ($3), as the lamps' schedules keep it (lamp-places.ts). Walked down from the top regions, so bad data with a cycle
 * cannot loop.
 */
const REGION_ZONE = `region_zone AS (
    SELECT id, coalesce(time_zone, $3) AS zone FROM region WHERE parent_id IS NULL
    UNION ALL
    SELECT r.id, coalesce(r.time_zone, z.zone) FROM region r JOIN region_zone z ON r.parent_id = z.id)`;

/** A lamp's hours of the period: the wall-clock bounds $1 and $2 read on its own clock (its region's). */
const LAMP_HOURS = `e.hour >= ($1::timestamp AT TIME ZONE coalesce(rz.zone, $3)) AND e.hour < ($2::timestamp AT TIME ZONE coalesce(rz.zone, $3))`;

/** Each lamp's sums over its own day or month (with REGION_ZONE): measured Wh, lit seconds, rated power × lit time. */
const PER_LAMP = `SELECT d.id, d.region_id, l.rated_power, coalesce(sum(e.energy_wh), 0) AS wh, coalesce(sum(e.lit_seconds), 0) AS lit,
         coalesce(sum(e.lit_seconds), 0) * l.rated_power / 3600 AS full_wh
    FROM device d JOIN lamp l ON l.device_id = d.id
    LEFT JOIN region_zone rz ON rz.id = d.region_id
    LEFT JOIN lamp_energy_hourly e ON e.device_id = d.id AND ${LAMP_HOURS}
   WHERE d.type = ${DeviceType.SingleLamp}`;

/** Conditions over single lamps whose first parameters are the period's bounds ($1, $2) and any `extra` after them. */
function periodWhere(from: string, to: string, ...extra: unknown[]): Where {
  const where = new Where();
  where.params.push(from, to, ...extra);
  return where.add('d.type = ?', DeviceType.SingleLamp);
}

const round = (value: number) => Math.round(value * 1000) / 1000;
/** Hours to the hundredth of a second's worth (a few seconds of one lamp still show). */
const roundHours = (value: number) => Math.round(value * 1e6) / 1e6;

function figures(energyWh: number, fullWh: number, savingWh: number, litSeconds: number, lampCount: number): EnergyFigures {
  return { energyWh: round(energyWh), fullWh: round(fullWh), savingWh: round(savingWh), litHours: roundHours(litSeconds / 3600), lampCount };
}

const EMPTY: EnergyFigures = figures(0, 0, 0, 0, 0);

function add(a: EnergyFigures, b: EnergyFigures): EnergyFigures {
  return {
    energyWh: round(a.energyWh + b.energyWh),
    fullWh: round(a.fullWh + b.fullWh),
    savingWh: round(a.savingWh + b.savingWh),
    litHours: roundHours(a.litHours + b.litHours),
    lampCount: a.lampCount + b.lampCount,
  };
}

/**
 * Lamp energy from the hourly sums the lighting worker integrates: by region (rolled up the tree), per lamp, and as a
 * series. A lamp's day or month is that of its own clock (its region's time zone, as its schedule keeps it), so a
 * lamp in another time zone counts its own night; the series follows the clock of the lamp or region it shows. The saving is what the lamps would have used at
 * their rated power while lit, less what they used (per lamp, never below 0).
 */
@Injectable()
export class EnergyService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get timeZone(): string {
    return this.config.defaultPlace.timeZone;
  }

  /** The clock of a lamp or a region, as their schedules keep it (the nearest region naming a zone); else the installation's. */
  private async zoneOf(q: { regionId?: number; id?: number }): Promise<string> {
    const query = (sql: string, params?: unknown[]) => this.db.query(sql, params) as Promise<unknown[]>;
    if (q.id !== undefined) return (await lampPlaces(query, [q.id], this.config.defaultPlace)).get(q.id)?.place.timeZone ?? this.timeZone;
    if (q.regionId !== undefined) return (await regionPlace(query, q.regionId, this.config.defaultPlace)).timeZone;
    return this.timeZone;
  }

  /** The period as wall-clock times (no zone): each lamp reads them on its own clock. */
  private wallClock(period: EnergyPeriod, date: string): { from: string; to: string } {
    const { from, to } = this.bounds(period, date, 'UTC');
    return { from: from.toISO({ includeOffset: false }) as string, to: to.toISO({ includeOffset: false }) as string };
  }

  private bounds(period: EnergyPeriod, date: string, timeZone = this.timeZone): Bounds {
    const day = DateTime.fromISO(date, { zone: timeZone });
    if (!day.isValid) throw AppException.field('date', 'energyDateInvalid');
    // The database takes neither year 0 nor the signed years Luxon writes past 9999.
    if (!yearInRange(day.year)) throw AppException.field('date', 'dateOutOfRange', DATE_RANGE);
    const from = day.startOf(period);
    return { from, to: from.plus(period === 'day' ? { days: 1 } : { months: 1 }) };
  }

  async tree(q: EnergyQueryDto): Promise<EnergyTree> {
    const { from, to } = this.bounds(q.period, q.date);
    const wall = this.wallClock(q.period, q.date);
    const [regions, sums] = await Promise.all([
      this.db.query(
        `SELECT id, region_name AS name, zh_cn AS "zhCn", en_us AS "enUs", remark, parent_id AS "parentId" FROM region ORDER BY sort, id`,
      ) as Promise<Omit<AreaTreeNode, 'childList'>[]>,
      this.db.query(
        `WITH RECURSIVE ${REGION_ZONE}
         SELECT region_id AS "regionId", count(*)::int AS lamps, sum(wh)::float8 AS wh, sum(full_wh)::float8 AS "fullWh",
                sum(greatest(full_wh - wh, 0))::float8 AS saving, sum(lit)::float8 AS lit
           FROM (${PER_LAMP} GROUP BY d.id, l.rated_power) per_lamp GROUP BY region_id`,
        [wall.from, wall.to, this.timeZone],
      ) as Promise<{ regionId: number | null; lamps: number; wh: number; fullWh: number; saving: number; lit: number }[]>,
    ]);
    const own = new Map(sums.map((s) => [s.regionId, figures(s.wh, s.fullWh, s.saving, s.lit, s.lamps)]));
    const rollUp = (node: AreaTreeNode): EnergyRegionNode => {
      const childList = node.childList.map(rollUp);
      const total = childList.reduce<EnergyFigures>((sum, child) => add(sum, child), own.get(node.id) ?? EMPTY);
      return { id: node.id, name: node.name, zhCn: node.zhCn, enUs: node.enUs, ...total, childList };
    };
    const tree = buildTree(regions).map(rollUp);
    const unassigned = own.get(null) ?? EMPTY;
    return {
      period: q.period,
      from: from.toISO() as string,
      to: to.toISO() as string,
      timeZone: this.timeZone,
      total: tree.reduce<EnergyFigures>((sum, node) => add(sum, node), unassigned),
      unassigned,
      tree,
    };
  }

  async lampPage(q: EnergyLampPageDto): Promise<PageResult<EnergyLampRow>> {
    const { from, to } = this.wallClock(q.period, q.date);
    const where = periodWhere(from, to, this.timeZone)
      .addIf(q.regionId, `d.region_id IN (${REGION_AND_BELOW})`)
      .addIf(q.lampName, `lower(d.name) LIKE ?`, q.lampName && likeContains(q.lampName));
    const limit = where.params.length + 1;
    // The page and its total from one snapshot, as pagedQuery does; the LEFT JOIN keeps the total of an empty page.
    const rows: (EnergyLampRow & { total: number; present: number | null })[] = await this.db.query(
      `WITH RECURSIVE ${REGION_ZONE},
       per_lamp AS (
         SELECT d.id, d.name AS "lampName", d.code AS "clientId", d.region_id AS "regionId", r.region_name AS "regionName",
                l.rated_power AS "ratedPower",
                coalesce(sum(e.energy_wh), 0)::float8 AS "energyWh", (coalesce(sum(e.lit_seconds), 0) * l.rated_power / 3600)::float8 AS "fullWh",
                coalesce(sum(e.lit_seconds), 0)::float8 / 3600 AS "litHours"
           FROM device d JOIN lamp l ON l.device_id = d.id LEFT JOIN region r ON r.id = d.region_id
           LEFT JOIN region_zone rz ON rz.id = d.region_id
           LEFT JOIN lamp_energy_hourly e ON e.device_id = d.id AND ${LAMP_HOURS}
          ${where}
          GROUP BY d.id, r.region_name, l.rated_power)
       SELECT page.*, total.n AS total
         FROM (SELECT count(*)::int AS n FROM per_lamp) total
         LEFT JOIN LATERAL (SELECT 1 AS present, * FROM per_lamp ORDER BY "energyWh" DESC, id LIMIT $${limit} OFFSET $${limit + 1}) page ON true
        ORDER BY page."energyWh" DESC, page.id`,
      [...where.params, q.pageSize, (q.pageNum - 1) * q.pageSize],
    );
    const list = rows[0]?.present == null ? [] : rows;
    return {
      list: list.map(({ total: _total, present: _present, ...row }) => ({
        ...row,
        energyWh: round(row.energyWh),
        fullWh: round(row.fullWh),
        savingWh: round(Math.max(0, row.fullWh - row.energyWh)),
        litHours: roundHours(row.litHours),
      })),
      total: rows[0]?.total ?? 0,
    };
  }

  /**
   * Hourly points over a day, daily points over a month, every point present (0 without readings). Hours and days
   * are those of the lamp's or the region's own clock, as their schedules are; over all lamps, the installation's.
   */
  async series(q: EnergySeriesDto): Promise<EnergySeries> {
    const timeZone = await this.zoneOf(q);
    const { from, to } = this.bounds(q.period, q.date, timeZone);
    const unit = q.period === 'day' ? 'hour' : 'day';
    const where = periodWhere(from.toISO() as string, to.toISO() as string, timeZone)
      .addIf(q.regionId, `d.region_id IN (${REGION_AND_BELOW})`)
      .addIf(q.id, `d.id = ?`);
    const rows: { at: Date; wh: number; fullWh: number }[] = await this.db.query(
      `SELECT date_trunc('${unit}', e.hour, $3) AS at, sum(e.energy_wh)::float8 AS wh, sum(e.lit_seconds * l.rated_power / 3600)::float8 AS "fullWh"
         FROM lamp_energy_hourly e JOIN device d ON d.id = e.device_id JOIN lamp l ON l.device_id = d.id
        ${where} AND e.hour >= $1 AND e.hour < $2
        GROUP BY 1`,
      where.params,
    );
    const byStart = new Map(rows.map((r) => [new Date(r.at).getTime(), r]));
    const points: EnergyPoint[] = [];
    for (let at = from; at < to; at = at.plus({ [`${unit}s`]: 1 })) {
      const row = byStart.get(at.toMillis());
      points.push({ at: at.toISO() as string, energyWh: round(row?.wh ?? 0), fullWh: round(row?.fullWh ?? 0) });
    }
    return { period: q.period, timeZone, points };
  }

  /** Sets the rated power of lamps (what full-power energy and the saving are measured against, history included). */
  async setRatedPower(dto: LampRatedPowerDto): Promise<{ changed: number }> {
    const wanted = [...new Set(dto.ids)];
    return this.db.transaction(async (tx) => {
      // An UPDATE answers [rows, affected count] through TypeORM.
      const [rows] = (await tx.query(
        `UPDATE lamp l SET rated_power = $2 FROM device d WHERE d.id = l.device_id AND d.type = $3 AND l.device_id = ANY($1::int[]) RETURNING l.device_id AS id`,
        [wanted, dto.ratedPower, DeviceType.SingleLamp],
      )) as [{ id: number }[], number];
      if (rows.length < wanted.length) {
        const found = new Set(rows.map((r) => r.id));
        const unknown = wanted.filter((id) => !found.has(id));
        // Rolls the transaction back: all or nothing.
        throw AppException.field('ids', 'unknownLamps', {
          ids: unknown.slice(0, 10).join(', ') + (unknown.length > 10 ? ` (+${unknown.length - 10})` : ''),
        });
      }
      return { changed: rows.length };
    });
  }
}
