import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { DataSource, EntityManager } from 'typeorm';
import type { Language } from '@sc/contracts';
import { translateField, type FieldKey } from '@sc/i18n';
import type { Where } from '../common/sql';
import { InjectDb } from '../infra/database';
import { XLSX_MAX_ROWS, xlsxStream } from './xlsx-stream';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Rows read from the database at a time while an export is written. */
export const EXPORT_PAGE_ROWS = 2_000;

/** One row of a list as an export writes it: a value per column key (display values: names, codes, translated words). */
export type ExportRow = Record<string, unknown>;

/** Where an export's next page starts: after the last row of the page before (none for the first), and how many rows. */
export interface ExportPage {
  after: ExportRow | null;
  limit: number;
}

/**
 * A list that can be exported: its columns (the header is each column's label in the caller's language) and its rows
 * a page at a time, in an order that continues after a row of the page before (a keyset: no OFFSET over the whole
 * list, and no row twice when records are added while the file is written).
 */
export interface ListExportSource<F = Record<string, unknown>> {
  /** The sheet's name. */
  sheetName: string;
  columns: readonly FieldKey[];
  rows(db: EntityManager, filters: F, lng: Language, page: ExportPage): Promise<ExportRow[]>;
}

/**
 * Continues a keyset page after `page.after` (by its values of `fields`, compared as the `columns` they come from)
 * and answers the ORDER BY and LIMIT that go with it.
 */
export function keysetPage(where: Where, page: ExportPage, key: { columns: string[]; fields: string[] }): string {
  if (page.after) {
    const after = page.after;
    where.addAll(
      `(${key.columns.join(', ')}) > (${key.columns.map(() => '?').join(', ')})`,
      key.fields.map((f) => after[f]),
    );
  }
  return `ORDER BY ${key.columns.join(', ')} LIMIT ${Math.trunc(page.limit)}`;
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
 * Exports lists as xlsx downloads, streamed: the rows are read a page at a time (each page one short query on a
 * pooled connection, none held while the client reads) and written as they come, so the memory an export takes does
 * not grow with the list. The first page is read before anything is sent, so a query that fails answers an error
 * rather than a broken file; a later failure cuts the download short. A sheet holds at most 1,048,575 rows.
 */
@Injectable()
export class ListExporter {
  constructor(@InjectDb() private readonly db: DataSource) {}

  async send<F>(reply: FastifyReply, fileName: string, source: ListExportSource<F>, filters: F, lng: Language): Promise<void> {
    const db = this.db.manager;
    const read = (after: ExportRow | null, left: number) => source.rows(db, filters, lng, { after, limit: Math.min(EXPORT_PAGE_ROWS, left) });
    const first = await read(null, XLSX_MAX_ROWS - 1);
    async function* pages(): AsyncGenerator<unknown[][]> {
      let page = first;
      let left = XLSX_MAX_ROWS - 1;
      for (;;) {
        yield page.map((row) => source.columns.map((key) => row[key]));
        left -= page.length;
        if (page.length < EXPORT_PAGE_ROWS || left <= 0) return;
        page = await read(page[page.length - 1], left);
      }
    }
    const header = source.columns.map((key) => translateField(lng, key));
    sendXlsx(reply, fileName, xlsxStream(source.sheetName, header, pages()));
  }
}
