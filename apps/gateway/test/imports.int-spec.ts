import * as XLSX from '@e965/xlsx';
import { readdir } from 'node:fs/promises';
import { XLS_IMPORT_MAX_ROWS, type ImportRejection, type ImportResult } from '@sc/contracts';
import { Client } from 'pg';
import { ApiClient, waitFor, workbookBuffer, type ApiAnswer } from '@sc/testing';
import { startTestGateway, type TestGateway } from './harness';

const FIVE_MB = 5 * 1024 * 1024;
const LAMP_HEADER = ['Lamp name', 'Client ID', 'Region', 'Gateway ID', 'Lamp controller ID', 'Address', 'MAC address', 'Longitude', 'Latitude'];

function lampRows(count: number, prefix: string, start = 1): unknown[][] {
  return Array.from({ length: count }, (_, i) => {
    const n = start + i;
    return [
      `Imported lamp ${n}`,
      `${prefix}-${n}`,
      'Futian District',
      'LGW-01',
      `LC-${n}`,
      `Road No. ${n}`,
      `02:00:00:00:00:${n % 100}`,
      114 + n / 1e5,
      22.5,
    ];
  });
}

function form(content: Buffer | string, fields: Record<string, string>, fileName = 'lamps.xlsx'): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  data.append('file', new Blob([content]), fileName);
  return data;
}

/** Reads a downloaded workbook's first sheet as rows of cells. */
function sheetRows(book: ArrayBuffer): unknown[][] {
  const read = XLSX.read(Buffer.from(book), { type: 'buffer' });
  return XLSX.utils.sheet_to_json(read.Sheets[read.SheetNames[0]], { header: 1, defval: '' });
}

/** A refused import's answer as compared: status, message, counts, and the errors shown as [row, column, value, reason]. */
function refusalOf({ status, body }: ApiAnswer<ImportResult>) {
  const { total, badRows, errorCount, errors } = body.data as unknown as ImportRejection;
  return {
    status,
    message: body.message,
    total,
    badRows,
    errorCount,
    errors: errors.map(({ row, column, value, reason }) => [row, column, value, reason]),
  };
}

