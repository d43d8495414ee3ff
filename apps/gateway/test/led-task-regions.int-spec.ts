import pino from 'pino';
import sharp from 'sharp';
import { DateTime } from 'luxon';
import {
  DispatchItemState,
  DispatchStatus,
  LedPlayMode,
  LedReceiveStatus,
  MqttService,
  type DispatchDetail,
  type LampControlResult,
  type LedMediaRow,
  type LedTaskDetail,
  type LedTaskRequest,
  type LedTaskRow,
  type LedTaskScreensPage,
  type PageResult,
} from '@sc/contracts';
import { ApiClient, waitFor } from '@sc/testing';
import type { DeviceWorker } from '@sc/device-runtime';
import { startLedFleet, type LedFleet } from '../../device-sim/src/families/led.sim';
import { LED_FAMILIES } from '../../worker-led/src/led-worker';
import { startTestGateway, type TestGateway } from './harness';
import { MQTT_URL, startTestWorker } from './device-worker';

/** More screens than the console's first page of 200: a task aimed at their region reaches every one. */
const IN_DISTRICT = 230;
const IN_CITY = 20;
const FROM = DateTime.now().minus({ days: 1 }).toISODate() as string;
const TO = DateTime.now().plus({ days: 30 }).toISODate() as string;

/**
 * LED tasks aimed at regions on the real PostgreSQL, Redis and MQTT: a task aimed at a city reaches every screen of the
 * city and of its districts (more than 200) through the ledger, with simulated screens fetching the file; an unknown
 * region, a region without screens and no target at all are refused with the catalogue's messages, saving nothing.
 */
