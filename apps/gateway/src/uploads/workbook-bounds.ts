import { promisify } from 'node:util';
import type { Readable } from 'node:stream';
import * as yauzl from 'yauzl';
import { IMPORT_MAX_ROWS, type SpreadsheetFormat } from '@sc/contracts';

/**
 * What a workbook may hold before it is parsed. An xlsx is a zip: a 5 MB upload can inflate to gigabytes (a zip bomb)
 * or to a million rows, and the parser would hold all of it. These figures are read from the zip's own directory and
 * then counted while inflating it as a stream (a directory can lie), with memory bounded by one chunk; only a file
 * within them reaches the parser. A real 5 MB workbook inflates to about 15 to 50 MB.
 */
export const WORKBOOK_BOUNDS = {
  /** Entries in the zip (a workbook has a few dozen). */
  maxEntries: 1_000,
  /** Uncompressed bytes of all entries together. */
  maxUncompressedBytes: 64 * 1024 * 1024,
  /** Uncompressed to compressed size of one entry, above 1 MiB uncompressed (repetitive sheets reach about 30). */
  maxRatio: 200,
  /** Rows of all sheets: one sheet of the largest import, with its header row, and a few rows of other sheets. */
  maxRows: IMPORT_MAX_ROWS + 1_000,
  /** Cells of all sheets. */
  maxCells: 2_000_000,
} as const;

const RATIO_FROM_BYTES = 1024 * 1024;

/** Why a workbook was refused before parsing. */
export type WorkbookBoundsProblem =
  { kind: 'unreadable' } | { kind: 'tooLarge'; maxMb: number } | { kind: 'tooManyRows'; max: number } | { kind: 'tooManyCells'; max: number };

export class WorkbookOutOfBounds extends Error {
  constructor(readonly problem: WorkbookBoundsProblem) {
    super(`workbook refused before parsing: ${problem.kind}`);
  }
}

/** Counts `<row` and `<c` elements across the chunks of a sheet's XML (a tag may be split between two chunks). */
class ElementCounter {
  rows = 0;
  cells = 0;
  private tail = '';

  push(chunk: Buffer): void {
    const text = this.tail + chunk.toString('latin1');
    // `<row>` / `<row ...` and `<c>` / `<c ...`; `<col`, `<cols`, `<cfRule` are other elements.
    for (const match of text.matchAll(/<(row|c)[\s>/]/g)) {
      if (match[1] === 'row') this.rows++;
      else this.cells++;
    }
    // A start of a tag cut off by the chunk's end (`<`, `<r`, `<ro`, `<row`) is looked at again with the next chunk;
    // one already counted here is not kept.
    const lastOpen = text.lastIndexOf('<');
    const fragment = lastOpen >= 0 && text.length - lastOpen <= 4 ? text.slice(lastOpen) : '';
    this.tail = /^<(row|c)[\s>/]/.test(fragment) ? '' : fragment;
  }
}

const openZip = promisify<string, yauzl.Options, yauzl.ZipFile>(yauzl.open);

/** Reads every entry of a zip in turn, calling `visit` with its entry and stream; stops at the first error. */
async function eachEntry(path: string, visit: (entry: yauzl.Entry, stream: Readable) => Promise<void>): Promise<void> {
  const zip = await openZip(path, { lazyEntries: true, autoClose: true, validateEntrySizes: true, strictFileNames: false });
  const openStream = promisify(zip.openReadStream.bind(zip)) as (entry: yauzl.Entry) => Promise<Readable>;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          if (/\/$/.test(entry.fileName)) return zip.readEntry();
          const stream = await openStream(entry);
          await visit(entry, stream);
          zip.readEntry();
        })().catch(reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

/**
 * Refuses (WorkbookOutOfBounds) a workbook past WORKBOOK_BOUNDS, before any parser sees it. An xls is not compressed
 * and its size is already bounded by the upload limit.
 */
export async function checkWorkbookBounds(path: string, format: SpreadsheetFormat): Promise<void> {
  if (format !== 'xlsx') return;
  const tooLarge = () => new WorkbookOutOfBounds({ kind: 'tooLarge', maxMb: WORKBOOK_BOUNDS.maxUncompressedBytes / 1024 / 1024 });
  let entries = 0;
  let total = 0;
  const counter = new ElementCounter();
  try {
    await eachEntry(path, async (entry, stream) => {
      if (++entries > WORKBOOK_BOUNDS.maxEntries) throw tooLarge();
      // The directory's word first: nothing is inflated for a file that says it is too large.
      if (total + entry.uncompressedSize > WORKBOOK_BOUNDS.maxUncompressedBytes) throw tooLarge();
      if (entry.uncompressedSize > RATIO_FROM_BYTES && entry.uncompressedSize > entry.compressedSize * WORKBOOK_BOUNDS.maxRatio) throw tooLarge();
      const sheet = /^xl\/worksheets\/[^/]+\.xml$/i.test(entry.fileName);
      let inflated = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        inflated += chunk.length;
        // yauzl also stops a stream that inflates past the size its directory gave.
        if (total + inflated > WORKBOOK_BOUNDS.maxUncompressedBytes) {
          stream.destroy();
          throw tooLarge();
        }
        if (!sheet) continue;
        counter.push(chunk);
        if (counter.rows > WORKBOOK_BOUNDS.maxRows) {
          stream.destroy();
          throw new WorkbookOutOfBounds({ kind: 'tooManyRows', max: IMPORT_MAX_ROWS });
        }
        if (counter.cells > WORKBOOK_BOUNDS.maxCells) {
          stream.destroy();
          throw new WorkbookOutOfBounds({ kind: 'tooManyCells', max: WORKBOOK_BOUNDS.maxCells });
        }
      }
      total += inflated;
    });
  } catch (err) {
    if (err instanceof WorkbookOutOfBounds) throw err;
    // Not a zip, a broken one, an entry that inflates past its declared size, an unknown compression method.
    throw new WorkbookOutOfBounds({ kind: 'unreadable' });
  }
}