describe('imports, templates and exports', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let lampGroup: number;
  let otherLampGroup: number;
  let poleGroup: number;
  const upload = (client: ApiClient, path: string, body: FormData) =>
    new ApiClient(gw.uploadUrl, client.language).as(client.token).post<ImportResult>(path, body);
  const lampCount = async (prefix: string) =>
    (
      await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM device d JOIN lamp l ON l.device_id = d.id WHERE d.code LIKE $1`, [
        `${prefix}-%`,
      ])
    )[0].n;
  const download = (client: ApiClient, path: string) =>
    fetch(`${gw.baseUrl}${path}`, { headers: { Authorization: `Bearer ${client.token}`, 'Accept-Language': client.language } });

  beforeAll(async () => {
    gw = await startTestGateway();
    admin = await gw.signedIn('admin');
    const groups = await gw.db.query<{ id: number }>(
      `INSERT INTO device_group (type, name) VALUES (1, 'Import lamps'), (1, 'Other lamps'), (0, 'Import poles') RETURNING id`,
    );
    [lampGroup, otherLampGroup, poleGroup] = groups.map((g) => g.id);
    // The gateway the lamp rows name must be a recorded one.
    await gw.db.query(`INSERT INTO lamp_gateway (code, name) VALUES ('LGW-01', 'Import gateway')`);
  });
  afterEach(async () => {
    expect(await readdir(gw.config.uploadDir)).toEqual([]);
  });
  afterAll(() => gw.close());

  it('imports 5,000 lamps in one go, and the same file again changes nothing', async () => {
    const book = workbookBuffer([LAMP_HEADER, ...lampRows(5000, 'IMP')]);
    const first = await upload(admin, '/api/light/lightImport', form(book, { groupId: String(lampGroup) }));
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ kind: 'light', dryRun: false, total: 5000, added: 5000, changed: 0, unchanged: 0 });
    expect(first.body.data.addedCodes.slice(0, 2)).toEqual(['IMP-1', 'IMP-2']);
    expect(await lampCount('IMP')).toBe(5000);
    const [lamp] = await gw.db.query(
      `SELECT d.name, d.group_id AS "groupId", r.region_name AS region, d.longitude, d.latitude, l.gateway_id AS "gatewayId",
              l.lamp_control_id AS "lampControlId", l.addr
         FROM device d JOIN lamp l ON l.device_id = d.id JOIN region r ON r.id = d.region_id WHERE d.code = 'IMP-42'`,
    );
    expect(lamp).toEqual({
      name: 'Imported lamp 42',
      groupId: lampGroup,
      region: 'Futian District',
      longitude: 114.00042,
      latitude: 22.5,
      gatewayId: 'LGW-01',
      lampControlId: 'LC-42',
      addr: 'Road No. 42',
    });

    const before = await gw.db.query(`SELECT id, updated_at FROM device WHERE code LIKE 'IMP-%' ORDER BY id`);
    const again = await upload(admin, '/api/light/lightImport', form(book, { groupId: String(lampGroup) }));
    expect(again.body.data).toMatchObject({ total: 5000, added: 0, changed: 0, unchanged: 5000 });
    expect(await gw.db.query(`SELECT id, updated_at FROM device WHERE code LIKE 'IMP-%' ORDER BY id`)).toEqual(before);
  });

  it('a dry run answers what would change and writes nothing; the real run then does it', async () => {
    const rows = lampRows(3, 'DRY');
    await upload(admin, '/api/light/lightImport', form(workbookBuffer([LAMP_HEADER, ...rows]), { groupId: String(lampGroup) }));
    const edited = [LAMP_HEADER, rows[0], [...rows[1].slice(0, 5), 'Moved to No. 9', ...rows[1].slice(6)], rows[2], ...lampRows(2, 'DRY', 4)];
    const dry = await upload(admin, '/api/light/lightImport', form(workbookBuffer(edited), { groupId: String(lampGroup), dryRun: 'true' }));
    expect(dry.body.data).toEqual({
      kind: 'light',
      dryRun: true,
      total: 5,
      added: 2,
      changed: 1,
      unchanged: 2,
      addedCodes: ['DRY-4', 'DRY-5'],
      changedCodes: ['DRY-2'],
    });
    expect(await lampCount('DRY')).toBe(3);
    expect(await gw.db.query(`SELECT addr FROM lamp l JOIN device d ON d.id = l.device_id WHERE d.code = 'DRY-2'`)).toEqual([{ addr: 'Road No. 2' }]);

    const real = await upload(admin, '/api/light/lightImport', form(workbookBuffer(edited), { groupId: String(lampGroup) }));
    expect(real.body.data).toMatchObject({ dryRun: false, added: 2, changed: 1, unchanged: 2 });
    expect(await lampCount('DRY')).toBe(5);
    expect(await gw.db.query(`SELECT addr FROM lamp l JOIN device d ON d.id = l.device_id WHERE d.code = 'DRY-2'`)).toEqual([
      { addr: 'Moved to No. 9' },
    ]);
    // Importing into another group moves the records: a change.
    const moved = await upload(admin, '/api/light/lightImport', form(workbookBuffer(edited), { groupId: String(otherLampGroup), dryRun: '1' }));
    expect(moved.body.data).toMatchObject({ changed: 5, unchanged: 0 });
  });

  it('refuses a dry-run flag other than true/false/1/0, writing nothing; false imports', async () => {
    const book = workbookBuffer([LAMP_HEADER, ...lampRows(2, 'FLAG')]);
    for (const dryRun of ['on', 'yes', 'maybe']) {
      const answer = await upload(admin, '/api/light/lightImport', form(book, { groupId: String(lampGroup), dryRun }));
      expect({ dryRun, status: answer.status, message: answer.body.message }).toEqual({
        dryRun,
        status: 400,
        message: 'Dry run: Must be true or false',
      });
    }
    const zh = await upload(admin.as(admin.token, 'zh-CN'), '/api/light/lightImport', form(book, { groupId: String(lampGroup), dryRun: 'on' }));
    expect(zh.body.message).toBe('试运行：必须是“是”或“否”');
    expect(await lampCount('FLAG')).toBe(0);
    const real = await upload(admin, '/api/light/lightImport', form(book, { groupId: String(lampGroup), dryRun: 'FALSE' }));
    expect(real.body.data).toMatchObject({ dryRun: false, added: 2 });
    expect(await lampCount('FLAG')).toBe(2);
  });

  it('takes only recorded gateways (or the one a lamp already has), and a lamp moved to another gateway leaves its loop', async () => {
    const [a] = await gw.db.query<{ id: number }>(`INSERT INTO lamp_gateway (code, name) VALUES ('GWI-A', 'A'), ('GWI-B', 'B') RETURNING id`);
    const [loop] = await gw.db.query<{ id: number }>(`INSERT INTO lamp_loop (gateway_id, code, name) VALUES ($1, 'L1', 'Loop') RETURNING id`, [a.id]);
    const row = (n: number, gateway: string) => [`Wired lamp ${n}`, `GWI-${n}`, '', gateway, '', '', '', '', ''];
    expect(
      (
        await upload(
          admin,
          '/api/light/lightImport',
          form(workbookBuffer([LAMP_HEADER, row(1, 'GWI-A'), row(2, 'GWI-A')]), { groupId: String(lampGroup) }),
        )
      ).body.data,
    ).toMatchObject({ added: 2 });
    await gw.db.query(`UPDATE lamp l SET loop_id = $1 FROM device d WHERE d.id = l.device_id AND d.code LIKE 'GWI-%'`, [loop.id]);
    // A gateway the lamp reported, nobody recorded.
    await gw.db.query(`UPDATE lamp l SET gateway_id = 'REPORTED-GW' FROM device d WHERE d.id = l.device_id AND d.code = 'GWI-2'`);
    const lamps = () =>
      gw.db.query(`SELECT d.code, l.gateway_id, l.loop_id FROM device d JOIN lamp l ON l.device_id = d.id WHERE d.code LIKE 'GWI-%' ORDER BY d.code`);
    const before = await lamps();

    const bad = workbookBuffer([LAMP_HEADER, row(1, 'NOPE-GW'), row(2, 'REPORTED-GW'), row(3, 'NOPE-GW')]);
    const refused = await upload(admin, '/api/light/lightImport', form(bad, { groupId: String(lampGroup) }));
    expect(refused.status).toBe(400);
    expect((refused.body.data as unknown as ImportRejection).errors.map(({ row: r, column, value, reason }) => [r, column, value, reason])).toEqual([
      [2, 'Gateway ID', 'NOPE-GW', 'No gateway has the code "NOPE-GW"'],
      [4, 'Gateway ID', 'NOPE-GW', 'No gateway has the code "NOPE-GW"'],
    ]);
    expect(await lamps()).toEqual(before);
    expect(await lampCount('GWI')).toBe(2);

    const moved = await upload(
      admin,
      '/api/light/lightImport',
      form(workbookBuffer([LAMP_HEADER, row(1, 'GWI-B'), row(2, 'REPORTED-GW')]), { groupId: String(lampGroup) }),
    );
    expect(moved.body.data).toMatchObject({ changed: 1, unchanged: 1, changedCodes: ['GWI-1'] });
    expect(await lamps()).toEqual([
      { code: 'GWI-1', gateway_id: 'GWI-B', loop_id: null },
      { code: 'GWI-2', gateway_id: 'REPORTED-GW', loop_id: loop.id },
    ]);
  });

  it('answers a conflict, not a 500, when a group, pole or region the file names goes while the import waits its turn', async () => {
    const poles = workbookBuffer([
      ['Name', 'Code', 'Region', 'Longitude', 'Latitude', 'Address', 'Remark'],
      ['Doomed pole', 'RACE-POLE', '', '', '', '', ''],
    ]);
    expect((await upload(admin, '/api/lamp/lampImport', form(poles, { groupId: String(poleGroup) }))).body.data).toMatchObject({ added: 1 });
    const [region] = await gw.db.query<{ id: number }>(`INSERT INTO region (region_name) VALUES ('Race district') RETURNING id`);
    const [group] = await gw.db.query<{ id: number }>(`INSERT INTO device_group (type, name) VALUES (1, 'Doomed group') RETURNING id`);
    const header = ['Client ID', 'Lamp name', 'Region', 'Lamp pole code'];
    const onPole = ['RACE-1', 'On the doomed pole', '', 'RACE-POLE'];
    const inRegion = ['RACE-2', 'In the doomed district', 'Race district', ''];
    // Holds the lamp imports' turn, so the file is read and checked but not yet written.
    const turn = new Client({ connectionString: gw.db.url });
    await turn.connect();
    const whileWaiting = async (rows: unknown[][], groupId: number, change: string, params: unknown[]) => {
      await turn.query(`SELECT pg_advisory_lock(hashtext('sc:import:light'))`);
      try {
        const answer = upload(admin, '/api/light/lightImport', form(workbookBuffer([header, ...rows]), { groupId: String(groupId) }));
        await waitFor(async () => {
          const waiting = await gw.db.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
          );
          return waiting.length > 0 ? true : undefined;
        }, 5000);
        await gw.db.query(change, params);
        await turn.query(`SELECT pg_advisory_unlock(hashtext('sc:import:light'))`);
        return await answer;
      } finally {
        await turn.query(`SELECT pg_advisory_unlock_all()`);
      }
    };
    try {
      const noGroup = await whileWaiting([onPole, inRegion], group.id, `DELETE FROM device_group WHERE id = $1`, [group.id]);
      expect({ status: noGroup.status, message: noGroup.body.message }).toEqual({
        status: 400,
        message: 'Group: The selected device group does not exist',
      });
      const noPole = await whileWaiting([onPole, inRegion], lampGroup, `DELETE FROM device WHERE code = $1`, ['RACE-POLE']);
      expect({ status: noPole.status, message: noPole.body.message }).toEqual({
        status: 409,
        message: 'The same devices were changed at the same moment, please import again',
      });
      const noRegion = await whileWaiting([inRegion], lampGroup, `DELETE FROM region WHERE id = $1`, [region.id]);
      expect({ status: noRegion.status, message: noRegion.body.message }).toEqual({
        status: 409,
        message: 'The same devices were changed at the same moment, please import again',
      });
    } finally {
      await turn.end();
    }
    expect(await lampCount('RACE')).toBe(0);
  });

  it('refuses a file that only the records refuse while reading it, not waiting for the imports’ turn: same answer and report, nothing written', async () => {
    const recorded = workbookBuffer([
      ['Name', 'Code', 'Longitude', 'Latitude'],
      ...[1, 2, 3].map((n) => [`Recorded pole ${n}`, `REC-${n}`, 114, 22.5]),
    ]);
    expect((await upload(admin, '/api/lamp/lampImport', form(recorded, { groupId: String(poleGroup) }))).body.data).toMatchObject({ added: 3 });
    // 1,000 rows, five of the reader's batches, every cell good. Without a latitude column, the recorded poles keep
    // theirs; the new poles have no position, but those of rows 601 and 902 are given a longitude only.
    const poleRows = Array.from({ length: 1_000 }, (_, i) => [`Pole ${i + 1}`, `REC-${i + 1}`, i < 3 || i === 599 || i === 900 ? 114.5 : '']);
    const poles = workbookBuffer([['Name', 'Code', 'Longitude'], ...poleRows]);
    // A new lamp on a gateway nobody recorded, in the caller's language.
    const lamps = workbookBuffer([LAMP_HEADER, ...lampRows(450, 'RECL'), ['Lamp', 'RECL-451', '', 'NOPE-GW', '', '', '', '', '']]);
    const positions = () => gw.db.query<{ code: string }>(`SELECT code, longitude, latitude FROM device WHERE code LIKE 'REC-%' ORDER BY code`);
    const before = await positions();

    // Both kinds of import wait for their turn before they write: held here, while the files are sent.
    const turn = new Client({ connectionString: gw.db.url });
    await turn.connect();
    const answeredWithoutWaiting = async <T>(sent: Promise<T>): Promise<T> => {
      let answered = false;
      const answer = sent.finally(() => (answered = true));
      // An import waiting for its turn shows in pg_stat_activity; these are answered before.
      const waited = await waitFor(async () => {
        if (answered) return false;
        const waiting = await gw.db.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
        );
        return waiting.length > 0 ? true : undefined;
      }, 20_000);
      expect(waited).toBe(false);
      return answer;
    };
    let refusedPoles: ApiAnswer<ImportResult>;
    let refusedLamps: ApiAnswer<ImportResult>;
    try {
      await turn.query(`SELECT pg_advisory_lock(hashtext('sc:import:lamp')), pg_advisory_lock(hashtext('sc:import:light'))`);
      refusedPoles = await answeredWithoutWaiting(upload(admin, '/api/lamp/lampImport', form(poles, { groupId: String(poleGroup) })));
      refusedLamps = await answeredWithoutWaiting(
        upload(admin.as(admin.token, 'zh-CN'), '/api/light/lightImport', form(lamps, { groupId: String(lampGroup), dryRun: 'true' })),
      );
    } finally {
      await turn.query(`SELECT pg_advisory_unlock_all()`);
      await turn.end();
    }

    const shown = [
      [601, 'Latitude', '', 'Give both latitude and longitude, or neither'],
      [902, 'Latitude', '', 'Give both latitude and longitude, or neither'],
    ];
    expect(refusalOf(refusedPoles)).toEqual({
      status: 400,
      message: '2 rows have errors; nothing was imported',
      total: 1_000,
      badRows: 2,
      errorCount: 2,
      errors: shown,
    });
    const report = await download(admin, `/api/imports/report?id=${(refusedPoles.body.data as unknown as ImportRejection).reportId}`);
    expect(sheetRows(await report.arrayBuffer())).toEqual([['Row', 'Column', 'Value', 'Reason'], ...shown]);
    expect(await positions()).toEqual(before);
    expect(refusalOf(refusedLamps)).toEqual({
      status: 400,
      message: '1 行有错误，未导入任何数据',
      total: 451,
      badRows: 1,
      errorCount: 1,
      errors: [[452, 'Gateway ID', 'NOPE-GW', '没有编码为“NOPE-GW”的网关']],
    });
    expect(await lampCount('RECL')).toBe(0);

    // The same poles, the two rows without a longitude: imported, the recorded poles keeping their latitude.
    poleRows[599][2] = '';
    poleRows[900][2] = '';
    const imported = await upload(
      admin,
      '/api/lamp/lampImport',
      form(workbookBuffer([['Name', 'Code', 'Longitude'], ...poleRows]), { groupId: String(poleGroup) }),
    );
    expect(imported.body.data).toMatchObject({ total: 1_000, added: 997, changed: 3, unchanged: 0 });
    expect((await positions()).filter((p) => /^REC-[123]$/.test(p.code))).toEqual(
      [1, 2, 3].map((n) => ({ code: `REC-${n}`, longitude: 114.5, latitude: 22.5 })),
    );
  });

  it('refuses a file with bad rows as a whole, naming each bad cell, with a downloadable report', async () => {
    const rows = [
      LAMP_HEADER,
      ...lampRows(2, 'BAD'),
      ['', 'BAD-3', 'Futian District', '', '', '', '', '', ''],
      ['Lamp 4', 'BAD 4!', 'Atlantis', '', '', '', '', 'east', 22.5],
      ['Lamp 5', 'BAD-1', '', '', '', '', '', 200, 10],
      ['Lamp 6', 'BAD-6', '', '', '', '', '', 114, ''],
    ];
    const answer = await upload(admin, '/api/light/lightImport', form(workbookBuffer(rows), { groupId: String(lampGroup) }));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('5 rows have errors; nothing was imported');
    const data = answer.body.data as unknown as ImportRejection;
    expect(data).toMatchObject({ total: 6, badRows: 5, errorCount: 8 });
    expect(data.errors.map(({ row, column, value, reason }) => [row, column, value, reason])).toEqual([
      [2, 'Client ID', 'BAD-1', 'The same code is also on row 6 of this file'],
      [4, 'Lamp name', '', 'Please enter'],
      [5, 'Client ID', 'BAD 4!', 'Use at most 64 letters, digits and the characters _ . -'],
      [5, 'Region', 'Atlantis', 'No region is named "Atlantis"'],
      [5, 'Longitude', 'east', 'Must be a number'],
      [6, 'Longitude', '200', 'Must be between -180 and 180'],
      [6, 'Client ID', 'BAD-1', 'The same code is also on row 2 of this file'],
      [7, 'Latitude', '', 'Give both latitude and longitude, or neither'],
    ]);
    expect(await lampCount('BAD')).toBe(0);

    const report = await download(admin, `/api/imports/report?id=${data.reportId}`);
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toContain('spreadsheetml');
    const reportRows = sheetRows(await report.arrayBuffer());
    expect(reportRows[0]).toEqual(['Row', 'Column', 'Value', 'Reason']);
    expect(reportRows.slice(1)).toHaveLength(8);
    expect(reportRows[2]).toEqual([4, 'Lamp name', '', 'Please enter']);
    // Only the user who imported the file may read its report.
    const editor = await gw.signedIn('editor');
    const other = await download(editor, `/api/imports/report?id=${data.reportId}`);
    expect(other.status).toBe(404);
    expect(((await other.json()) as { message: string }).message).toBe('This error report is no longer available, please import the file again');
  });

  it('refuses a large file whose every row is bad with the whole answer and report, read a batch of rows at a time', async () => {
    // 2,500 rows over many of the reader's batches: every longitude is bad, row 2 and row 2401 share a code, and row
    // 1502 names a region nobody has.
    const rows = lampRows(2_500, 'MANY').map((row) => [...row.slice(0, 7), 'x', row[8]]);
    rows[2_399][1] = 'MANY-1';
    rows[1_500][2] = 'Atlantis';
    const book = [LAMP_HEADER, ...rows];
    for (const [file, name] of [
      [workbookBuffer(book), 'lamps.xlsx'],
      [workbookBuffer(book, 'xls'), 'lamps.xls'],
    ] as const) {
      const answer = await upload(admin, '/api/light/lightImport', form(file, { groupId: String(lampGroup) }, name));
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('2500 rows have errors; nothing was imported');
      const data = answer.body.data as unknown as ImportRejection;
      expect(data).toMatchObject({ total: 2_500, badRows: 2_500, errorCount: 2_503 });
      const shown = data.errors.map(({ row, column, value, reason }) => [row, column, value, reason]);
      expect(shown).toHaveLength(1_000);
      expect(shown.slice(0, 3)).toEqual([
        [2, 'Longitude', 'x', 'Must be a number'],
        [2, 'Client ID', 'MANY-1', 'The same code is also on row 2401 of this file'],
        [3, 'Longitude', 'x', 'Must be a number'],
      ]);
      const report = sheetRows(await (await download(admin, `/api/imports/report?id=${data.reportId}`)).arrayBuffer()).slice(1);
      expect(report).toHaveLength(2_503);
      expect(report.slice(0, 1_000)).toEqual(shown);
      expect(report.map((r) => r[0])).toEqual([...report.map((r) => r[0] as number)].sort((a, b) => a - b));
      expect(report.filter((r) => r[0] === 1_502)).toEqual([
        [1_502, 'Region', 'Atlantis', 'No region is named "Atlantis"'],
        [1_502, 'Longitude', 'x', 'Must be a number'],
      ]);
      expect(report.filter((r) => r[0] === 2_401)).toEqual([
        [2_401, 'Longitude', 'x', 'Must be a number'],
        [2_401, 'Client ID', 'MANY-1', 'The same code is also on row 2 of this file'],
      ]);
    }
    expect(await lampCount('MANY')).toBe(0);
  });

  it('reads xls workbooks as well', async () => {
    const book = workbookBuffer([LAMP_HEADER, ...lampRows(3, 'XLS')], 'xls');
    const answer = await upload(admin, '/api/light/lightImport', form(book, { groupId: String(lampGroup) }, 'lamps.xls'));
    expect(answer.body.data).toMatchObject({ total: 3, added: 3 });
    expect(await lampCount('XLS')).toBe(3);
    // An xls, read whole, holds at most XLS_IMPORT_MAX_ROWS rows: a longer one is refused at once, to be saved as xlsx.
    const long = workbookBuffer([LAMP_HEADER, ...lampRows(XLS_IMPORT_MAX_ROWS + 1, 'XLSLONG')], 'xls');
    const refused = await upload(admin, '/api/light/lightImport', form(long, { groupId: String(lampGroup) }, 'lamps.xls'));
    expect([refused.status, refused.body.message]).toEqual([
      400,
      `An xls file may hold at most ${XLS_IMPORT_MAX_ROWS} rows; save it as xlsx to import more`,
    ]);
    const zh = await upload(admin.as(admin.token, 'zh-CN'), '/api/light/lightImport', form(long, { groupId: String(lampGroup) }, 'lamps.xls'));
    expect(zh.body.message).toBe(`xls 文件最多 ${XLS_IMPORT_MAX_ROWS} 行；如需导入更多，请另存为 xlsx`);
    expect(await lampCount('XLSLONG')).toBe(0);
  });

  it('answers in the caller language', async () => {
    const zh = admin.as(admin.token, 'zh-CN');
    const answer = await upload(
      zh,
      '/api/light/lightImport',
      form(workbookBuffer([LAMP_HEADER, ['', 'ZH-1', '', '', '', '', '', '', '']]), { groupId: String(lampGroup) }),
    );
    expect(answer.body.message).toBe('1 行有错误，未导入任何数据');
    expect((answer.body.data as unknown as ImportRejection).errors[0].reason).toBe('请输入');
  });

  it('refuses duplicate codes, a missing group, a group of other devices, a renamed file and 5 MB + 1 byte, changing nothing', async () => {
    const before = (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM device`))[0].n;
    const dup = await upload(
      admin,
      '/api/light/lightImport',
      form(workbookBuffer([LAMP_HEADER, ...lampRows(2, 'DUP'), ...lampRows(1, 'DUP')]), { groupId: String(lampGroup) }),
    );
    expect(dup.status).toBe(400);
    expect((dup.body.data as unknown as ImportRejection).errors.map((e) => e.row)).toEqual([2, 4]);

    const noGroup = await upload(admin, '/api/light/lightImport', form(workbookBuffer([LAMP_HEADER, ...lampRows(1, 'NG')]), {}));
    expect(noGroup.status).toBe(400);
    expect(noGroup.body.message).toBe('Group: Please select a group');
    const poleGroupForLamps = await upload(
      admin,
      '/api/light/lightImport',
      form(workbookBuffer([LAMP_HEADER, ...lampRows(1, 'NG')]), { groupId: String(poleGroup) }),
    );
    expect(poleGroupForLamps.body.message).toBe('Group: The selected group is for another kind of device');

    const renamed = await upload(admin, '/api/light/lightImport', form('Lamp name,Client ID\nA,B\n', { groupId: String(lampGroup) }));
    expect(renamed.status).toBe(400);
    expect(renamed.body.message).toBe('Only xlsx and xls file formats are supported!');

    const big = Buffer.concat([workbookBuffer([LAMP_HEADER]), Buffer.alloc(FIVE_MB + 1, 0x20)]).subarray(0, FIVE_MB + 1);
    const tooBig = await upload(admin, '/api/light/lightImport', form(big, { groupId: String(lampGroup) }));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe('File size cannot exceed 5MB');

    const noName = await upload(admin, '/api/light/lightImport', form(workbookBuffer([['Client ID'], ['X-1']]), { groupId: String(lampGroup) }));
    expect(noName.body.message).toBe('These columns are missing from the header row: Lamp name');
    const empty = await upload(admin, '/api/light/lightImport', form(workbookBuffer([LAMP_HEADER]), { groupId: String(lampGroup) }));
    expect(empty.body.message).toBe('The file has no data rows below its header row');
    expect((await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM device`))[0].n).toBe(before);
  });

  it('lets only administrators with the Import data button import', async () => {
    const book = workbookBuffer([LAMP_HEADER, ...lampRows(1, 'ROLE')]);
    for (const user of ['editor', 'visitor'] as const) {
      const client = await gw.signedIn(user);
      for (const path of ['/api/light/lightImport', '/api/light/gatewayImport', '/api/light/loopImport', '/api/lamp/lampImport']) {
        const answer = await upload(client, path, form(book, { groupId: String(lampGroup) }));
        expect({ user, path, status: answer.status, code: answer.body.code }).toEqual({ user, path, status: 403, code: 403 });
      }
      expect((await download(client, '/api/light/lightTemplate')).status).toBe(403);
    }
    expect(await lampCount('ROLE')).toBe(0);
    // A visitor may export the pole list (pole manage admits visit), not the lamp list (smart lamps are admin only).
    const visitor = await gw.signedIn('visitor');
    expect((await download(visitor, '/api/lamp/lampExport')).status).toBe(200);
    expect((await download(visitor, '/api/light/lightExport')).status).toBe(403);
  });

  it('serves templates in the caller language that import as they are', async () => {
    const zh = await download(admin.as(admin.token, 'zh-CN'), '/api/light/lightTemplate');
    expect(zh.status).toBe(200);
    expect(zh.headers.get('content-disposition')).toContain('.xlsx');
    const rows = sheetRows(await zh.arrayBuffer());
    expect(rows).toHaveLength(2);
    expect(rows[0].slice(0, 2)).toEqual(['灯具名称', '客户端 ID']);
    const template = await download(admin, '/api/lamp/lampTemplate');
    const poleRows = sheetRows(await template.arrayBuffer());
    expect(poleRows[0]).toEqual(['Name', 'Code', 'Region', 'Longitude', 'Latitude', 'Address', 'Remark']);
    const imported = await upload(
      admin,
      '/api/lamp/lampImport',
      form(Buffer.from(await (await download(admin, '/api/lamp/lampTemplate')).arrayBuffer()), { groupId: String(poleGroup) }),
    );
    expect(imported.body.data).toMatchObject({ kind: 'lamp', added: 1 });
  });

  it('imports poles, then lamps mounted on them by pole code; the exports import again unchanged', async () => {
    const poles = workbookBuffer([
      ['Name', 'Code', 'Region', 'Longitude', 'Latitude', 'Address', 'Remark'],
      ['Pole A', 'EXP-POLE-A', 'Nanshan District', 113.93, 22.52, 'Keyuan Road 1', 'north side'],
      ['Pole B', 'EXP-POLE-B', '', '', '', '', ''],
    ]);
    const polesAnswer = await upload(admin, '/api/lamp/lampImport', form(poles, { groupId: String(poleGroup) }));
    expect(polesAnswer.body.data).toMatchObject({ added: 2 });
    const lamps = workbookBuffer([
      ['Client ID', 'Lamp name', 'Lamp pole code'],
      ['EXP-1', 'On pole A', 'EXP-POLE-A'],
      ['EXP-2', 'On pole B', 'EXP-POLE-B'],
      ['EXP-3', 'On no pole', ''],
      ['EXP-4', 'On a missing pole', 'EXP-POLE-Z'],
    ]);
    const refused = await upload(admin, '/api/light/lightImport', form(lamps, { groupId: String(lampGroup) }));
    expect((refused.body.data as unknown as ImportRejection).errors).toEqual([
      { row: 5, column: 'Lamp pole code', value: 'EXP-POLE-Z', reason: 'No lamp pole has the code "EXP-POLE-Z"' },
    ]);
    const accepted = await upload(
      admin,
      '/api/light/lightImport',
      form(workbookBuffer(sheetRowsOf(lamps).slice(0, 4)), { groupId: String(lampGroup) }),
    );
    expect(accepted.body.data).toMatchObject({ added: 3 });
    expect(
      await gw.db.query(
        `SELECT d.code, p.code AS pole FROM device d LEFT JOIN device p ON p.id = d.pole_id WHERE d.code LIKE 'EXP-_' ORDER BY d.code`,
      ),
    ).toEqual([
      { code: 'EXP-1', pole: 'EXP-POLE-A' },
      { code: 'EXP-2', pole: 'EXP-POLE-B' },
      { code: 'EXP-3', pole: null },
    ]);

    const exported = await download(admin, '/api/light/lightExport?lampName=on%20pole');
    const rows = sheetRows(await exported.arrayBuffer());
    expect(rows.map((r) => r[1])).toEqual(['Client ID', 'EXP-1', 'EXP-2']);
    const again = await upload(
      admin,
      '/api/light/lightImport',
      form(Buffer.from(await (await download(admin, '/api/light/lightExport?lampName=on%20pole')).arrayBuffer()), { groupId: String(lampGroup) }),
    );
    expect(again.body.data).toMatchObject({ total: 2, added: 0, changed: 0, unchanged: 2 });
    const poleExport = sheetRows(await (await download(admin, '/api/lamp/lampExport?name=exp-pole')).arrayBuffer());
    expect(poleExport).toEqual([
      ['Name', 'Code', 'Region', 'Longitude', 'Latitude', 'Address', 'Remark'],
      ['Pole A', 'EXP-POLE-A', 'Nanshan District', 113.93, 22.52, 'Keyuan Road 1', 'north side'],
      ['Pole B', 'EXP-POLE-B', '', '', '', '', ''],
    ]);
    // In Chinese the region is named as the region tree names it there, and the file imports back unchanged.
    const zhAdmin = admin.as(admin.token, 'zh-CN');
    const zhExport = await (await download(zhAdmin, '/api/lamp/lampExport?name=exp-pole')).arrayBuffer();
    expect(sheetRows(zhExport)[1].slice(1, 3)).toEqual(['EXP-POLE-A', '南山区']);
    const zhAgain = await upload(admin, '/api/lamp/lampImport', form(Buffer.from(zhExport), { groupId: String(poleGroup) }));
    expect(zhAgain.body.data).toMatchObject({ total: 2, added: 0, changed: 0, unchanged: 2 });
  });

  it('imports gateways, then their loops matched on gateway and code; the same files again change nothing', async () => {
    const gateways = workbookBuffer([
      ['Gateway ID', 'Name', 'Region', 'Address', 'Longitude', 'Latitude'],
      ['IGW-1', 'Gateway one', 'Futian District', 'Cabinet 1', 114.05, 22.54],
      ['IGW-2', 'Gateway two', '', '', '', ''],
    ]);
    const first = await upload(admin, '/api/light/gatewayImport', form(gateways, { groupId: String(lampGroup) }));
    expect(first.body.data).toMatchObject({ kind: 'gateway', added: 2 });
    expect(await gw.db.query(`SELECT code, name, group_id AS "groupId" FROM lamp_gateway WHERE code LIKE 'IGW-%' ORDER BY code`)).toEqual([
      { code: 'IGW-1', name: 'Gateway one', groupId: lampGroup },
      { code: 'IGW-2', name: 'Gateway two', groupId: lampGroup },
    ]);
    expect((await upload(admin, '/api/light/gatewayImport', form(gateways, { groupId: String(lampGroup) }))).body.data).toMatchObject({
      unchanged: 2,
    });

    const loopHeader = ['Gateway ID', 'Code', 'Name', 'Remark'];
    const bad = workbookBuffer([loopHeader, ['IGW-1', 'L1', 'North', ''], ['IGW-1', 'L1', 'North again', ''], ['IGW-9', 'L1', 'Nowhere', '']]);
    const refused = await upload(admin, '/api/light/loopImport', form(bad, { groupId: String(lampGroup) }));
    expect((refused.body.data as unknown as ImportRejection).errors.map((e) => [e.row, e.column, e.reason])).toEqual([
      [2, 'Code', 'The same code is also on row 3 of this file'],
      [3, 'Code', 'The same code is also on row 2 of this file'],
      [4, 'Gateway ID', 'No gateway has the code "IGW-9"'],
    ]);
    // The same loop code on two gateways is two loops.
    const loops = workbookBuffer([loopHeader, ['IGW-1', 'L1', 'North', ''], ['IGW-1', 'L2', 'South', 'spare'], ['IGW-2', 'L1', 'East', '']]);
    expect((await upload(admin, '/api/light/loopImport', form(loops, { groupId: String(lampGroup) }))).body.data).toMatchObject({
      kind: 'loop',
      added: 3,
    });
    expect((await upload(admin, '/api/light/loopImport', form(loops, { groupId: String(lampGroup) }))).body.data).toMatchObject({
      added: 0,
      unchanged: 3,
    });
    const renamed = workbookBuffer([loopHeader, ['IGW-2', 'L1', 'East side', '']]);
    expect((await upload(admin, '/api/light/loopImport', form(renamed, { groupId: String(lampGroup) }))).body.data).toMatchObject({
      changed: 1,
      changedCodes: ['L1'],
    });
    expect(sheetRows(await (await download(admin, '/api/light/loopExport?gatewayId=IGW-2')).arrayBuffer())).toEqual([
      loopHeader,
      ['IGW-2', 'L1', 'East side', ''],
    ]);
    expect(sheetRows(await (await download(admin, '/api/light/gatewayTemplate')).arrayBuffer())[0]).toEqual([
      'Gateway ID',
      'Name',
      'Region',
      'Address',
      'Longitude',
      'Latitude',
    ]);
    // Gateways and loops take a group of single lamps.
    const wrongGroup = await upload(admin, '/api/light/gatewayImport', form(gateways, { groupId: String(poleGroup) }));
    expect(wrongGroup.body.message).toBe('Group: The selected group is for another kind of device');
  });
});

function sheetRowsOf(book: Buffer): unknown[][] {
  const read = XLSX.read(book, { type: 'buffer' });
  return XLSX.utils.sheet_to_json(read.Sheets[read.SheetNames[0]], { header: 1, defval: '' });
}
