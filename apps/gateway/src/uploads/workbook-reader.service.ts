import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { extname } from 'node:path';
import { ResultCode, type SpreadsheetFormat } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { SpreadsheetUnreadableError, readSpreadsheet, type ReadOptions, type SheetContent } from './spreadsheet-reader';
import { WorkbookOutOfBounds, checkWorkbookBounds } from './workbook-bounds';
import { readFirstXlsxSheet, type SheetRow, type SheetRows } from './xlsx-sheet-stream';

const XLS_BATCH_ROWS = 1_000;

/** Reads the first sheet of an open workbook, row by row, as often as asked; null for a workbook without sheets. */
export type FirstSheetReader = <R>(consume: (sheet: SheetRows | null) => Promise<R>) => Promise<R>;

/** A sheet read whole (an xls) as the rows a streamed one gives: its header row, then its data rows by number. */
export function sheetRowsOf(sheet: SheetContent): SheetRows {
  const { headerRowNumber } = sheet;
  const all: SheetRow[] = [
    { number: headerRowNumber, cells: sheet.header },
    ...sheet.rows.map((cells, i) => ({ number: headerRowNumber + 1 + i, cells: cells as SheetRow['cells'] })),
  ];
  return {
    name: sheet.name,
    range: { firstRow: headerRowNumber, lastRow: Math.max(headerRowNumber, sheet.rowCount + 1) },
    batches: (async function* () {
      for (let i = 0; i < all.length; i += XLS_BATCH_ROWS) yield all.slice(i, i + XLS_BATCH_ROWS);
    })(),
  };
}

/**
 * The users whose workbook this process is reading (one each). Process-wide on purpose: every module that reads a workbook shares
 * the same slots, however many instances of the service Nest creates.
 */
const reading = new Set<number>();

/**
 * Reads an uploaded workbook for an import or a preview, within bounds: one workbook per user at a time and at most
 * `importConcurrency` per process (a second one is refused at once with a translated 429, nothing queues up in
 * memory), and only after its zip directory and inflated content are within WORKBOOK_BOUNDS.
 */
@Injectable()
export class WorkbookReader {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async read(userId: number, path: string, options: ReadOptions): Promise<SheetContent[]> {
    const release = this.take(userId);
    try {
      await checkWorkbookBounds(path, extname(path).slice(1) as SpreadsheetFormat);
      return await readSpreadsheet(path, options);
    } catch (err) {
      throw refusal(err);
    } finally {
      release();
    }
  }

  /**
   * Opens an uploaded workbook for an import, within the same limits and bounds as `read`, and hands `use` a reader of
   * its first sheet; the slot is held until `use` is done. An xlsx is streamed at each reading (one batch of rows in
   * memory at a time); an xls, small by the upload limit, is parsed whole once, in a worker thread.
   */
  async withFirstSheet<T>(userId: number, path: string, options: ReadOptions, use: (firstSheet: FirstSheetReader) => Promise<T>): Promise<T> {
    const release = this.take(userId);
    try {
      const format = extname(path).slice(1) as SpreadsheetFormat;
      await checkWorkbookBounds(path, format);
      if (format === 'xlsx') return await use((consume) => readFirstXlsxSheet(path, { timeoutMs: options.timeoutMs }, consume));
      const [sheet] = await readSpreadsheet(path, options);
      return await use((consume) => consume(sheet ? sheetRowsOf(sheet) : null));
    } catch (err) {
      throw refusal(err);
    } finally {
      release();
    }
  }

  /** Takes the user's slot, one per user, which also bounds the process: `reading.size` users at once. */
  private take(userId: number): () => void {
    const busy = (key: 'importBusyUser' | 'importBusyServer') => new AppException(HttpStatus.TOO_MANY_REQUESTS, ResultCode.TooManyRequests, key);
    if (reading.has(userId)) throw busy('importBusyUser');
    if (reading.size >= this.config.importConcurrency) throw busy('importBusyServer');
    reading.add(userId);
    return () => reading.delete(userId);
  }
}

/** The translated answer for a workbook that could not be read; anything else is passed on as it was. */
function refusal(err: unknown): unknown {
  if (err instanceof SpreadsheetUnreadableError) return AppException.badRequest('onlyXlsx');
  if (!(err instanceof WorkbookOutOfBounds)) return err;
  const { problem } = err;
  switch (problem.kind) {
    case 'unreadable':
      return AppException.badRequest('onlyXlsx');
    case 'tooLarge':
      return new AppException(HttpStatus.PAYLOAD_TOO_LARGE, ResultCode.PayloadTooLarge, 'workbookTooLarge', { maxMb: problem.maxMb });
    case 'tooManyRows':
      return AppException.badRequest('importTooManyRows', { max: problem.max });
    case 'tooManyCells':
      return AppException.badRequest('importTooManyCells', { max: problem.max });
  }
}
