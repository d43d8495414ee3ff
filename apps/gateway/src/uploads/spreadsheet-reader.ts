import { Worker } from 'node:worker_threads';

export interface SheetContent {
  name: string;
  /** Data rows below the header row. */
  rowCount: number;
  header: string[];
  /** The first `maxRows` data rows, each a list of cell values. */
  rows: unknown[][];
  /** The sheet row number (1-based, as a spreadsheet program shows it) of the header row. */
  headerRowNumber: number;
}

export interface ReadOptions {
  /** How many data rows to return per sheet (0: only the header and the count). */
  maxRows: number;
  /** Keep empty rows in `rows` (as empty lists), so a row's place in the list gives its row number. */
  blankRows?: boolean;
  timeoutMs?: number;
  /** The worker's heap: its old generation, and its young one (by default as large as the process's). */
  maxMemoryMb?: number;
  maxYoungMemoryMb?: number;
}

export class SpreadsheetUnreadableError extends Error {}

/** The reader ran out of the heap it was given: the workbook holds more than it may. */
export class SpreadsheetTooLargeError extends SpreadsheetUnreadableError {}

// Plain JavaScript run in a worker thread: a workbook is a zip that can inflate to far more than its 5 MB,
// so it is parsed off the event loop, with a memory cap and a time-out, where a bad one cannot stall the gateway.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const XLSX = require('@e965/xlsx');
const { path, maxRows, blankRows } = workerData;
// Values only: no formatted text, HTML, number formats or styles, which would double what a large sheet holds.
const book = XLSX.readFile(path, { dense: true, cellDates: true, cellText: false, cellHTML: false, cellNF: false, cellStyles: false, sheetRows: maxRows + 1 });
parentPort.postMessage(book.SheetNames.map((name) => {
  const sheet = book.Sheets[name];
  const full = sheet['!fullref'] || sheet['!ref'];
  const lastRow = full ? XLSX.utils.decode_range(full).e.r : -1;
  const rows = XLSX.utils.sheet_to_json(sheet, { header: 1, blankrows: blankRows, defval: null });
  const header = (rows[0] || []).map((c) => (c === null || c === undefined ? '' : String(c)));
  const headerRowNumber = sheet['!ref'] ? XLSX.utils.decode_range(sheet['!ref']).s.r + 1 : 1;
  return { name, rowCount: Math.max(0, lastRow), header, rows: rows.slice(1, maxRows + 1), headerRowNumber };
}));
`;

/** Reads a stored xlsx or xls file in a worker thread; rejects with SpreadsheetUnreadableError when it cannot. */
export function readSpreadsheet(path: string, options: ReadOptions): Promise<SheetContent[]> {
  const { maxRows, blankRows = false, timeoutMs = 20_000, maxMemoryMb = 256, maxYoungMemoryMb } = options;
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path, maxRows, blankRows },
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb, ...(maxYoungMemoryMb ? { maxYoungGenerationSizeMb: maxYoungMemoryMb } : {}) },
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => settle(() => reject(new SpreadsheetUnreadableError(`no result within ${timeoutMs} ms`))), timeoutMs);
    worker.once('message', (sheets: SheetContent[]) => settle(() => resolve(sheets)));
    worker.once('error', (err: Error & { code?: string }) =>
      settle(() =>
        reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new SpreadsheetTooLargeError(err.message) : new SpreadsheetUnreadableError(err.message)),
      ),
    );
    worker.once('exit', (code) => settle(() => reject(new SpreadsheetUnreadableError(`reader stopped with code ${code}`))));
  });
}
