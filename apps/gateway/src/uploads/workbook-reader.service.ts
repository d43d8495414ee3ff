import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { extname } from 'node:path';
import { ResultCode, XLS_IMPORT_MAX_ROWS, type SpreadsheetFormat } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { SpreadsheetTooLargeError, SpreadsheetUnreadableError, readSpreadsheet, type ReadOptions, type SheetContent } from './spreadsheet-reader';
import { WorkbookOutOfBounds, checkWorkbookBounds } from './workbook-bounds';
import { readFirstXlsxSheet, readXlsxSheetStarts, type SheetRow, type SheetRows, type SheetStart } from './xlsx-sheet-stream';
import { UserSlots } from './user-slots';

const XLS_BATCH_ROWS = 1_000;

/**
 * How an xls is read for a preview, in a worker thread: its first row only (SheetJS still holds the file and its
 * shared strings: the largest xls the upload limit lets through needs about 24 MB of heap), within a heap small enough
 * that a reading stays well under 100 MB above idle, whatever the file holds. One reading per user, two per process.
 */
const XLS_PREVIEW: ReadOptions = { maxRows: 0, maxMemoryMb: 32, maxYoungMemoryMb: 8 };

/**
 * How an xls is read for an import, in a worker thread: SheetJS holds about 0.5 kB per cell, so only the rows an xls
 * may hold (XLS_IMPORT_MAX_ROWS) and one more, to tell a longer sheet whatever its dimension says, within a heap that
 * 5,000 rows of the lamp pole columns fit (they take the gateway about 55 MB); a sheet too wide for it is refused as
 * too long. Either way the answer is to save the file as xlsx, which is streamed.
 */
const XLS_IMPORT: ReadOptions = { maxRows: XLS_IMPORT_MAX_ROWS + 1, blankRows: true, maxMemoryMb: 48, maxYoungMemoryMb: 8 };

/** A sheet as a preview shows it. */
export type SheetSummary = Pick<SheetContent, 'name' | 'rowCount' | 'header'>;

/**
 * A sheet's preview from its first row and its dimension, as SheetJS gives it when it reads one row of each sheet
 * (`sheetRows: 1`), as an xls is still read: the rows below the first are the dimension's last row (0 without a
 * dimension: SheetJS does not count rows it does not read), and the header is the first row, across the dimension's
 * columns as far as that row's last cell (the whole dimension for a sheet of one row; without a dimension, from the
 * row's first cell to its last); [] when that row has no value.
 */
export function previewOf({ name, dimension, rows }: SheetStart): SheetSummary {
  const first = rows.find((row) => row.number === 1);
  let left = Infinity;
  let right = -1;
  first?.cells.forEach((_, column) => {
    left = Math.min(left, column);
    right = Math.max(right, column);
  });
  let columns: { from: number; to: number } | undefined;
  if (dimension && dimension.e.r > 0) {
    const to = Math.min(dimension.e.c, Math.max(right, 0));
    columns = { from: Math.min(dimension.s.c, to), to };
  } else if (dimension) columns = { from: dimension.s.c, to: dimension.e.c };
  else if (right >= 0) columns = { from: left, to: right };
  const cells = first && columns ? Array.from({ length: columns.to - columns.from + 1 }, (_, i) => first.cells[columns.from + i]) : [];
  const blank = cells.every((cell) => cell === null || cell === undefined);
  return {
    name,
    rowCount: dimension ? dimension.e.r : 0,
    header: blank ? [] : cells.map((cell) => (cell === null || cell === undefined ? '' : String(cell))),
  };
}

/** Reads the first sheet of an open workbook, row by row, as often as asked; null for a workbook without sheets. */
export type FirstSheetReader = <R>(consume: (sheet: SheetRows | null) => Promise<R>) => Promise<R>;

