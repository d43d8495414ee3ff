import * as XLSX from '@e965/xlsx';
import { readdir } from 'node:fs/promises';
import type { SpreadsheetInspection } from '@sc/contracts';
import {
  ApiClient,
  longTextWorkbook,
  manyRowsWorkbook,
  withLyingSizes,
  withPeakGrowth,
  workbookBuffer,
  zipBombWorkbook,
  type ApiAnswer,
} from '@sc/testing';
import { startTestGateway, type TestGateway } from './harness';

const FIVE_MB = 5 * 1024 * 1024;
const ONLY_XLSX = { 'en-US': 'Only xlsx and xls file formats are supported!', 'zh-CN': '只支持 xlsx 和 xls 格式的文件！' } as const;
const TOO_LARGE = { 'en-US': 'File size cannot exceed 5MB', 'zh-CN': '文件大小不能超过 5MB' } as const;
const ROWS = [
  ['Name', 'Code', 'Region'],
  ['Pole 1', 'P-001', 'Futian District'],
  ['Pole 2', 'P-002', 'Nanshan District'],
  ['Pole 3', 'P-003', 'Xihu District'],
];

function form(content: Buffer | string, fileName: string, field = 'file'): FormData {
  const data = new FormData();
  data.append('groupId', '1');
  data.append(field, new Blob([content]), fileName);
  return data;
}

