import {
  DeviceFamily,
  OnlineState,
  type DispatchDetail,
  type LampControlResult,
  type MqttCredentials,
  type PageResult,
  type SignageDeviceRow,
  type SignageGroupRow,
} from '@sc/contracts';
import type { ApiClient } from '@sc/testing';
import { startTestGateway, type TestGateway } from './harness';

const PLACED = { cMark: 'CM-001', address: 'Metro hall, exit B', latitude: 22.54, longitude: 114.05 };

/** Floor screens and their groups on the real PostgreSQL and Redis: records, binding, moving, commands, refusals, roles. */
describe('floor screens', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let visitor: ApiClient;
  const id: Record<string, number> = {};
  const group: Record<string, number> = {};

  const page = async (filters: Record<string, unknown> = {}, client = admin) =>
    (await client.post<PageResult<SignageDeviceRow>>('/api/signage/devicePage', { pageNum: 1, pageSize: 50, ...filters })).body.data;
  const groups = async () => (await admin.get<SignageGroupRow[]>('/api/signage/groupList')).body.data;
  const snapshot = async () => ({
    devices: await gw.db.query(`SELECT * FROM signage_device ORDER BY id`),
    groups: await gw.db.query(`SELECT * FROM signage_group ORDER BY id`),
    dispatches: (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM dispatch`))[0].n,
  });

  beforeAll(async () => {
    gw = await startTestGateway({ mqttCredentialSecret: 'signage-test-secret' });
    admin = await gw.signedIn('admin');
    editor = await gw.signedIn('editor');
    visitor = await gw.signedIn('visitor');
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('adds groups and players (a new player gets its MQTT login once), lists them by name, group and status', async () => {
    for (const name of ['Metro line 2', 'Airport T3', 'Empty corner']) {
      const saved = await editor.post<{ id: number }>('/api/signage/groupAddOrEdit', { name });
      expect(saved.body).toMatchObject({ code: 200 });
      group[name] = saved.body.data.id;
    }
    const added = await editor.post<{ id: number; mqtt?: MqttCredentials }>('/api/signage/deviceAddOrEdit', {
      name: 'Hall screen 1',
      code: 'FS-1',
      ...PLACED,
      serialNumber: 'SN-0001',
      orientation: '16:9',
    });
    expect(added.body).toMatchObject({ code: 200, data: { mqtt: { username: 'signage/FS-1', password: expect.any(String) } } });
    id['FS-1'] = added.body.data.id;
    for (const code of ['FS-2', 'FS-3']) {
      const answer = await admin.post<{ id: number }>('/api/signage/deviceAddOrEdit', { name: `Screen ${code}`, code, ...PLACED });
      id[code] = answer.body.data.id;
    }
    // FS-3 without an address: not complete enough to bind.
    await admin.post('/api/signage/deviceAddOrEdit', { id: id['FS-3'], name: 'Screen FS-3', code: 'FS-3', address: '' });
    await gw.db.query(`UPDATE signage_device SET network_status = $2 WHERE id = $1`, [id['FS-2'], OnlineState.Online]);

    expect((await page()).total).toBe(3);
    expect((await page({ name: 'hall' })).list).toEqual([
      expect.objectContaining({
        code: 'FS-1',
        name: 'Hall screen 1',
        cMark: 'CM-001',
        serialNumber: 'SN-0001',
        orientation: '16:9',
        groupId: null,
        networkStatus: OnlineState.Offline,
        volume: 50,
        muted: false,
        screenState: 'normal',
        currentAd: null,
      }),
    ]);
    expect((await page({ name: 'fs-2' })).list.map((d) => d.code)).toEqual(['FS-2']);
    expect((await page({ networkStatus: OnlineState.Online })).list.map((d) => d.code)).toEqual(['FS-2']);
    expect((await page({ groupId: 0 })).total).toBe(3);
  });

  it('binds complete players to a group and moves them to another; the group panel counts them', async () => {
    const bound = await editor.post('/api/signage/bind', { ids: [id['FS-1'], id['FS-2']], groupId: group['Metro line 2'] });
    expect(bound.body).toMatchObject({ code: 200 });
    expect((await page({ groupId: group['Metro line 2'] })).list.map((d) => [d.code, d.groupName])).toEqual([
      ['FS-1', 'Metro line 2'],
      ['FS-2', 'Metro line 2'],
    ]);
    expect(await groups()).toEqual([
      { id: group['Airport T3'], name: 'Airport T3', deviceCount: 0, onlineCount: 0 },
      { id: group['Empty corner'], name: 'Empty corner', deviceCount: 0, onlineCount: 0 },
      { id: group['Metro line 2'], name: 'Metro line 2', deviceCount: 2, onlineCount: 1 },
    ]);
    const moved = await editor.post('/api/signage/move', { ids: [id['FS-2']], groupId: group['Airport T3'] });
    expect(moved.body).toMatchObject({ code: 200 });
    expect((await page({ groupId: group['Airport T3'] })).list.map((d) => d.code)).toEqual(['FS-2']);
    // Renaming a group; deleting an empty one.
    const spare = await editor.post<{ id: number }>('/api/signage/groupAddOrEdit', { name: 'Spare' });
    expect((await editor.get(`/api/signage/groupDel?id=${spare.body.data.id}`)).body).toMatchObject({ code: 200 });
    expect((await editor.post('/api/signage/groupAddOrEdit', { id: group['Airport T3'], name: 'Airport T3 south' })).body).toMatchObject({
      code: 200,
    });
    expect((await page({ name: 'FS-2' })).list[0].groupName).toBe('Airport T3 south');
  });

  it('refuses bad bindings, moves and group changes with their catalogue messages, changing nothing', async () => {
    const before = await snapshot();
    const zh = admin.as(admin.token, 'zh-CN');
    const incomplete = await admin.post('/api/signage/bind', { ids: [id['FS-3']], groupId: group['Metro line 2'] });
    expect(incomplete.body).toMatchObject({
      code: 400,
      message: 'Device binding needs complete information (cMark, address, latitude and longitude): Screen FS-3',
    });
    const twice = await admin.post('/api/signage/bind', { ids: [id['FS-1']], groupId: group['Airport T3'] });
    expect(twice.body).toMatchObject({ code: 400, message: 'These devices are already in a group; move them instead: Hall screen 1' });
    const noTarget = await admin.post('/api/signage/move', { ids: [id['FS-1']] });
    expect(noTarget.status).toBe(400);
    expect(JSON.stringify(noTarget.body)).toContain('A target group is required to move a device');
    expect(JSON.stringify((await zh.post('/api/signage/move', { ids: [id['FS-1']] })).body)).toContain('移动设备必须选择目标分组');
    const unknownGroup = await admin.post('/api/signage/move', { ids: [id['FS-1']], groupId: 999_999 });
    expect(JSON.stringify(unknownGroup.body)).toContain('These floor-screen groups do not exist: 999999');
    const noName = await admin.post('/api/signage/groupAddOrEdit', { name: '  ' });
    expect(JSON.stringify(noName.body)).toContain('Please enter the group name');
    expect(JSON.stringify((await zh.post('/api/signage/groupAddOrEdit', {})).body)).toContain('请输入分组名称');
    const taken = await admin.post('/api/signage/groupAddOrEdit', { name: 'metro LINE 2' });
    expect(taken.body).toMatchObject({
      code: 409,
      data: { errors: [{ field: 'name', reason: 'A floor-screen group named "metro LINE 2" already exists' }] },
    });
    const notEmpty = await admin.get(`/api/signage/groupDel?id=${group['Metro line 2']}`);
    expect(notEmpty.body).toMatchObject({
      code: 400,
      message: 'This group still has 1 devices; move or delete them before deleting the group',
    });
    const codeTaken = await admin.post('/api/signage/deviceAddOrEdit', { name: 'Again', code: 'FS-1' });
    expect(codeTaken.body).toMatchObject({
      code: 409,
      data: { errors: [{ field: 'code', reason: 'A floor screen with the code "FS-1" already exists' }] },
    });
    const noName2 = await admin.post('/api/signage/deviceAddOrEdit', { code: 'FS-9' });
    expect(JSON.stringify(noName2.body)).toContain('The name cannot be empty');
    const badCode = await admin.post('/api/signage/deviceAddOrEdit', { name: 'Bad', code: 'FS/9' });
    expect(badCode.status).toBe(400);
    // A player in a group keeps what binding needs.
    const unplace = await admin.post('/api/signage/deviceAddOrEdit', { id: id['FS-1'], name: 'Hall screen 1', code: 'FS-1', cMark: '' });
    expect(JSON.stringify(unplace.body)).toContain('Device binding needs complete information');
    // Volume: required and numeric.
    const noVolume = await admin.post('/api/signage/volume', { ids: [id['FS-1']] });
    expect(JSON.stringify(noVolume.body)).toContain('The volume cannot be empty');
    expect(JSON.stringify((await zh.post('/api/signage/volume', { ids: [id['FS-1']] })).body)).toContain('音量不能为空');
    expect((await admin.post('/api/signage/volume', { ids: [id['FS-1']], volume: 'loud' })).status).toBe(400);
    expect((await admin.post('/api/signage/volume', { ids: [id['FS-1']], volume: 101 })).status).toBe(400);
    const nobody = await admin.post('/api/signage/mute', {});
    expect(nobody.body).toMatchObject({ code: 400, message: 'Please select devices, a region or groups' });
    const unknown = await admin.post('/api/signage/reboot', { ids: [999_999] });
    expect(unknown.body).toMatchObject({ code: 400, message: 'These floor screens do not exist: 999999' });
    const emptyGroup = await zh.post('/api/signage/mute', { groupIds: [group['Empty corner']] });
    expect(JSON.stringify(emptyGroup.body)).toContain('该分组下没有设备，不能选择');
    expect(await snapshot()).toEqual(before);
  });

  it('sends volume, mute, unmute and reboot through the ledger to the chosen players, by ids or by group', async () => {
    const volume = await editor.post<LampControlResult>('/api/signage/volume', { ids: [id['FS-1'], id['FS-2']], volume: 35 });
    expect(volume.body).toMatchObject({ code: 200 });
    const detail = (await editor.get<DispatchDetail>(`/api/dispatch/detail?id=${volume.body.data.dispatchId}`)).body.data;
    expect(detail).toMatchObject({ family: DeviceFamily.Signage, action: 'volume', params: { volume: 35 }, total: 2 });
    expect(detail.items.map((i) => [i.deviceCode, i.deviceName])).toEqual([
      ['FS-1', 'Hall screen 1'],
      ['FS-2', 'Screen FS-2'],
    ]);
    for (const action of ['mute', 'unmute', 'reboot']) {
      const answer = await editor.post<LampControlResult>(`/api/signage/${action}`, { groupIds: [group['Metro line 2']] });
      expect(answer.body).toMatchObject({ code: 200 });
      const d = (await editor.get<DispatchDetail>(`/api/dispatch/detail?id=${answer.body.data.dispatchId}`)).body.data;
      expect(d).toMatchObject({ action, total: 1, items: [{ deviceCode: 'FS-1' }] });
    }
    // Deleting a registry device of the same id leaves a player's dispatch rows; deleting the player takes its own.
    await gw.db.query(`INSERT INTO device (id, type, code, name) VALUES ($1, 0, 'POLE-X', 'Pole')`, [id['FS-2']]);
    await gw.db.query(`DELETE FROM device WHERE code = 'POLE-X'`);
    expect((await editor.get<DispatchDetail>(`/api/dispatch/detail?id=${volume.body.data.dispatchId}`)).body.data.total).toBe(2);
    await admin.get(`/api/signage/deviceDel?id=${id['FS-2']}`);
    const left = (await editor.get<DispatchDetail>(`/api/dispatch/detail?id=${volume.body.data.dispatchId}`)).body.data;
    expect(left.items.map((i) => i.deviceCode)).toEqual(['FS-1']);
  });

  it('refuses visitors everything, and an editor a new code (Edit MQTT); the operation log lists the changes', async () => {
    const before = await snapshot();
    expect((await visitor.post('/api/signage/devicePage', { pageNum: 1, pageSize: 10 })).status).toBe(403);
    expect((await visitor.get('/api/signage/groupList')).status).toBe(403);
    expect((await visitor.post('/api/signage/groupAddOrEdit', { name: 'Visitors' })).status).toBe(403);
    expect((await visitor.post('/api/signage/volume', { ids: [id['FS-1']], volume: 10 })).status).toBe(403);
    expect((await visitor.post('/api/signage/reboot', { ids: [id['FS-1']] })).status).toBe(403);
    expect((await visitor.post('/api/signage/bind', { ids: [id['FS-3']], groupId: group['Metro line 2'] })).status).toBe(403);
    const recode = await editor.post('/api/signage/deviceAddOrEdit', { id: id['FS-1'], name: 'Hall screen 1', code: 'FS-1B' });
    expect(recode.status).toBe(400);
    expect(JSON.stringify(recode.body)).toContain('Edit MQTT');
    expect(await snapshot()).toEqual(before);
    // An administrator may: the player gets a new login.
    const renamed = await admin.post<{ id: number; mqtt?: MqttCredentials }>('/api/signage/deviceAddOrEdit', {
      id: id['FS-1'],
      name: 'Hall screen 1',
      code: 'FS-1B',
    });
    expect(renamed.body.data.mqtt).toMatchObject({ username: 'signage/FS-1B' });
    const log = await admin.post<PageResult<{ description: string; status: number }>>('/api/log/operationPage', { pageNum: 1, pageSize: 100 });
    const described = new Set(log.body.data.list.map((l) => l.description));
    for (const d of [
      'Save floor screen',
      'Save floor-screen group',
      'Bind floor screens to a group',
      'Move floor screens to another group',
      'Set floor-screen volume',
      'Reboot floor screens',
      'Delete floor screen',
    ]) {
      expect(described).toContain(d);
    }
  });
});
