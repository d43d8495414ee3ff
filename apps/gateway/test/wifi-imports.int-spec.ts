// Wi-Fi access controllers and access points through the imports machinery (a spreadsheet in on the upload port, the
// added devices' MQTT logins handed out, a bad file refused with nothing written), and the clients of several regions
// side by side (their series and its export against the samples written here).
import * as XLSX from '@e965/xlsx';
import type { ImportRejection, ImportResult, WifiClientPoint, WifiRegionSeries } from '@sc/contracts';
import { derivedMqttPassword } from '@sc/messaging';
import { ApiClient, workbookBuffer } from '@sc/testing';
import { startTestGateway, type TestGateway } from './harness';

const SECRET = process.env.MQTT_CREDENTIAL_SECRET ?? '';

const AC_HEADER = ['Device name', 'Serial number', 'MAC address', 'Model', 'Device type', 'Region name', 'Lamp pole code'];
const AP_HEADER = [...AC_HEADER, 'AC serial number'];
const STEP_MS = 15 * 60_000;

function form(rows: unknown[][], fields: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  data.append('file', new Blob([workbookBuffer(rows)]), 'wifi.xlsx');
  return data;
}

function sheetRows(book: ArrayBuffer): unknown[][] {
  const read = XLSX.read(Buffer.from(book), { type: 'buffer' });
  return XLSX.utils.sheet_to_json(read.Sheets[read.SheetNames[0]], { header: 1, defval: '' });
}

/** Every Wi-Fi device as stored: what a refused file must leave as it was. */
const DEVICES = `SELECT d.type, d.code, d.name, d.region_id, d.pole_id, d.updated_at, coalesce(a.dev_mac, p.dev_mac) AS mac,
    coalesce(a.dev_model, p.dev_model) AS model, coalesce(a.dev_type, p.dev_type) AS "devType", p.ac_id
  FROM device d LEFT JOIN wifi_ac a ON a.device_id = d.id LEFT JOIN wifi_ap p ON p.device_id = d.id
 WHERE d.type IN (6, 8) ORDER BY d.type, d.code`;