describe('LED tasks aimed at regions', () => {
  let gw: TestGateway;
  let editor: ApiClient;
  let visitor: ApiClient;
  let worker: DeviceWorker;
  let fleet: LedFleet;
  let city: number;
  let district: number;
  let elsewhere: number;
  let emptyRegion: number;
  let picture: LedMediaRow;
  let loose: number;
  const codes: string[] = [];

  const region = async (name: string, parentId: number | null) =>
    (await gw.db.query<{ id: number }>(`INSERT INTO region (region_name, parent_id) VALUES ($1, $2) RETURNING id`, [name, parentId]))[0].id;
  /** `count` screens in a region (registry row and screen row, as an import leaves them), codes `prefix`0001…. */
  const screensIn = async (regionId: number, prefix: string, count: number) => {
    const rows = await gw.db.query<{ id: number; code: string }>(
      `WITH d AS (INSERT INTO device (type, code, name, region_id)
                  SELECT 4, $1 || lpad(g::text, 4, '0'), 'Region screen ' || $1 || g, $3 FROM generate_series(1, $2::int) g RETURNING id, code)
       , s AS (INSERT INTO led_screen (device_id, ip_address, width, height, time_zone)
               SELECT id, '10.40.' || (id / 256 % 256) || '.' || (id % 256), 640, 320, 'Asia/Shanghai' FROM d)
       SELECT id, code FROM d ORDER BY id`,
      [prefix, count, regionId],
    );
    return rows;
  };
  const task = (over: Partial<LedTaskRequest> = {}): LedTaskRequest => ({
    name: 'City programme',
    mediaIds: [picture.id],
    playMode: LedPlayMode.Synchronous,
    timePeriods: [{ start: '00:00', end: '00:00' }],
    taskPeriods: [{ startDate: FROM, endDate: TO }],
    screenIds: [],
    ...over,
  });
  const tasks = async () => (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM led_task`))[0].n;
  const row = async (id: number) =>
    (await editor.post<PageResult<LedTaskRow>>('/api/led/taskPage', { pageNum: 1, pageSize: 50 })).body.data.list.find((t) => t.id === id)!;

  beforeAll(async () => {
    gw = await startTestGateway();
    gw.config.media.linkBaseUrl = gw.baseUrl;
    [editor, visitor] = await Promise.all([gw.signedIn('editor'), gw.signedIn('visitor')]);
    city = await region('LED city', null);
    district = await region('LED district', city);
    elsewhere = await region('LED elsewhere', null);
    emptyRegion = await region('LED nobody', null);
    const made = [
      ...(await screensIn(district, 'LRD-', IN_DISTRICT)),
      ...(await screensIn(city, 'LRC-', IN_CITY)),
      ...(await screensIn(elsewhere, 'LRE-', 1)),
    ];
    codes.push(...made.map((m) => m.code));
    loose = made[made.length - 1].id;
    const png = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#0a7f3f' } })
      .png()
      .toBuffer();
    const body = new FormData();
    body.append('file', new Blob([png]), 'city.png');
    picture = (await new ApiClient(gw.uploadUrl).as(editor.token).post<LedMediaRow>('/api/led/mediaUpload', body)).body.data;
    worker = await startTestWorker(gw, { name: 'led', families: LED_FAMILIES, service: MqttService.WorkerLed }, 'led-regions');
    fleet = await startLedFleet({
      mqttUrl: MQTT_URL,
      screens: codes,
      ackLatencyMs: { min: 5, max: 20 },
      downloadConcurrency: 20,
      logger: pino({ level: 'silent' }),
    });
    await waitFor(async () => {
      const [{ n }] = await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM led_screen WHERE network_status = 1`);
      return n >= codes.length ? true : undefined;
    }, 30_000);
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop({ clearRetained: true });
    await worker?.stop();
    await gw?.close();
  });

  it('refuses an unknown region, a region without screens and no target, with the catalogue messages, saving nothing', async () => {
    const unknown = await editor.post('/api/led/taskAddOrEdit', task({ regionIds: [city, 99_999_999] }));
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('The selected region does not exist');
    const zh = await new ApiClient(gw.baseUrl, 'zh-CN').as(editor.token).post('/api/led/taskAddOrEdit', task({ regionIds: [99_999_999] }));
    expect(JSON.stringify(zh.body)).toContain('所选区域不存在');
    const bare = await editor.post('/api/led/taskAddOrEdit', task({ regionIds: [city, emptyRegion] }));
    expect(bare.status).toBe(400);
    expect(JSON.stringify(bare.body)).toContain('There are no LED screens in the selected region');
    const none = await editor.post('/api/led/taskAddOrEdit', task({ regionIds: [] }));
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain('Please select LED screens or a region');
    for (const regionIds of [['abc'], [0], [1.5], 'x']) {
      const bad = await editor.post('/api/led/taskAddOrEdit', task({ regionIds: regionIds as number[] }));
      expect(bad.status).toBe(400);
    }
    // Like the other task routes: visitors may not save one.
    expect((await visitor.post('/api/led/taskAddOrEdit', task({ regionIds: [city] }))).status).toBe(403);
    expect(await tasks()).toBe(0);
  });

  it(`publishes a task aimed at a city to all ${IN_DISTRICT + IN_CITY} of its screens (its district's too), each once, through the ledger`, async () => {
    const saved = await editor.post<{ id: number }>('/api/led/taskAddOrEdit', task({ regionIds: [city, district], screenIds: [loose] }));
    expect(saved.status).toBe(200);
    const id = saved.body.data.id;
    const reach = IN_DISTRICT + IN_CITY + 1;
    expect(await row(id)).toMatchObject({ regionIds: [city, district].sort((a, b) => a - b), screenIds: [loose], screenCount: reach });
    const detail = (await editor.get<LedTaskDetail>(`/api/led/taskDetail?id=${id}`)).body.data;
    expect(detail.screens).toEqual([{ id: loose, name: 'Region screen LRE-1', sn: 'LRE-0001' }]);

    const published = await editor.post<LampControlResult>('/api/led/taskPublish', { id });
    expect(published.status).toBe(200);
    const dispatchId = published.body.data.dispatchId;
    const done = await waitFor(async () => {
      const d = (await editor.get<DispatchDetail>(`/api/dispatch/detail?id=${dispatchId}`)).body.data;
      return d.status === DispatchStatus.AllSuccessful ? d : undefined;
    }, 60_000);
    expect(done.counts.delivered).toBe(reach);
    // The screens come a page at a time, with the total and the receive totals over all of them.
    const pageOf = async (pageNum: number) =>
      (await editor.post<LedTaskScreensPage>('/api/led/taskScreens', { id, pageNum, pageSize: 50 })).body.data;
    const first = await pageOf(1);
    expect(first.list).toHaveLength(50);
    expect(first.total).toBe(reach);
    expect(first.dispatchId).toBe(dispatchId);
    expect(first.receiveCounts[LedReceiveStatus.Received] + first.receiveCounts[LedReceiveStatus.Playing]).toBe(reach);
    expect(first.receiveCounts[LedReceiveStatus.ToBeSent] + first.receiveCounts[LedReceiveStatus.Failed]).toBe(0);
    const rows = [first.list];
    for (let pageNum = 2; pageNum <= Math.ceil(reach / 50); pageNum++) rows.push((await pageOf(pageNum)).list);
    expect(rows.at(-1)).toHaveLength(reach % 50 || 50);
    const all = rows.flat();
    expect(all.map((r) => r.deviceId)).toEqual([...all.map((r) => r.deviceId)].sort((a, b) => a - b));
    expect(new Set(all.map((r) => r.sn))).toEqual(new Set(codes));
    expect(all).toHaveLength(reach);
    expect(all.every((r) => r.state === DispatchItemState.Delivered)).toBe(true);
    expect((await pageOf(Math.ceil(reach / 50) + 1)).list).toEqual([]);
    expect((await editor.post('/api/led/taskScreens', { id, pageNum: 1, pageSize: 201 })).status).toBe(400);
    expect((await visitor.post('/api/led/taskScreens', { id, pageNum: 1, pageSize: 50 })).status).toBe(403);
    expect(codes.every((code) => fleet.screen(code)!.applied >= 1)).toBe(true);

    // A screen added to the district later is the task's at once (and gets it when it is published again).
    await screensIn(district, 'LRN-', 1);
    expect((await row(id)).screenCount).toBe(reach + 1);
    expect((await editor.post('/api/led/taskDel', { id })).status).toBe(200);
  }, 120_000);
});
