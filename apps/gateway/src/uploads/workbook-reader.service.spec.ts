// How many workbooks are read at once: one per user, `importConcurrency` per process; the others are refused at once.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResultCode } from '@sc/contracts';
import { manyRowsWorkbook, workbookBuffer } from '@sc/testing';
import { AppException } from '../common/app-exception';
import { loadConfig } from '../config/app-config';
import { WorkbookReader } from './workbook-reader.service';

describe('WorkbookReader', () => {
  let dir: string;
  let small: string;
  let slow: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sc-reader-'));
    small = join(dir, 'small.xlsx');
    slow = join(dir, 'slow.xlsx');
    await writeFile(small, workbookBuffer([['Name'], ['Lamp 1']]));
    await writeFile(slow, await manyRowsWorkbook(50_000));
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
    const first = workbooks.read(1, slow, { maxRows: 100_000 });
    expect(await refusal(workbooks.read(1, small, { maxRows: 10 }))).toEqual({
      status: 429,
      code: ResultCode.TooManyRequests,
      key: 'importBusyUser',
    });
    // Another user is not held up.
    expect(await refusal(workbooks.read(2, small, { maxRows: 10 }))).toBe('read');
    expect((await first)[0].rowCount).toBe(49_999);
    expect(await refusal(workbooks.read(1, small, { maxRows: 10 }))).toBe('read');
  });

  it('refuses a workbook past the process limit, whoever sends it, and frees the slot of a refused file', async () => {
    const workbooks = reader(1);
    const first = workbooks.read(1, slow, { maxRows: 100_000 });
    expect(await refusal(workbooks.read(2, small, { maxRows: 10 }))).toEqual({
      status: 429,
      code: ResultCode.TooManyRequests,
      key: 'importBusyServer',
    });
    await first;
    const broken = join(dir, 'broken.xlsx');
    await writeFile(broken, Buffer.from('PK\x03\x04 not a zip'));
    expect(await refusal(workbooks.read(2, broken, { maxRows: 10 }))).toEqual({ status: 400, code: ResultCode.BadRequest, key: 'onlyXlsx' });
    expect(await refusal(workbooks.read(2, small, { maxRows: 10 }))).toBe('read');
  });
});
