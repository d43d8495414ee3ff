// The checks a workbook passes before any parser sees it, on files crafted as an attacker would.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IMPORT_MAX_ROWS } from '@sc/contracts';
import { manyRowsWorkbook, withLyingSizes, workbookBuffer, zipBombWorkbook } from '@sc/testing';
import { WORKBOOK_BOUNDS, WorkbookOutOfBounds, checkWorkbookBounds, type WorkbookBoundsProblem } from './workbook-bounds';

describe('workbook bounds', () => {
  let dir: string;
  let n = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sc-bounds-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const check = async (content: Buffer, format: 'xlsx' | 'xls' = 'xlsx'): Promise<WorkbookBoundsProblem | 'ok'> => {
    const path = join(dir, `${++n}.${format}`);
    await writeFile(path, content);
    try {
      await checkWorkbookBounds(path, format);
      return 'ok';
    } catch (err) {
      if (err instanceof WorkbookOutOfBounds) return err.problem;
      throw err;
    }
  };
  const tooLarge = { kind: 'tooLarge', maxMb: WORKBOOK_BOUNDS.maxUncompressedBytes / 1024 / 1024 };

  it('lets an ordinary workbook through, and one of exactly the most rows', async () => {
    expect(await check(workbookBuffer([['Name', 'Code'], ...Array.from({ length: 5000 }, (_, i) => [`Lamp ${i}`, `L${i}`])]))).toBe('ok');
    // Rows are counted exactly, though the inflated stream cuts tags between its chunks anywhere.
    expect(await check(await manyRowsWorkbook(WORKBOOK_BOUNDS.maxRows))).toBe('ok');
    expect(await check(await manyRowsWorkbook(WORKBOOK_BOUNDS.maxRows + 1))).toEqual({ kind: 'tooManyRows', max: IMPORT_MAX_ROWS });
    // An xls is not compressed: the upload limit bounds it.
    expect(await check(workbookBuffer([['Name'], ['Lamp']], 'xls'), 'xls')).toBe('ok');
  });

  it('refuses a zip bomb by its directory, before inflating it', async () => {
    expect(await check(await zipBombWorkbook(100))).toEqual(tooLarge);
    // Nothing was inflated: far less time than inflating 200 MiB would take is not asserted, the size is.
  });

  it('refuses a zip bomb whose directory lies, while inflating it, without holding what it inflated', async () => {
    const before = process.memoryUsage().rss;
    // The inflater stops at the first byte past the declared size: the zip is broken, as much as too large.
    expect(await check(withLyingSizes(await zipBombWorkbook(100)))).toEqual({ kind: 'unreadable' });
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('refuses a million rows in a file under 5 MB', async () => {
    expect(await check(await manyRowsWorkbook(1_000_000))).toEqual({ kind: 'tooManyRows', max: IMPORT_MAX_ROWS });
  });

  it('counts cells across many columns', async () => {
    expect(await check(await manyRowsWorkbook(100, WORKBOOK_BOUNDS.maxCells / 100 + 1))).toEqual({
      kind: 'tooManyCells',
      max: WORKBOOK_BOUNDS.maxCells,
    });
  });

  it('calls anything that is not a readable zip unreadable', async () => {
    expect(await check(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(500, 7)]))).toEqual({ kind: 'unreadable' });
    expect(await check(Buffer.from('Name,Code\n'))).toEqual({ kind: 'unreadable' });
  });
});
