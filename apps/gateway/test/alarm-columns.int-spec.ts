import pino from 'pino';
import {
  AlarmLevel,
  DeviceFamily,
  MqttService,
  OnlineState,
  type AlarmColumnRow,
  type AlarmPressedEvent,
  type ImportResult,
  type DeviceStateChangedEvent,
  type LampControlResult,
  type MqttCredentials,
  type PageResult,
} from '@sc/contracts';
import * as XLSX from '@e965/xlsx';
import { ApiClient, waitFor, workbookBuffer } from '@sc/testing';
import { startAlarmFleet, type AlarmFleet } from '../../device-sim/src/families/alarm.sim';
import { startAlarmWorker } from '../../worker-alarm/src/alarm-worker';
import { loadDemoLamps } from '../src/demo/demo-lamps';
import { loadDemoPoles } from '../src/demo/demo-poles';
import { DEMO_ALARM_COLUMN_COUNT, loadDemoAlarmColumns } from '../src/demo/demo-alarm-columns';
import { startTestGateway, type TestGateway } from './harness';
import { MQTT_URL, testWorkerConfig, watchFamily } from './device-worker';

/** Alarm columns on the real PostgreSQL, Redis and broker: records, the worker with a simulated column, presses live, the ledger. */
describe('Alarm columns: records, state and presses live, reboot and volume through the ledger', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let visitor: ApiClient;
  let region: number;
  let pole: number;
  const ids: number[] = [];

  const page = async (filters: Record<string, unknown> = {}) =>
    (await admin.post<PageResult<AlarmColumnRow>>('/api/alarm/columnPage', { pageNum: 1, pageSize: 50, ...filters })).body.data;
  const snapshot = async () => ({
    columns: await gw.db.query(`SELECT * FROM alarm_column ORDER BY device_id`),
    devices: await gw.db.query(`SELECT id, code, name, region_id, pole_id, latitude, longitude FROM device WHERE type = 7 ORDER BY id`),
    presses: await gw.db.query(`SELECT * FROM alarm_press ORDER BY id`),
    dispatches: (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM dispatch`))[0].n,
  });
  const column = (i: number, over: Record<string, unknown> = {}) => ({
    name: `Lianhua alarm column ${i}`,
    code: `ALARM-T${i}`,
    sipAccount: `800${i}`,
    regionId: region,
    ...over,
  });

  beforeAll(async () => {
    gw = await startTestGateway();
    [admin, editor, visitor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor'), gw.signedIn('visitor')]);
    [{ id: region }] = await gw.db.query<{ id: number }>(`SELECT id FROM region WHERE region_name = 'Lianhua Subdistrict'`);
    [{ id: pole }] = await gw.db.query<{ id: number }>(`INSERT INTO device (type, code, name) VALUES (0, 'POLE-ALARM', 'Pole alarm') RETURNING id`);
  });
  afterAll(() => gw?.close());

  it('adds columns with their SIP account, pole and position; lists, filters, details and exports them', async () => {
    for (const i of [1, 2]) {
      const over = i === 1 ? { poleId: pole, latitude: 22.55, longitude: 114.06 } : {};
      const answer = await editor.post<{ id: number; mqtt?: MqttCredentials }>('/api/alarm/columnAddOrEdit', column(i, over));
      expect(answer.body).toMatchObject({ code: 200 });
      if (answer.body.data.mqtt) expect(answer.body.data.mqtt.username).toBe(`alarm/ALARM-T${i}`);
      ids.push(answer.body.data.id);
    }
    const listed = await page();
    expect(listed.total).toBe(2);
    expect(listed.list[0]).toMatchObject({
      name: 'Lianhua alarm column 1',
      code: 'ALARM-T1',
      sipAccount: '8001',
      latitude: 22.55,
      longitude: 114.06,
      regionName: 'Lianhua Subdistrict',
      poleCode: 'POLE-ALARM',
      networkStatus: OnlineState.Offline,
      volume: null,
      lastPressAt: null,
      pressCount: 0,
    });
    expect((await page({ name: '8002' })).list.map((c) => c.code)).toEqual(['ALARM-T2']);
    expect((await page({ regionId: region, networkStatus: OnlineState.Online })).total).toBe(0);
    // An edit that leaves the SIP account out keeps it.
    expect((await editor.post('/api/alarm/columnAddOrEdit', { id: ids[1], name: 'Renamed', code: 'ALARM-T2' })).body).toMatchObject({ code: 200 });
    expect((await editor.get<AlarmColumnRow>(`/api/alarm/columnDetail?id=${ids[1]}`)).body.data).toMatchObject({
      name: 'Renamed',
      sipAccount: '8002',
    });
    const xlsx = await fetch(`${gw.baseUrl}/api/alarm/columnExport?name=alarm-t1`, { headers: { Authorization: `Bearer ${admin.token}` } });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
  });

  it("refuses bad input with the catalogue's messages, translated, changing nothing", async () => {
    const before = await snapshot();
    const zh = admin.as(admin.token, 'zh-CN');
    expect(JSON.stringify((await admin.post('/api/alarm/columnAddOrEdit', column(9, { name: '' }))).body)).toContain('The name cannot be empty');
    expect(JSON.stringify((await zh.post('/api/alarm/columnAddOrEdit', column(9, { name: '' }))).body)).toContain('名称不能为空');
    expect((await admin.post('/api/alarm/columnAddOrEdit', column(9, { sipAccount: 'sip:8009' }))).body).toMatchObject({
      code: 400,
      data: { errors: [{ field: 'sipAccount', reason: 'Use letters, digits and _ . + - for the SIP account, at most 32' }] },
    });
    expect((await admin.post('/api/alarm/columnAddOrEdit', column(9, { sipAccount: '8001' }))).body).toMatchObject({
      code: 409,
      data: { errors: [{ field: 'sipAccount', reason: 'The SIP account 8001 is already given to another alarm column' }] },
    });
    expect((await zh.post('/api/alarm/columnAddOrEdit', column(9, { code: 'ALARM-T1', sipAccount: '' }))).body).toMatchObject({
      code: 409,
      data: { errors: [{ field: 'code', reason: '编码为“ALARM-T1”的报警柱已存在' }] },
    });
    expect((await admin.post('/api/alarm/columnAddOrEdit', column(9, { latitude: 22.5 }))).body).toMatchObject({ code: 400 });
    expect((await admin.post('/api/alarm/columnAddOrEdit', column(9, { latitude: 95, longitude: 114 }))).body).toMatchObject({ code: 400 });
    expect((await zh.post('/api/alarm/columnReboot', {})).body).toMatchObject({ code: 400, message: '请选择报警柱或区域' });
    expect((await admin.post('/api/alarm/columnReboot', { ids: [pole] })).body).toMatchObject({
      code: 400,
      message: `These alarm columns do not exist: ${pole}`,
    });
    expect((await admin.post('/api/alarm/columnVolume', { ids: [ids[0]], volume: 101 })).body).toMatchObject({
      code: 400,
      data: { errors: [{ field: 'volume' }] },
    });
    // The code is the column's MQTT identity: an editor cannot change it (Edit MQTT).
    expect((await editor.post('/api/alarm/columnAddOrEdit', column(1, { id: ids[0], code: 'ALARM-NEW' }))).body).toMatchObject({
      code: 400,
      data: { errors: [{ field: 'code' }] },
    });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses visitors (no alarm role) every call, changing nothing', async () => {
    const before = await snapshot();
    expect((await visitor.post('/api/alarm/columnPage', { pageNum: 1, pageSize: 10 })).status).toBe(403);
    expect((await visitor.get(`/api/alarm/columnDetail?id=${ids[0]}`)).status).toBe(403);
    expect((await visitor.post('/api/alarm/columnAddOrEdit', column(8))).status).toBe(403);
    expect((await visitor.post('/api/alarm/columnReboot', { ids })).status).toBe(403);
    expect((await visitor.post('/api/alarm/columnVolume', { ids, volume: 10 })).status).toBe(403);
    expect((await visitor.get(`/api/alarm/columnDel?id=${ids[0]}`)).status).toBe(403);
    expect((await fetch(`${gw.baseUrl}/api/alarm/columnExport`, { headers: { Authorization: `Bearer ${visitor.token}` } })).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('imports columns from xlsx with no group; a bad file changes nothing; the template has the columns', async () => {
    const upload = (body: FormData) => new ApiClient(gw.uploadUrl, 'en-US').as(editor.token).post<ImportResult>('/api/alarm/columnImport', body);
    const form = (rows: unknown[][]) => {
      const data = new FormData();
      data.append('file', new Blob([workbookBuffer(rows)]), 'alarm-columns.xlsx');
      return data;
    };
    const header = ['Name', 'Code', 'SIP account', 'Region name', 'Lamp pole code', 'Latitude', 'Longitude'];
    const before = await snapshot();
    const bad = await upload(form([header, ['Imported 1', 'AI-1', '8001', '', '', '', ''], ['Imported 2', 'AI-2', 'sip:1', '', '', 95, 114]]));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('The SIP account 8001 is already given to another alarm column');
    expect(await snapshot()).toEqual(before);
    const answer = await upload(
      form([header, ['Imported 1', 'AI-1', '8101', 'Lianhua Subdistrict', 'POLE-ALARM', 22.5, 114.1], ['Imported 2', 'AI-2', '', '', '', '', '']]),
    );
    expect(answer.body.data).toMatchObject({ kind: 'column', added: 2, changed: 0 });
    const imported = (await page({ name: 'AI-' })).list;
    expect(imported.map((c) => [c.code, c.name, c.sipAccount, c.regionName, c.poleCode, c.latitude])).toEqual([
      ['AI-1', 'Imported 1', '8101', 'Lianhua Subdistrict', 'POLE-ALARM', 22.5],
      ['AI-2', 'Imported 2', '', null, null, null],
    ]);
    const template = await fetch(`${gw.baseUrl}/api/alarm/columnTemplate`, { headers: { Authorization: `Bearer ${editor.token}` } });
    const book = XLSX.read(Buffer.from(await template.arrayBuffer()));
    expect(XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]], { header: 1 })[0]).toEqual(header);
    for (const code of ['AI-1', 'AI-2']) await gw.db.query(`DELETE FROM device WHERE type = 7 AND code = $1`, [code]);
  });

  it('brings a column online from its state, stores and announces a press, and sets its volume and reboots it through the ledger', async () => {
    const worker = await startAlarmWorker(
      { ...testWorkerConfig(gw, { name: 'alarm', service: MqttService.WorkerAlarm }, 'alarm'), ackTimeoutMs: 500 },
      pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
    );
    const presses = await watchFamily(gw, editor.token, DeviceFamily.Alarm, 'AlarmPressed');
    const changes = await watchFamily(gw, editor.token, DeviceFamily.Alarm);
    const pressed: AlarmPressedEvent[] = [];
    const changed: DeviceStateChangedEvent[] = [];
    presses.on('AlarmPressed', (e) => pressed.push(e));
    changes.on('DeviceStateChanged', (e) => changed.push(e));
    let fleet: AlarmFleet | null = null;
    try {
      fleet = await startAlarmFleet({
        mqttUrl: MQTT_URL,
        columns: ['ALARM-T1'],
        ackLatencyMs: { min: 5, max: 20 },
        scheduleTickMs: 100,
        logger: pino({ level: 'silent' }),
      });
      const online = await waitFor(async () => {
        const [row] = (await page({ name: 'ALARM-T1' })).list;
        return row.networkStatus === OnlineState.Online ? row : undefined;
      }, 10_000);
      expect(online).toMatchObject({
        volume: 60,
        swver: expect.any(String),
        ipAddress: expect.stringMatching(/^10\.40\./),
        reportedAt: expect.any(String),
      });

      const ts = new Date();
      await fleet.press('ALARM-T1', AlarmLevel.Three, ts);
      const event = await waitFor(async () => pressed[0], 10_000);
      expect(event).toMatchObject({
        family: 'alarm',
        columnId: ids[0],
        code: 'ALARM-T1',
        level: AlarmLevel.Three,
        ts: ts.toISOString(),
        pressCount: 1,
      });
      expect(await gw.db.query(`SELECT device_id, device_code, region_id, level, pressed_at FROM alarm_press`)).toEqual([
        { device_id: ids[0], device_code: 'ALARM-T1', region_id: region, level: AlarmLevel.Three, pressed_at: ts },
      ]);
      expect((await page({ name: 'ALARM-T1' })).list[0]).toMatchObject({
        lastPressAt: ts.toISOString(),
        lastPressLevel: AlarmLevel.Three,
        pressCount: 1,
      });
      await waitFor(
        async () => (changed.some((e) => e.changes.some((c) => c.recordId === ids[0] && 'pressCount' in c.changed)) ? true : undefined),
        10_000,
      );

      // Someone presses it by itself (the fleet's activity, as in the demo): each press goes out at once and is stored.
      fleet.setActivity(20);
      await waitFor(async () => {
        const [{ n }] = await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM alarm_press`);
        return n >= 3 ? true : undefined;
      }, 10_000);
      fleet.setActivity(0);

      // The volume through the ledger: delivered, then the column's own.
      const volume = await editor.post<LampControlResult>('/api/alarm/columnVolume', { ids: [ids[0]], volume: 35 });
      expect(volume.body).toMatchObject({ code: 200 });
      await waitFor(async () => ((await page({ name: 'ALARM-T1' })).list[0].volume === 35 ? true : undefined), 10_000);
      expect(fleet.column('ALARM-T1')?.volume).toBe(35);
      // A reboot: the column answers, drops off and comes back.
      const reboot = await editor.post<LampControlResult>('/api/alarm/columnReboot', { ids: [ids[0]] });
      expect(reboot.body).toMatchObject({ code: 200 });
      const [row] = await waitFor(async () => {
        const rows = await gw.db.query<{ state: string }>(`SELECT state FROM dispatch_item WHERE dispatch_id = $1`, [reboot.body.data.dispatchId]);
        return rows[0]?.state === 'delivered' ? rows : undefined;
      }, 10_000);
      expect(row.state).toBe('delivered');
      await waitFor(async () => (fleet!.column('ALARM-T1')?.reboots === 1 ? true : undefined), 10_000);
    } finally {
      presses.close();
      changes.close();
      await fleet?.stop({ clearRetained: true });
      await worker.stop();
    }
  });

  it('deletes a column; its presses stay on record', async () => {
    expect((await editor.get(`/api/alarm/columnDel?id=${ids[0]}`)).body).toMatchObject({ code: 200 });
    expect((await editor.get(`/api/alarm/columnDel?id=${ids[0]}`)).status).toBe(404);
    const presses = (await gw.db.query(`SELECT DISTINCT device_code FROM alarm_press`)).map((p: { device_code: string }) => p.device_code);
    expect(presses).toEqual(['ALARM-T1']);
  });

  it('adds the demo alarm columns once, on demo poles', async () => {
    expect(await loadDemoLamps(gw.db.url)).toBe('loaded');
    expect(await loadDemoPoles(gw.db.url)).toBe('loaded');
    expect(await loadDemoAlarmColumns(gw.db.url)).toBe('loaded');
    expect(await loadDemoAlarmColumns(gw.db.url)).toBe('already-loaded');
    const [counts] = await gw.db.query<{ n: number; onPoles: number }>(
      `SELECT count(*)::int AS n, count(d.pole_id)::int AS "onPoles" FROM alarm_column a JOIN device d ON d.id = a.device_id WHERE d.code LIKE 'ALARM-0%'`,
    );
    expect(counts).toEqual({ n: DEMO_ALARM_COLUMN_COUNT, onPoles: DEMO_ALARM_COLUMN_COUNT });
  });
});
