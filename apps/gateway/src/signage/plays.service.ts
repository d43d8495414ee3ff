import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DateTime } from 'luxon';
import type { DataSource } from 'typeorm';
import { EXPORT_FILE_NAMES, PLAY_REPORT_MAX_DAYS, type Language, type PlayReportBy, type PlayReportResult, type PlayReportRow } from '@sc/contracts';
import type { FieldKey } from '@sc/i18n';
import { AppException } from '../common/app-exception';
import { REGION_AND_BELOW } from '../common/device-selection';
import { Where } from '../common/sql';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { EXPORT_PAGE_ROWS, sendSheet } from '../exports/list-export';
import { XLSX_MAX_ROWS } from '../exports/xlsx-stream';
import { InjectDb } from '../infra/database';
import type { PlayReportDto, PlayReportFiltersDto } from './dto/plays.dto';

/** What each kind of report sums by: its key columns over the hourly sums `h` (the day as `day`), in its order. */
const KEYS: Record<PlayReportBy, { keys: string[]; order: string }> = {
  ad: { keys: ['h.ad_id'], order: 'ad_id' },
  device: { keys: ['h.device_id'], order: 'device_id' },
  day: { keys: ['day'], order: 'day' },
  detail: { keys: ['day', 'h.ad_id', 'h.device_id'], order: 'day, ad_id, device_id' },
};

/** The columns of each kind's export. */
const COLUMNS: Record<PlayReportBy, FieldKey[]> = {
  ad: ['playAd', 'plays', 'playedSeconds'],
  device: ['playDevice', 'playDeviceCode', 'plays', 'playedSeconds'],
  day: ['playDay', 'plays', 'playedSeconds'],
  detail: ['playDay', 'playAd', 'playDevice', 'playDeviceCode', 'plays', 'playedSeconds'],
};

/** A report's groups as columns (one array each), as read for an export. */
interface Groups {
  day: string[] | null;
  ad: number[] | null;
  device: number[] | null;
  plays: number[] | null;
  seconds: string[] | null;
}

/**
 * Proof-of-play reports (docs/signage-ads.md): the plays players reported, summed per ad, per player, per day or per
 * all three over a range of days on the installation's clock, read from the hourly sums (signage_play_hourly) a
 * trigger keeps as plays are stored. An ad deleted since keeps its plays (its name is then null).
 */
