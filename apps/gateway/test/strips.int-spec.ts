import {
  Button,
  DispatchStatus,
  JobName,
  type DispatchDetail,
  type FieldError,
  type LampSchedule,
  type PageResult,
  type StrategyRow,
  type StripRow,
} from '@sc/contracts';
import { Client } from 'pg';
import { waitFor, type ApiClient } from '@sc/testing';
import type { AppException } from '../src/common/app-exception';
import type { Caller } from '../src/common/request-context';
import { loadStripsFromDatabase } from '../../device-sim/src';
import { DEMO_STRIPS, loadDemoStrips } from '../src/demo/demo-strips';
import { StripsService } from '../src/strips/strips.service';
import { startTestGateway, type TestGateway } from './harness';

const LEDGER_TABLES = ['dispatch', 'dispatch_item', 'outbox'] as const;

describe('strip lights: records, status labels and light effects through the ledger', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let adminZh: ApiClient;
  let groupId: number;
  const region: Record<string, number> = {};
  const strip: Record<string, number> = {};

  const ledgerCounts = async () => {
    const counts: Record<string, number> = {};
    for (const table of LEDGER_TABLES) counts[table] = (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
    return counts;
  };
  const addStrip = async (body: Record<string, unknown>) => {
    const answer = await admin.post<{ id: number }>('/api/light/stripAddOrEdit', body);
    expect(answer.body).toMatchObject({ code: 200 });
    return answer.body.data.id;
  };
  const page = async (filters: Record<string, unknown>) =>
    (await admin.post<PageResult<StripRow>>('/api/light/stripPage', { pageNum: 1, pageSize: 50, ...filters })).body.data;

  beforeAll(async () => {
    gw = await startTestGateway();
    admin = await gw.signedIn('admin');
    adminZh = admin.as(admin.token, 'zh-CN');
    for (const row of await gw.db.query<{ id: number; region_name: string }>(`SELECT id, region_name FROM region`)) region[row.region_name] = row.id;
    [{ id: groupId }] = await gw.db.query<{ id: number }>(`INSERT INTO device_group (type, name) VALUES (2, 'Facades') RETURNING id`);
    strip.a = await addStrip({
      lampName: 'Civic Center facade',
      clientId: 'ST-0001',
      regionId: region['Lianhua Subdistrict'],
      groupId,
      gatewayId: 'SGW-1',
    });
    strip.b = await addStrip({ lampName: 'Bay bridge rail', clientId: 'ST-0002', regionId: region['Yuehai Subdistrict'] });
  });
  afterAll(async () => {
    await gw.close();
  });

  describe('records', () => {
    it('adds a strip light as a device of type light strip, synchronizing until it first reports', async () => {
      const id = await addStrip({
        lampName: 'Harbour promenade',
        clientId: 'ST-0100',
        regionId: region['Futian District'],
        groupId,
        gatewayId: 'SGW-9',
        addr: 'Promenade No. 1',
        mac: '02:00:00:00:01:07',
      });
      expect(await gw.db.query(`SELECT type, code, name, region_id, group_id FROM device WHERE id = $1`, [id])).toEqual([
        { type: 2, code: 'ST-0100', name: 'Harbour promenade', region_id: region['Futian District'], group_id: groupId },
      ]);
      const [row] = (await page({ lampName: 'PROMENADE' })).list;
      expect(row).toEqual({
        id,
        lampName: 'Harbour promenade',
        clientId: 'ST-0100',
        regionId: region['Futian District'],
        regionName: 'Futian District',
        groupId,
        groupName: 'Facades',
        gatewayId: 'SGW-9',
        addr: 'Promenade No. 1',
        mac: '02:00:00:00:01:07',
        bri: 0,
        color: '',
        zones: null,
        status: -1,
        networkStatus: 0,
        telemetry: null,
        faults: [],
        statusLabels: ['synchronizing'],
        hardwareVersion: '',
        softwareVersion: '',
        reportedAt: null,
        strategyId: null,
        strategyName: null,
      });
      expect((await admin.get(`/api/light/stripDel?id=${id}`)).body.code).toBe(200);
      expect(await gw.db.query(`SELECT 1 FROM device WHERE id = $1 UNION ALL SELECT 1 FROM strip_light WHERE device_id = $1`, [id])).toEqual([]);
      expect((await admin.get(`/api/light/stripDel?id=${id}`)).status).toBe(404);
    });

    it('derives the status labels from the sync state and the fault codes, in the order of the spec', async () => {
      const labels = async () => (await page({ lampName: 'civic center' })).list[0].statusLabels;
      await gw.db.query(`UPDATE strip_light SET status = 0, faults = '{}' WHERE device_id = $1`, [strip.a]);
      expect(await labels()).toEqual(['normal']);
      await gw.db.query(`UPDATE strip_light SET faults = '{1,2,3,4,5,6,7,8}' WHERE device_id = $1`, [strip.a]);
      expect(await labels()).toEqual([
        'notGrounded',
        'bLightFailure',
        'bLightFlashes',
        'temperatureTooHigh',
        'aLightFailure',
        'aLightFlashes',
        'voltageTooHigh',
        'voltageLow',
      ]);
      await gw.db.query(`UPDATE strip_light SET status = -1, faults = '{5}' WHERE device_id = $1`, [strip.a]);
      expect(await labels()).toEqual(['synchronizing', 'temperatureTooHigh']);
      await gw.db.query(`UPDATE strip_light SET status = -4, faults = '{}' WHERE device_id = $1`, [strip.a]);
      expect(await labels()).toEqual(['normal']);
    });

    it('refuses a taken clientId, a bad field or a group that is not a strip group, writing nothing', async () => {
      const [lampGroup] = await gw.db.query<{ id: number }>(`INSERT INTO device_group (type, name) VALUES (1, 'Lamps') RETURNING id`);
      const before = await gw.db.query(`SELECT count(*)::int AS n FROM device`);
      const cases: [Record<string, unknown>, number, string, string][] = [
        [
          { lampName: 'Copy', clientId: 'ST-0001' },
          409,
          'A strip light with the client ID "ST-0001" already exists',
          '客户端 ID“ST-0001”已被其他灯带使用',
        ],
        [{ clientId: 'ST-0200' }, 400, 'Lamp name: Please enter', '灯具名称：请输入'],
        [
          { lampName: 'Bad', clientId: 'a/b' },
          400,
          'Client ID: Use at most 64 letters, digits and the characters _ . -',
          '客户端 ID：最多 64 个字符，只能包含字母、数字和 _ . -',
        ],
        [
          { lampName: 'Wrong group', clientId: 'ST-0200', groupId: lampGroup.id },
          400,
          'Group: The selected group does not exist or is not a strip light group',
          '分组：所选分组不存在或不是灯带分组',
        ],
        [
          { lampName: 'No region', clientId: 'ST-0200', regionId: 999_999 },
          400,
          'Region: The selected region does not exist',
          '区域：所选区域不存在',
        ],
      ];
      const fieldErrors = (data: unknown) => (data as { errors?: FieldError[] } | null)?.errors ?? [];
      const taken: FieldError[][] = [];
      for (const [body, status, en, zh] of cases) {
        const [english, chinese] = [await admin.post('/api/light/stripAddOrEdit', body), await adminZh.post('/api/light/stripAddOrEdit', body)];
        expect({ body, status: english.status, en: english.body.message, zh: chinese.body.message }).toEqual({ body, status, en, zh });
        // Every refusal, the taken client ID too, also stands under one field, for the form.
        expect({ body, fields: fieldErrors(english.body.data).length }).toEqual({ body, fields: 1 });
        if (status === 409) taken.push(fieldErrors(english.body.data), fieldErrors(chinese.body.data));
      }
      const [en, zh] = [cases[0][2], cases[0][3]];
      expect(taken).toEqual([
        [{ field: 'clientId', message: `Client ID: ${en}`, reason: en }],
        [expect.objectContaining({ field: 'clientId', reason: zh })],
      ]);
      expect(await gw.db.query(`SELECT count(*)::int AS n FROM device`)).toEqual(before);
    });

    it('edits a strip: fields left out keep their values, null clears region and group', async () => {
      expect(await addStrip({ id: strip.b, lampName: 'Bay bridge handrail', clientId: 'ST-0002', groupId })).toBe(strip.b);
      expect((await page({ lampName: 'handrail' })).list[0]).toMatchObject({ regionId: region['Yuehai Subdistrict'], groupId, addr: '' });
      await addStrip({ id: strip.b, lampName: 'Bay bridge handrail', clientId: 'ST-0002', groupId: null, addr: 'Bridge' });
      expect((await page({ lampName: 'handrail' })).list[0]).toMatchObject({ regionId: region['Yuehai Subdistrict'], groupId: null, addr: 'Bridge' });
      expect((await admin.post('/api/light/stripAddOrEdit', { id: 999_999, lampName: 'Ghost', clientId: 'ST-0999' })).status).toBe(404);
      // A lamp is not a strip light.
      const [lamp] = await gw.db.query<{ id: number }>(`INSERT INTO device (type, code, name) VALUES (1, 'ST-LAMP', 'A lamp') RETURNING id`);
      expect((await admin.post('/api/light/stripAddOrEdit', { id: lamp.id, lampName: 'Lamp', clientId: 'ST-LAMP' })).status).toBe(404);
      expect((await admin.get(`/api/light/stripDel?id=${lamp.id}`)).status).toBe(404);
      await gw.db.query(`DELETE FROM device WHERE id = $1`, [lamp.id]);
    });

    it('changes a clientId (the MQTT identity) only for a caller with Edit MQTT besides Edit', async () => {
      const strips = gw.app.get(StripsService);
      const editor: Caller = {
        userId: 1,
        username: 'admin',
        sessionId: 's',
        isAdmin: true,
        roles: ['admin'],
        buttons: [Button.Edit],
        expiresAt: Date.now() + 60_000,
      };
      const before = await gw.db.query(`SELECT id, code, name FROM device ORDER BY id`);
      const refusal = await strips
        .save(editor, { id: strip.b, lampName: 'Renamed', clientId: 'ST-0002-NEW' } as never)
        .catch((err) => err as AppException);
      expect(refusal).toMatchObject({ status: 400, fields: [{ field: 'clientId', key: 'clientIdNeedsEditMqtt' }] });
      expect(await gw.db.query(`SELECT id, code, name FROM device ORDER BY id`)).toEqual(before);
      // Plain Edit may change everything else.
      await strips.save(editor, { id: strip.b, lampName: 'Bay bridge handrail', clientId: 'ST-0002' } as never);
      // Administrators have Edit MQTT.
      expect(await addStrip({ id: strip.b, lampName: 'Bay bridge handrail', clientId: 'ST-0002-NEW' })).toBe(strip.b);
      expect(await gw.db.query(`SELECT code FROM device WHERE id = $1`, [strip.b])).toEqual([{ code: 'ST-0002-NEW' }]);
      await addStrip({ id: strip.b, lampName: 'Bay bridge handrail', clientId: 'ST-0002' });
    });

    it('pages and filters by name, region (with sub-regions), group and status', async () => {
      const ids = async (filters: Record<string, unknown>) => (await page(filters)).list.map((s) => s.id);
      expect(await ids({})).toEqual([strip.a, strip.b]);
      expect(await ids({ regionId: region['Futian District'] })).toEqual([strip.a]);
      expect(await ids({ groupId })).toEqual([strip.a]);
      expect(await ids({ status: -4 })).toEqual([strip.a]);
      expect(await ids({ status: -1 })).toEqual([strip.b]);
    });
  });

  describe('light effects', () => {
    it('refuses every effect, zone or type outside the spec, and every bad selection, with a translated 400 and nothing dispatched', async () => {
      const cases: { body: Record<string, unknown>; en: string; zh: string }[] = [
        {
          body: { ids: [strip.a], type: 4, effect: 1, zones: ['L'] },
          en: effectTypeEn(),
          zh: '灯效类型只能是 1（开关）、2（呼吸）、3（爆闪）或 6（设置颜色）',
        },
        {
          body: { ids: [strip.a], type: 5, effect: 8, zones: ['L'] },
          en: effectTypeEn(),
          zh: '灯效类型只能是 1（开关）、2（呼吸）、3（爆闪）或 6（设置颜色）',
        },
        {
          body: { ids: [strip.a], effect: 1, zones: ['L'] },
          en: effectTypeEn(),
          zh: '灯效类型只能是 1（开关）、2（呼吸）、3（爆闪）或 6（设置颜色）',
        },
        {
          body: { ids: [strip.a], type: 1, effect: 0, zones: ['L'] },
          en: 'Effect: Light effect type 1 takes the effects -1, -2, -3',
          zh: '灯效：灯效类型 1 的灯效只能是 -1, -2, -3',
        },
        {
          body: { ids: [strip.a], type: 1, effect: -4, zones: ['L'] },
          en: 'Effect: Light effect type 1 takes the effects -1, -2, -3',
          zh: '灯效：灯效类型 1 的灯效只能是 -1, -2, -3',
        },
        {
          body: { ids: [strip.a], type: 2, effect: 0, zones: ['R'] },
          en: 'Effect: Light effect type 2 takes the effects 1, 2, 3, 4, 5, 6, 7',
          zh: '灯效：灯效类型 2 的灯效只能是 1, 2, 3, 4, 5, 6, 7',
        },
        {
          body: { ids: [strip.a], type: 2, effect: 8, zones: ['R'] },
          en: 'Effect: Light effect type 2 takes the effects 1, 2, 3, 4, 5, 6, 7',
          zh: '灯效：灯效类型 2 的灯效只能是 1, 2, 3, 4, 5, 6, 7',
        },
        {
          body: { ids: [strip.a], type: 3, effect: 7, zones: ['L', 'R'] },
          en: 'Effect: Light effect type 3 takes the effects 8, 9, 10, 11, 12, 13, 14, 15',
          zh: '灯效：灯效类型 3 的灯效只能是 8, 9, 10, 11, 12, 13, 14, 15',
        },
        {
          body: { ids: [strip.a], type: 3, effect: 16, zones: ['L'] },
          en: 'Effect: Light effect type 3 takes the effects 8, 9, 10, 11, 12, 13, 14, 15',
          zh: '灯效：灯效类型 3 的灯效只能是 8, 9, 10, 11, 12, 13, 14, 15',
        },
        { body: { ids: [strip.a], type: 2, zones: ['L'] }, en: 'Effect: Please select', zh: '灯效：请选择' },
        {
          body: { ids: [strip.a], type: 2, effect: 3, color: '#ff0000', zones: ['L'] },
          en: 'Colour: Only set colour (type 6) takes a colour',
          zh: '颜色：只有设置颜色（类型 6）可以指定颜色',
        },
        { body: { ids: [strip.a], type: 6, zones: ['L'] }, en: 'Colour: Please select', zh: '颜色：请选择' },
        {
          body: { ids: [strip.a], type: 6, color: 'orange', zones: ['L'] },
          en: 'Colour: Use a colour like #ff8800',
          zh: expect.stringContaining('颜色：'),
        },
        {
          body: { ids: [strip.a], type: 6, effect: 1, color: '#ff0000', zones: ['L'] },
          en: 'Effect: Set colour (type 6) takes a colour, not an effect',
          zh: '灯效：设置颜色（类型 6）只需颜色，不能指定灯效',
        },
        { body: { ids: [strip.a], type: 2, effect: 1, zones: [] }, en: 'Zone: Choose zone L, R or both', zh: '分区：请选择分区 L、R 或两者' },
        { body: { ids: [strip.a], type: 2, effect: 1 }, en: 'Zone: Choose zone L, R or both', zh: '分区：请选择分区 L、R 或两者' },
        { body: { ids: [strip.a], type: 2, effect: 1, zones: ['C'] }, en: 'Zone: Choose zone L, R or both', zh: '分区：请选择分区 L、R 或两者' },
        { body: { ids: [strip.a], type: 2, effect: 1, zones: ['L', 'L'] }, en: 'Zone: Choose zone L, R or both', zh: '分区：请选择分区 L、R 或两者' },
        {
          body: { ids: [], type: 1, effect: -1, zones: ['L'] },
          en: 'Please select at least one strip light or a region',
          zh: '请至少选择一条灯带或一个区域',
        },
        {
          body: { ids: [strip.a], regionId: region['Shenzhen'], type: 1, effect: -1, zones: ['L'] },
          en: 'Select either strip lights or a region, not both',
          zh: '请选择灯带或区域，不能同时选择两者',
        },
        {
          body: { ids: [strip.a, 999_999], type: 1, effect: -1, zones: ['L'] },
          en: 'These strip lights do not exist: 999999',
          zh: '以下灯带不存在：999999',
        },
        {
          body: { regionId: region['Shekou Subdistrict'], type: 1, effect: -1, zones: ['L'] },
          en: 'Region: There are no strip lights in the selected region',
          zh: '区域：所选区域下没有灯带',
        },
      ];
      const before = await ledgerCounts();
      for (const { body, en, zh } of cases) {
        const [english, chinese] = [await admin.post('/api/light/stripEffect', body), await adminZh.post('/api/light/stripEffect', body)];
        expect({ body, status: english.status, code: english.body.code, en: english.body.message, zh: chinese.body.message }).toEqual({
          body,
          status: 400,
          code: 400,
          en,
          zh,
        });
      }
      // A lamp is not a strip light.
      const [lamp] = await gw.db.query<{ id: number }>(`INSERT INTO device (type, code, name) VALUES (1, 'ST-LAMP-2', 'A lamp') RETURNING id`);
      const lampAnswer = await admin.post('/api/light/stripEffect', { ids: [lamp.id], type: 1, effect: -1, zones: ['L'] });
      expect(lampAnswer.body.message).toBe(`These strip lights do not exist: ${lamp.id}`);
      await gw.db.query(`DELETE FROM device WHERE id = $1`, [lamp.id]);
      expect(await ledgerCounts()).toEqual(before);
    });

    it('writes one dispatch of family strip with one row per strip, and hands it to the lighting queue', async () => {
      const cases: [Record<string, unknown>, string, Record<string, unknown>][] = [
        [{ type: 1, effect: -1, zones: ['L'] }, 'on', { type: 1, effect: -1, zones: ['L'] }],
        [{ type: 1, effect: -2, zones: ['R', 'L'] }, 'off', { type: 1, effect: -2, zones: ['L', 'R'] }],
        [{ type: 1, effect: -3, zones: ['R'] }, 'switch', { type: 1, effect: -3, zones: ['R'] }],
        [{ type: 2, effect: 7, zones: ['L', 'R'] }, 'breathing', { type: 2, effect: 7, zones: ['L', 'R'] }],
        [{ type: 3, effect: 8, zones: ['L'] }, 'flash', { type: 3, effect: 8, zones: ['L'] }],
        [{ type: 6, color: '#00AAff', zones: ['R'] }, 'colour', { type: 6, color: '#00aaff', zones: ['R'] }],
      ];
      for (const [effect, action, params] of cases) {
        const answer = await admin.post<{ dispatchId: string }>('/api/light/stripEffect', { ids: [strip.b, strip.a, strip.a], ...effect });
        expect(answer.body.code).toBe(200);
        const { dispatchId } = answer.body.data;
        expect(await gw.db.query(`SELECT family, action, params FROM dispatch WHERE id = $1`, [dispatchId])).toEqual([
          { family: 'strip', action, params },
        ]);
        const detail = (await admin.get<DispatchDetail>(`/api/dispatch/detail?id=${dispatchId}`)).body.data;
        expect({ status: detail.status, total: detail.total, codes: detail.items.map((i) => i.deviceCode) }).toEqual({
          status: DispatchStatus.ToBeSent,
          total: 2,
          codes: ['ST-0001', 'ST-0002'],
        });
      }
      const byRegion = await admin.post<{ dispatchId: string }>('/api/light/stripEffect', {
        regionId: region['Shenzhen'],
        type: 2,
        effect: 1,
        zones: ['L'],
      });
      const items = await gw.db.query<{ device_id: number }>(`SELECT device_id FROM dispatch_item WHERE dispatch_id = $1 ORDER BY device_id`, [
        byRegion.body.data.dispatchId,
      ]);
      expect(items.map((i) => i.device_id)).toEqual([strip.a, strip.b]);
      // The relay hands every dispatch over under the lighting worker's job.
      const jobIds = async () =>
        (await gw.redis.keys(`${gw.config.redisPrefix}bull:lamp-distribution:${JobName.DistributeStripDispatch}:${byRegion.body.data.dispatchId}:1`))
          .length;
      for (let i = 0; i < 30 && (await jobIds()) === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await jobIds()).toBe(1);
    });
  });

  describe('strip strategies', () => {
    const week = (name: string, periods: unknown[]) => ({ name, mode: 2, modeData: { weekdays: [] }, periods });
    const strategies = async () =>
      (await admin.post<PageResult<StrategyRow>>('/api/light/stripStrategyPage', { pageNum: 1, pageSize: 50 })).body.data;
    let stripStrategy: number;

    it('keeps strip strategies apart from lamp ones, with the same rules and catalogue messages', async () => {
      const saved = await admin.post<{ id: number }>(
        '/api/light/stripStrategyAddOrEdit',
        week('Facade evenings', [{ start: '18:00', end: '23:00', level: 80 }]),
      );
      expect(saved.body.code).toBe(200);
      stripStrategy = saved.body.data.id;
      const lampOne = await admin.post<{ id: number }>(
        '/api/light/strategyAddOrEdit',
        week('Facade evenings', [{ start: '18:00', end: '23:00', level: 20 }]),
      );
      expect(lampOne.body.code).toBe(200);
      expect((await strategies()).list.map((r) => ({ name: r.name, family: r.family, deviceCount: r.deviceCount }))).toEqual([
        { name: 'Facade evenings', family: 'strip', deviceCount: 0 },
      ]);
      const before = await gw.db.query(`SELECT id, family, name, periods FROM strategy ORDER BY id`);
      const overlap = await admin.post(
        '/api/light/stripStrategyAddOrEdit',
        week('Bad', [
          { start: '18:00', end: '23:00', level: 100 },
          { start: '22:00', end: '02:00', level: 40 },
        ]),
      );
      expect({ status: overlap.status, message: overlap.body.message }).toEqual({ status: 400, message: expect.stringContaining('Time Repeats') });
      const order = await adminZh.post(
        '/api/light/stripStrategyAddOrEdit',
        week('Bad', [
          { start: '22:00', end: '23:00', level: 100 },
          { start: '19:00', end: '20:00', level: 40 },
        ]),
      );
      expect(order.status).toBe(400);
      const noLevel = await admin.post('/api/light/stripStrategyAddOrEdit', week('Bad', [{ start: '18:00', end: '23:00' }]));
      expect(noLevel.body.message).toEqual(expect.stringContaining('Brightness cannot be empty'));
      expect(await gw.db.query(`SELECT id, family, name, periods FROM strategy ORDER BY id`)).toEqual(before);
    });

    it('distributes a strip strategy through the ledger: each strip gets its schedule with its place, and holds it', async () => {
      const answer = await admin.post<{ dispatchId: string }>('/api/light/stripStrategyDistribute', { id: stripStrategy, ids: [strip.a, strip.b] });
      expect(answer.body.code).toBe(200);
      const { dispatchId } = answer.body.data;
      expect(await gw.db.query(`SELECT family, action FROM dispatch WHERE id = $1`, [dispatchId])).toEqual([{ family: 'strip', action: 'schedule' }]);
      const items = await gw.db.query<{ device_id: number; params: LampSchedule }>(
        `SELECT device_id, params FROM dispatch_item WHERE dispatch_id = $1 ORDER BY device_id`,
        [dispatchId],
      );
      expect(items.map((i) => i.device_id)).toEqual([strip.a, strip.b]);
      for (const item of items) {
        expect(item.params).toMatchObject({
          strategyId: stripStrategy,
          name: 'Facade evenings',
          rules: { mode: 2, periods: [{ start: '18:00', end: '23:00', level: 80 }] },
        });
        expect(typeof item.params.place.timeZone).toBe('string');
      }
      expect((await page({ lampName: 'civic center' })).list[0]).toMatchObject({ strategyId: stripStrategy, strategyName: 'Facade evenings' });
      expect((await strategies()).list[0].deviceCount).toBe(2);

      // A lamp strategy is not a strip strategy, and a held strategy cannot be deleted.
      const [lampStrategy] = await gw.db.query<{ id: number }>(`SELECT id FROM strategy WHERE family = 'lamp'`);
      const wrong = await admin.post('/api/light/stripStrategyDistribute', { id: lampStrategy.id, ids: [strip.a] });
      expect({ status: wrong.status, message: wrong.body.message }).toEqual({ status: 400, message: expect.stringContaining('does not exist') });
      const held = await admin.get(`/api/light/stripStrategyDel?id=${stripStrategy}`);
      expect({ status: held.status, message: held.body.message }).toEqual({ status: 409, message: expect.stringContaining('2') });
      const none = await admin.post('/api/light/stripStrategyDistribute', { id: stripStrategy, ids: [] });
      expect(none.body.message).toBe('Please select at least one strip light or a region');
      const byRegion = await admin.post<{ dispatchId: string }>('/api/light/stripStrategyDistribute', {
        id: stripStrategy,
        regionId: region['Shenzhen'],
      });
      expect(byRegion.body.code).toBe(200);
      // The newer schedule replaces the first one still queued for strips a and b (docs/lighting-strategies.md).
      expect(await gw.db.query(`SELECT state, last_error FROM dispatch_item WHERE dispatch_id = $1`, [dispatchId])).toEqual([
        { state: 'expired', last_error: 'superseded' },
        { state: 'expired', last_error: 'superseded' },
      ]);
      // Handed over by the relay before the next test takes its snapshot.
      await waitFor(async () => ((await ledgerCounts()).outbox === 0 ? true : undefined), 3000);
    });

    it('counts the strips holding a strategy in the same transaction as the delete', async () => {
      const saved = await admin.post<{ id: number }>(
        '/api/light/stripStrategyAddOrEdit',
        week('Race', [{ start: '19:00', end: '22:00', level: 60 }]),
      );
      const raced = saved.body.data.id;
      const [{ strategy_id: held }] = await gw.db.query<{ strategy_id: number }>(`SELECT strategy_id FROM strip_light WHERE device_id = $1`, [
        strip.b,
      ]);
      // Another session gives a strip the strategy and commits only once the delete has started.
      const other = new Client({ connectionString: gw.db.url });
      await other.connect();
      try {
        await other.query('BEGIN');
        await other.query(`UPDATE strip_light SET strategy_id = $2 WHERE device_id = $1`, [strip.b, raced]);
        const deleting = admin.get(`/api/light/stripStrategyDel?id=${raced}`);
        await waitFor(async () => {
          const waiting = await gw.db.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%strategy%'`,
          );
          return waiting.length > 0 ? true : undefined;
        }, 5000);
        await other.query('COMMIT');
        const answer = await deleting;
        expect({ status: answer.status, message: answer.body.message }).toEqual({
          status: 409,
          message: 'Devices still running this strategy: 1; give them another one first',
        });
      } finally {
        await other.end();
      }
      expect(await gw.db.query(`SELECT id FROM strategy WHERE id = $1`, [raced])).toEqual([{ id: raced }]);
      await gw.db.query(`UPDATE strip_light SET strategy_id = $2 WHERE device_id = $1`, [strip.b, held]);
      expect((await admin.get(`/api/light/stripStrategyDel?id=${raced}`)).body.code).toBe(200);
      expect(await gw.db.query(`SELECT id FROM strategy WHERE id = $1`, [raced])).toEqual([]);
    });
  });

  describe('who may', () => {
    it('refuses editors and visitors on every strip call, changing nothing', async () => {
      const calls: [string, (c: ApiClient) => Promise<{ status: number; body: { code: number } }>][] = [
        ['stripAddOrEdit', (c) => c.post('/api/light/stripAddOrEdit', { lampName: 'Intruder', clientId: 'ST-0666' })],
        ['stripAddOrEdit (edit)', (c) => c.post('/api/light/stripAddOrEdit', { id: strip.a, lampName: 'Renamed', clientId: 'ST-0001' })],
        ['stripPage', (c) => c.post('/api/light/stripPage', { pageNum: 1, pageSize: 10 })],
        ['stripDel', (c) => c.get(`/api/light/stripDel?id=${strip.b}`)],
        ['stripEffect', (c) => c.post('/api/light/stripEffect', { ids: [strip.a], type: 1, effect: -1, zones: ['L'] })],
        ['stripStrategyPage', (c) => c.post('/api/light/stripStrategyPage', { pageNum: 1, pageSize: 10 })],
        [
          'stripStrategyAddOrEdit',
          (c) =>
            c.post('/api/light/stripStrategyAddOrEdit', { name: 'X', mode: 2, modeData: {}, periods: [{ start: '18:00', end: '19:00', level: 20 }] }),
        ],
        ['stripStrategyDel', (c) => c.get('/api/light/stripStrategyDel?id=1')],
        ['stripStrategyDistribute', (c) => c.post('/api/light/stripStrategyDistribute', { id: 1, ids: [strip.a] })],
      ];
      const snapshot = async () => ({
        ledger: await ledgerCounts(),
        devices: await gw.db.query(`SELECT id, code, name FROM device ORDER BY id`),
        strategies: await gw.db.query(`SELECT id, name, periods FROM strategy ORDER BY id`),
      });
      const before = await snapshot();
      for (const username of ['editor', 'visitor'] as const) {
        const client = await gw.signedIn(username);
        for (const [name, call] of calls) {
          const answer = await call(client);
          expect({ username, name, status: answer.status, code: answer.body.code }).toEqual({ username, name, status: 403, code: 403 });
        }
      }
      expect(await snapshot()).toEqual(before);
    });

    it('refuses an effect whose button the caller lacks, before anything is written', async () => {
      const strips = gw.app.get(StripsService);
      const caller = (buttons: Button[]): Caller => ({
        userId: 1,
        username: 'admin',
        sessionId: 's',
        isAdmin: true,
        roles: ['admin'],
        buttons,
        expiresAt: Date.now() + 60_000,
      });
      const before = await ledgerCounts();
      const refused = async (buttons: Button[], body: Record<string, unknown>) => {
        try {
          await strips.effect(caller(buttons), { ids: [strip.a], zones: ['L'], ...body } as never);
        } catch (err) {
          return (err as AppException).key;
        }
        return 'accepted';
      };
      // -1 on needs Open lamp, -2 off Close lamp, everything else Open and close.
      expect(await refused([Button.CloseLamp, Button.OpenAndClose], { type: 1, effect: -1 })).toBe('forbidden');
      expect(await refused([Button.OpenLamp, Button.OpenAndClose], { type: 1, effect: -2 })).toBe('forbidden');
      for (const body of [
        { type: 1, effect: -3 },
        { type: 2, effect: 1 },
        { type: 3, effect: 9 },
        { type: 6, color: '#123456' },
      ])
        expect(await refused([Button.OpenLamp, Button.CloseLamp], body)).toBe('forbidden');
      expect(await ledgerCounts()).toEqual(before);
      expect(await refused([Button.OpenLamp], { type: 1, effect: -1 })).toBe('accepted');
      expect((await ledgerCounts()).dispatch).toBe(before.dispatch + 1);
    });

    it('records strip changes and effects in the operation log', async () => {
      const rows = await gw.db.query<{ description: string }>(`SELECT DISTINCT description FROM operation_log ORDER BY description`);
      expect(rows.map((r) => r.description)).toEqual(expect.arrayContaining(['Delete strip light', 'Save strip light', 'Strip light effect']));
    });
  });

  describe('demo data', () => {
    it('loads the demo strips once, in their groups and regions, and the simulator finds them with their gateways', async () => {
      expect(await loadDemoStrips(gw.db.url)).toBe('loaded');
      expect(await loadDemoStrips(gw.db.url)).toBe('already-loaded');
      const all = await page({ lampName: 'strip', pageSize: 200 });
      expect(all.total).toBe(DEMO_STRIPS.length);
      expect(all.list[0]).toMatchObject({ clientId: 'STRIP-0001', groupName: 'Facades', regionName: 'Huaqiangbei Subdistrict', gatewayId: 'SGW-01' });
      const seeds = await loadStripsFromDatabase(gw.db.url);
      expect(seeds).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ code: 'STRIP-0001', gatewayId: 'SGW-01' }),
          { code: 'ST-0002', generation: expect.any(Number) },
        ]),
      );
      expect(seeds.filter((s) => s.code.startsWith('STRIP-'))).toHaveLength(DEMO_STRIPS.length);
      // Their gateways are recorded (they log in to the broker and report their connection), one per site.
      const gatewayCodes = [...new Set(DEMO_STRIPS.map((s) => s.gatewayId))];
      const gateways: { code: string; region_id: number | null }[] = await gw.db.query(
        `SELECT code, region_id FROM lamp_gateway WHERE code = ANY($1) ORDER BY code`,
        [gatewayCodes],
      );
      expect(gateways.map((g) => g.code)).toEqual(gatewayCodes.sort());
      expect(gateways.every((g) => g.region_id !== null)).toBe(true);
      // A database whose demo strips came before their gateways were recorded gets them on the next start.
      await gw.db.query(`DELETE FROM lamp_gateway WHERE code = 'SGW-01'`);
      expect(await loadDemoStrips(gw.db.url)).toBe('already-loaded');
      expect(await gw.db.query(`SELECT code FROM lamp_gateway WHERE code = 'SGW-01'`)).toEqual([{ code: 'SGW-01' }]);
    });
  });
});

function effectTypeEn(): string {
  return 'The light effect type must be 1 (on/off), 2 (breathing), 3 (explosive flash) or 6 (set colour)';
}
