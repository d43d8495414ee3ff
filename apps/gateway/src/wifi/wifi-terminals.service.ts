import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import {
  EXPORT_FILE_NAMES,
  WIFI_HISTORY_COUNT_CAP,
  WIFI_HISTORY_MAX_DAYS,
  type Language,
  type PageResult,
  type WifiClientRow,
  type WifiSessionRow,
} from '@sc/contracts';
import type { FieldKey } from '@sc/i18n';
import { AppException } from '../common/app-exception';
import { pagedQuery } from '../common/sql';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { EXPORT_PAGE_ROWS, sendSheet } from '../exports/list-export';
import { InjectDb } from '../infra/database';
import type { WifiClientPageDto, WifiSessionFiltersDto, WifiSessionPageDto } from './dto/wifi.dto';
import { wifiClientWhere, wifiSessionWhere, type WifiSessionFilters } from './wifi-filters';

const CLIENT_COLUMNS = `t.ap_id AS "apId", a.name AS "apName", a.code AS "apSN", t.client_mac AS "clientMac", t.client_ip AS "clientIp",
  t.client_ssid AS "clientSsid", t.signal_strength AS "signalStrength"`;

/** The history export's columns, in the words of the caller's language. */
const SESSION_EXPORT_COLUMNS: readonly FieldKey[] = [
  'apName',
  'apSN',
  'clientMac',
  'clientIp',
  'clientSsid',
  'signalStrength',
  'onLineDate',
  'offLineDate',
  'duration',
];

const DAY_MS = 86_400_000;

/**
 * The Wi-Fi clients (terminalManage): who is associated now, per access point and SSID with the signal strength, and
 * the history of ended sessions, a window of dates at a time, with its xlsx export.
 */
@Injectable()
export class WifiTerminalsService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  online(q: WifiClientPageDto): Promise<PageResult<WifiClientRow>> {
    return pagedQuery<WifiClientRow>(this.db, {
      select: `${CLIENT_COLUMNS}, t.on_line_date AS "onLineDate"`,
      from: `wifi_client t JOIN device a ON a.id = t.ap_id`,
      countFrom: 'wifi_client t',
      where: wifiClientWhere(q),
      orderBy: 't.on_line_date DESC, t.ap_id, t.client_mac',
      outerOrderBy: 'page."onLineDate" DESC, page."apId", page."clientMac"',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  /**
   * The sessions that ended in the window, the latest first, counted up to WIFI_HISTORY_COUNT_CAP. The access point's
   * name is today's (null once deleted).
   */
  history(q: WifiSessionPageDto): Promise<PageResult<WifiSessionRow>> {
    checkWindow(q);
    return pagedQuery<WifiSessionRow>(this.db, {
      select: `t.id, ${CLIENT_COLUMNS}, t.on_line_date AS "onLineDate", t.off_line_date AS "offLineDate", t.duration`,
      from: `wifi_session t LEFT JOIN device a ON a.id = t.ap_id`,
      countFrom: 'wifi_session t',
      where: wifiSessionWhere(q),
      orderBy: 't.off_line_date DESC, t.id DESC',
      outerOrderBy: 'page."offLineDate" DESC, page.id DESC',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
      countCap: WIFI_HISTORY_COUNT_CAP,
    });
  }

  /**
   * The history as filtered, as an xlsx download, streamed: each page of rows read after the last one sent (by its
   * offline date and id), so a long window never holds more than one page. Dates are the installation's local time.
   */
  async exportHistory(reply: FastifyReply, q: WifiSessionFiltersDto, lng: Language): Promise<void> {
    checkWindow(q);
    const { db } = this;
    const zone = this.config.defaultPlace.timeZone;
    // Read before anything is sent, so a failing query answers an error.
    const first = await readRows(db, q, zone, null);
    async function* pages(this: void): AsyncGenerator<unknown[][]> {
      let rows = first;
      while (rows.length > 0) {
        yield rows.map((row) => SESSION_EXPORT_COLUMNS.map((key) => row[key]));
        if (rows.length < EXPORT_PAGE_ROWS) return;
        const last = rows[rows.length - 1];
        rows = await readRows(db, q, zone, { at: last.__at as string, id: last.__id as string });
      }
    }
    sendSheet(reply, EXPORT_FILE_NAMES.terminalHistory, 'sessions', SESSION_EXPORT_COLUMNS, lng, pages());
  }
}

/** One page of the export after `after` (the newest first). */
async function readRows(
  db: DataSource,
  q: WifiSessionFilters,
  zone: string,
  after: { at: string; id: string } | null,
): Promise<Record<string, unknown>[]> {
  const where = wifiSessionWhere(q);
  if (after) {
    // Two values in one condition: the id takes the parameter after the date's.
    where.add(`(t.off_line_date, t.id) < (?::timestamptz, $${where.params.length + 2}::bigint)`, after.at);
    where.params.push(after.id);
  }
  const z = where.params.push(zone);
  return db.query(
    `SELECT a.name AS "apName", a.code AS "apSN", t.client_mac AS "clientMac", t.client_ip AS "clientIp", t.client_ssid AS "clientSsid",
            t.signal_strength AS "signalStrength", to_char(t.on_line_date AT TIME ZONE $${z}, 'YYYY-MM-DD HH24:MI:SS') AS "onLineDate",
            to_char(t.off_line_date AT TIME ZONE $${z}, 'YYYY-MM-DD HH24:MI:SS') AS "offLineDate", t.duration,
            to_char(t.off_line_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "__at", t.id::text AS "__id"
       FROM wifi_session t LEFT JOIN device a ON a.id = t.ap_id ${where}
      ORDER BY t.off_line_date DESC, t.id DESC LIMIT ${EXPORT_PAGE_ROWS}`,
    where.params,
  );
}

/** The window is ordered and at most WIFI_HISTORY_MAX_DAYS long ('The time cannot be empty' when a bound is missing). */
function checkWindow(q: WifiSessionFilters): void {
  const from = Date.parse(q.from);
  const to = Date.parse(q.to);
  if (!(to > from)) throw AppException.field('to', 'playReportEndBeforeStart');
  if (to - from > WIFI_HISTORY_MAX_DAYS * DAY_MS) throw AppException.field('to', 'wifiHistoryTooLong', { max: WIFI_HISTORY_MAX_DAYS });
}