describe('Wi-Fi: importing controllers and access points; clients per region side by side', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let visitor: ApiClient;
  const region: Record<'parent' | 'north' | 'northEast' | 'south', number> = { parent: 0, north: 0, northEast: 0, south: 0 };
  const upload = (client: ApiClient, kind: 'ac' | 'ap', body: FormData) =>
    new ApiClient(gw.uploadUrl, client.language).as(client.token).post<ImportResult>(`/api/wifi/${kind}Import`, body);
  const download = (client: ApiClient, path: string) =>
    fetch(`${gw.baseUrl}${path}`, { headers: { Authorization: `Bearer ${client.token}`, 'Accept-Language': client.language } });
  const newRegion = async (name: string, parent: number | null) =>
    (await gw.db.query<{ id: number }>(`INSERT INTO region (region_name, parent_id) VALUES ($1, $2) RETURNING id`, [name, parent]))[0].id;

  beforeAll(async () => {
    if (!SECRET) throw new Error('This test needs the MQTT credential secret: run it through `npm test` or /tmp/runint.sh.');
    gw = await startTestGateway({ mqttCredentialSecret: SECRET });
    [admin, editor, visitor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor'), gw.signedIn('visitor')]);
    region.parent = await newRegion('WR City', null);
    region.north = await newRegion('WR North', region.parent);
    region.south = await newRegion('WR South', region.parent);
    region.northEast = await newRegion('WR North East', region.north);
    await gw.db.query(`INSERT INTO device (type, code, name) VALUES (0, 'WR-POLE', 'WR pole')`);
  }, 30_000);
  afterAll(() => gw?.close());

  it('imports controllers, then access points under them, with their MQTT logins; the same file again changes nothing', async () => {
    const acs = [
      AC_HEADER,
      ['North AC', 'WR-AC-1', '58:2a:f7:10:00:01', 'AC6508', 'Outdoor', 'WR North', 'WR-POLE'],
      ['South AC', 'WR-AC-2', '58:2A:F7:10:00:02', '', '', 'WR South', ''],
    ];
    const acAnswer = await upload(editor, 'ac', form(acs));
    expect(acAnswer.body.data).toMatchObject({ kind: 'ac', dryRun: false, total: 2, added: 2, changed: 0, addedCodes: ['WR-AC-1', 'WR-AC-2'] });

    // The added controllers' logins, once: their usernames and the passwords of the generation they were given.
    const logins = await download(editor, `/api/imports/credentials?id=${acAnswer.body.data.credentialsId}`);
    expect(logins.status).toBe(200);
    const generations = await gw.db.query<{ code: string; g: number }>(
      `SELECT code, mqtt_generation AS g FROM device WHERE type = 8 AND code LIKE 'WR-AC-%' ORDER BY code`,
    );
    expect(sheetRows(await logins.arrayBuffer())).toEqual([
      ['Code', 'User name', 'Password'],
      ...generations.map(({ code, g }) => [code, `ac/${code}`, derivedMqttPassword(SECRET, `ac/${code}`, g)]),
    ]);

    const aps = [
      AP_HEADER,
      ['North AP 1', 'WR-AP-1', '58:2A:F7:20:00:01', 'AirEngine 5761', 'Outdoor', 'WR North', 'WR-POLE', 'WR-AC-1'],
      ['North East AP', 'WR-AP-2', '58:2a:f7:20:00:02', '', 'Indoor', 'WR North East', '', 'WR-AC-1'],
      ['South AP', 'WR-AP-3', '58:2A:F7:20:00:03', '', '', 'WR South', '', 'WR-AC-2'],
    ];
    const apAnswer = await upload(editor, 'ap', form(aps));
    expect(apAnswer.body.data).toMatchObject({ kind: 'ap', total: 3, added: 3, changed: 0 });
    expect(apAnswer.body.data.credentialsId).toEqual(expect.any(String));
    const stored = await gw.db.query(
      `SELECT d.code, d.name, r.region_name AS region, pole.code AS pole, w.dev_mac AS mac, w.dev_model AS model, w.dev_type AS "devType", c.code AS ac
         FROM device d JOIN wifi_ap w ON w.device_id = d.id JOIN device c ON c.id = w.ac_id LEFT JOIN region r ON r.id = d.region_id
         LEFT JOIN device pole ON pole.id = d.pole_id
        WHERE d.code LIKE 'WR-AP-%' ORDER BY d.code`,
    );
    expect(stored).toEqual([
      {
        code: 'WR-AP-1',
        name: 'North AP 1',
        region: 'WR North',
        pole: 'WR-POLE',
        mac: '58:2A:F7:20:00:01',
        model: 'AirEngine 5761',
        devType: 'Outdoor',
        ac: 'WR-AC-1',
      },
      {
        code: 'WR-AP-2',
        name: 'North East AP',
        region: 'WR North East',
        pole: null,
        mac: '58:2A:F7:20:00:02',
        model: '',
        devType: 'Indoor',
        ac: 'WR-AC-1',
      },
      { code: 'WR-AP-3', name: 'South AP', region: 'WR South', pole: null, mac: '58:2A:F7:20:00:03', model: '', devType: '', ac: 'WR-AC-2' },
    ]);
    // The controllers' list counts their access points.
    const acPage = await editor.post<{ list: { devSN: string; devMac: string; apCount: number }[] }>('/api/wifi/acPage', {
      pageNum: 1,
      pageSize: 10,
      name: 'WR-AC',
    });
    expect(acPage.body.data.list.map((r) => [r.devSN, r.devMac, r.apCount])).toEqual([
      ['WR-AC-1', '58:2A:F7:10:00:01', 2],
      ['WR-AC-2', '58:2A:F7:10:00:02', 1],
    ]);

    // The same file again (in any case of its MAC addresses) changes nothing and hands out no logins; a moved access
    // point is a change.
    const before = await gw.db.query(DEVICES);
    const again = await upload(editor, 'ap', form(aps));
    expect(again.body.data).toMatchObject({ added: 0, changed: 0, unchanged: 3 });
    expect(again.body.data.credentialsId).toBeUndefined();
    expect(await gw.db.query(DEVICES)).toEqual(before);
    const moved = await upload(editor, 'ap', form([AP_HEADER, [...aps[3].slice(0, 7), 'WR-AC-1']]));
    expect(moved.body.data).toMatchObject({ added: 0, changed: 1, changedCodes: ['WR-AP-3'] });
    await upload(editor, 'ap', form([AP_HEADER, aps[3]]));

    // The template is the header in the caller's language and imports as it is; the export imports again unchanged.
    const template = await download(editor, '/api/wifi/apTemplate');
    expect(sheetRows(await template.arrayBuffer())[0]).toEqual(AP_HEADER);
    const exported = await download(editor, '/api/wifi/apExport?name=WR-AP');
    const exportedRows = sheetRows(await exported.arrayBuffer());
    expect(exportedRows[0].slice(0, AP_HEADER.length)).toEqual(AP_HEADER);
    const reimport = await upload(editor, 'ap', form(exportedRows));
    expect(reimport.body.data).toMatchObject({ total: 3, unchanged: 3 });
  });

  it("refuses a bad file row by row in the catalogue's words, translated, writing nothing", async () => {
    const before = await gw.db.query(DEVICES);
    const bad = [
      AP_HEADER,
      ['', 'WR-AP-10', '58:2A:F7:20:00:10', '', '', '', '', 'WR-AC-1'],
      ['Unknown AC', 'WR-AP-11', '58:2A:F7:20:00:11', '', '', '', '', 'WR-AC-404'],
      ['Bad MAC', 'WR-AP-12', '58-2A-F7-20-00-12', '', '', '', '', 'WR-AC-1'],
      ['Twin 1', 'WR-AP-13', '58:2A:F7:20:00:13', '', '', '', '', 'WR-AC-1'],
      ['Twin 2', 'WR-AP-13', '58:2a:f7:20:00:13', '', '', '', '', 'WR-AC-1'],
      ['Taken MAC', 'WR-AP-14', '58:2A:F7:20:00:01', '', '', '', '', 'WR-AC-1'],
      ['Fine', 'WR-AP-15', '58:2A:F7:20:00:15', '', '', 'WR South', '', 'WR-AC-2'],
    ];
    const answer = await upload(editor, 'ap', form(bad));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('6 rows have errors; nothing was imported');
    const rejection = answer.body.data as unknown as ImportRejection;
    expect(rejection.errors.map((e) => [e.row, e.column, e.value, e.reason])).toEqual([
      [2, 'Device name', '', 'Please enter'],
      [3, 'AC serial number', 'WR-AC-404', 'No access controller has the serial number "WR-AC-404"'],
      [4, 'MAC address', '58-2A-F7-20-00-12', 'Use a MAC address like 58:2A:F7:10:00:01'],
      [5, 'Serial number', 'WR-AP-13', 'The same code is also on row 6 of this file'],
      [5, 'MAC address', '58:2A:F7:20:00:13', 'The same value is also on row 6 of this file'],
      [6, 'Serial number', 'WR-AP-13', 'The same code is also on row 5 of this file'],
      [6, 'MAC address', '58:2A:F7:20:00:13', 'The same value is also on row 5 of this file'],
      [7, 'MAC address', '58:2A:F7:20:00:01', 'An access point with the MAC address 58:2A:F7:20:00:01 already exists'],
    ]);
    // In Chinese, with the Chinese header; a missing required column refuses the file.
    const zh = editor.as(editor.token, 'zh-CN');
    const zhAnswer = await upload(
      zh,
      'ac',
      form([
        ['设备名称', '序列号', 'MAC地址'],
        ['AC', 'WR-AC-9', '58:2A:F7:10:00:01'],
      ]),
    );
    expect(zhAnswer.status).toBe(400);
    expect((zhAnswer.body.data as unknown as ImportRejection).errors.map((e) => e.reason)).toEqual(['MAC地址为 58:2A:F7:10:00:01 的AC已存在']);
    const noController = await upload(editor, 'ap', form([AC_HEADER, ['AP', 'WR-AP-20', '58:2A:F7:20:00:20', '', '', '', '']]));
    expect(noController.body).toMatchObject({ code: 400, message: 'These columns are missing from the header row: AC serial number' });
    expect(await gw.db.query(DEVICES)).toEqual(before);
    // A visitor may neither import nor download the template.
    expect((await upload(visitor, 'ac', form([AC_HEADER]))).status).toBe(403);
    expect((await download(visitor, '/api/wifi/acTemplate')).status).toBe(403);
  });

  it('charts the clients of several regions side by side, each the sum of its access points’ means per step', async () => {
    const ids = new Map(
      (await gw.db.query<{ code: string; id: number }>(`SELECT code, id FROM device WHERE code LIKE 'WR-AP-%'`)).map((r) => [r.code, r.id]),
    );
    // Two steps two hours ago: AP 1 (North) 4 and 6, AP 2 (North East, below North) 3, AP 3 (South) 7, then 2.
    const step = Math.floor((Date.now() - 2 * 3600_000) / STEP_MS) * STEP_MS;
    const at = (minutes: number) => new Date(step + minutes * 60_000).toISOString();
    const samples: [string, number, number][] = [
      ['WR-AP-1', 1, 4],
      ['WR-AP-1', 2, 6],
      ['WR-AP-2', 1, 3],
      ['WR-AP-3', 1, 7],
      ['WR-AP-3', 16, 2],
    ];
    for (const [code, minute, clients] of samples)
      await gw.db.query(`INSERT INTO wifi_load_sample (device_id, minute, client_count) VALUES ($1, $2, $3)`, [ids.get(code), at(minute), clients]);

    const answer = await editor.post<WifiRegionSeries>('/api/wifi/regionClientSeries', { regionIds: [region.north, region.south, region.parent] });
    expect(answer.body.data).toEqual({
      regions: [
        { regionId: region.north, regionName: 'WR North' },
        { regionId: region.south, regionName: 'WR South' },
        { regionId: region.parent, regionName: 'WR City' },
      ],
      points: [
        { at: new Date(step).toISOString(), clients: [8, 7, 15] },
        { at: new Date(step + STEP_MS).toISOString(), clients: [0, 2, 2] },
      ],
    });
    // Each region's series is what the one-region chart answers for it.
    for (const [i, regionId] of [region.north, region.south, region.parent].entries()) {
      const single = (await editor.post<WifiClientPoint[]>('/api/wifi/clientSeries', { regionId })).body.data;
      const fromSide = answer.body.data.points.map((p) => ({ at: p.at, clients: p.clients[i] })).filter((p) => p.clients > 0);
      expect(single.map((p) => ({ at: new Date(p.at).toISOString(), clients: p.clients }))).toEqual(fromSide);
    }

    // The export: a row per step, a column per region, in the caller's language.
    const xlsx = await download(editor, `/api/wifi/regionClientsExport?regionIds=${region.north},${region.south}`);
    expect(xlsx.status).toBe(200);
    const rows = sheetRows(await xlsx.arrayBuffer());
    expect(rows[0]).toEqual(['Time', 'WR North', 'WR South']);
    expect(rows.slice(1).map((r) => r.slice(1))).toEqual([
      [8, 7],
      [0, 2],
    ]);

    // Bounded and checked: none, more than 20, a region that does not exist; visitors refused.
    const zh = editor.as(editor.token, 'zh-CN');
    expect((await editor.post('/api/wifi/regionClientSeries', { regionIds: [] })).body).toMatchObject({
      code: 400,
      data: { errors: [{ field: 'regionIds', reason: 'Please select' }] },
    });
    const many = Array.from({ length: 21 }, (_, i) => i + 1);
    expect((await editor.post('/api/wifi/regionClientSeries', { regionIds: many })).body).toMatchObject({
      code: 400,
      data: { errors: [{ field: 'regionIds', reason: 'Compare at most 20 regions at a time' }] },
    });
    expect((await zh.post('/api/wifi/regionClientSeries', { regionIds: many })).body).toMatchObject({
      data: { errors: [{ field: 'regionIds', reason: '一次最多对比20个区域' }] },
    });
    expect((await editor.post('/api/wifi/regionClientSeries', { regionIds: [region.north, 2_000_000_000] })).body).toMatchObject({
      code: 400,
      data: { errors: [{ field: 'regionIds', reason: 'The selected region does not exist' }] },
    });
    expect((await download(editor, '/api/wifi/regionClientsExport?regionIds=1,x')).status).toBe(400);
    expect((await visitor.post('/api/wifi/regionClientSeries', { regionIds: [region.north] })).status).toBe(403);
    expect((await admin.post('/api/wifi/regionClientSeries', { regionIds: [region.north] })).status).toBe(200);
  });
});
