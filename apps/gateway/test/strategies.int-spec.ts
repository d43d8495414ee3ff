import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import pino from 'pino';
import {
  DeviceFamily,
  MqttChannel,
  MqttService,
  mqttTopics,
  StrategyMode,
  type DispatchDetail,
  type LampSchedule,
  type LampScheduleView,
  type PageResult,
  type ScheduleMismatches,
  type StrategyRow,
} from '@sc/contracts';
import { serviceMqttLogin } from '@sc/messaging';
import { waitFor, type ApiClient, testMqttLogin } from '@sc/testing';
import { loadWorkerConfig } from '../../worker-lighting/src/config/worker-config';
import type { DeviceWorker } from '@sc/device-runtime';
import { startLightingWorker } from '../../worker-lighting/src/lighting-worker';
import { startTestGateway, type TestGateway } from './harness';

const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** A period from noon to noon: the lamp should be at this level at any time, whatever the test's clock says. */
const ALL_NIGHT_AND_DAY = (level: number) => [{ start: '12:00', end: '12:00', level }];

describe('lighting strategies', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let adminZh: ApiClient;
  const region: Record<string, number> = {};
  const lamp: Record<string, number> = {};
  const strategy: Record<string, number> = {};

  const snapshot = async () => ({
    strategies: await gw.db.query(`SELECT id, name, mode, mode_data, periods FROM strategy ORDER BY id`),
    lamps: await gw.db.query(`SELECT device_id, strategy_id, job_list FROM lamp ORDER BY device_id`),
    dispatches: (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM dispatch`))[0].n,
  });
  const save = (body: Record<string, unknown>, client = admin) => client.post<{ id: number }>('/api/light/strategyAddOrEdit', body);
  const addLamp = async (body: Record<string, unknown>) => {
    const answer = await admin.post<{ id: number }>('/api/light/lampAddOrEdit', body);
    expect(answer.body).toMatchObject({ code: 200 });
    return answer.body.data.id;
  };

  beforeAll(async () => {
    gw = await startTestGateway();
    admin = await gw.signedIn('admin');
    adminZh = admin.as(admin.token, 'zh-CN');
    for (const row of await gw.db.query<{ id: number; region_name: string }>(`SELECT id, region_name FROM region`)) region[row.region_name] = row.id;
    // The district has a position and a zone; its subdistrict inherits them; Nanshan's lamps fall back to the default.
    await gw.db.query(`UPDATE region SET latitude = 22.52, longitude = 114.05, time_zone = 'Asia/Hong_Kong' WHERE id = $1`, [
      region['Futian District'],
    ]);
    lamp.own = await addLamp({
      lampName: 'Own position',
      clientId: 'ST-0001',
      regionId: region['Huaqiangbei Subdistrict'],
      latitude: 22.55,
      longitude: 114.09,
    });
    lamp.region = await addLamp({ lampName: 'Region position', clientId: 'ST-0002', regionId: region['Huaqiangbei Subdistrict'] });
    lamp.none = await addLamp({ lampName: 'No position', clientId: 'ST-0003', regionId: null });
  });
  afterAll(async () => {
    await gw?.close();
  });

  describe('saving', () => {
    it('adds a strategy of each mode and lists them with their mode data and periods', async () => {
      const bodies = {
        sun: { name: 'Dusk to dawn', mode: StrategyMode.SunriseSunset, modeData: { sunsetOffset: 10, sunriseOffset: -10, level: 100 }, periods: [] },
        date: {
          name: 'Festival',
          mode: StrategyMode.Date,
          modeData: { startDate: '2026-12-24', endDate: '2026-12-26' },
          periods: [{ start: '18:00', end: '06:00', level: 100 }],
        },
        week: { name: 'Always sixty', mode: StrategyMode.Week, modeData: { weekdays: [] }, periods: ALL_NIGHT_AND_DAY(60) },
        sensing: {
          name: 'Park paths',
          mode: StrategyMode.Sensing,
          modeData: { radarCodes: ['RADAR-1'], brightness: 100, holdSeconds: 30 },
          periods: [{ start: '19:00', end: '23:00', level: 20 }],
        },
      };
      for (const [key, body] of Object.entries(bodies)) {
        const answer = await save(body);
        expect({ key, code: answer.body.code }).toEqual({ key, code: 200 });
        strategy[key] = answer.body.data.id;
      }
      const { list, total } = (await admin.post<PageResult<StrategyRow>>('/api/light/strategyPage', { pageNum: 1, pageSize: 20 })).body.data;
      expect(total).toBe(4);
      expect(list.find((s) => s.id === strategy.week)).toMatchObject({
        name: 'Always sixty',
        family: 'lamp',
        mode: 2,
        modeData: { weekdays: [] },
        periods: [{ start: '12:00', end: '12:00', level: 60 }],
        deviceCount: 0,
      });
      const filtered = (await admin.post<PageResult<StrategyRow>>('/api/light/strategyPage', { pageNum: 1, pageSize: 20, mode: 3 })).body.data;
      expect(filtered.list.map((s) => s.name)).toEqual(['Park paths']);
    });

    it('refuses bad periods and mode data with the catalogue messages, changing nothing', async () => {
      const before = await snapshot();
      const week = (periods: unknown[], modeData: Record<string, unknown> = { weekdays: ['1'] }) => ({ name: 'Bad', mode: 2, modeData, periods });
      const cases: [Record<string, unknown>, string, string][] = [
        [
          week([
            { start: '18:00', end: '23:00', level: 100 },
            { start: '22:00', end: '02:00', level: 40 },
          ]),
          'periods[1].start',
          'Time Repeats',
        ],
        [
          week([
            { start: '22:00', end: '23:00', level: 100 },
            { start: '19:00', end: '20:00', level: 40 },
          ]),
          'periods[1].start',
          'Order Wrong',
        ],
        [week([{ start: '18:00', end: '06:00' }]), 'periods[0].level', 'Brightness cannot be empty'],
        [week([{ start: '', end: '06:00', level: 20 }]), 'periods[0].start', 'The time cannot be empty'],
        [week([]), 'periods', 'The time cannot be empty'],
        [week([{ start: '18:00', end: '06:00', level: 50 }]), 'periods[0].level', 'The brightness must be one of 0, 20, 40, 60, 80, 100'],
        [week([{ start: '18:00', end: '06:00', level: 20 }], { weekdays: ['8'] }), 'modeData.weekdays', 'Invalid value'],
        [
          { name: 'Bad', mode: 1, modeData: { startDate: '2026-12-26', endDate: '2026-12-24' }, periods: ALL_NIGHT_AND_DAY(20) },
          'modeData.endDate',
          'Order Wrong',
        ],
        [{ name: 'Bad', mode: 0, modeData: { sunsetOffset: 0, sunriseOffset: 0 }, periods: [] }, 'modeData.level', 'Brightness cannot be empty'],
        [{ name: '', mode: 2, modeData: {}, periods: ALL_NIGHT_AND_DAY(20) }, 'name', 'The name cannot be empty'],
      ];
      for (const [body, field, reason] of cases) {
        const answer = await save(body);
        expect(answer.status).toBe(400);
        expect((answer.body.data as unknown as { errors: { field: string; reason: string }[] }).errors).toContainEqual(
          expect.objectContaining({ field, reason }),
        );
      }
      const zh = await save(
        week([
          { start: '22:00', end: '23:00', level: 100 },
          { start: '19:00', end: '20:00', level: 40 },
        ]),
        adminZh,
      );
      expect(zh.body.message).toContain('时间顺序错误');
      const taken = await save({ name: 'always SIXTY', mode: 2, modeData: {}, periods: ALL_NIGHT_AND_DAY(20) });
      expect({ status: taken.status, message: taken.body.message }).toEqual({
        status: 409,
        message: 'A strategy named "always SIXTY" already exists',
      });
      expect(await snapshot()).toEqual(before);
    });

    it('edits a strategy in place', async () => {
      const answer = await save({
        id: strategy.sun,
        name: 'Dusk to dawn',
        mode: 0,
        modeData: { sunsetOffset: 0, sunriseOffset: 0, level: 80 },
        periods: [],
      });
      expect(answer.body.code).toBe(200);
      const [row] = await gw.db.query<{ mode_data: unknown }>(`SELECT mode_data FROM strategy WHERE id = $1`, [strategy.sun]);
      expect(row.mode_data).toEqual({ sunsetOffset: 0, sunriseOffset: 0, level: 80 });
      expect((await save({ id: 99999, name: 'Ghost', mode: 2, modeData: {}, periods: ALL_NIGHT_AND_DAY(20) })).status).toBe(404);
    });
  });

  describe('distribution', () => {
    let dispatchId: string;

    it('compiles each lamp’s schedule with its own place and sends it through the ledger', async () => {
      const answer = await admin.post<{ dispatchId: string }>('/api/light/strategyDistribute', {
        id: strategy.week,
        ids: [lamp.own, lamp.region, lamp.none],
      });
      expect(answer.body.code).toBe(200);
      dispatchId = answer.body.data.dispatchId;
      const detail = (await admin.get<DispatchDetail>(`/api/dispatch/detail?id=${dispatchId}`)).body.data;
      expect(detail).toMatchObject({ family: 'lamp', action: 'schedule', params: { strategyId: strategy.week, name: 'Always sixty' }, total: 3 });
      const items = await gw.db.query<{ device_id: number; params: LampSchedule }>(
        `SELECT device_id, params FROM dispatch_item WHERE dispatch_id = $1`,
        [dispatchId],
      );
      const placeOf = (id: number) => items.find((i) => i.device_id === id)?.params.place;
      expect(placeOf(lamp.own)).toEqual({ latitude: 22.55, longitude: 114.09, timeZone: 'Asia/Hong_Kong' });
      expect(placeOf(lamp.region)).toEqual({ latitude: 22.52, longitude: 114.05, timeZone: 'Asia/Hong_Kong' });
      expect(placeOf(lamp.none)).toEqual(gw.config.defaultPlace);
      expect(items[0].params).toMatchObject({
        strategyId: strategy.week,
        rules: { mode: 2, modeData: { weekdays: [] }, periods: ALL_NIGHT_AND_DAY(60) },
      });
      const lamps = await gw.db.query(`SELECT device_id, strategy_id, mode, mode_data, job_list FROM lamp WHERE device_id = $1`, [lamp.own]);
      expect(lamps[0]).toMatchObject({ strategy_id: strategy.week, mode: 2, mode_data: { weekdays: [] }, job_list: { strategyId: strategy.week } });
    });

    it('refuses an empty or doubled selection and an unknown strategy, changing nothing', async () => {
      const before = await snapshot();
      const cases: [Record<string, unknown>, number, string][] = [
        [{ id: strategy.week }, 400, 'Please select at least one lamp or a region'],
        [{ id: strategy.week, ids: [] }, 400, 'Please select at least one lamp or a region'],
        [{ id: strategy.week, ids: [lamp.own], regionId: region['Futian District'] }, 400, 'Select either lamps or a region, not both'],
        [{ id: 99999, ids: [lamp.own] }, 400, 'ID: The selected strategy does not exist'],
        [{ id: strategy.week, ids: [lamp.own, 99999] }, 400, 'Lamps: These lamps do not exist: 99999'],
        [{ id: strategy.week, regionId: region['Nanshan District'] }, 400, 'Region: There are no lamps in the selected region'],
      ];
      for (const [body, status, message] of cases) {
        const answer = await admin.post('/api/light/strategyDistribute', body);
        expect({ body, status: answer.status, message: answer.body.message }).toEqual({ body, status, message });
      }
      expect(await snapshot()).toEqual(before);
    });

    it('distributes to every lamp of a region and below', async () => {
      const answer = await admin.post<{ dispatchId: string }>('/api/light/strategyDistribute', {
        id: strategy.sensing,
        regionId: region['Futian District'],
      });
      expect(answer.body.code).toBe(200);
      const items = await gw.db.query<{ device_id: number }>(`SELECT device_id FROM dispatch_item WHERE dispatch_id = $1 ORDER BY device_id`, [
        answer.body.data.dispatchId,
      ]);
      expect(items.map((i) => i.device_id)).toEqual([lamp.own, lamp.region]);
      // Back to the week strategy for the schedule checks below.
      await admin.post('/api/light/strategyDistribute', { id: strategy.week, ids: [lamp.own, lamp.region] });
    });
  });

  describe('effective schedule', () => {
    it('shows the strategy, tonight’s periods, the sun and the level now, and flags a lamp that disagrees', async () => {
      await gw.db.query(`UPDATE lamp SET network_status = 1, switch_state = 1, bri = 60 WHERE device_id = $1`, [lamp.own]);
      await gw.db.query(`UPDATE lamp SET network_status = 1, switch_state = 0, bri = 0 WHERE device_id = $1`, [lamp.region]);
      const view = (await admin.get<LampScheduleView>(`/api/light/lampSchedule?id=${lamp.own}`)).body.data;
      expect(view).toMatchObject({
        lampId: lamp.own,
        strategy: { id: strategy.week, name: 'Always sixty', mode: 2 },
        place: { latitude: 22.55, longitude: 114.09, timeZone: 'Asia/Hong_Kong' },
        placeSource: 'lamp',
        levelNow: 60,
        reported: { switchState: 1, bri: 60 },
        mismatch: false,
      });
      expect(view.intervals).toHaveLength(1);
      expect(Date.parse(view.sunset as string)).toBeLessThan(Date.parse(view.sunrise as string));
      const off = (await admin.get<LampScheduleView>(`/api/light/lampSchedule?id=${lamp.region}`)).body.data;
      expect(off).toMatchObject({ placeSource: 'region', levelNow: 60, mismatch: true });
      const bare = (await admin.get<LampScheduleView>(`/api/light/lampSchedule?id=${lamp.none}`)).body.data;
      expect(bare).toMatchObject({ strategy: { id: strategy.week }, placeSource: 'default' });

      const mismatches = (await admin.get<ScheduleMismatches>('/api/light/scheduleMismatches')).body.data;
      expect(mismatches).toMatchObject({
        total: 1,
        byStrategy: { [strategy.week]: 1 },
        lamps: [{ id: lamp.region, clientId: 'ST-0002', strategyId: strategy.week, expected: 60, reported: 0 }],
      });
      expect((await admin.get<ScheduleMismatches>(`/api/light/scheduleMismatches?strategyId=${strategy.sun}`)).body.data.total).toBe(0);
      expect((await admin.get(`/api/light/lampSchedule?id=99999`)).status).toBe(404);
    });
  });

  describe('deleting', () => {
    it('refuses to delete a strategy lamps hold, and deletes one they do not', async () => {
      const inUse = await admin.get(`/api/light/strategyDel?id=${strategy.week}`);
      expect({ status: inUse.status, message: inUse.body.message }).toEqual({
        status: 409,
        message: 'Devices still running this strategy: 3; give them another one first',
      });
      expect((await admin.get(`/api/light/strategyDel?id=${strategy.date}`)).body.code).toBe(200);
      expect(await gw.db.query(`SELECT id FROM strategy WHERE id = $1`, [strategy.date])).toEqual([]);
      expect((await admin.get(`/api/light/strategyDel?id=${strategy.date}`)).status).toBe(404);
    });
  });

  describe('who may', () => {
    it('refuses editors and visitors on every strategy call, changing nothing', async () => {
      const before = await snapshot();
      const calls: [string, (c: ApiClient) => Promise<{ status: number; body: { code: number } }>][] = [
        ['strategyPage', (c) => c.post('/api/light/strategyPage', { pageNum: 1, pageSize: 10 })],
        ['strategyAddOrEdit', (c) => save({ name: 'Intruder', mode: 2, modeData: {}, periods: ALL_NIGHT_AND_DAY(20) }, c)],
        ['strategyDel', (c) => c.get(`/api/light/strategyDel?id=${strategy.sun}`)],
        ['strategyDistribute', (c) => c.post('/api/light/strategyDistribute', { id: strategy.sun, ids: [lamp.own] })],
        ['lampSchedule', (c) => c.get(`/api/light/lampSchedule?id=${lamp.own}`)],
        ['scheduleMismatches', (c) => c.get('/api/light/scheduleMismatches')],
      ];
      for (const username of ['editor', 'visitor'] as const) {
        const client = await gw.signedIn(username);
        for (const [name, call] of calls) {
          const answer = await call(client);
          expect({ username, name, status: answer.status, code: answer.body.code }).toEqual({ username, name, status: 403, code: 403 });
        }
      }
      expect(await snapshot()).toEqual(before);
    });

    it('records strategy changes in the operation log', async () => {
      const rows = await gw.db.query<{ description: string }>(`SELECT DISTINCT description FROM operation_log ORDER BY description`);
      expect(rows.map((r) => r.description)).toEqual(
        expect.arrayContaining(['Save lamp strategy', 'Delete lamp strategy', 'Distribute lamp strategy']),
      );
    });
  });
  describe('a newer schedule replaces an older one', () => {
    const code = `SUP-${randomBytes(3).toString('hex')}`;
    let worker: DeviceWorker;
    let device: MqttClient;
    let lampId: number;
    /** Every schedule command the lamp received, in order, and how it answers: not at all, refusing, or applying. */
    const received: { id: string; strategyId: number }[] = [];
    let answer: 'silent' | 'refuse' | 'apply' = 'silent';
    const distribute = async (id: number) => {
      const reply = await admin.post<{ dispatchId: string }>('/api/light/strategyDistribute', { id, ids: [lampId] });
      expect(reply.body.code).toBe(200);
      return reply.body.data.dispatchId;
    };
    const item = async (dispatchId: string) =>
      (
        await gw.db.query<{ state: string; last_error: string | null }>(`SELECT state, last_error FROM dispatch_item WHERE dispatch_id = $1`, [
          dispatchId,
        ])
      )[0];
    const settled = (dispatchId: string, state: string) => waitFor(async () => ((await item(dispatchId)).state === state ? true : undefined), 8000);
    /** The schedule the lamp runs: the last one it received and applied. */
    const running = () => received.at(-1)?.strategyId;
    const strategyOf = async () =>
      (await gw.db.query<{ strategy_id: number }>(`SELECT strategy_id FROM lamp WHERE device_id = $1`, [lampId]))[0].strategy_id;

    beforeAll(async () => {
      lampId = await addLamp({ lampName: 'Replaced schedules', clientId: code, regionId: null });
      for (const [key, level] of [
        ['older', 20],
        ['newer', 40],
        ['refused', 80],
      ] as const) {
        strategy[key] = (
          await save({ name: `Replaced ${key}`, mode: StrategyMode.Week, modeData: { weekdays: [] }, periods: ALL_NIGHT_AND_DAY(level) })
        ).body.data.id;
      }
      // The commands distributed above were never meant to go out: a worker started now leaves them to expire.
      await gw.db.query(`UPDATE dispatch SET expires_at = now() - interval '1 second'`);
      device = mqtt.connect(MQTT_URL, { clientId: `test-${code}`, reconnectPeriod: 200, ...testMqttLogin() });
      await new Promise<void>((resolve, reject) => device.once('connect', () => resolve()).once('error', reject));
      device.on('message', (_topic, payload) => {
        const command = JSON.parse(payload.toString()) as { id: string; type: string; params: LampSchedule };
        if (command.type !== 'schedule') return;
        if (answer === 'silent') return;
        if (answer === 'apply') received.push({ id: command.id, strategyId: command.params.strategyId });
        const ack = answer === 'apply' ? { id: command.id, ok: true } : { id: command.id, ok: false, error: 'memory full' };
        device.publish(mqttTopics.of(DeviceFamily.Lamp, code, MqttChannel.Ack), JSON.stringify(ack), { qos: 1 });
      });
      await device.subscribeAsync(mqttTopics.of(DeviceFamily.Lamp, code, MqttChannel.Cmd), { qos: 1 });
      worker = await startLightingWorker(
        {
          ...loadWorkerConfig({}),
          databaseUrl: gw.db.url,
          redisUrl: gw.config.redisUrl,
          mqttUrl: MQTT_URL,
          mqttLogin: serviceMqttLogin(MqttService.WorkerLighting),
          redisPrefix: gw.config.redisPrefix,
          intakeGroup: `test-${code}`,
          intakeConnections: 1,
          ackTimeoutMs: 200,
          maxBackoffMs: 400,
          trackerIntervalMs: 100,
          progressIntervalMs: 50,
        },
        pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
      );
    });
    afterAll(async () => {
      await worker?.stop();
      await device?.endAsync();
    });

    it('expires the open items of the older dispatch, so the lamp ends on the newer schedule', async () => {
      // The lamp does not answer the older schedule: its command stays sent and would be re-sent.
      const older = await distribute(strategy.older);
      await waitFor(async () => ((await item(older)).state === 'sent' ? true : undefined), 8000);
      const newer = await distribute(strategy.newer);
      expect(await item(older)).toEqual({ state: 'expired', last_error: 'superseded' });
      answer = 'apply';
      await settled(newer, 'delivered');
      // Longer than the worker's re-send back-off: the older command is never sent again.
      await new Promise((r) => setTimeout(r, 1200));
      // (A re-send already on its way when the newer dispatch was written may arrive first; nothing older comes after.)
      const sinceNewer = received.slice(received.findIndex((r) => r.strategyId === strategy.newer));
      expect(sinceNewer.map((r) => r.strategyId)).toEqual([strategy.newer]);
      expect(running()).toBe(strategy.newer);
      const olderDetail = (await admin.get<DispatchDetail>(`/api/dispatch/detail?id=${older}`)).body.data;
      expect(olderDetail.items).toEqual([expect.objectContaining({ state: 'expired', lastError: 'superseded' })]);
    });

    it('refuses to retry a schedule the lamp has since been given another for, and still retries one it holds', async () => {
      answer = 'refuse';
      const refused = await distribute(strategy.refused);
      await settled(refused, 'failed');
      answer = 'apply';
      const newer = await distribute(strategy.newer);
      await settled(newer, 'delivered');
      expect(running()).toBe(strategy.newer);

      const retry = await admin.post('/api/dispatch/retryFailed', { id: refused });
      expect({ status: retry.status, message: retry.body.message }).toEqual({
        status: 400,
        message: 'A newer schedule has replaced this one on every device it failed on: distribute the strategy again instead',
      });
      expect((await item(refused)).state).toBe('failed');
      await new Promise((r) => setTimeout(r, 500));
      expect(running()).toBe(strategy.newer);
      expect(await strategyOf()).toBe(strategy.newer);
      const view = (await admin.get<LampScheduleView>(`/api/light/lampSchedule?id=${lampId}`)).body.data;
      expect(view.strategy?.id).toBe(strategy.newer);

      // A failed schedule the lamp's record still holds is retried as before.
      answer = 'refuse';
      const again = await distribute(strategy.refused);
      await settled(again, 'failed');
      answer = 'apply';
      const retried = await admin.post<{ retried: number }>('/api/dispatch/retryFailed', { id: again });
      expect(retried.body.data).toMatchObject({ retried: 1 });
      await settled(again, 'delivered');
      expect(running()).toBe(strategy.refused);
      expect(await strategyOf()).toBe(strategy.refused);
    });
  });
});
