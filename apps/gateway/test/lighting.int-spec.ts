import { Queue } from 'bullmq';
import { DispatchStatus, JobName, QueueName, type DispatchDetail, type LampRow, type PageResult } from '@sc/contracts';
import { bullPrefix } from '@sc/messaging';
import { waitFor, type ApiClient } from '@sc/testing';
import { OutboxRelay } from '../src/dispatch/outbox-relay';
import { startTestGateway, type TestGateway } from './harness';

const LEDGER_TABLES = ['dispatch', 'dispatch_item', 'outbox'] as const;

describe('street lamps and the command ledger', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let adminZh: ApiClient;
  let queue: Queue;
  const region: Record<string, number> = {};
  const lamp: Record<string, number> = {};

  /** One query at a time: the test database is a single connection. */
  const ledgerCounts = async () => {
    const counts: Record<string, number> = {};
    for (const table of LEDGER_TABLES) counts[table] = (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
    return counts;
  };
  const addLamp = async (body: Record<string, unknown>) => {
    const answer = await admin.post<{ id: number }>('/api/light/lampAddOrEdit', body);
    expect(answer.body).toMatchObject({ code: 200 });
    return answer.body.data.id;
  };
  const page = async (filters: Record<string, unknown>) =>
    (await admin.post<PageResult<LampRow>>('/api/light/lampPage', { pageNum: 1, pageSize: 50, ...filters })).body.data;
  const detail = async (id: string) => (await admin.get<DispatchDetail>(`/api/dispatch/detail?id=${id}`)).body.data;

  beforeAll(async () => {
    gw = await startTestGateway();
    admin = await gw.signedIn('admin');
    adminZh = admin.as(admin.token, 'zh-CN');
    for (const row of await gw.db.query<{ id: number; region_name: string }>(`SELECT id, region_name FROM region`)) region[row.region_name] = row.id;
    // A lamp's gateway must be a recorded one.
    await gw.db.query(`INSERT INTO lamp_gateway (code, name) VALUES ('GW-1', 'Gateway 1'), ('GW-3', 'Gateway 3'), ('GW-9', 'Gateway 9')`);
    lamp.a = await addLamp({ lampName: 'Huaqiang North 1', clientId: 'T-0001', regionId: region['Huaqiangbei Subdistrict'], gatewayId: 'GW-1' });
    lamp.b = await addLamp({ lampName: 'Hongli Road 1', clientId: 'T-0002', regionId: region['Lianhua Subdistrict'] });
    lamp.c = await addLamp({ lampName: 'Keyuan Road 1', clientId: 'T-0003', regionId: region['Yuehai Subdistrict'] });
    lamp.d = await addLamp({ lampName: 'Depot spare', clientId: 'T-0004', regionId: null });
    queue = new Queue(QueueName.LampDistribution, { connection: { url: gw.config.redisUrl }, prefix: bullPrefix(gw.config.redisPrefix) });
  });
  afterAll(async () => {
    await queue.close();
    await gw.close();
  });

  describe('lamp records', () => {
    it('adds a lamp as a device of type single lamp (code = clientId) with its lamp row', async () => {
      const id = await addLamp({
        lampName: 'Shennan Avenue 7',
        clientId: 'T-0100',
        regionId: region['Futian District'],
        gatewayId: 'GW-9',
        lampControlId: 'LC-9',
        addr: 'Shennan Avenue No. 7',
        mac: '02:00:00:00:00:07',
      });
      expect(await gw.db.query(`SELECT type, code, name, region_id FROM device WHERE id = $1`, [id])).toEqual([
        { type: 1, code: 'T-0100', name: 'Shennan Avenue 7', region_id: region['Futian District'] },
      ]);
      const [row] = (await page({ lampName: 'shennan avenue' })).list;
      expect(row).toMatchObject({
        id,
        lampName: 'Shennan Avenue 7',
        clientId: 'T-0100',
        regionId: region['Futian District'],
        regionName: 'Futian District',
        gatewayId: 'GW-9',
        lampControlId: 'LC-9',
        addr: 'Shennan Avenue No. 7',
        mac: '02:00:00:00:00:07',
        bri: 0,
        switchState: 0,
        status: 0,
        networkStatus: 0,
        telemetry: null,
        faults: [],
        reportedAt: null,
      });
      expect((await admin.get(`/api/light/lampDel?id=${id}`)).body.code).toBe(200);
    });

    it('refuses a taken clientId with a translated conflict, and writes nothing', async () => {
      const before = await gw.db.query(`SELECT count(*)::int AS n FROM device`);
      const en = await admin.post('/api/light/lampAddOrEdit', { lampName: 'Copy', clientId: 'T-0001' });
      expect(en.status).toBe(409);
      expect(en.body.message).toBe('A lamp with the client ID "T-0001" already exists');
      // Also under the field, for the form.
      expect(en.body.data).toEqual({
        errors: [
          {
            field: 'clientId',
            message: 'Client ID: A lamp with the client ID "T-0001" already exists',
            reason: 'A lamp with the client ID "T-0001" already exists',
          },
        ],
      });
      const zh = await adminZh.post('/api/light/lampAddOrEdit', { lampName: 'Copy', clientId: 'T-0001' });
      expect(zh.body.message).toBe('客户端 ID“T-0001”已被其他灯具使用');
      expect(zh.body.data).toEqual({ errors: [expect.objectContaining({ field: 'clientId', reason: '客户端 ID“T-0001”已被其他灯具使用' })] });
      expect(await gw.db.query(`SELECT count(*)::int AS n FROM device`)).toEqual(before);
    });

    it('validates the fields', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ clientId: 'T-0200' }, 'Lamp name: Please enter'],
        [{ lampName: 'x'.repeat(65), clientId: 'T-0200' }, 'Lamp name: At most 64 characters'],
        [{ lampName: 'Bad code' }, 'Client ID: Please enter'],
        [{ lampName: 'Bad code', clientId: 'city/v1/#' }, 'Client ID: Use at most 64 letters, digits and the characters _ . -'],
        [{ lampName: 'No region', clientId: 'T-0200', regionId: 999_999 }, 'Region: The selected region does not exist'],
      ];
      for (const [body, message] of cases) {
        const answer = await admin.post('/api/light/lampAddOrEdit', body);
        expect({ status: answer.status, message: answer.body.message }).toEqual({ status: 400, message });
      }
      const zh = await adminZh.post('/api/light/lampAddOrEdit', { lampName: 'Bad code', clientId: 'a b' });
      expect(zh.body.message).toBe('客户端 ID：最多 64 个字符，只能包含字母、数字和 _ . -');
      expect(await gw.db.query(`SELECT 1 FROM device WHERE code = 'T-0200'`)).toEqual([]);
    });

    it('edits a lamp: fields left out keep their values, regionId null clears the region', async () => {
      const id = await addLamp({ lampName: 'Editable', clientId: 'T-0300', regionId: region['Shenzhen'], gatewayId: 'GW-3', addr: 'Somewhere' });
      // The clientId is the lamp's MQTT identity: plain Edit refuses to change it, Edit MQTT does.
      const renamed = await admin.post('/api/light/lampAddOrEdit', { id, lampName: 'Edited', clientId: 'T-0301' });
      expect({ status: renamed.status, message: renamed.body.message }).toEqual({
        status: 400,
        message: "Client ID: This is the device's MQTT identity: change it with Edit MQTT",
      });
      expect(await gw.db.query(`SELECT code, name FROM device WHERE id = $1`, [id])).toEqual([{ code: 'T-0300', name: 'Editable' }]);
      expect((await admin.post('/api/light/lampEditMqtt', { id, clientId: 'T-0301' })).body.code).toBe(200);
      expect(await addLamp({ id, lampName: 'Edited', clientId: 'T-0301' })).toBe(id);
      expect((await page({ lampName: 'edited' })).list[0]).toMatchObject({
        clientId: 'T-0301',
        regionId: region['Shenzhen'],
        gatewayId: 'GW-3',
        addr: 'Somewhere',
      });
      await addLamp({ id, lampName: 'Edited', clientId: 'T-0301', regionId: null, addr: '' });
      expect((await page({ lampName: 'edited' })).list[0]).toMatchObject({ regionId: null, regionName: null, gatewayId: 'GW-3', addr: '' });
      const clash = await admin.post('/api/light/lampEditMqtt', { id, clientId: 'T-0001' });
      expect(clash.status).toBe(409);
      const unknown = await admin.post('/api/light/lampAddOrEdit', { id: 999_999, lampName: 'Ghost', clientId: 'T-0999' });
      expect(unknown.status).toBe(404);
      expect((await admin.get(`/api/light/lampDel?id=${id}`)).body.code).toBe(200);
    });

    it('deletes a lamp with its device record and its dispatch rows; an unknown id is 404', async () => {
      const id = await addLamp({ lampName: 'Short-lived', clientId: 'T-0400' });
      const control = await admin.post<{ dispatchId: string }>('/api/light/lampControl', { ids: [id], action: 'on' });
      expect(control.body.code).toBe(200);
      expect((await admin.get(`/api/light/lampDel?id=${id}`)).body.code).toBe(200);
      expect(await gw.db.query(`SELECT 1 FROM device WHERE id = $1 UNION ALL SELECT 1 FROM lamp WHERE device_id = $1`, [id])).toEqual([]);
      expect(await gw.db.query(`SELECT 1 FROM dispatch_item WHERE device_id = $1`, [id])).toEqual([]);
      const again = await admin.get(`/api/light/lampDel?id=${id}`);
      expect({ status: again.status, message: again.body.message }).toEqual({ status: 404, message: 'The requested item does not exist' });
    });

    it('pages and filters by name, region (with its sub-regions), status and network status, ordered by id', async () => {
      await gw.db.query(`UPDATE lamp SET status = -5, network_status = 0 WHERE device_id = $1`, [lamp.b]);
      await gw.db.query(`UPDATE lamp SET status = 0, network_status = 1 WHERE device_id IN ($1, $2)`, [lamp.a, lamp.c]);
      const ids = async (filters: Record<string, unknown>) => {
        const result = await page(filters);
        expect(result.total).toBe(result.list.length);
        return result.list.map((l) => l.id);
      };
      expect(await ids({})).toEqual([lamp.a, lamp.b, lamp.c, lamp.d]);
      expect(await ids({ lampName: 'ROAD' })).toEqual([lamp.b, lamp.c]);
      expect(await ids({ lampName: '%' })).toEqual([]);
      expect(await ids({ regionId: region['Futian District'] })).toEqual([lamp.a, lamp.b]);
      expect(await ids({ regionId: region['Shenzhen'] })).toEqual([lamp.a, lamp.b, lamp.c]);
      expect(await ids({ regionId: region['Lianhua Subdistrict'] })).toEqual([lamp.b]);
      expect(await ids({ regionId: region['Hangzhou'] })).toEqual([]);
      expect(await ids({ status: -5 })).toEqual([lamp.b]);
      expect(await ids({ status: 0, networkStatus: 1 })).toEqual([lamp.a, lamp.c]);
      expect(await ids({ networkStatus: 0 })).toEqual([lamp.b, lamp.d]);
      const second = await page({ pageNum: 2, pageSize: 3 });
      expect({ ids: second.list.map((l) => l.id), total: second.total }).toEqual({ ids: [lamp.d], total: 4 });
      const bad = await admin.post('/api/light/lampPage', { pageNum: 1, pageSize: 10, status: 7 });
      expect({ status: bad.status, message: bad.body.message }).toEqual({ status: 400, message: 'Status: Invalid value' });
    });
  });

  describe('lamp control', () => {
    it('answers every bad selection with a translated 400 and writes nothing', async () => {
      const [strip] = await gw.db.query<{ id: number }>(`INSERT INTO device (type, code, name) VALUES (2, 'STRIP-1', 'A strip light') RETURNING id`);
      const cases: { body: Record<string, unknown>; en: string; zh: string }[] = [
        { body: { ids: [], action: 'on' }, en: 'Please select at least one lamp or a region', zh: '请至少选择一盏灯或一个区域' },
        { body: { action: 'off' }, en: 'Please select at least one lamp or a region', zh: '请至少选择一盏灯或一个区域' },
        {
          body: { ids: [lamp.a], regionId: region['Shenzhen'], action: 'on' },
          en: 'Select either lamps or a region, not both',
          zh: '请选择灯具或区域，不能同时选择两者',
        },
        { body: { ids: [lamp.a, 999_999], action: 'on' }, en: 'Lamps: These lamps do not exist: 999999', zh: '灯具：以下灯具不存在：999999' },
        {
          body: { ids: [lamp.a, strip.id], action: 'off' },
          en: `Lamps: These lamps do not exist: ${strip.id}`,
          zh: `灯具：以下灯具不存在：${strip.id}`,
        },
        { body: { ids: [lamp.a], action: 'dim' }, en: 'Brightness: Please select', zh: '亮度：请选择' },
        // null is no level too: it must not clear the lamp's level nor dispatch a command no lamp can run.
        { body: { ids: [lamp.a], action: 'dim', level: null }, en: 'Brightness: Please select', zh: '亮度：请选择' },
        { body: { regionId: region['Shenzhen'], action: 'dim', level: null }, en: 'Brightness: Please select', zh: '亮度：请选择' },
        {
          body: { ids: [lamp.a], action: 'dim', level: 50 },
          en: 'Brightness: The brightness must be one of 0, 20, 40, 60, 80, 100',
          zh: '亮度：亮度只能是 0, 20, 40, 60, 80, 100 之一',
        },
        { body: { ids: [lamp.a], action: 'blink' }, en: 'Action: Invalid value', zh: '操作：取值无效' },
        { body: { ids: ['x'], action: 'on' }, en: 'Lamps: Invalid value', zh: '灯具：取值无效' },
        {
          body: { regionId: region['Shekou Subdistrict'], action: 'on' },
          en: 'Region: There are no lamps in the selected region',
          zh: '区域：所选区域下没有灯具',
        },
        { body: { regionId: 999_999, action: 'on' }, en: 'Region: The selected region does not exist', zh: '区域：所选区域不存在' },
      ];
      await gw.db.query(`UPDATE lamp SET level = 60 WHERE device_id = $1`, [lamp.a]);
      const before = await ledgerCounts();
      const levels = await gw.db.query(`SELECT device_id, level FROM lamp ORDER BY device_id`);
      for (const { body, en, zh } of cases) {
        const [english, chinese] = [await admin.post('/api/light/lampControl', body), await adminZh.post('/api/light/lampControl', body)];
        expect({ body, status: english.status, code: english.body.code, en: english.body.message, zh: chinese.body.message }).toEqual({
          body,
          status: 400,
          code: 400,
          en,
          zh,
        });
      }
      expect(await ledgerCounts()).toEqual(before);
      expect(await gw.db.query(`SELECT device_id, level FROM lamp ORDER BY device_id`)).toEqual(levels);
      await gw.db.query(`DELETE FROM device WHERE id = $1`, [strip.id]);
    });

    it('writes the dispatch, one queued item per lamp and one outbox row in one transaction', async () => {
      // Holds the relay so the outbox row can be seen before it goes.
      const relay = gw.app.get(OutboxRelay);
      await relay.close();
      try {
        const before = await ledgerCounts();
        const answer = await admin.post<{ dispatchId: string }>('/api/light/lampControl', {
          ids: [lamp.c, lamp.a, lamp.a],
          action: 'dim',
          level: 40,
        });
        expect(answer.body.code).toBe(200);
        const { dispatchId } = answer.body.data;
        expect(await ledgerCounts()).toEqual({ dispatch: before.dispatch + 1, dispatch_item: before.dispatch_item + 2, outbox: before.outbox + 1 });
        const [dispatch] = await gw.db.query<Record<string, unknown>>(
          `SELECT family, action, params, status, created_by, finished_at, round(extract(epoch FROM expires_at - created_at)) AS ttl, xmin::text
             FROM dispatch WHERE id = $1`,
          [dispatchId],
        );
        expect(dispatch).toMatchObject({
          family: 'lamp',
          action: 'dim',
          params: { level: 40 },
          status: 'toBeSent',
          created_by: 'admin',
          finished_at: null,
        });
        expect(Number(dispatch.ttl)).toBe(60);
        const items = await gw.db.query<Record<string, unknown>>(
          `SELECT device_id, state, attempts, last_error, command_id, xmin::text FROM dispatch_item WHERE dispatch_id = $1 ORDER BY device_id`,
          [dispatchId],
        );
        expect(items.map(({ device_id, state, attempts, last_error }) => ({ device_id, state, attempts, last_error }))).toEqual([
          { device_id: lamp.a, state: 'queued', attempts: 0, last_error: null },
          { device_id: lamp.c, state: 'queued', attempts: 0, last_error: null },
        ]);
        expect(new Set(items.map((i) => i.command_id)).size).toBe(2);
        const outbox = await gw.db.query<Record<string, unknown>>(`SELECT queue, job_name, job_id, payload, xmin::text FROM outbox`);
        expect(outbox).toEqual([
          {
            queue: 'lamp-distribution',
            job_name: 'distribute-lamp-dispatch',
            job_id: `distribute-lamp-dispatch:${dispatchId}:1`,
            payload: { dispatchId },
            xmin: dispatch.xmin,
          },
        ]);
        // Same transaction id on every row: written together or not at all.
        expect(new Set(items.map((i) => i.xmin))).toEqual(new Set([dispatch.xmin]));

        await relay.start();
        const job = await waitFor(async () => (await queue.getJob(`${JobName.DistributeLampDispatch}:${dispatchId}:1`)) ?? undefined, 3000);
        expect({ name: job.name, data: job.data }).toEqual({ name: JobName.DistributeLampDispatch, data: { dispatchId } });
        await waitFor(async () => ((await ledgerCounts()).outbox === 0 ? true : undefined), 3000);
      } finally {
        await relay.start();
      }
    });

    it('controls every lamp of a region and its sub-regions; the relay hands the job over within a moment', async () => {
      const started = Date.now();
      const answer = await admin.post<{ dispatchId: string }>('/api/light/lampControl', { regionId: region['Futian District'], action: 'off' });
      expect(answer.body.code).toBe(200);
      const { dispatchId } = answer.body.data;
      expect(
        (await gw.db.query(`SELECT device_id FROM dispatch_item WHERE dispatch_id = $1 ORDER BY device_id`, [dispatchId])).map((r) => r.device_id),
      ).toEqual([lamp.a, lamp.b]);
      expect(await gw.db.query(`SELECT action, params FROM dispatch WHERE id = $1`, [dispatchId])).toEqual([{ action: 'off', params: {} }]);
      await waitFor(async () => (await queue.getJob(`${JobName.DistributeLampDispatch}:${dispatchId}:1`)) ?? undefined, 3000);
      // Woken by NOTIFY, not by the next sweep.
      expect(Date.now() - started).toBeLessThan(900);
      await waitFor(async () => ((await ledgerCounts()).outbox === 0 ? true : undefined), 3000);
    });
  });

  describe('dispatch detail and retry', () => {
    let dispatchId: string;
    const setStates = async (states: Record<number, [string, number, string | null]>) => {
      for (const [deviceId, [state, attempts, lastError]] of Object.entries(states)) {
        await gw.db.query(`UPDATE dispatch_item SET state = $3, attempts = $4, last_error = $5 WHERE dispatch_id = $1 AND device_id = $2`, [
          dispatchId,
          Number(deviceId),
          state,
          attempts,
          lastError,
        ]);
      }
    };

    beforeAll(async () => {
      dispatchId = (await admin.post<{ dispatchId: string }>('/api/light/lampControl', { ids: [lamp.a, lamp.b, lamp.c], action: 'on' })).body.data
        .dispatchId;
    });

    it('computes the batch status from the rows and lists each device', async () => {
      const fresh = await detail(dispatchId);
      expect(fresh).toMatchObject({
        id: dispatchId,
        family: 'lamp',
        action: 'on',
        params: {},
        status: DispatchStatus.ToBeSent,
        counts: { queued: 3, sent: 0, delivered: 0, failed: 0, expired: 0 },
        total: 3,
        createdBy: 'admin',
      });
      expect(
        fresh.items.map(({ deviceId, deviceCode, deviceName, state, attempts, lastError }) => ({
          deviceId,
          deviceCode,
          deviceName,
          state,
          attempts,
          lastError,
        })),
      ).toEqual([
        { deviceId: lamp.a, deviceCode: 'T-0001', deviceName: 'Huaqiang North 1', state: 'queued', attempts: 0, lastError: null },
        { deviceId: lamp.b, deviceCode: 'T-0002', deviceName: 'Hongli Road 1', state: 'queued', attempts: 0, lastError: null },
        { deviceId: lamp.c, deviceCode: 'T-0003', deviceName: 'Keyuan Road 1', state: 'queued', attempts: 0, lastError: null },
      ]);
      await setStates({ [lamp.a]: ['delivered', 1, null], [lamp.b]: ['sent', 1, null], [lamp.c]: ['delivered', 1, null] });
      expect((await detail(dispatchId)).status).toBe(DispatchStatus.ToBeSent);
      await setStates({ [lamp.b]: ['delivered', 1, null] });
      expect((await detail(dispatchId)).status).toBe(DispatchStatus.AllSuccessful);
      await setStates({ [lamp.a]: ['failed', 1, 'lamp refused'], [lamp.b]: ['expired', 3, 'expired'], [lamp.c]: ['expired', 3, 'expired'] });
      expect((await detail(dispatchId)).status).toBe(DispatchStatus.AllFailures);
      await setStates({ [lamp.a]: ['delivered', 1, null] });
      const partial = await detail(dispatchId);
      expect({ status: partial.status, counts: partial.counts }).toEqual({
        status: DispatchStatus.PartiallySuccessful,
        counts: { queued: 0, sent: 0, delivered: 1, failed: 0, expired: 2 },
      });

      // A page of the rows, or of the rows in one state; the tally answers the counts whatever the page.
      const page = (await admin.get<DispatchDetail>(`/api/dispatch/detail?id=${dispatchId}&pageNum=2&pageSize=1`)).body.data;
      expect({ codes: page.items.map((i) => i.deviceCode), itemsTotal: page.itemsTotal, total: page.total }).toEqual({
        codes: ['T-0002'],
        itemsTotal: 3,
        total: 3,
      });
      const expired = (await admin.get<DispatchDetail>(`/api/dispatch/detail?id=${dispatchId}&pageNum=1&pageSize=50&state=expired`)).body.data;
      expect({ codes: expired.items.map((i) => i.deviceCode), itemsTotal: expired.itemsTotal }).toEqual({
        codes: ['T-0002', 'T-0003'],
        itemsTotal: 2,
      });
      const badPage = await admin.get(`/api/dispatch/detail?id=${dispatchId}&pageNum=1&pageSize=500&state=lost`);
      expect({ status: badPage.status, fields: (badPage.body.data as { errors: { field: string }[] }).errors.map((f) => f.field).sort() }).toEqual({
        status: 400,
        fields: ['pageSize', 'state'],
      });

      const unknown = await admin.get('/api/dispatch/detail?id=00000000-0000-4000-8000-000000000000');
      expect(unknown.status).toBe(404);
      const malformed = await admin.get('/api/dispatch/detail?id=42');
      expect({ status: malformed.status, message: malformed.body.message }).toEqual({ status: 400, message: 'ID: Invalid value' });
    });

    it('queues the failed and expired rows again with new command ids, attempts kept, and a new job', async () => {
      await setStates({ [lamp.a]: ['delivered', 1, null], [lamp.b]: ['expired', 3, 'expired'], [lamp.c]: ['failed', 2, 'lamp refused'] });
      await gw.db.query(
        `UPDATE dispatch SET finished_at = now(), status = 'partiallySuccessful', expires_at = now() - interval '5 seconds' WHERE id = $1`,
        [dispatchId],
      );
      const before = await gw.db.query<{ device_id: number; command_id: string }>(
        `SELECT device_id, command_id FROM dispatch_item WHERE dispatch_id = $1 ORDER BY device_id`,
        [dispatchId],
      );

      const answer = await admin.post('/api/dispatch/retryFailed', { id: dispatchId });
      expect(answer.body).toMatchObject({ code: 200, data: { dispatchId, retried: 2 } });
      const after = await gw.db.query<Record<string, unknown>>(
        `SELECT device_id, state, attempts, last_error, command_id FROM dispatch_item WHERE dispatch_id = $1 ORDER BY device_id`,
        [dispatchId],
      );
      expect(after.map(({ device_id, state, attempts }) => ({ device_id, state, attempts }))).toEqual([
        { device_id: lamp.a, state: 'delivered', attempts: 1 },
        { device_id: lamp.b, state: 'queued', attempts: 3 },
        { device_id: lamp.c, state: 'queued', attempts: 2 },
      ]);
      expect(after[0].command_id).toBe(before[0].command_id);
      expect(after[1].command_id).not.toBe(before[1].command_id);
      expect(after[2].command_id).not.toBe(before[2].command_id);
      const [dispatch] = await gw.db.query<{ finished_at: unknown; status: string; left: number }>(
        `SELECT finished_at, status, extract(epoch FROM expires_at - now())::int AS left FROM dispatch WHERE id = $1`,
        [dispatchId],
      );
      expect(dispatch).toMatchObject({ finished_at: null, status: 'toBeSent' });
      expect(dispatch.left).toBeGreaterThanOrEqual(55);
      expect((await detail(dispatchId)).status).toBe(DispatchStatus.ToBeSent);

      // A second job for the dispatch, beside the first.
      const jobs = await waitFor(async () => {
        const found = (await queue.getJobs(['waiting', 'prioritized', 'delayed'])).filter((j) =>
          j.id?.startsWith(`${JobName.DistributeLampDispatch}:${dispatchId}:`),
        );
        return found.length === 2 ? found : undefined;
      }, 3000);
      expect(jobs.map((j) => j.data)).toEqual([{ dispatchId }, { dispatchId }]);

      const nothing = await admin.post('/api/dispatch/retryFailed', { id: dispatchId });
      expect({ status: nothing.status, message: nothing.body.message }).toEqual({
        status: 400,
        message: 'This dispatch has no failed or expired commands to retry',
      });
      expect((await adminZh.post('/api/dispatch/retryFailed', { id: dispatchId })).body.message).toBe('该下发任务没有失败或超时的指令可重试');
      expect((await admin.post('/api/dispatch/retryFailed', { id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    });
  });

  describe('who may', () => {
    it('refuses editors and visitors on every lamp and dispatch call, changing nothing', async () => {
      const [{ id: dispatchId }] = await gw.db.query<{ id: string }>(`SELECT id FROM dispatch LIMIT 1`);
      const calls: [string, (c: ApiClient) => Promise<{ status: number; body: { code: number } }>][] = [
        ['lampAddOrEdit', (c) => c.post('/api/light/lampAddOrEdit', { lampName: 'Intruder', clientId: 'T-0666' })],
        ['lampAddOrEdit (edit)', (c) => c.post('/api/light/lampAddOrEdit', { id: lamp.a, lampName: 'Renamed', clientId: 'T-0001' })],
        ['lampPage', (c) => c.post('/api/light/lampPage', { pageNum: 1, pageSize: 10 })],
        ['lampDel', (c) => c.get(`/api/light/lampDel?id=${lamp.d}`)],
        ['lampControl', (c) => c.post('/api/light/lampControl', { ids: [lamp.a], action: 'on' })],
        ['dispatch detail', (c) => c.get(`/api/dispatch/detail?id=${dispatchId}`)],
        ['retryFailed', (c) => c.post('/api/dispatch/retryFailed', { id: dispatchId })],
      ];
      const snapshot = async () => ({
        ledger: await ledgerCounts(),
        lamps: await gw.db.query(`SELECT d.id, d.code, d.name FROM device d ORDER BY d.id`),
        items: await gw.db.query(`SELECT dispatch_id, device_id, state, command_id FROM dispatch_item ORDER BY dispatch_id, device_id`),
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

    it('records control and lamp changes in the operation log', async () => {
      const rows = await gw.db.query<{ description: string }>(`SELECT DISTINCT description FROM operation_log ORDER BY description`);
      expect(rows.map((r) => r.description)).toEqual(expect.arrayContaining(['Control lamps', 'Delete lamp', 'Retry failed commands', 'Save lamp']));
    });
  });
});
