import * as XLSX from '@e965/xlsx';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/**
 * Large xls files, kept once written. SheetJS's BIFF8 writer takes about a minute for 65,000 rows on a busy two-core
 * machine; these files are kept brotli-compressed in libs/testing/workbooks, named by the digest of what they hold, so
 * a test gets the same bytes in milliseconds. A test whose rows change writes a new file there, to commit beside it
 * (and the one it replaces can go).
 */
const KEPT = join(__dirname, '..', 'workbooks');
/** Smaller workbooks are written each time: they take well under a second. */
const KEEP_FROM_CELLS = 20_000;

/** Builds a workbook in memory, as a user's spreadsheet program would save it. */
export function workbookBuffer(rows: unknown[][], format: 'xlsx' | 'xls' = 'xlsx', sheetName = 'Sheet1'): Buffer {
  const write = () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), sheetName);
    return XLSX.write(book, { type: 'buffer', bookType: format === 'xlsx' ? 'xlsx' : 'biff8' }) as Buffer;
  };
  const cells = rows.reduce((sum, row) => sum + row.length, 0);
  if (format !== 'xls' || cells < KEEP_FROM_CELLS) return write();
  const digest = createHash('sha256')
    .update(JSON.stringify([sheetName, rows]))
    .digest('hex')
    .slice(0, 20);
  const file = join(KEPT, `${digest}.xls.br`);
  try {
    return brotliDecompressSync(readFileSync(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const written = write();
  mkdirSync(KEPT, { recursive: true });
  writeFileSync(file, brotliCompressSync(written, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24 } }));
  return written;
}
