import pino from 'pino';
import {
  AC_FAMILY,
  AP_FAMILY,
  DeviceFamily,
  MqttService,
  OnlineState,
  type AcRow,
  type ApRow,
  type LampControlResult,
  type MqttCredentials,
  type PageResult,
  type WifiClientPoint,
  type WifiClientRow,
  type WifiLoadPoint,
  type WifiSessionRow,
} from '@sc/contracts';
import { waitFor, type ApiClient } from '@sc/testing';
import { startWifiFleet } from '../../device-sim/src/families/wifi.sim';
import { WIFI_FAMILIES, WIFI_OBSERVERS } from '../../worker-wifi/src/wifi-worker';
import { loadDemoLamps } from '../src/demo/demo-lamps';
import { loadDemoPoles } from '../src/demo/demo-poles';
import { DEMO_AC_COUNT, DEMO_AP_COUNT, loadDemoWifi } from '../src/demo/demo-wifi';
import { startTestGateway, type TestGateway } from './harness';
import { MQTT_URL, startTestWorker, watchFamily } from './device-worker';

/** The Wi-Fi module's calls on the real PostgreSQL, Redis and broker: records, reboots through the ledger, clients live and in the history. */
describe('Wi-Fi: access controllers, access points, their clients now and before', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let visitor: ApiClient;
  let region: number;
  let pole: number;
  const acIds: number[] = [];
  const apIds: number[] = [];

  const acPage = async (filters: Record<string, unknown> = {}) =>
    (await admin.post<PageResult<AcRow>>('/api/wifi/acPage', { pageNum: 1, pageSize: 50, ...filters })).body.data;
  const apPage = async (filters: Record<string, unknown> = {}) =>
    (await admin.post<PageResult<ApRow>>('/api/wifi/apPage', { pageNum: 1, pageSize: 50, ...filters })).body.data;
  const online = async (filters: Record<string, unknown> = {}) =>
    (await admin.post<PageResult<WifiClientRow>>('/api/wifi/terminalOnlinePage', { pageNum: 1, pageSize: 50, ...filters })).body.data;
  const window = () => ({ from: new Date(Date.now() - 3600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() });
  const history = async (filters: Record<string, unknown> = {}) =>
    (await admin.post<PageResult<WifiSessionRow>>('/api/wifi/terminalHistoryPage', { pageNum: 1, pageSize: 50, ...window(), ...filters })).body.data;
  const snapshot = async () => ({
    acs: await gw.db.query(`SELECT * FROM wifi_ac ORDER BY device_id`),
    aps: await gw.db.query(`SELECT * FROM wifi_ap ORDER BY device_id`),
    devices: await gw.db.query(`SELECT id, code, name, region_id, pole_id FROM device WHERE type IN (6, 8) ORDER BY id`),
    dispatches: (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM dispatch`))[0].n,
  });
  const ac = (i: number, over: Record<string, unknown> = {}) => ({
    devName: `Lianhua AC ${i}`,
    devSN: `AC-T${i}`,
    devMac: `58:2a:f7:aa:00:0${i}`,
    devModel: 'AC6508',
    devType: 'Access controller',
    regionId: region,
    ...over,
  });
  const ap = (i: number, over: Record<string, unknown> = {}) => ({
    devName: `Lianhua AP ${i}`,
    devSN: `AP-T${i}`,
    devMac: `58:2A:F7:BB:00:0${i}`,
    devModel: 'AirEngine 6760R',
    devType: 'Outdoor',
    acId: acIds[0],
    regionId: region,
    ...over,
  });

  beforeAll(async () => {
    gw = await startTestGateway();
    [admin, editor, visitor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor'), gw.signedIn('visitor')]);
    [{ id: region }] = await gw.db.query<{ id: number }>(`SELECT id FROM region WHERE region_name = 'Lianhua Subdistrict'`);
    [{ id: pole }] = await gw.db.query<{ id: number }>(`INSERT INTO device (type, code, name) VALUES (0, 'POLE-WIFI', 'Pole Wi-Fi') RETURNING id`);
  });
  afterAll(() => gw?.close());

  it('adds controllers and access points under them with every field, mounted on a pole; lists, filters and exports them', async () => {
    for (const i of [1, 2]) {
      const answer = await editor.post<{ id: number; mqtt?: MqttCredentials }>('/api/wifi/acAddOrEdit', ac(i, i === 1 ? { poleId: pole } : {}));
      expect(answer.body).toMatchObject({ code: 200 });
      if (answer.body.data.mqtt) expect(answer.body.data.mqtt.username).toBe(`ac/AC-T${i}`);
      acIds.push(answer.body.data.id);
    }
    for (const i of [1, 2, 3]) {
      const answer = await editor.post<{ id: number; mqtt?: MqttCredentials }>(
        '/api/wifi/apAddOrEdit',
        ap(i, i === 3 ? { acId: acIds[1], poleId: pole } : {}),
      );
      expect(answer.body).toMatchObject({ code: 200 });
      if (answer.body.data.mqtt) expect(answer.body.data.mqtt.username).toBe(`ap/AP-T${i}`);
      apIds.push(answer.body.data.id);
    }
    const acs = await acPage();
    expect(acs.total).toBe(2);
    expect(acs.list[0]).toMatchObject({
      devName: 'Lianhua AC 1',
      devSN: 'AC-T1',
      devMac: '58:2A:F7:AA:00:01',
      devModel: 'AC6508',
      devType: 'Access controller',
      regionName: 'Lianhua Subdistrict',
      poleCode: 'POLE-WIFI',
      networkStatus: OnlineState.Offline,
      cpuRatio: null,
      memoryRatio: null,
      diskRatio: null,
      reportedAt: null,
      apCount: 2,
      apOnline: 0,
    });
    const aps = await apPage({ acId: acIds[0] });
    expect(aps.list.map((a) => a.devSN)).toEqual(['AP-T1', 'AP-T2']);
    expect(aps.list[0]).toMatchObject({ acId: acIds[0], acName: 'Lianhua AC 1', acSN: 'AC-T1', clientCount: 0, devType: 'Outdoor' });
    expect((await apPage({ name: 'bb:00:03' })).list.map((a) => a.devSN)).toEqual(['AP-T3']);
    expect((await apPage({ regionId: region, networkStatus: OnlineState.Online })).total).toBe(0);
    expect(await gw.db.query(`SELECT code FROM device WHERE pole_id = $1 ORDER BY code`, [pole])).toEqual([{ code: 'AC-T1' }, { code: 'AP-T3' }]);
    // An edit moves an access point to another controller; the detail says so.
    expect((await editor.post('/api/wifi/apAddOrEdit', ap(2, { id: apIds[1], acId: acIds[1], devName: 'Renamed AP' }))).body).toMatchObject({
      code: 200,
    });
    expect((await editor.get<ApRow>(`/api/wifi/apDetail?id=${apIds[1]}`)).body.data).toMatchObject({ devName: 'Renamed AP', acSN: 'AC-T2' });
    for (const path of ['acExport?name=ac-t1', 'apExport?acId=' + acIds[1]]) {
      const xlsx = await fetch(`${gw.baseUrl}/api/wifi/${path}`, { headers: { Authorization: `Bearer ${admin.token}` } });
      expect(xlsx.status).toBe(200);
      expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
    }
  });

  it('reboots controllers and access points, a selection or a region, through the ledger', async () => {
    const sent = async (path: string, body: Record<string, unknown>) => {
      const answer = await editor.post<LampControlResult>(`/api/wifi/${path}`, body);
      expect(answer.body).toMatchObject({ code: 200 });
      const [dispatch] = await gw.db.query<{ family: string; action: string; n: number }>(
        `SELECT d.family, d.action, (SELECT count(*)::int FROM dispatch_item i WHERE i.dispatch_id = d.id) AS n FROM dispatch d WHERE d.id = $1`,
        [answer.body.data.dispatchId],
      );
      return dispatch;
    };
    expect(await sent('acReboot', { ids: [acIds[0]] })).toEqual({ family: DeviceFamily.AccessController, action: 'reboot', n: 1 });
    expect(await sent('apReboot', { regionId: region })).toEqual({ family: DeviceFamily.AccessPoint, action: 'reboot', n: 3 });
  });

  it("refuses bad input with the catalogue's messages, translated, changing nothing", async () => {
    const before = await snapshot();
    const zh = admin.as(admin.token, 'zh-CN');
    expect(JSON.stringify((await admin.post('/api/wifi/acAddOrEdit', ac(9, { devName: '' }))).body)).toContain('The name cannot be empty');
    expect(JSON.stringify((await zh.post('/api/wifi/acAddOrEdit', ac(9, { devName: '' }))).body)).toContain('名称不能为空');
    expect((await admin.post('/api/wifi/apAddOrEdit', ap(9, { acId: undefined }))).body).toMatchObject({
      code: 400,
      data: { errors: [{ field: 'acId', reason: 'Please select' }] },
    });
    expect((await zh.post('/api/wifi/apAddOrEdit', ap(9, { acId: undefined }))).body).toMatchObject({ data: { errors: [{ reason: '请选择' }] } });
    expect(JSON.stringify((await admin.post('/api/wifi/acAddOrEdit', ac(9, { devMac: '58-2A' }))).body)).toContain('Use a MAC address like');
    expect((await admin.post('/api/wifi/apAddOrEdit', ap(9, { acId: apIds[0] }))).body).toMatchObject({
      code: 400,
      data: { errors: [{ field: 'acId', reason: 'This access controller does not exist' }] },
    });
    expect((await admin.post('/api/wifi/acAddOrEdit', ac(9, { devSN: 'AC-T1', devMac: '58:2A:F7:AA:00:09' }))).body).toMatchObject({
      code: 409,
      data: { errors: [{ field: 'devSN', reason: 'An access controller with the serial number "AC-T1" already exists' }] },
    });
    expect((await admin.post('/api/wifi/apAddOrEdit', ap(9, { devMac: '58:2a:f7:bb:00:01' }))).body).toMatchObject({
      code: 409,
      data: { errors: [{ field: 'devMac', reason: 'An access point with the MAC address 58:2A:F7:BB:00:01 already exists' }] },
    });
    expect((await zh.post('/api/wifi/apReboot', {})).body).toMatchObject({ code: 400, message: '请选择AP或区域' });
    expect((await admin.post('/api/wifi/acReboot', { ids: [apIds[0]] })).body).toMatchObject({
      code: 400,
      message: `These access controllers do not exist: ${apIds[0]}`,
    });
    // The window of the history: both bounds, ordered, at most 31 days.
    const noTime = await admin.post('/api/wifi/terminalHistoryPage', { pageNum: 1, pageSize: 10, to: new Date().toISOString() });
    expect(noTime.body).toMatchObject({ code: 400, data: { errors: [{ field: 'from', reason: 'The time cannot be empty' }] } });
    const long = await admin.post('/api/wifi/terminalHistoryPage', {
      pageNum: 1,
      pageSize: 10,
      from: '2026-01-01T00:00:00Z',
      to: '2026-03-01T00:00:00Z',
    });
    expect(long.body).toMatchObject({ code: 400, data: { errors: [{ field: 'to', reason: 'The history is shown at most 31 days at a time' }] } });
    // A controller with access points cannot go.
    expect((await admin.get(`/api/wifi/acDel?id=${acIds[0]}`)).body).toMatchObject({
      code: 409,
      message: 'This access controller still manages access points; move or delete them first',
    });
    // The serial number is the device's MQTT identity: an editor cannot change it (Edit MQTT).
    expect((await editor.post('/api/wifi/acAddOrEdit', ac(1, { id: acIds[0], devSN: 'AC-NEW' }))).body).toMatchObject({
      code: 400,
      data: { errors: [{ field: 'devSN' }] },
    });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses visitors (no Wi-Fi role) every call, changing nothing', async () => {
    const before = await snapshot();
    expect((await visitor.post('/api/wifi/acPage', { pageNum: 1, pageSize: 10 })).status).toBe(403);
    expect((await visitor.post('/api/wifi/terminalOnlinePage', { pageNum: 1, pageSize: 10 })).status).toBe(403);
    expect((await visitor.post('/api/wifi/apReboot', { ids: apIds })).status).toBe(403);
    expect((await visitor.post('/api/wifi/acAddOrEdit', ac(8))).status).toBe(403);
    expect((await visitor.get(`/api/wifi/apDel?id=${apIds[0]}`)).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('brings devices online from their heartbeat with their ratios live; clients join, show online, leave into the history', async () => {
    // The reboots above are not for this fleet's devices: they expire unanswered.
    await gw.db.query(`DELETE FROM dispatch`);
    const worker = await startTestWorker(
      gw,
      { name: 'wifi', families: WIFI_FAMILIES, observers: WIFI_OBSERVERS(), service: MqttService.WorkerWifi },
      'wifi',
      { ackTimeoutMs: 500 },
    );
    const socket = await watchFamily(gw, editor.token, DeviceFamily.AccessPoint);
    const seen: unknown[] = [];
    socket.on('DeviceStateChanged', (e) => seen.push(e));
    const fleet = await startWifiFleet({
      mqttUrl: MQTT_URL,
      acs: ['AC-T1', 'AC-T2'],
      aps: ['AP-T1', 'AP-T2', 'AP-T3'],
      ackLatencyMs: { min: 5, max: 20 },
      scheduleTickMs: 100,
      telemetryIntervalMs: 500,
      logger: pino({ level: 'silent' }),
    });
    try {
      await waitFor(async () => ((await apPage({ networkStatus: OnlineState.Online })).total === 3 ? true : undefined), 10_000);
      await waitFor(async () => ((await acPage({ networkStatus: OnlineState.Online })).total === 2 ? true : undefined), 10_000);
      const [first] = (await acPage()).list;
      expect(first).toMatchObject({ apOnline: 1, softwareVersion: expect.any(String), reportedAt: expect.any(String) });
      expect(first.cpuRatio).toBeGreaterThan(0);
      // Each access point's clients of its first connection, then one more, with its SSID and signal.
      const joined = fleet.aps.join('AP-T1', { mac: '02:aa:bb:cc:dd:01', ip: '10.100.0.9', ssid: 'SmartCity-Free', signal: -58 });
      const row = await waitFor(async () => (await online({ client: '02:aa:bb:cc' })).list[0], 10_000);
      expect(row).toMatchObject({
        apId: apIds[0],
        apSN: 'AP-T1',
        clientMac: joined.mac,
        clientIp: '10.100.0.9',
        clientSsid: 'SmartCity-Free',
        signalStrength: -58,
      });
      expect((await online({ apId: apIds[0], clientSsid: 'SmartCity-Free' })).list.map((c) => c.clientMac)).toContain(joined.mac);
      // The access point's client count and ratios come to the socket as they change.
      await waitFor(async () => (seen.some((e) => (e as { family: string }).family === AP_FAMILY.family) ? true : undefined), 10_000);
      const expected = fleet.aps.ap('AP-T1')!.clients.size;
      await waitFor(async () => ((await apPage({ name: 'AP-T1' })).list[0].clientCount === expected ? true : undefined), 10_000);
      // It leaves: the session is in the history with its dates and duration, and no longer online.
      fleet.aps.leave('AP-T1', joined.mac);
      const session = await waitFor(async () => (await history({ client: joined.mac })).list[0], 10_000);
      // Its last signal strength (the simulated client moves about: its signal may have changed since it joined).
      expect(session).toMatchObject({ apId: apIds[0], apSN: 'AP-T1', clientMac: joined.mac, clientSsid: 'SmartCity-Free' });
      expect(session.signalStrength).toBe(joined.signal);
      expect(Date.parse(session.offLineDate)).toBeGreaterThanOrEqual(Date.parse(session.onLineDate));
      expect(session.duration).toBeGreaterThanOrEqual(0);
      expect((await online({ client: joined.mac })).total).toBe(0);
      expect((await history({ acId: acIds[0], clientSsid: 'SmartCity-Free', client: joined.mac })).total).toBe(1);
      expect((await history({ client: joined.mac, minDuration: 3600 })).total).toBe(0);
      const xlsx = await fetch(`${gw.baseUrl}/api/wifi/terminalHistoryExport?${new URLSearchParams({ ...window(), client: joined.mac })}`, {
        headers: { Authorization: `Bearer ${admin.token}` },
      });
      expect(xlsx.status).toBe(200);
      expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
      // An access point that drops off ends every session it had.
      const had = (await online({ apId: apIds[2] })).total;
      await fleet.aps.takeOffline('AP-T3');
      await waitFor(async () => ((await apPage({ name: 'AP-T3' })).list[0].networkStatus === OnlineState.Offline ? true : undefined), 10_000);
      expect((await online({ apId: apIds[2] })).total).toBe(0);
      expect((await history({ apId: apIds[2] })).total).toBe(had);
      // The charts: the access point's load over the last day, and the clients of the controller's access points.
      const load = (await admin.post<WifiLoadPoint[]>('/api/wifi/loadSeries', { kind: 'ap', id: apIds[0] })).body.data;
      expect(load.length).toBeGreaterThanOrEqual(1);
      expect(load[0]).toMatchObject({ at: expect.any(String), cpuRatio: expect.any(Number), clientCount: expect.any(Number) });
      const clients = (await admin.post<WifiClientPoint[]>('/api/wifi/clientSeries', { acId: acIds[0] })).body.data;
      expect(clients[clients.length - 1]).toMatchObject({ at: expect.any(String), clients: expect.any(Number) });
      expect((await admin.post('/api/wifi/loadSeries', { kind: 'ac', id: apIds[0] })).status).toBe(404);
      // A reboot through the ledger: the controller answers, drops off and comes back.
      const reboot = await editor.post<LampControlResult>('/api/wifi/acReboot', { ids: [acIds[1]] });
      expect(reboot.body).toMatchObject({ code: 200 });
      await waitFor(async () => (fleet.acs.stats.commandsApplied >= 1 ? true : undefined), 10_000);
    } finally {
      socket.close();
      await fleet.stop({ clearRetained: true });
      await worker.stop();
    }
  });

  it('deletes an access point with its clients, then a controller without access points', async () => {
    expect((await editor.get(`/api/wifi/apDel?id=${apIds[0]}`)).body).toMatchObject({ code: 200 });
    expect((await gw.db.query(`SELECT 1 FROM wifi_client WHERE ap_id = $1`, [apIds[0]])).length).toBe(0);
    // Its sessions stay in the history, without its name.
    expect((await history({ apId: apIds[0] })).list.every((s) => s.apName === null)).toBe(true);
    await editor.get(`/api/wifi/apDel?id=${apIds[1]}`);
    await editor.get(`/api/wifi/apDel?id=${apIds[2]}`);
    expect((await editor.get(`/api/wifi/acDel?id=${acIds[0]}`)).body).toMatchObject({ code: 200 });
    expect((await editor.get(`/api/wifi/acDel?id=${acIds[0]}`)).status).toBe(404);
  });

  it('adds the demo Wi-Fi once, access points under their region’s controller', async () => {
    expect(await loadDemoLamps(gw.db.url)).toBe('loaded');
    expect(await loadDemoPoles(gw.db.url)).toBe('loaded');
    expect(await loadDemoWifi(gw.db.url)).toBe('loaded');
    expect(await loadDemoWifi(gw.db.url)).toBe('already-loaded');
    const [counts] = await gw.db.query<{ acs: number; aps: number; wrong: number }>(
      `SELECT (SELECT count(*)::int FROM wifi_ac w JOIN device d ON d.id = w.device_id WHERE d.code LIKE 'AC-0%') AS acs,
              (SELECT count(*)::int FROM wifi_ap w JOIN device d ON d.id = w.device_id WHERE d.code LIKE 'AP-0%') AS aps,
              (SELECT count(*)::int FROM wifi_ap w JOIN device d ON d.id = w.device_id JOIN device c ON c.id = w.ac_id
                WHERE d.code LIKE 'AP-0%' AND c.region_id IS DISTINCT FROM d.region_id) AS wrong`,
    );
    expect(counts).toEqual({ acs: DEMO_AC_COUNT, aps: DEMO_AP_COUNT, wrong: 0 });
    expect(AC_FAMILY.table).toBe('wifi_ac');
  });
});
