import pino from 'pino';
import {
  TERMINAL_ITEM_STATES,
  DeviceFamily,
  DispatchStatus,
  MqttService,
  OnlineState,
  ScreenState,
  type DispatchDetail,
  type LampControlResult,
  type LedRow,
  type MqttCredentials,
  type PageResult,
} from '@sc/contracts';
import { createPool } from '@sc/device-runtime';
import { waitFor, type ApiClient } from '@sc/testing';
import { startLedFleet } from '../../device-sim/src/families/led.sim';
import { DaylightBrightness } from '../../worker-led/src/daylight/daylight-brightness';
import { LED_FAMILIES } from '../../worker-led/src/led-worker';
import { loadDemoLamps } from '../src/demo/demo-lamps';
import { DEMO_LED_COUNT, loadDemoLeds } from '../src/demo/demo-led';
import { loadDemoPoles } from '../src/demo/demo-poles';
import { startTestGateway, type TestGateway } from './harness';
import { MQTT_URL, startTestWorker } from './device-worker';

/** The LED screen module's calls on the real PostgreSQL and Redis: records, commands into the ledger, the daylight rule. */
describe('LED screens: records, commands through the ledger, the daylight rule, roles and buttons', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let visitor: ApiClient;
  let region: number;
  let pole: number;
  const ids: number[] = [];

  const page = async (filters: Record<string, unknown> = {}, client = admin) =>
    (await client.post<PageResult<LedRow>>('/api/led/ledPage', { pageNum: 1, pageSize: 50, ...filters })).body.data;
  const snapshot = async () => ({
    screens: await gw.db.query(`SELECT * FROM led_screen ORDER BY device_id`),
    devices: await gw.db.query(`SELECT id, code, name, region_id, pole_id FROM device WHERE type = 4 ORDER BY id`),
    dispatches: (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM dispatch`))[0].n,
  });
  const screen = (i: number, over: Record<string, unknown> = {}) => ({
    name: `Square screen ${i}`,
    sn: `LED-T${i}`,
    IPAddress: `10.30.1.${20 + i}`,
    width: 1920,
    height: 1080,
    regionId: region,
    ...over,
  });

  beforeAll(async () => {
    gw = await startTestGateway();
    [admin, editor, visitor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor'), gw.signedIn('visitor')]);
    [{ id: region }] = await gw.db.query<{ id: number }>(`SELECT id FROM region WHERE region_name = 'Lianhua Subdistrict'`);
    [{ id: pole }] = await gw.db.query<{ id: number }>(`INSERT INTO device (type, code, name) VALUES (0, 'POLE-LED', 'Pole LED') RETURNING id`);
  });
  afterAll(() => gw?.close());

  it('adds screens with every field, the login once, mounted on a pole; lists and filters them', async () => {
    for (const i of [1, 2, 3]) {
      const answer = await editor.post<{ id: number; mqtt?: MqttCredentials }>(
        '/api/led/ledAddOrEdit',
        screen(i, i === 1 ? { poleId: pole, timeZone: 'Asia/Tokyo' } : {}),
      );
      expect(answer.body).toMatchObject({ code: 200 });
      if (answer.body.data.mqtt) expect(answer.body.data.mqtt.username).toBe(`led/LED-T${i}`);
      ids.push(answer.body.data.id);
    }
    const { list, total } = await page();
    expect(total).toBe(3);
    expect(list[0]).toMatchObject({
      name: 'Square screen 1',
      sn: 'LED-T1',
      IPAddress: '10.30.1.21',
      width: 1920,
      height: 1080,
      timeZone: 'Asia/Tokyo',
      regionName: 'Lianhua Subdistrict',
      poleCode: 'POLE-LED',
      networkStatus: OnlineState.Offline,
      brightness: 100,
      volume: 50,
      screen: ScreenState.Bright,
      reportedAt: null,
      daylight: null,
    });
    // Without a time zone of its own: its region's, else the installation's.
    expect(list[1].timeZone).toBe(gw.config.defaultPlace.timeZone);
    expect((await page({ name: 'led-t2' })).list.map((s) => s.sn)).toEqual(['LED-T2']);
    expect((await page({ networkStatus: OnlineState.Online })).total).toBe(0);
    expect((await page({ regionId: region, networkStatus: OnlineState.Offline })).total).toBe(3);
    // Mounted on the pole, as the pole page lists its devices.
    expect(await gw.db.query(`SELECT code FROM device WHERE pole_id = $1`, [pole])).toEqual([{ code: 'LED-T1' }]);
    // An edit keeps the code; the export is the list as filtered.
    expect((await editor.post('/api/led/ledAddOrEdit', screen(3, { id: ids[2], name: 'Renamed', width: 960 }))).body).toMatchObject({ code: 200 });
    expect((await editor.get<LedRow>(`/api/led/ledDetail?id=${ids[2]}`)).body.data).toMatchObject({ name: 'Renamed', width: 960 });
    const xlsx = await fetch(`${gw.baseUrl}/api/led/ledExport?name=renamed`, { headers: { Authorization: `Bearer ${admin.token}` } });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
  });

  it('sends brightness, volume, screen, reboot and time sync to a selection or a region through the ledger', async () => {
    const sent = async (path: string, body: Record<string, unknown>) => {
      const answer = await editor.post<LampControlResult>(`/api/led/${path}`, body);
      expect(answer.body).toMatchObject({ code: 200 });
      const [dispatch] = await gw.db.query<{ family: string; action: string; params: unknown; n: number }>(
        `SELECT d.family, d.action, d.params, (SELECT count(*)::int FROM dispatch_item i WHERE i.dispatch_id = d.id) AS n FROM dispatch d WHERE d.id = $1`,
        [answer.body.data.dispatchId],
      );
      return dispatch;
    };
    expect(await sent('ledBrightness', { ids: [ids[0]], brightness: 40 })).toEqual({
      family: DeviceFamily.Led,
      action: 'brightness',
      params: { brightness: 40 },
      n: 1,
    });
    expect(await sent('ledVolume', { regionId: region, volume: 0 })).toMatchObject({ action: 'volume', params: { volume: 0 }, n: 3 });
    expect(await sent('ledScreen', { ids, screen: ScreenState.Black })).toMatchObject({ action: 'screen', params: { screen: 2 }, n: 3 });
    expect(await sent('ledReboot', { ids: [ids[1]] })).toMatchObject({ action: 'reboot', n: 1 });
    expect(await sent('ledSyncTime', { ids: [ids[0], ids[1]] })).toMatchObject({ action: 'syncTime', n: 2 });
    // Each screen's clock is set in its own time zone.
    const zones = await gw.db.query<{ zone: string }>(
      `SELECT i.params->>'timeZone' AS zone FROM dispatch_item i JOIN dispatch d ON d.id = i.dispatch_id WHERE d.action = 'syncTime' ORDER BY i.device_id`,
    );
    expect(zones.map((z) => z.zone)).toEqual(['Asia/Tokyo', gw.config.defaultPlace.timeZone]);
  });

  it('puts the daylight rule on screens; the worker sends each its brightness of the phase of now once, through the ledger', async () => {
    const answer = await editor.post('/api/led/ledDaylight', { ids: [ids[0], ids[1]], enabled: true, dayBrightness: 90, nightBrightness: 25 });
    expect(answer.body).toMatchObject({ code: 200, data: { screens: 2 } });
    expect((await page()).list[0].daylight).toEqual({ dayBrightness: 90, nightBrightness: 25 });
    const pool = createPool(gw.db.url, 1);
    try {
      const daylight = new DaylightBrightness(pool, pino({ level: 'silent' }));
      expect(await daylight.pass()).toBe(2);
      // Nothing more until sunrise or sunset.
      expect(await daylight.pass()).toBe(0);
    } finally {
      await pool.end();
    }
    const [rule] = await gw.db.query<{ params: { brightness: number }; created_by: string; n: number }>(
      `SELECT d.params, d.created_by, (SELECT count(*)::int FROM dispatch_item i WHERE i.dispatch_id = d.id) AS n
         FROM dispatch d WHERE d.created_by = 'daylight rule'`,
    );
    expect(rule.n).toBe(2);
    expect([90, 25]).toContain(rule.params.brightness);
    expect((await page()).list[0].daylightPhase).toMatch(/^(day|night)$/);
    expect((await editor.post('/api/led/ledDaylight', { ids: [ids[1]], enabled: false })).body).toMatchObject({ code: 200, data: { screens: 1 } });
    expect((await page()).list[1].daylight).toBeNull();
  });

  it("refuses bad input with the catalogue's messages, translated, changing nothing", async () => {
    const before = await snapshot();
    const zh = admin.as(admin.token, 'zh-CN');
    const empty = await admin.post('/api/led/ledBrightness', { ids });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('Brightness cannot be empty');
    expect(JSON.stringify((await zh.post('/api/led/ledBrightness', { ids })).body)).toContain('亮度不能为空');
    expect(JSON.stringify((await admin.post('/api/led/ledVolume', { ids })).body)).toContain('The volume cannot be empty');
    const high = await zh.post('/api/led/ledBrightness', { ids, brightness: 101 });
    expect(high.body).toMatchObject({ code: 400, data: { errors: [{ field: 'brightness', reason: '必须在 0 到 100 之间' }] } });
    expect((await admin.post('/api/led/ledVolume', { ids, volume: 'loud' })).status).toBe(400);
    expect((await admin.post('/api/led/ledScreen', { ids, screen: 3 })).status).toBe(400);
    expect((await zh.post('/api/led/ledReboot', {})).body).toMatchObject({ code: 400, message: '请选择LED屏或区域' });
    expect((await admin.post('/api/led/ledReboot', { ids, regionId: region })).body).toMatchObject({
      code: 400,
      message: 'Select LED screens or a region: only one of them',
    });
    expect((await admin.post('/api/led/ledReboot', { ids: [999_999] })).body).toMatchObject({
      code: 400,
      message: 'These LED screens do not exist: 999999',
    });
    const daylight = await admin.post('/api/led/ledDaylight', { ids, enabled: true, dayBrightness: 80 });
    expect(daylight.body).toMatchObject({ code: 400, data: { errors: [{ field: 'nightBrightness', reason: 'Brightness cannot be empty' }] } });
    const taken = await admin.post('/api/led/ledAddOrEdit', screen(9, { sn: 'LED-T1' }));
    expect(taken.body).toMatchObject({
      code: 409,
      data: { errors: [{ field: 'sn', reason: 'An LED screen with the serial number "LED-T1" already exists' }] },
    });
    expect(JSON.stringify((await admin.post('/api/led/ledAddOrEdit', screen(9, { IPAddress: '300.1.1.1' }))).body)).toContain('Use an IPv4 address');
    expect(JSON.stringify((await admin.post('/api/led/ledAddOrEdit', screen(9, { timeZone: 'Mars/Olympus' }))).body)).toContain('Use a time zone');
    expect((await admin.post('/api/led/ledAddOrEdit', screen(9, { width: 0 }))).status).toBe(400);
    expect((await admin.post('/api/led/ledAddOrEdit', screen(9, { poleId: 999_999 }))).status).toBe(400);
    // The serial number is the screen's MQTT identity: an editor cannot change it (Edit MQTT).
    const recode = await editor.post('/api/led/ledAddOrEdit', screen(2, { id: ids[1], sn: 'LED-NEW' }));
    expect(recode.body).toMatchObject({ code: 400, data: { errors: [{ field: 'sn' }] } });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses visitors (no LED role) every call, changing nothing', async () => {
    const before = await snapshot();
    expect((await visitor.post('/api/led/ledPage', { pageNum: 1, pageSize: 10 })).status).toBe(403);
    expect((await visitor.post('/api/led/ledBrightness', { ids, brightness: 10 })).status).toBe(403);
    expect((await visitor.post('/api/led/ledAddOrEdit', screen(8))).status).toBe(403);
    expect((await visitor.get(`/api/led/ledDel?id=${ids[0]}`)).status).toBe(403);
    expect((await visitor.post('/api/led/ledDaylight', { ids, enabled: false })).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('brings screens online from their heartbeat and moves their brightness live from the simulated screens', async () => {
    const worker = await startTestWorker(gw, { name: 'led', families: LED_FAMILIES, service: MqttService.WorkerLed }, 'led', { ackTimeoutMs: 500 });
    const fleet = await startLedFleet({
      mqttUrl: MQTT_URL,
      screens: ['LED-T1', 'LED-T2'],
      ackLatencyMs: { min: 5, max: 20 },
      logger: pino({ level: 'silent' }),
    });
    try {
      await waitFor(async () => ((await page({ networkStatus: OnlineState.Online })).total === 2 ? true : undefined), 10_000);
      // The commands of the tests before (sent while no worker ran) reach the screens first: 55 is sent after them.
      await waitFor(async () => {
        const [{ n }] = await gw.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM dispatch_item WHERE device_id = ANY($1) AND NOT (state = ANY($2))`,
          [[ids[0], ids[1]], TERMINAL_ITEM_STATES],
        );
        return n === 0 ? true : undefined;
      }, 15_000);
      const answer = await editor.post<LampControlResult>('/api/led/ledBrightness', { ids: [ids[0], ids[1]], brightness: 55 });
      await waitFor(async () => {
        const d = (await editor.get<DispatchDetail>(`/api/dispatch/detail?id=${answer.body.data.dispatchId}`)).body.data;
        return d.status === DispatchStatus.AllSuccessful ? d : undefined;
      }, 10_000);
      expect(fleet.screen('LED-T1')).toMatchObject({ brightness: 55, online: true });
      await waitFor(async () => ((await page()).list.filter((s) => s.brightness === 55).length === 2 ? true : undefined), 3000);
      expect((await page()).list[0]).toMatchObject({ softwareVersion: '3.2.1', reportedAt: expect.any(String) });
    } finally {
      await fleet.stop({ clearRetained: true });
      await worker.stop();
    }
  });

  it('adds the demo screens once, on demo poles', async () => {
    expect(await loadDemoLamps(gw.db.url)).toBe('loaded');
    expect(await loadDemoPoles(gw.db.url)).toBe('loaded');
    expect(await loadDemoLeds(gw.db.url, gw.config.defaultPlace)).toBe('loaded');
    expect(await loadDemoLeds(gw.db.url, gw.config.defaultPlace)).toBe('already-loaded');
    const [counts] = await gw.db.query<{ screens: number; mounted: number; ruled: number }>(
      `SELECT count(*)::int AS screens, count(d.pole_id)::int AS mounted, count(s.daylight_day)::int AS ruled
         FROM device d JOIN led_screen s ON s.device_id = d.id WHERE d.code LIKE 'LED-0%'`,
    );
    expect(counts).toEqual({ screens: DEMO_LED_COUNT, mounted: DEMO_LED_COUNT, ruled: DEMO_LED_COUNT / 3 });
  });

  it('deletes a screen with its row; its dispatch rows go with it', async () => {
    expect((await editor.get(`/api/led/ledDel?id=${ids[2]}`)).body).toMatchObject({ code: 200 });
    expect((await page({ name: 'LED-T3' })).total).toBe(0);
    expect((await gw.db.query(`SELECT 1 FROM led_screen WHERE device_id = $1`, [ids[2]])).length).toBe(0);
    expect((await editor.get(`/api/led/ledDel?id=${ids[2]}`)).status).toBe(404);
  });
});
