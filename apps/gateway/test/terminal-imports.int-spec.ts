// Broadcast terminals through the imports machinery: a spreadsheet in on the upload port (with the terminals' MQTT
// logins handed out), refusals that change nothing, and the terminal list out as an xlsx that imports again.
import * as XLSX from '@e965/xlsx';
import { readdir } from 'node:fs/promises';
import type { ImportRejection, ImportResult } from '@sc/contracts';
import { derivedMqttPassword, waitForMqttLogin } from '@sc/messaging';
import { ApiClient, waitFor, workbookBuffer } from '@sc/testing';
import { BrokerAccessSync } from '../src/broker-access/broker-access-sync';
import { startTestGateway, type TestGateway } from './harness';

const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const ACCESS_DIR = process.env.MQTT_BROKER_ACCESS_DIR;
const SECRET = process.env.MQTT_CREDENTIAL_SECRET ?? '';
const FIVE_MB = 5 * 1024 * 1024;

const HEADER = [
  'Terminal name',
  'Terminal IP',
  'Terminal ID',
  'Call code',
  'Default terminal',
  'Interphone volume',
  'Broadcast volume',
  'Priority',
  'Relay server',
  'Terminal type',
  'Region',
  'Lamp pole code',
];
const ZH_HEADER = [
  '终端名称',
  '终端IP',
  '终端ID',
  '呼叫编码',
  '默认终端',
  '对讲音量',
  '广播音量',
  '优先级',
  '中转服务器',
  '终端类型',
  '区域',
  '灯杆编码',
];

/** `count` good rows: terminal n has the code `${prefix}${n}`; the first is the default, the second is on a pole. */
function terminalRows(count: number, prefix: string, pole = ''): unknown[][] {
  return Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    return [
      `Square terminal ${n}`,
      `10.30.${Math.floor(n / 250)}.${(n % 250) + 1}`,
      `${prefix}${n}`,
      n % 3 === 0 ? '' : String(8000 + n),
      n === 1 ? 'Yes' : n % 2 === 0 ? 'No' : '',
      n % 101,
      40,
      1 + (n % 10),
      n % 2 === 0 ? 'relay-1.city.local' : '',
      'IP column speaker',
      n % 4 === 0 ? '' : 'Futian District',
      n === 2 ? pole : '',
    ];
  });
}

function form(content: Buffer | string, fields: Record<string, string>, fileName = 'terminals.xlsx'): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  data.append('file', new Blob([content]), fileName);
  return data;
}

function sheetRows(book: ArrayBuffer | Buffer): unknown[][] {
  const read = XLSX.read(Buffer.from(book as ArrayBuffer), { type: 'buffer' });
  return XLSX.utils.sheet_to_json(read.Sheets[read.SheetNames[0]], { header: 1, defval: '' });
}

/** Every terminal's record, by code, as the import wrote it: what an export and import must keep. */
const TERMINALS = `SELECT d.code, d.name, t.terminal_ip AS ip, t.call_code AS "callCode", t.is_default AS "isDefault",
    t.interphone_volume AS "interphoneVolume", t.broadcast_volume AS "broadcastVolume", t.priority, t.relay_server AS "relayServer",
    t.terminal_type AS "terminalType", r.region_name AS region, p.code AS pole
  FROM device d JOIN broadcast_terminal t ON t.device_id = d.id LEFT JOIN region r ON r.id = d.region_id LEFT JOIN device p ON p.id = d.pole_id
 WHERE d.code LIKE $1 ORDER BY d.code`;

