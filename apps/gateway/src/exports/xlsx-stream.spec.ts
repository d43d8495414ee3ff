// The streamed xlsx reads back, in SheetJS and in the imports' own reader, as the cells that were written.
import * as XLSX from '@e965/xlsx';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { readFirstXlsxSheet, type CellValue } from '../uploads/xlsx-sheet-stream';
import { columnName, xlsxStream, xmlText } from './xlsx-stream';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function* inBatches<T>(rows: T[], size: number): AsyncGenerator<T[]> {
  for (let i = 0; i < rows.length; i += size) {
    await new Promise((resolve) => setImmediate(resolve));
    yield rows.slice(i, i + size);
  }
}

function sheetJsRows(book: Buffer): unknown[][] {
  const read = XLSX.read(book, { type: 'buffer' });
  return XLSX.utils.sheet_to_json(read.Sheets[read.SheetNames[0]], { header: 1, defval: null, raw: true });
}

describe('xlsxStream', () => {
  const header = ['Name', 'Code', 'Volume', 'Default', 'Note'];
  const tricky: unknown[][] = [
    ['Fountain & <Square> "A"', 'BC-1', 50, true, 'line one\nline two'],
    ['福田区 终端 🎺', 'BC-2', -23.1291, false, null],
    ['=HYPERLINK("http://evil")', '+1 555', 0, false, '@SUM(A1)'],
    ['tab\tinside', '_x0041_ stays', 1e-7, true, 'control \u0001 and return \r here'],
    ['', undefined, Number.NaN, null, 'after empty cells'],
    ['gap', '', 'after one', null, 7],
  ];

  it('reads back in SheetJS with the same text, numbers and booleans; formula-like text neutralised, empty cells left out', async () => {
    const book = await bytesOf(xlsxStream('terminals', header, inBatches(tricky, 2)));
    const rows = sheetJsRows(book);
    expect(XLSX.read(book, { type: 'buffer' }).SheetNames).toEqual(['terminals']);
    expect(rows).toEqual([
      header,
      ['Fountain & <Square> "A"', 'BC-1', 50, true, 'line one\nline two'],
      ['福田区 终端 🎺', 'BC-2', -23.1291, false, null],
      ['\'=HYPERLINK("http://evil")', "'+1 555", 0, false, "'@SUM(A1)"],
      ['tab\tinside', '_x0041_ stays', 1e-7, true, 'control \u0001 and return \r here'],
      [null, null, null, null, 'after empty cells'],
      ['gap', null, 'after one', null, 7],
    ]);
  });

  it("reads back in the imports' own streamed reader the same way", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sc-xlsx-stream-'));
    try {
      const path = join(dir, 'export.xlsx');
      await writeFile(path, await bytesOf(xlsxStream('terminals', header, inBatches(tricky, 3))));
      const rows: CellValue[][] = await readFirstXlsxSheet(path, { batchRows: 2 }, async (sheet) => {
        const all: CellValue[][] = [];
        for await (const batch of sheet!.batches) for (const row of batch) all.push(Array.from(row.cells, (c) => c ?? null));
        return all;
      });
      expect(rows[0]).toEqual(header);
      expect(rows[1]).toEqual(['Fountain & <Square> "A"', 'BC-1', 50, true, 'line one\nline two']);
      expect(rows[2].slice(0, 4)).toEqual(['福田区 终端 🎺', 'BC-2', -23.1291, false]);
      expect(rows[4]).toEqual(['tab\tinside', '_x0041_ stays', 1e-7, true, 'control \u0001 and return \r here']);
      expect(rows[5]).toEqual([null, null, null, null, 'after empty cells']);
      expect(rows[6]).toEqual(['gap', null, 'after one', null, 7]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes many rows a batch at a time, pulling the next batch only as the bytes are read', async () => {
    let pulled = 0;
    async function* lazily(): AsyncGenerator<unknown[][]> {
      for (let b = 0; b < 20; b++) {
        pulled++;
        yield Array.from({ length: 500 }, (_, i) => [`Terminal ${b * 500 + i}`, `BC-${b * 500 + i}`, i % 101, i % 2 === 0, '']);
      }
    }
    const stream = xlsxStream('many', header, lazily());
    // Nothing is read before the stream is.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pulled).toBeLessThan(20);
    const rows = sheetJsRows(await bytesOf(stream));
    expect(pulled).toBe(20);
    expect(rows).toHaveLength(10_001);
    expect(rows[10_000]).toEqual(['Terminal 9999', 'BC-9999', 499 % 101, false, null]);
  });

  it('ends in an error, not a file that looks whole, when the rows fail', async () => {
    async function* failing(): AsyncGenerator<unknown[][]> {
      yield [['one', 'BC-1', 1, true, '']];
      throw new Error('database went away');
    }
    await expect(bytesOf(xlsxStream('broken', header, failing()))).rejects.toThrow('database went away');
  });

  it('names columns and escapes XML text as OOXML does', () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
    expect(xmlText('a & b < c > "d"')).toBe('a &amp; b &lt; c &gt; &quot;d&quot;');
    expect(xmlText('_x0041_ \u0002 \r')).toBe('_x005F_x0041_ _x0002_ _x000D_');
    expect(xmlText('lone \uD800 surrogate')).toBe('lone \uFFFD surrogate');
  });
});