@Injectable()
export class SignagePlaysService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The sums grouped as asked (a page of them) and the totals of the range. */
  async report(q: PlayReportDto): Promise<PlayReportResult> {
    const { sql, where } = this.grouped(q);
    const n = where.params.length;
    const [head]: { total: number; plays: string | null; seconds: string | null; rows: (PlayReportRow & Record<string, unknown>)[] | null }[] =
      await this.db.query(
        `WITH g AS (${sql}),
              page AS (SELECT * FROM g ORDER BY ${KEYS[q.by].order} LIMIT $${n + 1} OFFSET $${n + 2})
         SELECT (SELECT count(*)::int FROM g) AS total, (SELECT sum(plays) FROM g) AS plays, (SELECT sum(seconds) FROM g) AS seconds,
                (SELECT json_agg(json_build_object(${rowJson(q.by)}) ORDER BY ${KEYS[q.by].order.replace(/(\w+)/g, 'page.$1')})
                   FROM page ${NAMES_JOIN}) AS rows`,
        [...where.params, q.pageSize, (q.pageNum - 1) * q.pageSize],
      );
    return { list: head.rows ?? [], total: head.total, totalPlays: Number(head.plays ?? 0), totalSeconds: Number(head.seconds ?? 0) };
  }

  /**
   * The report as an xlsx download, every group of it (up to a sheet's rows). The groups are read first, as columns
   * (refusals and failures answer an error before anything is sent), then written a page at a time with the names of
   * their ads and players.
   */
  async export(reply: FastifyReply, q: PlayReportFiltersDto, lng: Language): Promise<void> {
    const { sql, where } = this.grouped(q);
    const [groups]: Groups[] = await this.db.query(
      `SELECT array_agg(day ORDER BY ${KEYS[q.by].order}) AS day, array_agg(ad_id ORDER BY ${KEYS[q.by].order}) AS ad,
              array_agg(device_id ORDER BY ${KEYS[q.by].order}) AS device, array_agg(plays ORDER BY ${KEYS[q.by].order}) AS plays,
              array_agg(seconds ORDER BY ${KEYS[q.by].order}) AS seconds
         FROM (SELECT * FROM (${sql}) g ORDER BY ${KEYS[q.by].order} LIMIT ${XLSX_MAX_ROWS - 1}) g`,
      where.params,
    );
    const count = groups.plays?.length ?? 0;
    const db = this.db;
    const by = q.by;
    async function* pages(): AsyncGenerator<unknown[][]> {
      for (let at = 0; at < count; at += EXPORT_PAGE_ROWS) {
        const end = Math.min(count, at + EXPORT_PAGE_ROWS);
        const ads = new Map<number, string>();
        const devices = new Map<number, { name: string; code: string }>();
        if (groups.ad?.[at] != null) {
          const rows: { id: number; name: string }[] = await db.query(`SELECT id, name FROM signage_ad WHERE id = ANY($1::int[])`, [
            [...new Set(groups.ad.slice(at, end))],
          ]);
          for (const r of rows) ads.set(r.id, r.name);
        }
        if (groups.device?.[at] != null) {
          const rows: { id: number; name: string; code: string }[] = await db.query(
            `SELECT id, name, code FROM signage_device WHERE id = ANY($1::int[])`,
            [[...new Set(groups.device.slice(at, end))]],
          );
          for (const r of rows) devices.set(r.id, r);
        }
        const page: unknown[][] = [];
        for (let i = at; i < end; i++) {
          const ad = groups.ad?.[i];
          const device = groups.device?.[i];
          const cells: Record<string, unknown> = {
            playDay: groups.day?.[i],
            playAd: ad == null ? null : (ads.get(ad) ?? `#${ad}`),
            playDevice: device == null ? null : (devices.get(device)?.name ?? `#${device}`),
            playDeviceCode: device == null ? null : devices.get(device)?.code,
            plays: groups.plays?.[i],
            playedSeconds: Number(groups.seconds?.[i] ?? 0),
          };
          page.push(COLUMNS[by].map((key) => cells[key]));
        }
        yield page;
      }
    }
    sendSheet(reply, EXPORT_FILE_NAMES.play, 'plays', COLUMNS[by], lng, pages());
  }

  /**
   * The grouped sums of the range and filters (columns day, ad_id, device_id as the kind has them, plays, seconds), and
   * its parameters. The range is checked here: the end not before the start, at most PLAY_REPORT_MAX_DAYS days.
   */
  private grouped(q: PlayReportFiltersDto): { sql: string; where: Where } {
    const zone = this.config.defaultPlace.timeZone;
    const start = DateTime.fromISO(q.startDate, { zone });
    const end = DateTime.fromISO(q.endDate, { zone });
    if (!start.isValid) throw AppException.field('startDate', 'dateInvalid');
    if (!end.isValid) throw AppException.field('endDate', 'dateInvalid');
    if (end < start) throw AppException.field('endDate', 'playReportEndBeforeStart');
    if (end.diff(start, 'days').days + 1 > PLAY_REPORT_MAX_DAYS)
      throw AppException.field('endDate', 'playReportTooLong', { max: PLAY_REPORT_MAX_DAYS });
    const where = new Where()
      .add('h.hour >= ?', start.toUTC().toISO())
      .add('h.hour < ?', end.plus({ days: 1 }).toUTC().toISO())
      .addIf(q.deviceId, 'h.device_id = ?')
      .addIf(q.adId, 'h.ad_id = ?')
      .addIf(q.groupId, 'h.device_id IN (SELECT id FROM signage_device WHERE group_id = ?)');
    if (q.regionId !== undefined) {
      where.add(`h.device_id IN (SELECT id FROM signage_device WHERE region_id IN (${REGION_AND_BELOW}))`, q.regionId);
    }
    where.params.push(zone);
    const tz = `$${where.params.length}`;
    const { keys } = KEYS[q.by];
    const has = (key: string) => keys.includes(key);
    const sql = `SELECT ${has('day') ? 'day' : 'NULL::text AS day'}, ${has('h.ad_id') ? 'h.ad_id' : 'NULL::int AS ad_id'},
                        ${has('h.device_id') ? 'h.device_id' : 'NULL::int AS device_id'},
                        sum(h.plays)::int AS plays, sum(h.seconds)::bigint AS seconds
                   FROM signage_play_hourly h CROSS JOIN LATERAL (SELECT to_char(h.hour AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS day) d
                  ${where} GROUP BY ${keys.join(', ')}`;
    return { sql, where };
  }
}

/** A page row's fields as JSON, by kind (over `page` and the names namesJoin brings). */
function rowJson(by: PlayReportBy): string {
  const parts: string[] = [];
  if (by === 'day' || by === 'detail') parts.push(`'day', page.day`);
  if (by === 'ad' || by === 'detail') parts.push(`'adId', page.ad_id, 'adName', a.name`);
  if (by === 'device' || by === 'detail') parts.push(`'deviceId', page.device_id, 'deviceName', s.name, 'deviceCode', s.code`);
  parts.push(`'plays', page.plays, 'seconds', page.seconds`);
  return parts.join(', ');
}

/** The names of a page's ads and players. */
const NAMES_JOIN = `LEFT JOIN signage_ad a ON a.id = page.ad_id LEFT JOIN signage_device s ON s.id = page.device_id`;
