import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { OnlineState, type Language } from '@sc/contracts';
import { translate, translateField, type FieldKey } from '@sc/i18n';
import type { Where } from '../common/sql';
import { InjectDb } from '../infra/database';
import { XLSX_MAX_ROWS, xlsxStream } from './xlsx-stream';

/** A device's online or offline in the caller's language (the network status column of a device list's export). */
export function networkWord(lng: Language, status: unknown): string {
  return translate(lng, status === OnlineState.Online ? 'terminalStatusOnline' : 'terminalStatusOffline');
}

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Rows read from the database at a time while an export is written. */
export const EXPORT_PAGE_ROWS = 2_000;

/** One row of a list as an export writes it: a value per column key (display values: names, codes, translated words). */
export type ExportRow = Record<string, unknown>;

/** The SQL of a list's export, in pieces the exporter puts together. */
export interface ExportQuery {
  /** The row's columns, aliased as the export's column keys, over `from`. */
  select: string;
  from: string;
  /** The list's filters over `from`, as on screen. */
  where: Where;
  /** The list's order, over `from`. */
  orderBy: string;
  /** The record's id (an int column of `from`): the rows are read by it. */
  id: string;
}

/**
 * A list that can be exported: its columns (the header is each column's label in the caller's language), the query
 * of its rows as filtered, and what becomes of a row read before it is written (words in the caller's language).
 */
export interface ListExportSource<F = Record<string, unknown>> {
  /** The sheet's name. */
  sheetName: string;
  columns: readonly FieldKey[];
  query(filters: F, lng: Language): ExportQuery;
  present?(row: ExportRow, lng: Language): ExportRow;
}

/** Sends a workbook (a buffer, or a stream of one) as a file download, not in the answer envelope. */
export function sendXlsx(reply: FastifyReply, name: string, book: Buffer | Readable): void {
  void reply
    .header('Content-Type', XLSX_CONTENT_TYPE)
    .header('Content-Disposition', `attachment; filename="${name}.xlsx"`)
    .header('Cache-Control', 'no-store')
    .send(book);
}

/**
 * Exports lists as xlsx downloads, streamed. The ids of the rows are read first, in the list's order (one query: the
 * filters are applied and the list sorted once, 4 bytes a row); then the rows a page of ids at a time (each page a
 * short query by primary key on a pooled connection, none held while the client reads), written into the workbook as
 * they come and sent as it is written. The memory an export takes is the ids and one page, whatever the list's length;
 * a record deleted meanwhile is left out. The ids are read before anything is sent, so a failing query answers an
 * error; a failure later cuts the download short. A sheet holds at most 1,048,575 rows below its header.
 */
@Injectable()
export class ListExporter {
  constructor(@InjectDb() private readonly db: DataSource) {}

  async send<F>(reply: FastifyReply, fileName: string, source: ListExportSource<F>, filters: F, lng: Language): Promise<void> {
    const db = this.db.manager;
    const q = source.query(filters, lng);
    // Ids as bigint: the call log's are (the other lists' int ids compare with them alike).
    const [{ ids }]: { ids: string[] }[] = await db.query(
      `SELECT coalesce(array_agg(x.id ORDER BY x.n), '{}') AS ids
         FROM (SELECT ${q.id} AS id, row_number() OVER (ORDER BY ${q.orderBy}) AS n FROM ${q.from} ${q.where}
                ORDER BY ${q.orderBy} LIMIT ${XLSX_MAX_ROWS - 1}) x`,
      q.where.params,
    );
    const present = (row: ExportRow) => (source.present ? source.present(row, lng) : row);
    async function* pages(): AsyncGenerator<unknown[][]> {
      for (let at = 0; at < ids.length; at += EXPORT_PAGE_ROWS) {
        const rows: ExportRow[] = await db.query(
          // = ANY lets the planner fetch the page by primary key (a join alone merges along the whole index).
          `SELECT ${q.select} FROM ${q.from} JOIN unnest($1::bigint[]) WITH ORDINALITY AS page(id, n) ON page.id = ${q.id}
            WHERE ${q.id} = ANY($1::bigint[]) ORDER BY page.n`,
          [ids.slice(at, at + EXPORT_PAGE_ROWS)],
        );
        yield rows.map((row) => {
          const shown = present(row);
          return source.columns.map((key) => shown[key]);
        });
      }
    }
    sendSheet(reply, fileName, source.sheetName, source.columns, lng, pages());
  }
}

/**
 * Sends rows as a one-sheet xlsx download, streamed as `pages` come: the header is each column's label in the
 * caller's language. For exports that are not a list of records by id (a report's sums).
 */
export function sendSheet(
  reply: FastifyReply,
  fileName: string,
  sheetName: string,
  columns: readonly FieldKey[],
  lng: Language,
  pages: AsyncIterable<readonly (readonly unknown[])[]>,
): void {
  const header = columns.map((key) => translateField(lng, key));
  sendXlsx(reply, fileName, xlsxStream(sheetName, header, pages));
}
