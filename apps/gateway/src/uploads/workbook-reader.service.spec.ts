// How many workbooks are read at once: one per user, `importConcurrency` per process; the others are refused at once.
// What a preview reads of a workbook, and the memory it takes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResultCode, XLS_IMPORT_MAX_ROWS } from '@sc/contracts';
import { largestXlsRows, longTextWorkbook, withPeakGrowth, workbookBuffer } from '@sc/testing';
import { AppException } from '../common/app-exception';
import { loadConfig } from '../config/app-config';
import { WorkbookReader } from './workbook-reader.service';

describe('WorkbookReader', () => {
  let dir: string;
  let small: string;
  let large: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sc-reader-'));
    small = join(dir, 'small.xlsx');
    large = join(dir, 'large.xlsx');
    await writeFile(small, workbookBuffer([['Name'], ['Lamp 1']]));
    await writeFile(large, workbookBuffer([['Name'], ...Array.from({ length: 49_999 }, (_, i) => [`Lamp ${i}`])]));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const reader = (concurrency: number) => new WorkbookReader({ ...loadConfig({}), importConcurrency: concurrency });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'read',
      (err: unknown) => (err instanceof AppException ? { status: err.status, code: err.code, key: err.key } : err),
    );

  it('refuses a second workbook of the same user while the first is read, and reads it once the first is done', async () => {
    const workbooks = reader(4);
    const first = workbooks.inspect(1, large);
    expect(await refusal(workbooks.inspect(1, small))).toEqual({
      status: 429,
      code: ResultCode.TooManyRequests,
      key: 'importBusyUser',
    });
    // Another user is not held up.
    expect(await refusal(workbooks.inspect(2, small))).toBe('read');
    expect((await first)[0].rowCount).toBe(49_999);
    expect(await refusal(workbooks.inspect(1, small))).toBe('read');
  });

  it('refuses a workbook past the process limit, whoever sends it, and frees the slot of a refused file', async () => {
    const workbooks = reader(1);
    const first = workbooks.inspect(1, large);
    expect(await refusal(workbooks.inspect(2, small))).toEqual({
      status: 429,
      code: ResultCode.TooManyRequests,
      key: 'importBusyServer',
    });
    await first;
    const broken = join(dir, 'broken.xlsx');
    await writeFile(broken, Buffer.from('PK\x03\x04 not a zip'));
    expect(await refusal(workbooks.inspect(2, broken))).toEqual({ status: 400, code: ResultCode.BadRequest, key: 'onlyXlsx' });
    expect(await refusal(workbooks.inspect(2, small))).toBe('read');
  });

  it('previews an xlsx from the first row of each sheet: a sheet that inflates to 63 MB costs a few MB', async () => {
    const long = join(dir, 'long.xlsx');
    const file = await longTextWorkbook(90_000, 600);
    expect(file.length).toBeLessThan(2 * 1024 * 1024);
    await writeFile(long, file);
    const { value, growthMb } = await withPeakGrowth(() => reader(2).inspect(1, long));
    expect(value).toEqual([{ name: 'Sheet1', rowCount: 90_000, header: ['Name', 'Code'] }]);
    // SheetJS reading one row of each sheet in a worker thread, as the preview did before, grew it by 180 MB. The
    // stream costs a few MB; the bound is the 100 MB, as resident memory also moves with whatever else this
    // process's garbage collector is doing (52 MB was seen in a parallel run).
    expect(growthMb).toBeLessThan(100);
  });

  it('previews the largest xls the upload limit lets through within the heap its worker thread is given', async () => {
    // The file largestXlsWorkbook writes, kept once written (workbookBuffer).
    const file = workbookBuffer(largestXlsRows(), 'xls', 'Poles');
    expect(file.length).toBeGreaterThan(4.5 * 1024 * 1024);
    expect(file.length).toBeLessThanOrEqual(5 * 1024 * 1024);
    const xls = join(dir, 'strings.xls');
    await writeFile(xls, file);
    const { value, growthMb } = await withPeakGrowth(() => reader(2).inspect(1, xls));
    expect(value).toEqual([{ name: 'Poles', rowCount: 34_000, header: ['Name', 'Code', 'Note'] }]);
    expect(growthMb).toBeLessThan(100);
  });

  describe('an xls import', () => {
    // Writing and reading workbooks of a few MB in a worker thread takes tens of seconds on a busy two-core machine
    // running other test files beside this one.
    jest.setTimeout(120_000);

    const poleColumns = ['Name', 'Code', 'Region', 'Longitude', 'Latitude', 'Address', 'Remark'];
    const poleRow = (i: number) => [`Shennan Avenue pole ${i}`, `POLE-${i}`, 'Futian District', 114.0579, 'x', `Shennan Avenue No. ${i}`, `r${i}`];
    const xlsFile = async (name: string, rows: unknown[][]) => {
      const path = join(dir, name);
      const file = workbookBuffer(rows, 'xls');
      expect(file.length).toBeLessThanOrEqual(5 * 1024 * 1024);
      await writeFile(path, file);
      return path;
    };
    /** How many rows (the header too) the import is handed, and how far the process grew meanwhile. */
    const importRows = (path: string) =>
      withPeakGrowth(() =>
        reader(2)
          .withFirstSheet(1, path, { timeoutMs: 60_000 }, (firstSheet) =>
            firstSheet(async (sheet) => {
              let count = 0;
              for await (const batch of sheet?.batches ?? []) count += batch.length;
              return count;
            }),
          )
          .catch((err: unknown) => refusal(Promise.reject(err))),
      );
    const tooLong = { status: 400, code: ResultCode.BadRequest, key: 'importXlsTooManyRows' };

    it('refuses an xls of 65,000 rows all with errors at once, within 100 MB', async () => {
      // 4.2 MB: parsed whole in a worker thread with a 512 MB heap, it took 180 MB and was handed over whole.
      const path = await xlsFile('long.xls', [['Name', 'Code', 'Longitude'], ...Array.from({ length: 65_000 }, (_, i) => [`P${i}`, `P-${i}`, 'x'])]);
      const { value, growthMb } = await importRows(path);
      expect(value).toEqual(tooLong);
      expect(growthMb).toBeLessThan(100);
    });

    it(`reads an xls of ${XLS_IMPORT_MAX_ROWS} rows of the pole columns whole, and refuses one row more`, async () => {
      const rows = [poleColumns, ...Array.from({ length: XLS_IMPORT_MAX_ROWS }, (_, i) => poleRow(i))];
      const full = await importRows(await xlsFile('full.xls', rows));
      expect(full.value).toBe(XLS_IMPORT_MAX_ROWS + 1);
      expect(full.growthMb).toBeLessThan(100);
      expect((await importRows(await xlsFile('over.xls', [...rows, poleRow(XLS_IMPORT_MAX_ROWS)]))).value).toEqual(tooLong);
    });

    it('refuses an xls too wide for the reader as too long, within 100 MB', async () => {
      const path = await xlsFile('wide.xls', [
        Array.from({ length: 40 }, (_, c) => `Column ${c}`),
        ...Array.from({ length: XLS_IMPORT_MAX_ROWS }, (_, i) => Array.from({ length: 40 }, (_, c) => i * 40 + c)),
      ]);
      const { value, growthMb } = await importRows(path);
      expect(value).toEqual(tooLong);
      expect(growthMb).toBeLessThan(100);
    });
  });
});