/** A sheet read whole (an xls) as the rows a streamed one gives: its header row, then its data rows by number. */
export function sheetRowsOf(sheet: SheetContent): SheetRows {
  const { headerRowNumber } = sheet;
  return {
    name: sheet.name,
    range: { firstRow: headerRowNumber, lastRow: Math.max(headerRowNumber, sheet.rowCount + 1) },
    batches: (async function* () {
      yield [{ number: headerRowNumber, cells: sheet.header }];
      for (let i = 0; i < sheet.rows.length; i += XLS_BATCH_ROWS) {
        yield sheet.rows.slice(i, i + XLS_BATCH_ROWS).map((cells, j) => ({ number: headerRowNumber + 1 + i + j, cells: cells as SheetRow['cells'] }));
      }
    })(),
  };
}

/** The xls sheet for an import, refused (as too long, to be saved as xlsx) past XLS_IMPORT_MAX_ROWS rows or the reader's heap. */
async function readXlsForImport(path: string, timeoutMs: number | undefined): Promise<SheetContent | undefined> {
  const tooLong = () => AppException.badRequest('importXlsTooManyRows', { max: XLS_IMPORT_MAX_ROWS });
  let sheets: SheetContent[];
  try {
    sheets = await readSpreadsheet(path, { ...XLS_IMPORT, timeoutMs });
  } catch (err) {
    throw err instanceof SpreadsheetTooLargeError ? tooLong() : err;
  }
  const [sheet] = sheets;
  // Row numbers past the limit, as the streamed xlsx counts them: by the sheet's dimension, or by the rows it holds.
  if (sheet && Math.max(sheet.rowCount + 1, sheet.headerRowNumber + sheet.rows.length) - 1 > XLS_IMPORT_MAX_ROWS) throw tooLong();
  return sheet;
}

/**
 * The users whose workbook this process is reading (one each). Process-wide on purpose: every module that reads a workbook shares
 * the same slots, however many instances of the service Nest creates.
 */
const reading = new UserSlots({ user: 'importBusyUser', server: 'importBusyServer' });

/**
 * Reads an uploaded workbook for an import or a preview, within bounds: one workbook per user at a time and at most
 * `importConcurrency` per process (a second one is refused at once with a translated 429, nothing queues up in
 * memory), and only after its zip directory and inflated content are within WORKBOOK_BOUNDS.
 */
@Injectable()
export class WorkbookReader {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * The sheets of an uploaded workbook as a preview shows them: names, rows below the first, and first rows. An xlsx
   * is streamed and each sheet read no further than its first row; an xls is read in a worker thread (XLS_PREVIEW).
   */
  async inspect(userId: number, path: string): Promise<SheetSummary[]> {
    const release = this.take(userId);
    try {
      const format = extname(path).slice(1) as SpreadsheetFormat;
      await checkWorkbookBounds(path, format);
      const sheets = format === 'xlsx' ? (await readXlsxSheetStarts(path, { lastRow: 1 })).map(previewOf) : await readSpreadsheet(path, XLS_PREVIEW);
      return sheets.map(({ name, rowCount, header }) => ({ name, rowCount, header }));
    } catch (err) {
      throw refusal(err);
    } finally {
      release();
    }
  }

  /**
   * Opens an uploaded workbook for an import, within the same limits and bounds as `inspect`, and hands `use` a reader of
   * its first sheet; the slot is held until `use` is done. An xlsx is streamed at each reading (one batch of rows in
   * memory at a time); an xls is parsed whole once, in a worker thread, and refused past XLS_IMPORT_MAX_ROWS rows.
   */
  async withFirstSheet<T>(
    userId: number,
    path: string,
    options: { timeoutMs?: number },
    use: (firstSheet: FirstSheetReader) => Promise<T>,
  ): Promise<T> {
    const release = this.take(userId);
    try {
      const format = extname(path).slice(1) as SpreadsheetFormat;
      await checkWorkbookBounds(path, format);
      if (format === 'xlsx') return await use((consume) => readFirstXlsxSheet(path, { timeoutMs: options.timeoutMs }, consume));
      const sheet = await readXlsForImport(path, options.timeoutMs);
      return await use((consume) => consume(sheet ? sheetRowsOf(sheet) : null));
    } catch (err) {
      throw refusal(err);
    } finally {
      release();
    }
  }

  /** Takes the user's slot, one per user, which also bounds the process: `importConcurrency` users at once. */
  private take(userId: number): () => void {
    return reading.take(userId, this.config.importConcurrency);
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
