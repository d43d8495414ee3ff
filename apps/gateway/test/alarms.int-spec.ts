import { io, type Socket } from 'socket.io-client';
import {
  AlarmKind,
  AlarmState,
  FaultCode,
  SOCKET_PATH,
  type AlarmActionResult,
  DeviceFamily,
  type AlarmChangedEvent,
  type AlarmRow,
  type AlarmSummary,
  type ClientToServerEvents,
  type PageResult,
  type ServerToClientEvents,
} from '@sc/contracts';
import { waitFor, type ApiClient } from '@sc/testing';
import { BusForwarder } from '../src/realtime/bus-forwarder';
import { startTestGateway, type TestGateway } from './harness';

describe('lamp alarms: page, filters, acknowledge and clear', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  const region: Record<string, number> = {};
  const lamp: Record<string, number> = {};
  const alarm: Record<string, number> = {};

  const addLamp = async (lampName: string, clientId: string, regionId: number | null) => {
    const answer = await admin.post<{ id: number }>('/api/light/lampAddOrEdit', { lampName, clientId, regionId });
    expect(answer.body).toMatchObject({ code: 200 });
    return answer.body.data.id;
  };
  const raise = async (deviceId: number, kind: AlarmKind, code: number, raisedAt: string) => {
    const [row] = await gw.db.query<{ id: number }>(
      `INSERT INTO device_alarm (device_id, family, kind, code, raised_at) VALUES ($1, 'lamp', $2, $3, $4) RETURNING id`,
      [deviceId, kind, code, raisedAt],
    );
    return row.id;
  };
  const page = async (filters: Record<string, unknown>, client = admin) =>
    client.post<PageResult<AlarmRow>>('/api/light/alarmPage', { pageNum: 1, pageSize: 50, ...filters });
  const ids = async (filters: Record<string, unknown>) => {
    const answer = await page(filters);
    expect(answer.body.code).toBe(200);
    return answer.body.data.list.map((row) => row.id).sort((a, b) => a - b);
  };
  const states = async () =>
    Object.fromEntries(
      (await gw.db.query<{ id: number; state: string }>(`SELECT id, state FROM device_alarm ORDER BY id`)).map((r) => [r.id, r.state]),
    );

  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.app.get(BusForwarder).ready;
    admin = await gw.signedIn('admin');
    for (const row of await gw.db.query<{ id: number; region_name: string }>(`SELECT id, region_name FROM region`)) region[row.region_name] = row.id;
    lamp.futian = await addLamp('Huaqiang North 1', 'AL-0001', region['Huaqiangbei Subdistrict']);
    lamp.nanshan = await addLamp('Keyuan Road 1', 'AL-0002', region['Yuehai Subdistrict']);
    lamp.spare = await addLamp('Depot spare', 'AL-0003', null);
    alarm.voltage = await raise(lamp.futian, AlarmKind.Fault, FaultCode.VoltageLow, '2026-11-20T10:00:00Z');
    alarm.temperature = await raise(lamp.nanshan, AlarmKind.Fault, FaultCode.TemperatureHigh, '2026-11-20T11:00:00Z');
    alarm.dayBurning = await raise(lamp.nanshan, AlarmKind.DayBurning, 0, '2026-11-20T12:00:00Z');
    alarm.dark = await raise(lamp.spare, AlarmKind.DarkLamp, 0, '2026-11-21T01:00:00Z');
  });
  afterAll(() => gw.close());

  it('pages alarms newest first with the device, its region and the spec fault code', async () => {
    const answer = await page({});
    expect(answer.body.data.total).toBe(4);
    expect(answer.body.data.list.map((r) => r.id)).toEqual([alarm.dark, alarm.dayBurning, alarm.temperature, alarm.voltage]);
    expect(answer.body.data.list[3]).toMatchObject({
      deviceId: lamp.futian,
      deviceCode: 'AL-0001',
      deviceName: 'Huaqiang North 1',
      regionName: 'Huaqiangbei Subdistrict',
      kind: 'fault',
      code: FaultCode.VoltageLow,
      state: 'active',
      raisedAt: '2026-11-20T10:00:00.000Z',
      acknowledgedAt: null,
      clearedBy: null,
    });
  });

  it('filters by region and its sub-regions, kind, code, state, device, keyword and time raised', async () => {
    expect(await ids({ regionId: region['Shenzhen'] })).toEqual([alarm.voltage, alarm.temperature, alarm.dayBurning]);
    expect(await ids({ regionId: region['Nanshan District'] })).toEqual([alarm.temperature, alarm.dayBurning]);
    expect(await ids({ regionId: region['Hangzhou'] })).toEqual([]);
    expect(await ids({ kind: AlarmKind.Fault })).toEqual([alarm.voltage, alarm.temperature]);
    expect(await ids({ code: FaultCode.TemperatureHigh })).toEqual([alarm.temperature]);
    expect(await ids({ kind: AlarmKind.DarkLamp })).toEqual([alarm.dark]);
    expect(await ids({ deviceId: lamp.nanshan })).toEqual([alarm.temperature, alarm.dayBurning]);
    expect(await ids({ keyword: 'al-0003' })).toEqual([alarm.dark]);
    expect(await ids({ keyword: 'keyuan' })).toEqual([alarm.temperature, alarm.dayBurning]);
    expect(await ids({ raisedFrom: '2026-11-20T10:30:00Z', raisedTo: '2026-11-20T12:00:00Z' })).toEqual([alarm.temperature]);
    expect(await ids({ state: AlarmState.Active })).toHaveLength(4);
  });

  it('refuses bad filters with the translated message and the field', async () => {
    const order = await page({ raisedFrom: '2026-11-21T00:00:00Z', raisedTo: '2026-11-20T00:00:00Z' });
    expect(order.status).toBe(400);
    expect(order.body.message).toBe('Raised to: Order Wrong');
    const mixed = await page({ kind: AlarmKind.DayBurning, code: FaultCode.VoltageLow });
    expect(mixed.status).toBe(400);
    expect(mixed.body.message).toBe('Code: A fault code applies to fault alarms only');
    const zh = await page({ code: 9 }, admin.as(admin.token, 'zh-CN'));
    expect(zh.status).toBe(400);
    expect(zh.body.message).toMatch(/\p{Script=Han}/u);
    expect((await page({ state: 'gone' })).status).toBe(400);
    // Dates the database cannot take (no year 0; a signed ISO year reads as a time zone) are field errors, not a 500.
    const before = await gw.db.query(`SELECT id, state FROM device_alarm ORDER BY id`);
    for (const [filters, message] of [
      [{ raisedFrom: '0000-01-01' }, 'Raised from: Must be a date and time'],
      [{ raisedTo: '0000-01-01T00:00:00Z' }, 'Raised to: Must be a date and time'],
      [{ raisedFrom: '+2026-11-20' }, 'Raised from: Use a date from 1970-01-01 to 9998-12-31'],
      [{ raisedFrom: '2026-11-20', raisedTo: '+9999-12-31' }, 'Raised to: Use a date from 1970-01-01 to 9998-12-31'],
      [{ raisedFrom: '1969-12-31T00:00:00Z' }, 'Raised from: Use a date from 1970-01-01 to 9998-12-31'],
    ] as const) {
      const answer = await page(filters);
      expect({ filters, status: answer.status, message: answer.body.message }).toEqual({ filters, status: 400, message });
    }
    expect((await page({ raisedFrom: '+2026-11-20' }, admin.as(admin.token, 'zh-CN'))).body.message).toBe(
      '告警开始时间：请输入 1970-01-01 至 9998-12-31 之间的日期',
    );
    expect(await gw.db.query(`SELECT id, state FROM device_alarm ORDER BY id`)).toEqual(before);
  });

  it('acknowledges active alarms (who, when) and pushes the change to administrators live', async () => {
    const { token } = admin;
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(gw.baseUrl, {
      path: SOCKET_PATH,
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const seen: AlarmChangedEvent[] = [];
    socket.on('AlarmChanged', (event) => seen.push(event));
    // The alarm page watches the lamps' alarms.
    await new Promise<void>((resolve) => socket.emit('watch', [{ event: 'AlarmChanged', family: DeviceFamily.Lamp }], () => resolve()));
    try {
      const answer = await admin.post<AlarmActionResult>('/api/light/alarmAcknowledge', { ids: [alarm.voltage, alarm.temperature] });
      expect(answer.body).toMatchObject({ code: 200, data: { changed: 2 } });
      const [row] = await gw.db.query<{ state: string; acknowledged_by: string; acknowledged_at: Date }>(
        `SELECT state, acknowledged_by, acknowledged_at FROM device_alarm WHERE id = $1`,
        [alarm.voltage],
      );
      expect(row).toMatchObject({ state: 'acknowledged', acknowledged_by: 'admin' });
      expect(row.acknowledged_at).toBeInstanceOf(Date);
      await waitFor(() => (seen.length >= 2 ? true : undefined));
      expect(seen.map((e) => [e.change, e.alarm.id, e.alarm.state]).sort()).toEqual(
        [
          ['acknowledged', alarm.voltage, 'acknowledged'],
          ['acknowledged', alarm.temperature, 'acknowledged'],
        ].sort(),
      );
      // Acknowledging again changes nothing and is no error.
      expect((await admin.post<AlarmActionResult>('/api/light/alarmAcknowledge', { ids: [alarm.voltage] })).body.data).toEqual({ changed: 0 });
      const summary = (await admin.get<AlarmSummary>('/api/light/alarmSummary')).body.data;
      expect(summary).toEqual({
        active: 2,
        acknowledged: 2,
        byKind: { fault: 2, dayBurning: 1, darkLamp: 1, offline: 0, overload: 0 },
        byCode: { [FaultCode.VoltageLow]: 1, [FaultCode.TemperatureHigh]: 1 },
      });
    } finally {
      socket.close();
    }
  });

  it('clears open alarms by the operator; the history keeps them and the open list drops them', async () => {
    const answer = await admin.post<AlarmActionResult>('/api/light/alarmClear', { ids: [alarm.voltage, alarm.dark] });
    expect(answer.body.data).toEqual({ changed: 2 });
    const [row] = await gw.db.query<{ state: string; cleared_by: string }>(`SELECT state, cleared_by FROM device_alarm WHERE id = $1`, [alarm.dark]);
    expect(row).toEqual({ state: 'cleared', cleared_by: 'admin' });
    expect(await ids({ open: true })).toEqual([alarm.temperature, alarm.dayBurning]);
    expect(await ids({ state: AlarmState.Cleared })).toEqual([alarm.voltage, alarm.dark]);
    // Clearing only cleared alarms is refused; acknowledging one is too.
    const again = await admin.post('/api/light/alarmClear', { ids: [alarm.voltage, alarm.dark] });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('The selected alarms are already cleared');
    expect((await admin.post('/api/light/alarmAcknowledge', { ids: [alarm.dark] })).status).toBe(400);
  });

  it('refuses empty, unknown and malformed selections, and changes nothing', async () => {
    const before = await states();
    const empty = await admin.post('/api/light/alarmAcknowledge', { ids: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/Please select a list item/);
    const unknown = await admin.post('/api/light/alarmClear', { ids: [alarm.temperature, 999_999] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/These alarms do not exist: 999999/);
    expect((await admin.post('/api/light/alarmClear', { ids: ['x'] })).status).toBe(400);
    expect((await admin.post('/api/light/alarmClear', {})).status).toBe(400);
    expect(await states()).toEqual(before);
  });

  it('is for administrators only: editors and visitors are refused and change nothing', async () => {
    const before = await states();
    for (const username of ['editor', 'visitor'] as const) {
      const client = await gw.signedIn(username);
      expect((await page({}, client)).status).toBe(403);
      expect((await client.get('/api/light/alarmSummary')).status).toBe(403);
      const ack = await client.post('/api/light/alarmAcknowledge', { ids: [alarm.temperature] });
      expect(ack.status).toBe(403);
      expect(ack.body.code).toBe(403);
      expect((await client.post('/api/light/alarmClear', { ids: [alarm.temperature] })).status).toBe(403);
    }
    expect((await gw.client().post('/api/light/alarmPage', { pageNum: 1, pageSize: 10 })).status).toBe(401);
    expect(await states()).toEqual(before);
  });

  it('records acknowledge and clear in the operation log', async () => {
    const rows = await gw.db.query<{ description: string }>(`SELECT description FROM operation_log WHERE description LIKE '%alarms' ORDER BY id`);
    expect(rows.map((r) => r.description)).toEqual(expect.arrayContaining(['Acknowledge alarms', 'Clear alarms']));
  });
});
