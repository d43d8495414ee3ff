import { setTimeout as sleep } from 'node:timers/promises';
import { DateTime } from 'luxon';
import pino from 'pino';
import type { Socket } from 'socket.io-client';
import {
  DeviceFamily,
  DispatchStatus,
  TerminalOccupancy,
  TerminalStatus,
  type ClientToServerEvents,
  type DeviceStateChangedEvent,
  type DispatchDetail,
  type LampControlResult,
  type PageResult,
  type ServerToClientEvents,
  type TerminalHistory,
  type TerminalRow,
} from '@sc/contracts';
import type { DeviceWorker } from '@sc/device-runtime';
import { waitFor, type ApiClient } from '@sc/testing';
import { startBroadcastFleet, type BroadcastFleet } from '../../device-sim/src/families/broadcast.sim';
import { MQTT_URL, startTestBroadcastWorker } from './broadcast-worker';
import { watchFamily } from './device-worker';
import { startTestGateway, type TestGateway } from './harness';

const CODES = ['BCT-1', 'BCT-2', 'BCT-3'];

/** Gateway, broadcast worker and simulated terminals on the real PostgreSQL, Redis and broker. */
describe('broadcast terminals end to end: records, live occupancy, volumes through the ledger', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let worker: DeviceWorker;
  let fleet: BroadcastFleet;
  let socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  const ids: number[] = [];
  let region: number;

  const page = async (filters: Record<string, unknown> = {}, client = admin) =>
    (await client.post<PageResult<TerminalRow>>('/api/broadcast/terminalPage', { pageNum: 1, pageSize: 50, ...filters })).body.data;
  const snapshot = async () => ({
    terminals: await gw.db.query(`SELECT * FROM broadcast_terminal ORDER BY device_id`),
    devices: await gw.db.query(`SELECT id, code, name FROM device WHERE type = 3 ORDER BY id`),
    dispatches: (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM dispatch`))[0].n,
  });

  beforeAll(async () => {
    gw = await startTestGateway();
    admin = await gw.signedIn('admin');
    [{ id: region }] = await gw.db.query<{ id: number }>(`SELECT id FROM region WHERE region_name = 'Lianhua Subdistrict'`);
    const [{ id: pole }] = await gw.db.query<{ id: number }>(`INSERT INTO device (type, code, name) VALUES (0, 'POLE-BC', 'Pole BC') RETURNING id`);
    for (const [i, code] of CODES.entries()) {
      const answer = await admin.post<{ id: number }>('/api/broadcast/terminalAddOrEdit', {
        terminalName: `Square terminal ${i + 1}`,
        terminalId: code,
        terminalIP: `10.20.1.${11 + i}`,
        callCode: `800${i + 1}`,
        isDefault: i === 0,
        regionId: region,
        poleId: i === 0 ? pole : null,
      });
      expect(answer.body).toMatchObject({ code: 200 });
      ids.push(answer.body.data.id);
    }
    worker = await startTestBroadcastWorker(gw, 'broadcast', { ackTimeoutMs: 500 });
    fleet = await startBroadcastFleet({ mqttUrl: MQTT_URL, terminals: CODES, ackLatencyMs: { min: 5, max: 20 }, logger: pino({ level: 'silent' }) });
    socket = await watchFamily(gw, admin.token, DeviceFamily.Broadcast);
  });
  afterAll(async () => {
    socket?.close();
    await fleet?.stop({ clearRetained: true });
    await worker?.stop();
    await gw?.close();
  });

  it('lists the added terminals with every field, online once the simulated terminals report', async () => {
    await waitFor(async () => ((await page()).list.every((t) => t.status === TerminalStatus.Online) ? true : undefined), 10_000);
    const { list, total } = await page();
    expect(total).toBe(3);
    expect(list[0]).toMatchObject({
      terminalName: 'Square terminal 1',
      terminalId: 'BCT-1',
      terminalIP: '10.20.1.11',
      callCode: '8001',
      isDefault: true,
      broadcastVolume: 50,
      interphoneVolume: 50,
      priority: 5,
      regionId: region,
      regionName: 'Lianhua Subdistrict',
      poleCode: 'POLE-BC',
      networkStatus: 1,
      occupancy: TerminalOccupancy.Idle,
      playing: null,
      status: TerminalStatus.Online,
      softwareVersion: '2.4.0',
    });
    expect((await page({ terminalName: 'bct-2' })).list.map((t) => t.terminalId)).toEqual(['BCT-2']);
    expect((await page({ status: TerminalStatus.Occupied })).total).toBe(0);
    // A visitor sees the list and a terminal's detail too.
    const visitor = await gw.signedIn('visitor');
    expect((await page({}, visitor)).total).toBe(3);
    expect((await visitor.get<TerminalRow>(`/api/broadcast/terminalDetail?id=${ids[1]}`)).body.data).toMatchObject({ terminalId: 'BCT-2' });
  });

  it('pushes a terminal turning occupied to a watching socket within a second, and back to idle', async () => {
    const seen: DeviceStateChangedEvent[] = [];
    socket.on('DeviceStateChanged', (event) => seen.push(event));
    const started = Date.now();
    await fleet.occupy('BCT-2', { occupancy: TerminalOccupancy.Intercom, title: 'Call 8003' });
    const change = await waitFor(
      // The change that says what it carries: a heartbeat of the same terminal (its report time only) may come first.
      () =>
        seen.flatMap((e) => (e.family === DeviceFamily.Broadcast ? e.changes : [])).find((c) => c.deviceCode === 'BCT-2' && 'occupancy' in c.changed),
      1000,
      10,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(change.changed).toMatchObject({ occupancy: TerminalOccupancy.Intercom, status: TerminalStatus.Occupied, playing: { title: 'Call 8003' } });
    expect((await page({ status: TerminalStatus.Occupied })).list.map((t) => t.terminalId)).toEqual(['BCT-2']);
    await fleet.release('BCT-2');
    await waitFor(async () => ((await page({ status: TerminalStatus.Occupied })).total === 0 ? true : undefined), 2000);
    socket.off('DeviceStateChanged');
  });

  it("keeps each terminal's day: what it played or carried, and how busy it was hour by hour on its own clock", async () => {
    const visitor = await gw.signedIn('visitor');
    await fleet.occupy('BCT-3', { occupancy: TerminalOccupancy.Task, title: 'Noon chime', taskId: 'T-9' });
    await waitFor(async () => ((await page({ status: TerminalStatus.Occupied })).total === 1 ? true : undefined), 2000);
    const open = (await visitor.get<TerminalHistory>(`/api/broadcast/terminalHistory?id=${ids[2]}`)).body.data;
    expect(open.plays).toEqual([expect.objectContaining({ occupancy: TerminalOccupancy.Task, title: 'Noon chime', taskId: 'T-9', endedAt: null })]);
    await sleep(1200);
    await fleet.release('BCT-3');
    const history = await waitFor(async () => {
      const h = (await visitor.get<TerminalHistory>(`/api/broadcast/terminalHistory?id=${ids[2]}`)).body.data;
      return h.plays[0]?.endedAt ? h : undefined;
    }, 2000);
    // The demo region has no zone of its own: the installation's clock.
    expect(history.timeZone).toBe(gw.config.defaultPlace.timeZone);
    expect(history.date).toBe(DateTime.now().setZone(history.timeZone).toISODate());
    expect(history.busySeconds).toHaveLength(24);
    const busy = history.busySeconds.reduce((a, b) => a + b, 0);
    // The hours add up to the play's own span (each hour rounded to a second), however long the loaded machine took to report it.
    const span = (Date.parse(history.plays[0].endedAt as string) - Date.parse(history.plays[0].startedAt)) / 1000;
    expect(span).toBeGreaterThanOrEqual(1);
    expect(Math.abs(busy - span)).toBeLessThanOrEqual(1);
    // The call the previous test carried on BCT-2 is in its day, ended.
    const other = (await visitor.get<TerminalHistory>(`/api/broadcast/terminalHistory?id=${ids[1]}`)).body.data;
    expect(other.plays).toEqual([
      expect.objectContaining({ occupancy: TerminalOccupancy.Intercom, title: 'Call 8003', endedAt: expect.any(String) }),
    ]);
    // Another day is empty; a bad day or an unknown terminal is refused.
    expect((await visitor.get<TerminalHistory>(`/api/broadcast/terminalHistory?id=${ids[2]}&date=2020-01-01`)).body.data).toMatchObject({
      plays: [],
      date: '2020-01-01',
    });
    expect((await visitor.get(`/api/broadcast/terminalHistory?id=${ids[2]}&date=yesterday`)).status).toBe(400);
    expect((await visitor.get(`/api/broadcast/terminalHistory?id=999999`)).status).toBe(404);
  });

  it('sets a volume on every terminal through the ledger: the dispatch ends all successful and the volumes are stored', async () => {
    const editor = await gw.signedIn('editor');
    const answer = await editor.post<LampControlResult>('/api/broadcast/terminalVolume', { ids, broadcastVolume: 30 });
    expect(answer.body).toMatchObject({ code: 200 });
    const detail = await waitFor(async () => {
      const d = (await editor.get<DispatchDetail>(`/api/dispatch/detail?id=${answer.body.data.dispatchId}`)).body.data;
      return d.status === DispatchStatus.AllSuccessful ? d : undefined;
    }, 10_000);
    expect(detail).toMatchObject({ family: DeviceFamily.Broadcast, action: 'volume', total: 3, counts: { delivered: 3 } });
    for (const code of CODES) expect(fleet.terminal(code)).toMatchObject({ broadcastVolume: 30, interphoneVolume: 50 });
    await waitFor(async () => ((await page()).list.every((t) => t.broadcastVolume === 30) ? true : undefined), 3000);
    // A visitor may follow the list but not send it commands.
    const visitor = await gw.signedIn('visitor');
    expect((await visitor.post('/api/broadcast/terminalVolume', { ids, broadcastVolume: 10 })).status).toBe(403);
  });

  it('refuses bad input with translated messages under the fields, changing nothing', async () => {
    const before = await snapshot();
    const zh = admin.as(admin.token, 'zh-CN');
    const volume = await zh.post('/api/broadcast/terminalVolume', { ids, broadcastVolume: 101 });
    expect(volume.status).toBe(400);
    expect(volume.body).toMatchObject({
      data: { errors: [{ field: 'broadcastVolume', reason: '必须在 0 到 100 之间' }] },
      message: '广播音量：必须在 0 到 100 之间',
    });
    const none = await admin.post('/api/broadcast/terminalVolume', { ids });
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain('The volume cannot be empty');
    const empty = await zh.post('/api/broadcast/terminalVolume', { broadcastVolume: 20 });
    expect(empty.body).toMatchObject({ code: 400, message: '请选择终端、区域或分组' });
    const ip = await zh.post('/api/broadcast/terminalAddOrEdit', { terminalName: 'Bad', terminalId: 'BCT-9', terminalIP: '300.1.1.1' });
    expect(ip.status).toBe(400);
    expect(JSON.stringify(ip.body)).toContain('请输入IPv4地址');
    const taken = await admin.post('/api/broadcast/terminalAddOrEdit', { terminalName: 'Again', terminalId: 'BCT-1', terminalIP: '10.0.0.1' });
    expect(taken.body).toMatchObject({
      code: 409,
      data: { errors: [{ field: 'terminalId', reason: 'A terminal with the terminal ID "BCT-1" already exists' }] },
    });
    const unknown = await admin.post('/api/broadcast/terminalVolume', { ids: [999_999], interphoneVolume: 20 });
    expect(unknown.status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});
