import { DispatchStatus, type DeviceGroupRow, type GatewayRow, type LampRow, type LoopOption, type LoopRow, type PageResult } from '@sc/contracts';
import type { ApiClient } from '@sc/testing';
import { DEMO_STREETS, loadDemoEquipment } from '../src/demo/demo-equipment';
import { DEMO_LAMPS, loadDemoLamps } from '../src/demo/demo-lamps';
import { startTestGateway, type TestGateway } from './harness';

describe('lamp equipment: gateways, loops, lamp fields, device groups and the equipment buttons', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let adminZh: ApiClient;
  const region: Record<string, number> = {};

  const ok = async <T>(answer: Promise<{ status: number; body: { code: number; data: T; message: string } }>): Promise<T> => {
    const { body } = await answer;
    expect(body).toMatchObject({ code: 200 });
    return body.data;
  };
  /** Status and message of a refused call. */
  const refused = async (answer: Promise<{ status: number; body: { message: string } }>) => {
    const { status, body } = await answer;
    return { status, message: body.message };
  };
  const addLamp = (body: Record<string, unknown>) => ok(admin.post<{ id: number }>('/api/light/lampAddOrEdit', body)).then((d) => d.id);
  const lampDetail = (id: number) => ok(admin.get<LampRow>(`/api/light/lampDetail?id=${id}`));
  const gatewayPage = (filters: Record<string, unknown> = {}) =>
    ok(admin.post<PageResult<GatewayRow>>('/api/light/gatewayPage', { pageNum: 1, pageSize: 50, ...filters }));
  const loopPage = (filters: Record<string, unknown> = {}) =>
    ok(admin.post<PageResult<LoopRow>>('/api/light/loopPage', { pageNum: 1, pageSize: 50, ...filters }));
  const groups = () => ok(admin.get<DeviceGroupRow[]>('/api/light/groupList?type=1'));
  const table = (sql: string) => gw.db.query(sql);

  beforeAll(async () => {
    gw = await startTestGateway();
    admin = await gw.signedIn('admin');
    adminZh = admin.as(admin.token, 'zh-CN');
    for (const row of await gw.db.query<{ id: number; region_name: string }>(`SELECT id, region_name FROM region`)) region[row.region_name] = row.id;
  });
  afterAll(() => gw.close());

  describe('gateways', () => {
    it('adds, lists (with loop and lamp counts), filters and edits a gateway', async () => {
      const { id } = await ok(
        admin.post<{ id: number }>('/api/light/gatewayAddOrEdit', {
          gatewayId: 'EQ-GW-1',
          name: 'Huaqiang North concentrator',
          regionId: region['Huaqiangbei Subdistrict'],
          addr: 'Huaqiang North Road 1',
          latitude: 22.5445,
          longitude: 114.0855,
        }),
      );
      await ok(
        admin.post('/api/light/gatewayAddOrEdit', { gatewayId: 'EQ-GW-2', name: 'Keyuan concentrator', regionId: region['Yuehai Subdistrict'] }),
      );
      await addLamp({ lampName: 'EQ lamp 1', clientId: 'EQ-L-1', gatewayId: 'EQ-GW-1' });
      const all = await gatewayPage({ name: 'eq-gw' });
      expect(all.total).toBe(2);
      expect(all.list[0]).toMatchObject({
        id,
        gatewayId: 'EQ-GW-1',
        name: 'Huaqiang North concentrator',
        regionName: 'Huaqiangbei Subdistrict',
        latitude: 22.5445,
        longitude: 114.0855,
        networkStatus: 0,
        loopCount: 0,
        lampCount: 1,
        onlineLampCount: 0,
      });
      expect((await gatewayPage({ regionId: region['Futian District'] })).list.map((g) => g.gatewayId)).toEqual(['EQ-GW-1']);
      expect(await ok(admin.get('/api/light/gatewayList'))).toEqual(
        expect.arrayContaining([{ gatewayId: 'EQ-GW-1', name: 'Huaqiang North concentrator' }]),
      );
      // A new code is a new MQTT identity: administrators have Edit MQTT, and the gateway's lamps follow it.
      await ok(admin.post('/api/light/gatewayAddOrEdit', { id, gatewayId: 'EQ-GW-1A', name: 'Huaqiang North concentrator' }));
      expect(await table(`SELECT l.gateway_id FROM lamp l JOIN device d ON d.id = l.device_id WHERE d.code = 'EQ-L-1'`)).toEqual([
        { gateway_id: 'EQ-GW-1A' },
      ]);
      expect((await gatewayPage({ name: 'EQ-GW-1A' })).list[0]).toMatchObject({ regionName: 'Huaqiangbei Subdistrict', latitude: 22.5445 });
      await ok(admin.post('/api/light/gatewayAddOrEdit', { id, gatewayId: 'EQ-GW-1', name: 'Huaqiang North concentrator' }));
    });

    it('refuses bad gateways with the catalogue message, writing nothing', async () => {
      const before = await table(`SELECT * FROM lamp_gateway ORDER BY id`);
      const cases: [Record<string, unknown>, number, string][] = [
        [{ name: 'No code' }, 400, 'Gateway ID: Please enter'],
        [{ gatewayId: 'a/b', name: 'Bad code' }, 400, 'Gateway ID: Use at most 64 letters, digits and the characters _ . -'],
        [{ gatewayId: 'EQ-GW-9' }, 400, 'Name: Please enter'],
        [{ gatewayId: 'EQ-GW-9', name: 'Half a position', latitude: 22.5 }, 400, 'Latitude: Give both latitude and longitude, or neither'],
        [{ gatewayId: 'EQ-GW-9', name: 'Off the map', latitude: 95, longitude: 0 }, 400, 'Latitude: Must be between -90 and 90'],
        [{ gatewayId: 'EQ-GW-9', name: 'Nowhere', regionId: 999_999 }, 400, 'Region: The selected region does not exist'],
        [{ gatewayId: 'EQ-GW-2', name: 'Copy' }, 409, 'A gateway with the code "EQ-GW-2" already exists'],
      ];
      for (const [body, status, message] of cases) {
        expect(await refused(admin.post('/api/light/gatewayAddOrEdit', body))).toEqual({ status, message });
      }
      expect((await adminZh.post('/api/light/gatewayAddOrEdit', { gatewayId: 'EQ-GW-2', name: 'Copy' })).body.message).toBe(
        '编号为“EQ-GW-2”的网关已存在',
      );
      expect(await table(`SELECT * FROM lamp_gateway ORDER BY id`)).toEqual(before);
    });

    it('refuses to delete a gateway its lamps still name; deletes an unused one with its loops', async () => {
      const [{ id: busy }] = await gw.db.query<{ id: number }>(`SELECT id FROM lamp_gateway WHERE code = 'EQ-GW-1'`);
      expect(await refused(admin.get(`/api/light/gatewayDel?id=${busy}`))).toEqual({
        status: 400,
        message: 'This gateway cannot be deleted: lamps and strip lights still on it: 1',
      });
      const { id } = await ok(admin.post<{ id: number }>('/api/light/gatewayAddOrEdit', { gatewayId: 'EQ-GW-TMP', name: 'Temporary' }));
      await ok(admin.post('/api/light/loopAddOrEdit', { gatewayId: 'EQ-GW-TMP', code: 'L1', name: 'Loop 1' }));
      await ok(admin.get(`/api/light/gatewayDel?id=${id}`));
      expect(await table(`SELECT 1 FROM lamp_gateway WHERE id = ${id} UNION ALL SELECT 1 FROM lamp_loop WHERE gateway_id = ${id}`)).toEqual([]);
      expect((await admin.get(`/api/light/gatewayDel?id=${id}`)).status).toBe(404);
    });

    it('carries strip lights along with a gateway code change, and counts them before a delete', async () => {
      const { id } = await ok(admin.post<{ id: number }>('/api/light/gatewayAddOrEdit', { gatewayId: 'EQ-GW-S', name: 'Facade concentrator' }));
      const { id: stripId } = await ok(
        admin.post<{ id: number }>('/api/light/stripAddOrEdit', { lampName: 'EQ facade', clientId: 'EQ-S-1', gatewayId: 'EQ-GW-S' }),
      );
      const stripGateway = async () => (await table(`SELECT gateway_id FROM strip_light WHERE device_id = ${stripId}`))[0];
      await ok(admin.post('/api/light/gatewayAddOrEdit', { id, gatewayId: 'EQ-GW-S2', name: 'Facade concentrator' }));
      expect(await stripGateway()).toEqual({ gateway_id: 'EQ-GW-S2' });
      const before = await table(`SELECT * FROM lamp_gateway ORDER BY id`);
      expect(await refused(admin.get(`/api/light/gatewayDel?id=${id}`))).toEqual({
        status: 400,
        message: 'This gateway cannot be deleted: lamps and strip lights still on it: 1',
      });
      expect((await adminZh.get(`/api/light/gatewayDel?id=${id}`)).body.message).toBe('该网关下还有 1 盏灯或灯带，无法删除');
      expect(await table(`SELECT * FROM lamp_gateway ORDER BY id`)).toEqual(before);
      await ok(admin.get(`/api/light/stripDel?id=${stripId}`));
      await ok(admin.get(`/api/light/gatewayDel?id=${id}`));
    });
  });

  describe('loops', () => {
    it('adds loops to a gateway, lists them, offers them by gateway, and refuses bad ones', async () => {
      const { id } = await ok(admin.post<{ id: number }>('/api/light/loopAddOrEdit', { gatewayId: 'EQ-GW-1', code: 'L1', name: 'North side' }));
      await ok(admin.post('/api/light/loopAddOrEdit', { gatewayId: 'EQ-GW-1', code: 'L2', name: 'South side', remark: 'Night circuit' }));
      await ok(admin.post('/api/light/loopAddOrEdit', { gatewayId: 'EQ-GW-2', code: 'L1', name: 'Keyuan loop' }));
      const page = await loopPage({ gatewayId: 'EQ-GW-1' });
      expect(page.list).toEqual([
        { id, code: 'L1', name: 'North side', gatewayId: 'EQ-GW-1', gatewayName: 'Huaqiang North concentrator', remark: '', lampCount: 0 },
        expect.objectContaining({ code: 'L2', remark: 'Night circuit' }),
      ]);
      expect((await loopPage({ name: 'keyuan' })).list.map((l) => l.gatewayId)).toEqual(['EQ-GW-2']);
      const options = await ok(admin.get<LoopOption[]>('/api/light/loopList?gatewayId=EQ-GW-1'));
      expect(options.map((o) => o.code)).toEqual(['L1', 'L2']);

      const before = await table(`SELECT * FROM lamp_loop ORDER BY id`);
      expect(await refused(admin.post('/api/light/loopAddOrEdit', { gatewayId: 'EQ-GW-1', code: 'L1', name: 'Again' }))).toEqual({
        status: 409,
        message: 'This gateway already has a loop with the code "L1"',
      });
      expect(await refused(admin.post('/api/light/loopAddOrEdit', { gatewayId: 'NO-SUCH', code: 'L9', name: 'Orphan' }))).toEqual({
        status: 400,
        message: 'Gateway ID: The selected gateway does not exist',
      });
      expect(await refused(admin.post('/api/light/loopAddOrEdit', { code: 'L9', name: 'Orphan' }))).toEqual({
        status: 400,
        message: 'Gateway ID: Please select',
      });
      expect(await table(`SELECT * FROM lamp_loop ORDER BY id`)).toEqual(before);
    });
  });

  describe('lamps on their gateway', () => {
    let lampId: number;
    let loop1: number;
    let otherLoop: number;
    beforeAll(async () => {
      lampId = await addLamp({ lampName: 'Bindable', clientId: 'EQ-L-2' });
      [{ id: loop1 }] = await gw.db.query<{ id: number }>(
        `SELECT lp.id FROM lamp_loop lp JOIN lamp_gateway g ON g.id = lp.gateway_id WHERE g.code = 'EQ-GW-1' AND lp.code = 'L1'`,
      );
      [{ id: otherLoop }] = await gw.db.query<{ id: number }>(
        `SELECT lp.id FROM lamp_loop lp JOIN lamp_gateway g ON g.id = lp.gateway_id WHERE g.code = 'EQ-GW-2'`,
      );
    });

    it('binds a lamp to a gateway, controller and loop; every part is required', async () => {
      const before = await table(`SELECT * FROM lamp ORDER BY device_id`);
      const incomplete = [
        { id: lampId, lampControlId: 'LC-2', loopId: loop1 },
        { id: lampId, gatewayId: 'EQ-GW-1', loopId: loop1 },
        { id: lampId, gatewayId: 'EQ-GW-1', lampControlId: 'LC-2' },
        { id: lampId, gatewayId: '', lampControlId: 'LC-2', loopId: loop1 },
      ];
      for (const body of incomplete) {
        const answer = await refused(admin.post('/api/light/lampBindGateway', body));
        expect(answer.status).toBe(400);
        expect(answer.message).toMatch(/: Device binding needs complete information$/);
      }
      expect((await adminZh.post('/api/light/lampBindGateway', incomplete[0])).body.message).toBe('网关 ID：设备绑定信息不完整');
      expect(
        await refused(admin.post('/api/light/lampBindGateway', { id: lampId, gatewayId: 'EQ-GW-1', lampControlId: 'LC-2', loopId: otherLoop })),
      ).toEqual({
        status: 400,
        message: 'Loop: The selected loop does not belong to the selected gateway',
      });
      expect(await table(`SELECT * FROM lamp ORDER BY device_id`)).toEqual(before);

      await ok(admin.post('/api/light/lampBindGateway', { id: lampId, gatewayId: 'EQ-GW-1', lampControlId: 'LC-2', loopId: loop1 }));
      expect(await lampDetail(lampId)).toMatchObject({ gatewayId: 'EQ-GW-1', lampControlId: 'LC-2', loopId: loop1, loopName: 'North side' });
      expect((await loopPage({ gatewayId: 'EQ-GW-1' })).list[0].lampCount).toBe(1);
    });

    it('moves selected lamps to another gateway (leaving their loop); refuses an unknown gateway or an empty selection', async () => {
      const before = await table(`SELECT * FROM lamp ORDER BY device_id`);
      expect(await refused(admin.post('/api/light/lampBatchUpdateGateway', { ids: [], gatewayId: 'EQ-GW-2' }))).toEqual({
        status: 400,
        message: 'Lamps: Please select a list item',
      });
      expect(await refused(admin.post('/api/light/lampBatchUpdateGateway', { ids: [lampId], gatewayId: 'NO-SUCH' }))).toEqual({
        status: 400,
        message: 'Gateway ID: The selected gateway does not exist',
      });
      expect(await refused(admin.post('/api/light/lampBatchUpdateGateway', { ids: [lampId, 999_999], gatewayId: 'EQ-GW-2' }))).toEqual({
        status: 400,
        message: 'Lamps: These lamps do not exist: 999999',
      });
      expect(await table(`SELECT * FROM lamp ORDER BY device_id`)).toEqual(before);
      expect(await ok(admin.post('/api/light/lampBatchUpdateGateway', { ids: [lampId], gatewayId: 'EQ-GW-2' }))).toEqual({ updated: 1 });
      expect(await lampDetail(lampId)).toMatchObject({ gatewayId: 'EQ-GW-2', loopId: null, lampControlId: 'LC-2' });
    });

    it('add and Edit take only a recorded gateway, and a lamp that changes gateway leaves its old loop', async () => {
      const id = await addLamp({ lampName: 'Movable', clientId: 'EQ-L-7' });
      await ok(admin.post('/api/light/lampBindGateway', { id, gatewayId: 'EQ-GW-1', lampControlId: 'LC-7', loopId: loop1 }));
      const before = await table(`SELECT * FROM lamp ORDER BY device_id`);
      const devices = await table(`SELECT id, code, name FROM device ORDER BY id`);
      for (const body of [
        { id, lampName: 'Movable', clientId: 'EQ-L-7', gatewayId: 'NOPE' },
        { lampName: 'Unwired', clientId: 'EQ-L-8', gatewayId: 'NOPE' },
      ]) {
        expect(await refused(admin.post('/api/light/lampAddOrEdit', body))).toEqual({
          status: 400,
          message: 'Gateway ID: The selected gateway does not exist',
        });
        expect((await adminZh.post('/api/light/lampAddOrEdit', body)).body.message).toBe('网关 ID：所选网关不存在');
      }
      expect(await table(`SELECT * FROM lamp ORDER BY device_id`)).toEqual(before);
      expect(await table(`SELECT id, code, name FROM device ORDER BY id`)).toEqual(devices);

      // The same gateway keeps the loop; another one leaves it (it belonged to the old gateway).
      await addLamp({ id, lampName: 'Movable', clientId: 'EQ-L-7', gatewayId: 'EQ-GW-1' });
      expect(await lampDetail(id)).toMatchObject({ gatewayId: 'EQ-GW-1', loopId: loop1 });
      await addLamp({ id, lampName: 'Movable', clientId: 'EQ-L-7', gatewayId: 'EQ-GW-2' });
      expect(await lampDetail(id)).toMatchObject({ gatewayId: 'EQ-GW-2', loopId: null, lampControlId: 'LC-7' });
      // A gateway the lamp reported (not recorded) may stay as it is; '' is no gateway.
      await gw.db.query(`UPDATE lamp SET gateway_id = 'REPORTED-GW' WHERE device_id = $1`, [id]);
      await addLamp({ id, lampName: 'Movable again', clientId: 'EQ-L-7', gatewayId: 'REPORTED-GW' });
      await addLamp({ id, lampName: 'Movable again', clientId: 'EQ-L-7', gatewayId: '' });
      expect(await lampDetail(id)).toMatchObject({ lampName: 'Movable again', gatewayId: '' });
      await ok(admin.get(`/api/light/lampDel?id=${id}`));
    });

    it('shows every lamp field: position, colour, group, last commanded level beside the reported brightness', async () => {
      const id = await addLamp({
        lampName: 'Full',
        clientId: 'EQ-L-3',
        latitude: 22.54,
        longitude: 114.08,
        color: '#FFD27F',
        mac: '02:00:00:00:00:33',
      });
      await ok(admin.post('/api/light/lampControl', { ids: [id], action: 'dim', level: 60 }));
      const row = await lampDetail(id);
      expect(row).toMatchObject({ latitude: 22.54, longitude: 114.08, color: '#ffd27f', level: 60, bri: 0, groupId: null, mac: '02:00:00:00:00:33' });
      expect(await refused(admin.post('/api/light/lampAddOrEdit', { lampName: 'Half', clientId: 'EQ-L-4', latitude: 1 }))).toEqual({
        status: 400,
        message: 'Latitude: Give both latitude and longitude, or neither',
      });
      expect(await refused(admin.post('/api/light/lampAddOrEdit', { lampName: 'Odd colour', clientId: 'EQ-L-4', color: 'orange' }))).toEqual({
        status: 400,
        message: 'Colour: Use a colour like #ff8800',
      });
      expect(await refused(admin.post('/api/light/lampAddOrEdit', { lampName: 'No group', clientId: 'EQ-L-4', groupId: 999_999 }))).toEqual({
        status: 400,
        message: 'Group: The selected group does not exist',
      });
      expect(await table(`SELECT 1 FROM device WHERE code = 'EQ-L-4'`)).toEqual([]);
      const before = await table(`SELECT code FROM device WHERE id = ${id}`);
      expect(await refused(admin.post('/api/light/lampEditMqtt', { id, clientId: 'city/v1/#' }))).toEqual({
        status: 400,
        message: 'Client ID: Use at most 64 letters, digits and the characters _ . -',
      });
      expect((await admin.post('/api/light/lampEditMqtt', { id: 999_999, clientId: 'EQ-L-9' })).status).toBe(404);
      expect(await table(`SELECT code FROM device WHERE id = ${id}`)).toEqual(before);
      expect((await admin.get('/api/light/lampDetail?id=999999')).status).toBe(404);
    });

    it('Sync Data writes a sync dispatch through the ledger', async () => {
      const { dispatchId } = await ok(admin.post<{ dispatchId: string }>('/api/light/lampControl', { ids: [lampId], action: 'sync' }));
      expect(await gw.db.query(`SELECT action, params FROM dispatch WHERE id = $1`, [dispatchId])).toEqual([{ action: 'sync', params: {} }]);
      expect(await gw.db.query(`SELECT device_id, state FROM dispatch_item WHERE dispatch_id = $1`, [dispatchId])).toEqual([
        { device_id: lampId, state: 'queued' },
      ]);
      const detail = await ok(admin.get<{ status: DispatchStatus }>(`/api/dispatch/detail?id=${dispatchId}`));
      expect(detail.status).toBe(DispatchStatus.ToBeSent);
    });

    it('batch delete needs a selection and deletes nothing when an id is unknown', async () => {
      const a = await addLamp({ lampName: 'Doomed A', clientId: 'EQ-L-5' });
      const b = await addLamp({ lampName: 'Doomed B', clientId: 'EQ-L-6' });
      expect(await refused(admin.post('/api/light/lampBatchDel', { ids: [] }))).toEqual({ status: 400, message: 'Lamps: Please select a list item' });
      expect(await refused(admin.post('/api/light/lampBatchDel', { ids: [a, 999_998] }))).toEqual({
        status: 400,
        message: 'Lamps: These lamps do not exist: 999998',
      });
      expect(await table(`SELECT count(*)::int AS n FROM device WHERE code IN ('EQ-L-5', 'EQ-L-6')`)).toEqual([{ n: 2 }]);
      expect(await ok(admin.post('/api/light/lampBatchDel', { ids: [a, b] }))).toEqual({ deleted: 2 });
      expect(await table(`SELECT count(*)::int AS n FROM device WHERE code IN ('EQ-L-5', 'EQ-L-6')`)).toEqual([{ n: 0 }]);
    });

    it('deleting a loop unbinds its lamps', async () => {
      await ok(admin.post('/api/light/lampBindGateway', { id: lampId, gatewayId: 'EQ-GW-2', lampControlId: 'LC-2', loopId: otherLoop }));
      await ok(admin.get(`/api/light/loopDel?id=${otherLoop}`));
      expect(await lampDetail(lampId)).toMatchObject({ gatewayId: 'EQ-GW-2', loopId: null });
      expect((await admin.get(`/api/light/loopDel?id=${otherLoop}`)).status).toBe(404);
    });
  });

  describe('device groups', () => {
    let north: number;
    let south: number;
    let empty: number;
    let lamps: number[];
    beforeAll(async () => {
      lamps = [await addLamp({ lampName: 'Group A', clientId: 'EQ-G-1' }), await addLamp({ lampName: 'Group B', clientId: 'EQ-G-2' })];
    });

    it('adds and renames groups of single lamps; refuses an empty or taken name', async () => {
      ({ id: north } = await ok(admin.post<{ id: number }>('/api/light/groupAddOrEdit', { type: 1, name: 'North' })));
      ({ id: south } = await ok(admin.post<{ id: number }>('/api/light/groupAddOrEdit', { type: 1, name: 'South' })));
      ({ id: empty } = await ok(admin.post<{ id: number }>('/api/light/groupAddOrEdit', { type: 1, name: 'Spare' })));
      await ok(admin.post('/api/light/groupAddOrEdit', { id: north, type: 1, name: 'North side' }));
      const before = await table(`SELECT * FROM device_group ORDER BY id`);
      expect(await refused(admin.post('/api/light/groupAddOrEdit', { type: 1, name: ' ' }))).toEqual({
        status: 400,
        message: 'Name: Please enter the group name',
      });
      const taken = await admin.post('/api/light/groupAddOrEdit', { type: 1, name: 'south' });
      expect({ status: taken.status, message: taken.body.message }).toEqual({ status: 409, message: 'A device group named "south" already exists' });
      // Also under the field, for the form.
      expect(taken.body.data).toEqual({
        errors: [
          { field: 'name', message: 'Name: A device group named "south" already exists', reason: 'A device group named "south" already exists' },
        ],
      });
      expect(await refused(admin.post('/api/light/groupAddOrEdit', { type: 3, name: 'Speakers' }))).toEqual({
        status: 400,
        message: 'Device type: Invalid value',
      });
      expect(await table(`SELECT * FROM device_group ORDER BY id`)).toEqual(before);
      expect((await groups()).map((g) => [g.name, g.deviceCount])).toEqual([
        ['North side', 0],
        ['South', 0],
        ['Spare', 0],
      ]);
    });

    it('moves selected devices to a group; a target is required and an empty source group cannot be chosen', async () => {
      const before = await table(`SELECT id, group_id FROM device ORDER BY id`);
      expect(await refused(admin.post('/api/light/groupMove', { type: 1, ids: lamps }))).toEqual({
        status: 400,
        message: 'Group: Please select a group',
      });
      expect(await refused(admin.post('/api/light/groupMove', { type: 1, fromGroupId: empty, groupId: north }))).toEqual({
        status: 400,
        message: 'Source group: This group has no devices and cannot be selected',
      });
      expect((await adminZh.post('/api/light/groupMove', { type: 1, fromGroupId: empty, groupId: north })).body.message).toBe(
        '源分组：该分组下没有设备，不能选择',
      );
      expect(await refused(admin.post('/api/light/groupMove', { type: 1, ids: [], groupId: north }))).toEqual({
        status: 400,
        message: 'Lamps: Please select a list item',
      });
      expect(await table(`SELECT id, group_id FROM device ORDER BY id`)).toEqual(before);

      expect(await ok(admin.post('/api/light/groupMove', { type: 1, ids: lamps, groupId: north }))).toEqual({ moved: 2 });
      expect((await lampDetail(lamps[0])).groupName).toBe('North side');
      const page = await ok(admin.post<PageResult<LampRow>>('/api/light/lampPage', { pageNum: 1, pageSize: 10, groupId: north }));
      expect(page.list.map((l) => l.clientId)).toEqual(['EQ-G-1', 'EQ-G-2']);
      // A whole group moves to another.
      expect(await ok(admin.post('/api/light/groupMove', { type: 1, fromGroupId: north, groupId: south }))).toEqual({ moved: 2 });
      expect((await groups()).map((g) => [g.name, g.deviceCount])).toEqual([
        ['North side', 0],
        ['South', 2],
        ['Spare', 0],
      ]);
    });

    it('refuses to delete a group with members; deletes an empty one', async () => {
      expect(await refused(admin.get(`/api/light/groupDel?type=1&id=${south}`))).toEqual({
        status: 400,
        message: 'This group cannot be deleted: devices still in it: 2',
      });
      await ok(admin.get(`/api/light/groupDel?type=1&id=${empty}`));
      expect((await groups()).map((g) => g.name)).toEqual(['North side', 'South']);
      expect((await admin.get(`/api/light/groupDel?type=1&id=${empty}`)).status).toBe(404);
    });
  });

  describe('who may', () => {
    it('refuses editors and visitors on every equipment call, changing nothing', async () => {
      const [{ id: lampId }] = await gw.db.query<{ id: number }>(`SELECT id FROM device WHERE code = 'EQ-L-1'`);
      const [{ id: gatewayId }] = await gw.db.query<{ id: number }>(`SELECT id FROM lamp_gateway WHERE code = 'EQ-GW-2'`);
      const [{ id: loopId }] = await gw.db.query<{ id: number }>(`SELECT id FROM lamp_loop LIMIT 1`);
      const [{ id: groupId }] = await gw.db.query<{ id: number }>(`SELECT id FROM device_group LIMIT 1`);
      const calls: [string, (c: ApiClient) => Promise<{ status: number; body: { code: number } }>][] = [
        ['gatewayPage', (c) => c.post('/api/light/gatewayPage', { pageNum: 1, pageSize: 10 })],
        ['gatewayList', (c) => c.get('/api/light/gatewayList')],
        ['gatewayAddOrEdit', (c) => c.post('/api/light/gatewayAddOrEdit', { gatewayId: 'EQ-GW-X', name: 'Intruder' })],
        ['gatewayDel', (c) => c.get(`/api/light/gatewayDel?id=${gatewayId}`)],
        ['loopPage', (c) => c.post('/api/light/loopPage', { pageNum: 1, pageSize: 10 })],
        ['loopList', (c) => c.get('/api/light/loopList?gatewayId=EQ-GW-1')],
        ['loopAddOrEdit', (c) => c.post('/api/light/loopAddOrEdit', { gatewayId: 'EQ-GW-1', code: 'LX', name: 'Intruder' })],
        ['loopDel', (c) => c.get(`/api/light/loopDel?id=${loopId}`)],
        ['lampDetail', (c) => c.get(`/api/light/lampDetail?id=${lampId}`)],
        ['lampEditMqtt', (c) => c.post('/api/light/lampEditMqtt', { id: lampId, clientId: 'EQ-HIJACK' })],
        ['lampBindGateway', (c) => c.post('/api/light/lampBindGateway', { id: lampId, gatewayId: 'EQ-GW-1', lampControlId: 'X', loopId })],
        ['lampBatchUpdateGateway', (c) => c.post('/api/light/lampBatchUpdateGateway', { ids: [lampId], gatewayId: 'EQ-GW-2' })],
        ['lampBatchDel', (c) => c.post('/api/light/lampBatchDel', { ids: [lampId] })],
        ['lampControl sync', (c) => c.post('/api/light/lampControl', { ids: [lampId], action: 'sync' })],
        ['groupList', (c) => c.get('/api/light/groupList?type=1')],
        ['groupAddOrEdit', (c) => c.post('/api/light/groupAddOrEdit', { type: 1, name: 'Intruders' })],
        ['groupDel', (c) => c.get(`/api/light/groupDel?type=1&id=${groupId}`)],
        ['groupMove', (c) => c.post('/api/light/groupMove', { type: 1, ids: [lampId], groupId })],
      ];
      const snapshot = async () => ({
        devices: await table(`SELECT id, code, group_id FROM device ORDER BY id`),
        lamps: await table(`SELECT device_id, gateway_id, loop_id, lamp_control_id FROM lamp ORDER BY device_id`),
        gateways: await table(`SELECT * FROM lamp_gateway ORDER BY id`),
        loops: await table(`SELECT * FROM lamp_loop ORDER BY id`),
        groups: await table(`SELECT * FROM device_group ORDER BY id`),
        dispatches: await table(`SELECT count(*)::int AS n FROM dispatch`),
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
  });

  describe('demo data', () => {
    it('gives the demo lamps gateways (the simulator codes), two loops each, groups and positions, once', async () => {
      expect(await loadDemoLamps(gw.db.url)).toBe('loaded');
      expect(await loadDemoEquipment(gw.db.url)).toBe('loaded');
      expect(await loadDemoEquipment(gw.db.url)).toBe('already-loaded');
      const codes = [...new Set(DEMO_LAMPS.map((l) => l.gatewayId))].sort();
      expect(DEMO_STREETS.map((s) => s.gatewayId)).toEqual(codes);
      const gateways = await gatewayPage({ name: 'LGW-' });
      expect(gateways.list.map((g) => [g.gatewayId, g.loopCount, g.lampCount])).toEqual(
        codes.map((c) => [c, 2, DEMO_LAMPS.filter((l) => l.gatewayId === c).length]),
      );
      expect(gateways.list.every((g) => g.regionName !== null && g.latitude !== null)).toBe(true);
      const [unplaced] = await gw.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM device d JOIN lamp l ON l.device_id = d.id
          WHERE d.code LIKE 'LAMP-%' AND (d.latitude IS NULL OR d.group_id IS NULL OR l.loop_id IS NULL)`,
      );
      expect(unplaced.n).toBe(0);
      const first = await ok(admin.post<PageResult<LampRow>>('/api/light/lampPage', { pageNum: 1, pageSize: 1, gatewayId: 'LGW-01' }));
      expect(first.list[0]).toMatchObject({ clientId: 'LAMP-00001', loopName: 'First half of the street', groupName: 'Main roads' });
      expect(first.list[0].latitude).toBeCloseTo(22.5402, 4);
    });
  });
});
