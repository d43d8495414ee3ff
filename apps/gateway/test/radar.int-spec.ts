import pino from 'pino';
import * as XLSX from '@e965/xlsx';
import {
  MqttService,
  OnlineState,
  RadarEventId,
  type ImportResult,
  type MqttCredentials,
  type PageResult,
  type RadarGroupRow,
  type RadarRow,
  type RadarStrategyRow,
} from '@sc/contracts';
import { ApiClient, waitFor, workbookBuffer } from '@sc/testing';
import { startRadarFleet } from '../../device-sim/src/families/radar.sim';
import { RADAR_FAMILIES } from '../../worker-radar/src/radar-worker';
import { loadDemoLamps } from '../src/demo/demo-lamps';
import { loadDemoPoles } from '../src/demo/demo-poles';
import { DEMO_RADAR_COUNT, loadDemoRadars } from '../src/demo/demo-radars';
import { startTestGateway, type TestGateway } from './harness';
import { MQTT_URL, startTestWorker } from './device-worker';

/** The radar module's calls on the real PostgreSQL and Redis: terminals, groups, strategies, roles and buttons. */
describe('Radars: terminals, groups and strategies, roles and buttons', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let visitor: ApiClient;
  let region: number;
  let pole: number;
  const radars: number[] = [];
  const lamps: number[] = [];
  let group: number;
  let strategy: number;

  const page = async (filters: Record<string, unknown> = {}, client = admin) =>
    (await client.post<PageResult<RadarRow>>('/api/radar/radarPage', { pageNum: 1, pageSize: 50, ...filters })).body.data;
  const snapshot = async () => ({
    radars: await gw.db.query(`SELECT * FROM radar_terminal ORDER BY device_id`),
    devices: await gw.db.query(`SELECT id, code, name, region_id, pole_id FROM device WHERE type = 5 ORDER BY id`),
    groups: await gw.db.query(`SELECT * FROM radar_group ORDER BY id`),
    members: await gw.db.query(`SELECT 'r' AS k, * FROM radar_group_radar UNION ALL SELECT 'l', * FROM radar_group_lamp ORDER BY 1, 2, 3`),
    strategies: await gw.db.query(`SELECT id, name, group_id, event_infos FROM radar_strategy ORDER BY id`),
  });
  const radar = (i: number, over: Record<string, unknown> = {}) => ({ radarName: `Lianhua radar ${i}`, code: `RD-T${i}`, regionId: region, ...over });
  const events = [
    { event: RadarEventId.Pedestrian, brightness: 100, openInterval: 0, closeInterval: 30 },
    { event: RadarEventId.MotorVehicle, brightness: 60, openInterval: 2, closeInterval: 10 },
  ];

  beforeAll(async () => {
    gw = await startTestGateway();
    [admin, editor, visitor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor'), gw.signedIn('visitor')]);
    [{ id: region }] = await gw.db.query<{ id: number }>(`SELECT id FROM region WHERE region_name = 'Lianhua Subdistrict'`);
    [{ id: pole }] = await gw.db.query<{ id: number }>(`INSERT INTO device (type, code, name) VALUES (0, 'POLE-RD', 'Pole RD') RETURNING id`);
    for (const code of ['RD-LAMP-1', 'RD-LAMP-2']) {
      const [{ id }] = await gw.db.query<{ id: number }>(`INSERT INTO device (type, code, name) VALUES (1, $1, $1) RETURNING id`, [code]);
      await gw.db.query(`INSERT INTO lamp (device_id) VALUES ($1)`, [id]);
      lamps.push(id);
    }
  });
  afterAll(() => gw?.close());

  it('adds radars with every field, the login once, mounted on a pole; lists, filters and exports them', async () => {
    for (const i of [1, 2, 3]) {
      const answer = await editor.post<{ id: number; mqtt?: MqttCredentials }>(
        '/api/radar/radarAddOrEdit',
        radar(i, i === 1 ? { poleId: pole } : {}),
      );
      expect(answer.body).toMatchObject({ code: 200 });
      if (answer.body.data.mqtt) expect(answer.body.data.mqtt.username).toBe(`radar/RD-T${i}`);
      radars.push(answer.body.data.id);
    }
    const { list, total } = await page();
    expect(total).toBe(3);
    expect(list[0]).toEqual({
      id: radars[0],
      radarName: 'Lianhua radar 1',
      code: 'RD-T1',
      regionId: region,
      regionName: 'Lianhua Subdistrict',
      poleId: pole,
      poleCode: 'POLE-RD',
      poleName: 'Pole RD',
      networkStatus: OnlineState.Offline,
      count: 0,
      radarRate: 0,
      swver: '',
      hwver: '',
      mac: '',
      rssi: null,
      reportedAt: null,
      lastDetectionAt: null,
      groupNames: [],
    });
    expect((await page({ radarName: 'rd-t2' })).list.map((r) => r.code)).toEqual(['RD-T2']);
    expect((await page({ networkStatus: OnlineState.Online })).total).toBe(0);
    expect((await editor.post('/api/radar/radarAddOrEdit', radar(3, { id: radars[2], radarName: 'Renamed' }))).body).toMatchObject({ code: 200 });
    expect((await editor.get<RadarRow>(`/api/radar/radarDetail?id=${radars[2]}`)).body.data).toMatchObject({ radarName: 'Renamed' });
    const xlsx = await fetch(`${gw.baseUrl}/api/radar/radarExport?radarName=renamed`, { headers: { Authorization: `Bearer ${admin.token}` } });
    expect(xlsx.status).toBe(200);
    const sheet = XLSX.read(Buffer.from(await xlsx.arrayBuffer()));
    const rows = XLSX.utils.sheet_to_json<string[]>(sheet.Sheets[sheet.SheetNames[0]], { header: 1 });
    expect(rows[0]).toEqual([
      'Radar name',
      'Code',
      'Region',
      'Lamp pole code',
      'Network status',
      'Detections',
      'Detection rate (/min)',
      'Software version',
      'Hardware version',
      'MAC address',
      'Signal strength (dBm)',
    ]);
    expect(rows.slice(1)).toEqual([['Renamed', 'RD-T3', 'Lianhua Subdistrict', undefined, 'Offline', 0, 0, undefined, undefined, undefined]]);
  });

  it('creates and edits groups of radars and lamps, and binds a strategy of events to one', async () => {
    const created = await editor.post<{ id: number }>('/api/radar/groupAddOrEdit', {
      name: 'Lianhua Road north',
      radarIds: [radars[0], radars[1]],
      lampIds: [lamps[0]],
    });
    expect(created.body).toMatchObject({ code: 200 });
    group = created.body.data.id;
    expect(
      (await editor.post('/api/radar/groupAddOrEdit', { id: group, name: 'Lianhua Road north', radarIds: [radars[0]], lampIds: lamps })).body,
    ).toMatchObject({
      code: 200,
    });
    const saved = await editor.post<{ id: number }>('/api/radar/strategyAddOrEdit', {
      name: 'Walkers at night',
      groupId: group,
      radarEventInfos: events,
    });
    expect(saved.body).toMatchObject({ code: 200 });
    strategy = saved.body.data.id;
    const groups = (await editor.post<PageResult<RadarGroupRow>>('/api/radar/groupPage', { pageNum: 1, pageSize: 10 })).body.data;
    expect(groups.list).toEqual([
      {
        id: group,
        name: 'Lianhua Road north',
        remark: '',
        radarIds: [radars[0]],
        lampIds: lamps,
        radarCount: 1,
        lampCount: 2,
        strategyId: strategy,
        strategyName: 'Walkers at night',
      },
    ]);
    const strategies = (await editor.post<PageResult<RadarStrategyRow>>('/api/radar/strategyPage', { pageNum: 1, pageSize: 10 })).body.data;
    expect(strategies.list).toEqual([
      {
        id: strategy,
        name: 'Walkers at night',
        groupId: group,
        groupName: 'Lianhua Road north',
        radarEventInfos: events.map((e, i) => ({ uniqueIndex: i + 1, ...e })),
      },
    ]);
    expect((await page({ groupId: group })).list.map((r) => [r.code, r.groupNames])).toEqual([['RD-T1', ['Lianhua Road north']]]);
  });

  it("refuses bad input with the catalogue's messages, translated, changing nothing", async () => {
    const before = await snapshot();
    const zh = admin.as(admin.token, 'zh-CN');
    const noGroup = await admin.post('/api/radar/strategyAddOrEdit', { name: 'No group', radarEventInfos: events });
    expect(noGroup.body).toMatchObject({ code: 400, data: { errors: [{ field: 'groupId', reason: 'Please select a group' }] } });
    expect((await zh.post('/api/radar/strategyAddOrEdit', { name: 'No group', radarEventInfos: events })).body).toMatchObject({
      data: { errors: [{ field: 'groupId', reason: '请选择分组' }] },
    });
    const noEvent = await admin.post('/api/radar/strategyAddOrEdit', {
      name: 'No event',
      groupId: group,
      radarEventInfos: [{ brightness: 100, openInterval: 0, closeInterval: 30 }],
    });
    expect(noEvent.body).toMatchObject({ code: 400, data: { errors: [{ field: 'radarEventInfos[0].event', reason: 'Please select event ID' }] } });
    const es = admin.as(admin.token, 'es');
    expect(JSON.stringify((await es.post('/api/radar/strategyAddOrEdit', { name: 'x', groupId: group, radarEventInfos: [{}] })).body)).toContain(
      'Seleccione el ID del evento',
    );
    const ja = admin.as(admin.token, 'ja');
    expect(JSON.stringify((await ja.post('/api/radar/strategyAddOrEdit', { name: 'x', groupId: group, radarEventInfos: [{}] })).body)).toContain(
      'イベントIDを選択してください',
    );
    const bad = await admin.post('/api/radar/strategyAddOrEdit', {
      name: 'Bad',
      groupId: group,
      radarEventInfos: [
        { event: 1, openInterval: 0, closeInterval: 0 },
        { event: 1, brightness: 30, openInterval: -1, closeInterval: 10 },
      ],
    });
    expect(bad.body.data).toMatchObject({
      errors: [
        { field: 'radarEventInfos[0].brightness', reason: 'Brightness cannot be empty' },
        { field: 'radarEventInfos[0].closeInterval', reason: 'The interval is 1 to 3600 seconds' },
        { field: 'radarEventInfos[1].event', reason: 'Each event ID may appear once in a strategy' },
        { field: 'radarEventInfos[1].brightness', reason: 'The brightness is one of 0, 20, 40, 60, 80, 100' },
        { field: 'radarEventInfos[1].openInterval', reason: 'The interval is 0 to 600 seconds' },
      ],
    });
    expect((await admin.post('/api/radar/strategyAddOrEdit', { name: 'Empty', groupId: group, radarEventInfos: [] })).body).toMatchObject({
      data: { errors: [{ field: 'radarEventInfos', reason: 'Add at least one event' }] },
    });
    // One strategy per group; a name once.
    expect((await admin.post('/api/radar/strategyAddOrEdit', { name: 'Second', groupId: group, radarEventInfos: events })).body).toMatchObject({
      code: 400,
      data: { errors: [{ field: 'groupId', reason: 'This group already has a strategy: "Walkers at night"' }] },
    });
    expect((await admin.post('/api/radar/strategyAddOrEdit', { name: 'x', groupId: 999_999, radarEventInfos: events })).body).toMatchObject({
      data: { errors: [{ field: 'groupId', reason: 'The selected radar group does not exist' }] },
    });
    expect((await zh.post('/api/radar/groupAddOrEdit', { name: '', radarIds: [], lampIds: [] })).body).toMatchObject({
      data: { errors: [{ field: 'name', reason: '请输入分组名称' }] },
    });
    expect((await admin.post('/api/radar/groupAddOrEdit', { name: 'G', radarIds: [lamps[0]], lampIds: [] })).body).toMatchObject({
      data: { errors: [{ field: 'radarIds', reason: `These radars do not exist: ${lamps[0]}` }] },
    });
    expect((await admin.post('/api/radar/groupAddOrEdit', { name: 'G', radarIds: [], lampIds: [radars[0]] })).body).toMatchObject({
      data: { errors: [{ field: 'lampIds', reason: `These lamps do not exist: ${radars[0]}` }] },
    });
    expect((await admin.post('/api/radar/groupAddOrEdit', { name: 'lianhua road NORTH', radarIds: [], lampIds: [] })).body).toMatchObject({
      code: 409,
    });
    expect((await admin.get(`/api/radar/groupDel?id=${group}`)).body).toMatchObject({
      message: 'This group cannot be deleted: the strategy "Walkers at night" is bound to it',
    });
    expect((await admin.post('/api/radar/radarAddOrEdit', radar(9, { code: 'RD-T1' }))).body).toMatchObject({
      code: 409,
      data: { errors: [{ field: 'code', reason: 'A radar with the code "RD-T1" already exists' }] },
    });
    expect((await admin.post('/api/radar/radarAddOrEdit', radar(9, { radarName: '' }))).body).toMatchObject({
      data: { errors: [{ field: 'radarName', reason: 'The name cannot be empty' }] },
    });
    expect((await admin.post('/api/radar/radarAddOrEdit', radar(9, { code: 'bad/code' }))).status).toBe(400);
    expect((await admin.post('/api/radar/radarAddOrEdit', radar(9, { poleId: 999_999 }))).status).toBe(400);
    // The code is the radar's MQTT identity: an editor cannot change it (Edit MQTT).
    expect((await editor.post('/api/radar/radarAddOrEdit', radar(2, { id: radars[1], code: 'RD-NEW' }))).body).toMatchObject({
      code: 400,
      data: { errors: [{ field: 'code' }] },
    });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses visitors (no radar role) every call, changing nothing', async () => {
    const before = await snapshot();
    expect((await visitor.post('/api/radar/radarPage', { pageNum: 1, pageSize: 10 })).status).toBe(403);
    expect((await visitor.post('/api/radar/radarAddOrEdit', radar(8))).status).toBe(403);
    expect((await visitor.get(`/api/radar/radarDel?id=${radars[0]}`)).status).toBe(403);
    expect((await visitor.post('/api/radar/groupAddOrEdit', { name: 'V', radarIds: [], lampIds: [] })).status).toBe(403);
    expect((await visitor.post('/api/radar/strategyAddOrEdit', { name: 'V', groupId: group, radarEventInfos: events })).status).toBe(403);
    expect((await visitor.get(`/api/radar/strategyDel?id=${strategy}`)).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('brings radars online from their heartbeat, counts their detections and their rate live, and offline on their Last Will', async () => {
    const worker = await startTestWorker(gw, { name: 'radar', families: RADAR_FAMILIES, service: MqttService.WorkerRadar }, 'radar');
    const fleet = await startRadarFleet({ mqttUrl: MQTT_URL, radars: ['RD-T1', 'RD-T2'], logger: pino({ level: 'silent' }) });
    try {
      await waitFor(async () => ((await page({ networkStatus: OnlineState.Online })).total === 2 ? true : undefined), 10_000);
      for (let i = 0; i < 3; i++) await fleet.detect('RD-T1', RadarEventId.MotorVehicle);
      const row = await waitFor(async () => (await page({ radarName: 'RD-T1' })).list.find((r) => r.count === 3), 10_000);
      expect(row).toMatchObject({ swver: '2.4.1', hwver: 'MW-24G-R2', mac: expect.stringMatching(/^02:A0:/), rssi: expect.any(Number) });
      expect(row.radarRate).toBeGreaterThan(2.9);
      expect(row.radarRate).toBeLessThanOrEqual(3);
      expect(row.lastDetectionAt).not.toBeNull();
      // Its Last Will (the broker's, for a radar that dropped off) takes it offline.
      await fleet.takeOffline('RD-T2');
      await waitFor(async () => ((await page({ networkStatus: OnlineState.Offline })).total === 2 ? true : undefined), 10_000);
    } finally {
      await fleet.stop({ clearRetained: true });
      await worker.stop();
    }
  });

  it('imports radars into a radar group from xlsx; a bad file changes nothing; the template has the columns', async () => {
    const upload = (body: FormData) => new ApiClient(gw.uploadUrl, 'en-US').as(editor.token).post<ImportResult>('/api/radar/radarImport', body);
    const form = (rows: unknown[][], fields: Record<string, string>) => {
      const data = new FormData();
      for (const [k, v] of Object.entries(fields)) data.append(k, v);
      data.append('file', new Blob([workbookBuffer(rows)]), 'radars.xlsx');
      return data;
    };
    const header = ['Radar name', 'Code', 'Region', 'Lamp pole code'];
    const before = await snapshot();
    const bad = await upload(form([header, ['', 'RI-1', '', ''], ['Radar 2', 'RI-2', 'Nowhere', '']], { groupId: String(group) }));
    expect(bad.status).toBe(400);
    expect(await snapshot()).toEqual(before);
    const answer = await upload(
      form([header, ['Imported radar 1', 'RI-1', 'Lianhua Subdistrict', 'POLE-RD'], ['Imported radar 2', 'RI-2', '', '']], {
        groupId: String(group),
      }),
    );
    expect(answer.body.data).toMatchObject({ kind: 'radar', added: 2, changed: 0 });
    const imported = (await page({ radarName: 'RI-' })).list;
    expect(imported.map((r) => [r.code, r.radarName, r.regionName, r.poleCode, r.groupNames])).toEqual([
      ['RI-1', 'Imported radar 1', 'Lianhua Subdistrict', 'POLE-RD', ['Lianhua Road north']],
      ['RI-2', 'Imported radar 2', null, null, ['Lianhua Road north']],
    ]);
    const template = await fetch(`${gw.baseUrl}/api/radar/radarTemplate`, { headers: { Authorization: `Bearer ${editor.token}` } });
    const book = XLSX.read(Buffer.from(await template.arrayBuffer()));
    expect(XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]], { header: 1 })[0]).toEqual(header);
    for (const r of imported) expect((await editor.get(`/api/radar/radarDel?id=${r.id}`)).body).toMatchObject({ code: 200 });
  });

  it('adds the demo radars once, on demo poles, with a group and a strategy per region lighting the lamps near them', async () => {
    expect(await loadDemoLamps(gw.db.url)).toBe('loaded');
    expect(await loadDemoPoles(gw.db.url)).toBe('loaded');
    expect(await loadDemoRadars(gw.db.url)).toBe('loaded');
    expect(await loadDemoRadars(gw.db.url)).toBe('already-loaded');
    const [counts] = await gw.db.query<{ radars: number; mounted: number; groups: number; strategies: number; lamps: number }>(
      `SELECT count(*)::int AS radars, count(d.pole_id)::int AS mounted,
              (SELECT count(*)::int FROM radar_group WHERE name LIKE '% street') AS groups,
              (SELECT count(*)::int FROM radar_strategy WHERE name LIKE '% street lighting') AS strategies,
              (SELECT count(DISTINCT device_id)::int FROM radar_group_lamp) AS lamps
         FROM device d JOIN radar_terminal t ON t.device_id = d.id WHERE d.code LIKE 'RADAR-0%'`,
    );
    expect(counts).toMatchObject({
      radars: DEMO_RADAR_COUNT,
      mounted: DEMO_RADAR_COUNT,
      groups: DEMO_RADAR_COUNT / 4,
      strategies: DEMO_RADAR_COUNT / 4,
    });
    expect(counts.lamps).toBeGreaterThan(DEMO_RADAR_COUNT);
  });

  it('deletes strategies, groups and radars', async () => {
    expect((await editor.get(`/api/radar/strategyDel?id=${strategy}`)).body).toMatchObject({ code: 200 });
    expect((await editor.get(`/api/radar/groupDel?id=${group}`)).body).toMatchObject({ code: 200 });
    expect((await editor.get(`/api/radar/radarDel?id=${radars[2]}`)).body).toMatchObject({ code: 200 });
    expect((await page({ radarName: 'RD-T' })).total).toBe(2);
    expect((await gw.db.query(`SELECT 1 FROM radar_terminal WHERE device_id = $1`, [radars[2]])).length).toBe(0);
    expect((await editor.get(`/api/radar/radarDel?id=${radars[2]}`)).status).toBe(404);
  });
});