describe('spreadsheet uploads (upload port)', () => {
  let gw: TestGateway;
  let editor: ApiClient;
  /** The editor's session, but calling the upload port. */
  const uploader = (lng = 'en-US') => new ApiClient(gw.uploadUrl, lng).as(editor.token);
  const inspect = (body: FormData | unknown, lng?: string) => uploader(lng).post<SpreadsheetInspection>('/api/files/inspect', body);

  beforeAll(async () => {
    gw = await startTestGateway();
    editor = await gw.signedIn('editor');
  });
  // Whatever happened, no upload stays on disk.
  afterEach(async () => {
    expect(await readdir(gw.config.uploadDir)).toEqual([]);
  });
  afterAll(() => gw.close());

  it.each(['xlsx', 'xls'] as const)('inspects a valid %s workbook: sheet names, row counts and header', async (format) => {
    const book = workbookBuffer(ROWS, format, 'Poles');
    const answer = await inspect(form(book, `poles.${format}`));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      code: 200,
      message: 'success',
      data: { fileName: `poles.${format}`, format, sizeBytes: book.length, sheets: [{ name: 'Poles', rows: 3, header: ['Name', 'Code', 'Region'] }] },
    });
  });

  it('previews every sheet of an xlsx from its first row, however long the sheet', async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(ROWS), 'Poles');
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([]), 'Empty');
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([
        ['Code', null, 'Note'],
        ['P-1', 1, 'x'],
      ]),
      'Notes',
    );
    const sheets = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    expect((await inspect(form(sheets, 'sheets.xlsx'))).body.data?.sheets).toEqual([
      { name: 'Poles', rows: 3, header: ['Name', 'Code', 'Region'] },
      { name: 'Empty', rows: 0, header: [] },
      { name: 'Notes', rows: 1, header: ['Code', '', 'Note'] },
    ]);
    // 1.7 MB whose sheet inflates to 63 MB: within every bound, and only its first rows are read.
    const long = await longTextWorkbook(90_000, 600);
    const answer = await inspect(form(long, 'long.xlsx'));
    expect(answer.status).toBe(200);
    expect(answer.body.data?.sheets).toEqual([{ name: 'Sheet1', rows: 90_000, header: ['Name', 'Code'] }]);
  });

  it.each(['xlsx', 'xls'] as const)('reads one of eight %s workbooks sent at once by one user, refusing the others at once', async (format) => {
    const book = workbookBuffer([['Name', 'Code'], ...Array.from({ length: 20_000 }, (_, i) => [`Pole ${i}`, `P-${i}`])], format, 'Poles');
    // Once before, so that what the first uploads of a process cost (compiling, buffers) is not counted.
    expect((await inspect(form(book, `poles.${format}`))).status).toBe(200);
    const { value: answers, growthMb } = await withPeakGrowth(() =>
      Promise.all(Array.from({ length: 8 }, () => inspect(form(book, `poles.${format}`)))),
    );
    // Each is read, or refused while another is (which depends on when each upload ends).
    const preview = { sheets: [{ name: 'Poles', rows: 20_000, header: ['Name', 'Code'] }] };
    const busy = 'Your previous file is still being read; try again when it has finished';
    for (const { status, body } of answers) {
      expect(status === 200 ? { status, sheets: body.data?.sheets } : { status, message: body.message }).toEqual(
        status === 200 ? { status, ...preview } : { status: 429, message: busy },
      );
    }
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1);
    // The eight uploads, the one workbook read (an xls in a worker thread) and this test's own requests.
    expect(growthMb).toBeLessThan(100);
  });

  it.each(['en-US', 'zh-CN'] as const)('refuses a text file renamed to .xlsx (%s)', async (lng) => {
    const answer = await inspect(form('Name,Code\nPole 1,P-001\n', 'poles.xlsx'), lng);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: 400, data: null, message: ONLY_XLSX[lng] });
  });

  it('refuses a workbook of one format named as the other, and a .csv', async () => {
    for (const [content, name] of [
      [workbookBuffer(ROWS, 'xls'), 'poles.xlsx'],
      [workbookBuffer(ROWS, 'xlsx'), 'poles.xls'],
      ['Name,Code\nPole 1,P-001\n', 'poles.csv'],
      [workbookBuffer(ROWS, 'xlsx'), 'poles'],
    ] as const) {
      const answer = await inspect(form(content, name));
      expect({ name, status: answer.status, body: answer.body }).toEqual({
        name,
        status: 400,
        body: { code: 400, data: null, message: ONLY_XLSX['en-US'] },
      });
    }
  });

  it('refuses a zip that is not a workbook', async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]);
    const answer = await inspect(form(zip, 'poles.xlsx'));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(ONLY_XLSX['en-US']);
  });

  it.each(['en-US', 'zh-CN'] as const)('refuses a file of 5 MB + 1 byte with 413 (%s)', async (lng) => {
    const big = Buffer.concat([workbookBuffer(ROWS, 'xlsx'), Buffer.alloc(FIVE_MB + 1, 0x20)]).subarray(0, FIVE_MB + 1);
    expect(big.length).toBe(FIVE_MB + 1);
    const answer: ApiAnswer = await inspect(form(big, 'big.xlsx'), lng);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ code: 413, data: null, message: TOO_LARGE[lng] });
  });

  it('does not refuse a file of exactly 5 MB for its size', async () => {
    const exact = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(FIVE_MB - 4, 0x20)]);
    const answer = await inspect(form(exact, 'exact.xlsx'));
    // Not a real workbook inside, so it is refused for its content, not its size.
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(ONLY_XLSX['en-US']);
  });

  // Built once: a zip bomb that expands to 256 MB from about 250 kB (bench:upload-attacks sends the 1 and 2 GB ones).
  let bombBuilt: Promise<Buffer> | undefined;
  it.each(['en-US', 'zh-CN'] as const)('refuses a zip bomb that expands to 256 MB with 413, before parsing it (%s)', async (lng) => {
    const bomb = await (bombBuilt ??= zipBombWorkbook(256));
    expect(bomb.length).toBeLessThan(512 * 1024);
    const answer = await inspect(form(bomb, 'bomb.xlsx'), lng);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({
      code: 413,
      data: null,
      message: {
        'en-US': 'The workbook expands to more than 64 MB; split it into smaller files',
        'zh-CN': '工作簿解压后超过 64 MB，请拆分为更小的文件',
      }[lng],
    });
    // Its zip directory lies about the sizes: refused while inflating, as a broken file.
    const lying = await inspect(form(withLyingSizes(bomb), 'bomb.xlsx'), lng);
    expect(lying.status).toBe(400);
    expect(lying.body.message).toBe(ONLY_XLSX[lng]);
  });

  it('refuses a file of a million rows (4.9 MB) before parsing it', async () => {
    const rows = await manyRowsWorkbook(1_000_000);
    expect(rows.length).toBeLessThan(FIVE_MB);
    const answer = await inspect(form(rows, 'rows.xlsx'));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: 400, data: null, message: 'A file may hold at most 100000 rows' });
  });

  it('answers 400 when no file is sent', async () => {
    const expected = {
      code: 400,
      data: { errors: [{ field: 'file', message: 'File: Please choose a file to upload', reason: 'Please choose a file to upload' }] },
      message: 'File: Please choose a file to upload',
    };
    const fieldsOnly = new FormData();
    fieldsOnly.append('groupId', '1');
    for (const body of [fieldsOnly, form(workbookBuffer(ROWS), 'poles.xlsx', 'upload'), { file: 'poles.xlsx' }]) {
      const answer = await inspect(body);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(expected);
    }
    const zh = await inspect(fieldsOnly, 'zh-CN');
    expect(zh.body.message).toBe('文件：请先选择要上传的文件');
  });

  it('answers 401 with code -1 without a valid token', async () => {
    const anonymous = await new ApiClient(gw.uploadUrl).post('/api/files/inspect', form(workbookBuffer(ROWS), 'poles.xlsx'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(-1);
    const revoked = await gw.signedIn('visitor');
    await revoked.get('/api/user/logout');
    const afterLogout = await new ApiClient(gw.uploadUrl).as(revoked.token).post('/api/files/inspect', form(workbookBuffer(ROWS), 'poles.xlsx'));
    expect(afterLogout.status).toBe(401);
  });

  it('refuses a visitor, who has no Import data button, without keeping the file', async () => {
    const visitor = await gw.signedIn('visitor');
    const answer = await new ApiClient(gw.uploadUrl).as(visitor.token).post('/api/files/inspect', form(workbookBuffer(ROWS), 'poles.xlsx'));
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe(403);
  });

  it('answers a request cut off in the middle of the file with 400, keeping nothing', async () => {
    const boundary = '----sc-cut';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="poles.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    // The body promises more than it sends: the stream ends before the closing boundary.
    const body = Buffer.concat([Buffer.from(head), workbookBuffer(ROWS).subarray(0, 200)]);
    const answer = await fetch(`${gw.uploadUrl}/api/files/inspect`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${editor.token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { code: number }).code).toBe(400);
  });

  describe('CORS', () => {
    const preflight = (origin: string) =>
      fetch(`${gw.uploadUrl}/api/files/inspect`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,accept-language' },
      });

    /** The console's origins (CONSOLE_ORIGIN): by default localhost and 127.0.0.1 on the console's port. */
    const consoleOrigins = () => gw.config.consoleOrigin.split(',').map((o) => o.trim());

    it('allows a preflight from the console origins, localhost and 127.0.0.1 alike', async () => {
      expect(consoleOrigins()).toEqual([expect.stringMatching(/^http:\/\/localhost:\d+$/), expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/)]);
      for (const origin of consoleOrigins()) {
        const answer = await preflight(origin);
        expect(answer.status).toBeLessThan(300);
        expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
        expect(answer.headers.get('access-control-allow-credentials')).toBe('true');
        expect(answer.headers.get('access-control-allow-methods')).toContain('POST');
        expect(answer.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
      }
    });

    it('does not allow a preflight from another origin', async () => {
      const answer = await preflight('http://evil.example');
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      // Without Access-Control-Allow-Origin the browser refuses to send the real request.
      expect(answer.headers.get('vary')?.toLowerCase()).toContain('origin');
    });

    it('marks a real answer for the console origin only', async () => {
      const body = form(workbookBuffer(ROWS), 'poles.xlsx');
      const allowed = await fetch(`${gw.uploadUrl}/api/files/inspect`, {
        method: 'POST',
        headers: { Origin: consoleOrigins()[1], Authorization: `Bearer ${editor.token}` },
        body,
      });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(consoleOrigins()[1]);
      const other = await fetch(`${gw.uploadUrl}/api/files/inspect`, {
        method: 'POST',
        headers: { Origin: 'http://evil.example', Authorization: `Bearer ${editor.token}` },
        body: form(workbookBuffer(ROWS), 'poles.xlsx'),
      });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
});