describe('broadcast terminals: import, template and export', () => {
  let gw: TestGateway;
  let sync: BrokerAccessSync;
  let admin: ApiClient;
  let group: number;
  const upload = (client: ApiClient, body: FormData) =>
    new ApiClient(gw.uploadUrl, client.language).as(client.token).post<ImportResult>('/api/broadcast/terminalImport', body);
  const download = (client: ApiClient, path: string, on = gw) =>
    fetch(`${on.baseUrl}${path}`, { headers: { Authorization: `Bearer ${client.token}`, 'Accept-Language': client.language } });
  const terminals = (like: string, on = gw) => on.db.query(TERMINALS, [like]);
  const count = async (like: string) =>
    (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM device WHERE type = 3 AND code LIKE $1`, [like]))[0].n;
  const newGroup = async (name: string, on = gw) =>
    (await on.db.query<{ id: number }>(`INSERT INTO broadcast_group (name) VALUES ($1) RETURNING id`, [name]))[0].id;
  const newPole = (code: string, on = gw) => on.db.query(`INSERT INTO device (type, code, name) VALUES (0, $1, $1)`, [code]);

  beforeAll(async () => {
    if (!ACCESS_DIR || !SECRET)
      throw new Error('This test needs the project broker with its access files: run it through `npm test` (scripts/broker.mjs).');
    gw = await startTestGateway({ mqttCredentialSecret: SECRET });
    admin = await gw.signedIn('admin');
    sync = new BrokerAccessSync(gw.db.url, { dir: ACCESS_DIR, pidFile: process.env.MQTT_BROKER_PID_FILE, secret: SECRET });
    await sync.start();
    group = await newGroup('Imported terminals');
    await newPole('TI-POLE');
  }, 30_000);
  afterEach(async () => {
    expect(await readdir(gw.config.uploadDir)).toEqual([]);
  });
  afterAll(async () => {
    await sync?.stop();
    await gw?.close();
  });

  it('imports 2,500 terminals into a broadcast group with their MQTT logins; the same file again changes nothing', async () => {
    // The default terminal before the import.
    const old = await admin.post<{ id: number }>('/api/broadcast/terminalAddOrEdit', {
      terminalName: 'Old default',
      terminalId: 'TI-OLD',
      terminalIP: '10.0.0.1',
      isDefault: true,
    });
    const book = workbookBuffer([HEADER, ...terminalRows(2_500, 'TI-', 'TI-POLE')]);

    const answer = await upload(admin, form(book, { groupId: String(group) }));
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ kind: 'terminal', dryRun: false, total: 2_500, added: 2_500, changed: 0, unchanged: 0 });
    expect(answer.body.data.addedCodes.slice(0, 2)).toEqual(['TI-1', 'TI-2']);
    expect(await count('TI-%')).toBe(2_501);
    const imported = await terminals('TI-_');
    expect(imported.slice(0, 3)).toEqual([
      {
        code: 'TI-1',
        name: 'Square terminal 1',
        ip: '10.30.0.2',
        callCode: '8001',
        isDefault: true,
        interphoneVolume: 1,
        broadcastVolume: 40,
        priority: 2,
        relayServer: '',
        terminalType: 'IP column speaker',
        region: 'Futian District',
        pole: null,
      },
      {
        code: 'TI-2',
        name: 'Square terminal 2',
        ip: '10.30.0.3',
        callCode: '8002',
        isDefault: false,
        interphoneVolume: 2,
        broadcastVolume: 40,
        priority: 3,
        relayServer: 'relay-1.city.local',
        terminalType: 'IP column speaker',
        region: 'Futian District',
        pole: 'TI-POLE',
      },
      expect.objectContaining({ code: 'TI-3', callCode: '', isDefault: false }),
    ]);
    // Making TI-1 the default took it from the terminal before.
    expect(await gw.db.query(`SELECT d.code FROM broadcast_terminal t JOIN device d ON d.id = t.device_id WHERE t.is_default`)).toEqual([
      { code: 'TI-1' },
    ]);
    expect(await gw.db.query(`SELECT is_default FROM broadcast_terminal WHERE device_id = $1`, [old.body.data.id])).toEqual([{ is_default: false }]);
    // Every terminal joined the group.
    const members = await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM broadcast_group_member WHERE group_id = $1`, [group]);
    expect(members[0].n).toBe(2_500);

    // The added terminals' logins: one workbook, once; a login works on the broker.
    const logins = await download(admin, `/api/imports/credentials?id=${answer.body.data.credentialsId}`);
    expect(logins.status).toBe(200);
    const rows = sheetRows(await logins.arrayBuffer());
    expect(rows).toHaveLength(2_501);
    expect(rows[0]).toEqual(['Code', 'User name', 'Password']);
    const [{ generation }] = await gw.db.query<{ generation: number }>(`SELECT mqtt_generation AS generation FROM device WHERE code = 'TI-7'`);
    const seventh = rows.find((r) => r[0] === 'TI-7');
    expect(seventh).toEqual(['TI-7', 'broadcast/TI-7', derivedMqttPassword(SECRET, 'broadcast/TI-7', generation)]);
    await waitForMqttLogin(MQTT_URL, { username: 'broadcast/TI-7', password: String(seventh![2]) }, 15_000);
    expect((await download(admin, `/api/imports/credentials?id=${answer.body.data.credentialsId}`)).status).toBe(404);

    // Again: nothing changes, not even updated_at, and no logins are handed out.
    const before = await gw.db.query(`SELECT id, updated_at FROM device WHERE code LIKE 'TI-%' ORDER BY id`);
    const again = await upload(admin, form(book, { groupId: String(group) }));
    expect(again.body.data).toMatchObject({ total: 2_500, added: 0, changed: 0, unchanged: 2_500 });
    expect(again.body.data.credentialsId).toBeUndefined();
    expect(await gw.db.query(`SELECT id, updated_at FROM device WHERE code LIKE 'TI-%' ORDER BY id`)).toEqual(before);

    // Into another group: the terminals join it too, keeping the first (a change for each).
    const evening = await newGroup('Evening');
    const moved = await upload(admin, form(workbookBuffer([HEADER, ...terminalRows(5, 'TI-')]), { groupId: String(evening), dryRun: 'false' }));
    expect(moved.body.data).toMatchObject({ changed: 5, unchanged: 0 });
    expect(
      await gw.db.query(
        `SELECT m.group_id AS "groupId", count(*)::int AS n FROM broadcast_group_member m JOIN device d ON d.id = m.device_id
          WHERE d.code LIKE 'TI-_' GROUP BY m.group_id ORDER BY m.group_id`,
      ),
    ).toEqual([
      { groupId: group, n: 9 },
      { groupId: evening, n: 5 },
    ]);

    // In the operation log, as every import.
    const logged = await waitFor(async () => {
      const found = await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM operation_log WHERE description = 'Import broadcast terminals'`);
      return found[0].n >= 3 ? found[0].n : undefined;
    });
    expect(logged).toBe(3);
  }, 60_000);

  it('refuses a file with bad rows as a whole, naming each bad cell in the caller language, changing nothing', async () => {
    await upload(admin, form(workbookBuffer([HEADER, ...terminalRows(2, 'TB-')]), { groupId: String(group) }));
    const before = await terminals('TB-%');
    const good = terminalRows(2, 'TB-').map((row) => [...row.slice(0, 4), 'No', ...row.slice(5)]);
    const bad = (n: number, patch: Record<number, unknown>) => {
      const row = [`Bad ${n}`, '10.0.0.9', `TB-${n}`, '', '', 50, 50, 5, '', '', '', ''];
      for (const [i, v] of Object.entries(patch)) row[Number(i)] = v;
      return row;
    };
    const rows = [
      good[0],
      bad(3, { 1: '300.1.2.3', 3: '12-34' }),
      bad(4, { 5: 150, 6: 'loud', 7: 2.5 }),
      bad(5, { 4: 'maybe', 10: 'Atlantis', 11: 'NO-POLE' }),
      bad(6, { 0: '', 2: 'TB 6!' }),
      bad(7, { 4: 'Yes' }),
      bad(8, { 4: '是', 2: 'TB-1' }),
      good[1],
    ];
    const answer = await upload(admin, form(workbookBuffer([HEADER, ...rows]), { groupId: String(group) }));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('7 rows have errors; nothing was imported');
    const data = answer.body.data as unknown as ImportRejection;
    expect(data).toMatchObject({ total: 8, badRows: 7, errorCount: 14 });
    expect(data.errors.map(({ row, column, value, reason }) => [row, column, value, reason])).toEqual([
      [2, 'Terminal ID', 'TB-1', 'The same code is also on row 8 of this file'],
      [3, 'Terminal IP', '300.1.2.3', 'Use an IPv4 address like 10.20.1.11'],
      [3, 'Call code', '12-34', 'Use 1 to 16 digits'],
      [4, 'Interphone volume', '150', 'Must be between 0 and 100'],
      [4, 'Broadcast volume', 'loud', 'Must be a number'],
      [4, 'Priority', '2.5', 'Must be a whole number'],
      [5, 'Default terminal', 'maybe', 'Use yes or no (or 1 and 0)'],
      [5, 'Region', 'Atlantis', 'No region is named "Atlantis"'],
      [5, 'Lamp pole code', 'NO-POLE', 'No lamp pole has the code "NO-POLE"'],
      [6, 'Terminal name', '', 'Please enter'],
      [6, 'Terminal ID', 'TB 6!', 'Use at most 64 letters, digits and the characters _ . -'],
      [7, 'Default terminal', 'Yes', 'Only one terminal can be the default: row 8 of this file is the default too'],
      [8, 'Terminal ID', 'TB-1', 'The same code is also on row 2 of this file'],
      [8, 'Default terminal', 'Yes', 'Only one terminal can be the default: row 7 of this file is the default too'],
    ]);
    expect(await terminals('TB-%')).toEqual(before);
    expect(await count('TB-%')).toBe(2);

    // In Chinese: the same cells, the reasons in Chinese; the report too.
    const zh = admin.as(admin.token, 'zh-CN');
    const zhAnswer = await upload(zh, form(workbookBuffer([HEADER, ...rows]), { groupId: String(group) }));
    expect(zhAnswer.body.message).toBe('7 行有错误，未导入任何数据');
    const zhErrors = (zhAnswer.body.data as unknown as ImportRejection).errors;
    expect(zhErrors.find((e) => e.row === 3 && e.column === 'Terminal IP')?.reason).toBe('请输入IPv4地址，如 10.20.1.11');
    expect(zhErrors.find((e) => e.row === 7)).toEqual({
      row: 7,
      column: 'Default terminal',
      value: '是',
      reason: '只能有一个默认终端：本文件第 8 行也是默认终端',
    });
    const report = sheetRows(
      await (await download(zh, `/api/imports/report?id=${(zhAnswer.body.data as unknown as ImportRejection).reportId}`)).arrayBuffer(),
    );
    expect(report[0]).toEqual(['行', '列', '值', '原因']);
    expect(report).toHaveLength(15);
    expect(await terminals('TB-%')).toEqual(before);
  });

  it('refuses a renamed file, 5 MB + 1 byte, no group, an unknown group and a missing column, writing nothing', async () => {
    const book = workbookBuffer([HEADER, ...terminalRows(2, 'TW-')]);
    const renamed = await upload(admin, form('Terminal name,Terminal ID\nA,TW-1\n', { groupId: String(group) }));
    expect({ status: renamed.status, message: renamed.body.message }).toEqual({
      status: 400,
      message: 'Only xlsx and xls file formats are supported!',
    });
    const big = Buffer.concat([book, Buffer.alloc(FIVE_MB + 1, 0x20)]).subarray(0, FIVE_MB + 1);
    const tooBig = await upload(admin.as(admin.token, 'zh-CN'), form(big, { groupId: String(group) }));
    expect({ status: tooBig.status, message: tooBig.body.message }).toEqual({ status: 413, message: '文件大小不能超过 5MB' });
    const noGroup = await upload(admin, form(book, {}));
    expect(noGroup.body.message).toBe('Group: Please select a group');
    const [{ unknown }] = await gw.db.query<{ unknown: number }>(`SELECT coalesce(max(id), 0) + 1000 AS unknown FROM broadcast_group`);
    const wrongGroup = await upload(admin, form(book, { groupId: String(unknown) }));
    expect(wrongGroup.body.message).toBe('Group: The selected device group does not exist');
    const noIp = await upload(
      admin,
      form(
        workbookBuffer([
          ['Terminal name', 'Terminal ID'],
          ['A', 'TW-1'],
        ]),
        { groupId: String(group) },
      ),
    );
    expect(noIp.body.message).toBe('These columns are missing from the header row: Terminal IP');
    expect(await count('TW-%')).toBe(0);
  });

  it('lets the roles of the terminal page import with the Import data button; a visitor only exports', async () => {
    const book = workbookBuffer([HEADER, ...terminalRows(1, 'TR-')]);
    const visitor = await gw.signedIn('visitor');
    const refused = await upload(visitor, form(book, { groupId: String(group) }));
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: 403 });
    expect((await download(visitor, '/api/broadcast/terminalTemplate')).status).toBe(403);
    expect(await count('TR-%')).toBe(0);
    expect((await download(visitor, '/api/broadcast/terminalExport?terminalName=TR-')).status).toBe(200);

    const editor = await gw.signedIn('editor');
    expect((await upload(editor, form(book, { groupId: String(group) }))).body.data).toMatchObject({ added: 1 });
    expect(await count('TR-%')).toBe(1);
  });

  it('serves the template in the caller language, and it imports as it is', async () => {
    const zh = await download(admin.as(admin.token, 'zh-CN'), '/api/broadcast/terminalTemplate');
    expect(zh.status).toBe(200);
    expect(zh.headers.get('content-disposition')).toBe('attachment; filename="broadcast-terminal-template.xlsx"');
    const rows = sheetRows(await zh.arrayBuffer());
    expect(rows[0]).toEqual(ZH_HEADER);
    expect(rows).toHaveLength(2);
    const imported = await upload(
      admin,
      form(Buffer.from(await (await download(admin, '/api/broadcast/terminalTemplate')).arrayBuffer()), { groupId: String(group) }),
    );
    expect(imported.body.data).toMatchObject({ kind: 'terminal', added: 1, addedCodes: ['BC-1001'] });
  });

  it('exports the list as filtered, headers and words in the caller language; the export imports into an empty database as the same terminals', async () => {
    const rows = terminalRows(2_100, 'TX-', 'TI-POLE');
    expect((await upload(admin, form(workbookBuffer([HEADER, ...rows]), { groupId: String(group) }))).body.data).toMatchObject({ added: 2_100 });
    // Formula-like text is kept as text, and read back as it was.
    await gw.db.query(`UPDATE device SET name = '=1+2 terminal' WHERE code = 'TX-3'`);
    await gw.db.query(
      `UPDATE broadcast_terminal t SET network_status = 1, occupancy = 'task', playing = '{"title": "Morning notice", "taskId": null, "since": "2026-11-20T08:00:00Z", "paused": false}'
         FROM device d WHERE d.id = t.device_id AND d.code = 'TX-2'`,
    );
    await gw.db.query(`UPDATE broadcast_terminal t SET network_status = 1 FROM device d WHERE d.id = t.device_id AND d.code = 'TX-4'`);

    const occupied = await download(admin, '/api/broadcast/terminalExport?terminalName=TX-&status=occupy');
    expect(occupied.status).toBe(200);
    expect(occupied.headers.get('content-disposition')).toBe('attachment; filename="broadcast-terminals.xlsx"');
    expect(sheetRows(await occupied.arrayBuffer())).toEqual([
      [...HEADER, 'Status', 'Playing'],
      [
        'Square terminal 2',
        '10.30.0.3',
        'TX-2',
        '8002',
        'No',
        2,
        40,
        3,
        'relay-1.city.local',
        'IP column speaker',
        'Futian District',
        'TI-POLE',
        'Occupied',
        'Morning notice',
      ],
    ]);
    const online = sheetRows(await (await download(admin, '/api/broadcast/terminalExport?terminalName=tx-4&status=online')).arrayBuffer());
    expect(online.map((r) => [r[2], r[12]])).toEqual([
      ['Terminal ID', 'Status'],
      ['TX-4', 'Online'],
    ]);

    // Every terminal, in Chinese: more rows than one page of the export.
    const zh = admin.as(admin.token, 'zh-CN');
    const file = Buffer.from(await (await download(zh, '/api/broadcast/terminalExport?terminalName=TX-')).arrayBuffer());
    const zhRows = sheetRows(file);
    expect(zhRows[0]).toEqual([...ZH_HEADER, '状态', '正在播放']);
    expect(zhRows).toHaveLength(2_101);
    expect(zhRows.slice(1).map((r) => r[2])).toEqual(rows.map((r) => String(r[2])).sort());
    const first = zhRows.find((r) => r[2] === 'TX-1')!;
    expect([first[4], first[10], first[12]]).toEqual(['是', '福田区', '离线']);
    expect(zhRows.find((r) => r[2] === 'TX-3')![0]).toBe("'=1+2 terminal");

    const fresh = await startTestGateway();
    try {
      await newPole('TI-POLE', fresh);
      const freshGroup = await newGroup('Moved here', fresh);
      const freshAdmin = await fresh.signedIn('admin', 'zh-CN');
      const answer = await new ApiClient(fresh.uploadUrl, 'zh-CN')
        .as(freshAdmin.token)
        .post<ImportResult>('/api/broadcast/terminalImport', form(file, { groupId: String(freshGroup) }));
      expect(answer.body.data).toMatchObject({ total: 2_100, added: 2_100, changed: 0 });
      expect(await terminals('TX-%', fresh)).toEqual(await terminals('TX-%'));
      expect((await terminals('TX-%', fresh)).find((t) => t.code === 'TX-3')).toMatchObject({ name: '=1+2 terminal' });
    } finally {
      await fresh.close();
    }
  }, 90_000);
});
