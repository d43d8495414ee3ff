import type { DeviceGroupOption, MountedDevice, PageResult, PoleDetail, PoleRow } from '@sc/contracts';
import type { ApiClient } from '@sc/testing';
import { DEMO_LAMP_COUNT, loadDemoLamps } from '../src/demo/demo-lamps';
import { loadDemoPoles } from '../src/demo/demo-poles';
import { startTestGateway, type TestGateway } from './harness';

describe('lamp poles', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let visitor: ApiClient;
  let editor: ApiClient;
  const region: Record<string, number> = {};
  const device: Record<string, number> = {};
  let poleGroup: number;
  let lampGroup: number;

  const save = (client: ApiClient, body: Record<string, unknown>) => client.post<{ id: number }>('/api/lamp/poleAddOrEdit', body);
  const page = async (client: ApiClient, filters: Record<string, unknown> = {}) =>
    (await client.post<PageResult<PoleRow>>('/api/lamp/polePage', { pageNum: 1, pageSize: 50, ...filters })).body;
  const detail = async (id: number) => (await admin.get<PoleDetail>(`/api/lamp/poleDetail?id=${id}`)).body.data;
  const deviceCount = async () => (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM device`))[0].n;

  beforeAll(async () => {
    gw = await startTestGateway();
    [admin, visitor, editor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('visitor'), gw.signedIn('editor')]);
    for (const row of await gw.db.query<{ id: number; region_name: string }>(`SELECT id, region_name FROM region`)) region[row.region_name] = row.id;
    [poleGroup, lampGroup] = (
      await gw.db.query<{ id: number }>(`INSERT INTO device_group (type, name) VALUES (0, 'Poles'), (1, 'Lamps') RETURNING id`)
    ).map((g) => g.id);
    for (const [type, code] of [
      [1, 'PL-LAMP-1'],
      [1, 'PL-LAMP-2'],
      [4, 'PL-LED-1'],
      [5, 'PL-RADAR-1'],
      [6, 'PL-AP-1'],
    ] as const) {
      const [{ id }] = await gw.db.query<{ id: number }>(`INSERT INTO device (type, code, name) VALUES ($1, $2, $2) RETURNING id`, [type, code]);
      device[code] = id;
    }
  });
  afterAll(() => gw.close());

  it('adds a pole as a device of type lamp pole with its address and remark, and changes it', async () => {
    const added = await save(admin, {
      name: 'Keyuan pole 1',
      code: 'PL-0001',
      regionId: region['Nanshan District'],
      groupId: poleGroup,
      latitude: 22.52,
      longitude: 113.93,
      address: 'Keyuan Road 1',
      remark: 'north side',
    });
    expect(added.body.code).toBe(200);
    device.pole1 = added.body.data.id;
    expect(await gw.db.query(`SELECT type, code, group_id AS "groupId" FROM device WHERE id = $1`, [device.pole1])).toEqual([
      { type: 0, code: 'PL-0001', groupId: poleGroup },
    ]);
    const edited = await save(admin, { id: device.pole1, name: 'Keyuan pole 1a', code: 'PL-0001', remark: 'moved' });
    expect(edited.body.code).toBe(200);
    const row = (await page(admin, { name: 'pl-0001' })).data.list[0];
    expect(row).toMatchObject({
      name: 'Keyuan pole 1a',
      code: 'PL-0001',
      regionName: 'Nanshan District',
      groupName: 'Poles',
      latitude: 22.52,
      longitude: 113.93,
      address: 'Keyuan Road 1',
      remark: 'moved',
      mountedCount: 0,
    });
    device.pole2 = (await save(admin, { name: 'Futian pole', code: 'PL-0002', regionId: region['Futian District'] })).body.data.id;
    expect((await page(admin, { regionId: region['Shenzhen'] ?? region['Nanshan District'] })).data.list.map((p) => p.code)).toContain('PL-0001');
    expect((await page(admin, { groupId: poleGroup })).data.list.map((p) => p.code)).toEqual(['PL-0001']);
  });

  it('refuses bad input with the catalogue message and changes nothing', async () => {
    const before = await deviceCount();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ name: 'Dup', code: 'PL-0001' }, 409, 'A lamp pole with the code "PL-0001" already exists'],
      [{ name: 'Half', code: 'PL-0100', latitude: 22.5 }, 400, 'Longitude: Give both latitude and longitude, or neither'],
      [{ name: 'Far', code: 'PL-0101', latitude: 95, longitude: 10 }, 400, 'Latitude: Must be between -90 and 90'],
      [{ name: 'Bad code', code: 'PL:0102' }, 400, 'Code: Use at most 64 letters, digits and the characters _ . -'],
      [{ name: 'Lamp group', code: 'PL-0103', groupId: lampGroup }, 400, 'Group: The selected group is for another kind of device'],
      [{ name: '', code: 'PL-0104' }, 400, 'Name: Please enter'],
    ];
    const answers = [];
    for (const [body, status, message] of cases) {
      const answer = await save(admin, body);
      expect({ body, status: answer.status, message: answer.body.message }).toEqual({ body, status, message });
      answers.push(answer);
    }
    // The taken code also stands under its field, for the form.
    const taken = 'A lamp pole with the code "PL-0001" already exists';
    expect(answers[0].body.data).toEqual({ errors: [{ field: 'code', message: `Code: ${taken}`, reason: taken }] });
    expect(await deviceCount()).toBe(before);
  });

  it('mounts and unmounts devices; a device is on one pole at a time', async () => {
    const mount = await admin.post('/api/lamp/poleMount', {
      poleId: device.pole1,
      deviceIds: [device['PL-LAMP-1'], device['PL-LED-1'], device['PL-RADAR-1']],
    });
    expect(mount.body).toEqual({ code: 200, data: { mounted: 3 }, message: 'success' });
    const shown = await detail(device.pole1);
    expect(shown.mountedCount).toBe(3);
    expect(shown.devices.map((d) => [d.type, d.code])).toEqual([
      [1, 'PL-LAMP-1'],
      [4, 'PL-LED-1'],
      [5, 'PL-RADAR-1'],
    ]);
    const elsewhere = await admin.post('/api/lamp/poleMount', { poleId: device.pole2, deviceIds: [device['PL-LAMP-2'], device['PL-LAMP-1']] });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.message).toBe('Devices: Already mounted on another pole: PL-LAMP-1');
    const aPole = await admin.post('/api/lamp/poleMount', { poleId: device.pole2, deviceIds: [device.pole1] });
    expect(aPole.body.message).toBe(`Devices: These devices do not exist or cannot be mounted on a pole: ${device.pole1}`);
    const none = await admin.post('/api/lamp/poleMount', { poleId: device.pole2, deviceIds: [] });
    expect(none.body.message).toBe('Devices: Please select a list item');
    expect((await detail(device.pole2)).devices).toEqual([]);

    const mountable = await admin.post<MountedDevice[]>('/api/lamp/poleMountable', { keyword: 'pl-' });
    expect(mountable.body.data.map((d) => d.code)).toEqual(['PL-LAMP-2', 'PL-AP-1']);
    const unmount = await admin.post('/api/lamp/poleUnmount', { poleId: device.pole1, deviceIds: [device['PL-LED-1']] });
    expect(unmount.body.data).toEqual({ unmounted: 1 });
    expect((await detail(device.pole1)).devices.map((d) => d.code)).toEqual(['PL-LAMP-1', 'PL-RADAR-1']);
  });

  it('deleting a pole leaves its devices, mounted on nothing', async () => {
    const id = (await save(admin, { name: 'Temporary', code: 'PL-0009' })).body.data.id;
    await admin.post('/api/lamp/poleMount', { poleId: id, deviceIds: [device['PL-AP-1']] });
    expect((await admin.get(`/api/lamp/poleDel?id=${id}`)).body.code).toBe(200);
    expect(await gw.db.query(`SELECT pole_id FROM device WHERE id = $1`, [device['PL-AP-1']])).toEqual([{ pole_id: null }]);
    expect(await gw.db.query(`SELECT 1 FROM lamp_pole WHERE device_id = $1`, [id])).toEqual([]);
    expect((await admin.get(`/api/lamp/poleDel?id=${id}`)).status).toBe(404);
  });

  it('lets a visitor view poles but change nothing; editors are not admitted to pole manage', async () => {
    expect((await page(visitor)).code).toBe(200);
    expect((await visitor.get(`/api/lamp/poleDetail?id=${device.pole1}`)).body.code).toBe(200);
    expect((await visitor.get<DeviceGroupOption[]>('/api/lamp/poleGroups')).body.data).toEqual([{ id: poleGroup, name: 'Poles' }]);
    const before = await deviceCount();
    const refusals = [
      await save(visitor, { name: 'Nope', code: 'PL-0500' }),
      await visitor.get(`/api/lamp/poleDel?id=${device.pole1}`),
      await visitor.post('/api/lamp/poleMount', { poleId: device.pole1, deviceIds: [device['PL-LAMP-2']] }),
      await visitor.post('/api/lamp/poleUnmount', { poleId: device.pole1, deviceIds: [device['PL-LAMP-1']] }),
      await visitor.post('/api/lamp/poleGroupAdd', { name: 'Nope' }),
      await editor.post('/api/lamp/polePage', { pageNum: 1, pageSize: 10 }),
      await save(editor, { name: 'Nope', code: 'PL-0501' }),
    ];
    expect(refusals.map((r) => [r.status, r.body.code])).toEqual(Array.from({ length: refusals.length }, () => [403, 403]));
    expect(await deviceCount()).toBe(before);
    expect((await detail(device.pole1)).devices.map((d) => d.code)).toEqual(['PL-LAMP-1', 'PL-RADAR-1']);
  });

  it('adds pole groups; a name is taken once', async () => {
    const added = await admin.post<{ id: number }>('/api/lamp/poleGroupAdd', { name: 'Nanshan poles' });
    expect(added.body.code).toBe(200);
    const again = await admin.post('/api/lamp/poleGroupAdd', { name: 'nanshan POLES' });
    expect(again.status).toBe(409);
    expect(again.body.data).toEqual({
      errors: [expect.objectContaining({ field: 'name', reason: 'A device group named "nanshan POLES" already exists' })],
    });
    expect((await admin.get<DeviceGroupOption[]>('/api/lamp/poleGroups')).body.data.map((g) => g.name)).toEqual(['Nanshan poles', 'Poles']);
  });

  it('gives every demo lamp its pole, once', async () => {
    expect(await loadDemoLamps(gw.db.url)).toBe('loaded');
    // A strip light of a demo region, as the strips' demo loader adds them.
    await gw.db.query(
      `INSERT INTO device (type, code, name, region_id) SELECT 2, 'STRIP-0001', 'Demo strip', id FROM region WHERE region_name = 'Lianhua Subdistrict'`,
    );
    expect(await loadDemoPoles(gw.db.url)).toBe('loaded');
    expect(await loadDemoPoles(gw.db.url)).toBe('already-loaded');
    const [counts] = await gw.db.query<{ poles: number; mounted: number }>(
      `SELECT (SELECT count(*)::int FROM device d JOIN lamp_pole p ON p.device_id = d.id WHERE d.code LIKE 'POLE-%') AS poles,
              (SELECT count(*)::int FROM device l JOIN device p ON p.id = l.pole_id WHERE l.code LIKE 'LAMP-%' AND p.code = 'POLE-' || substr(l.code, 6)) AS mounted`,
    );
    expect(counts).toEqual({ poles: DEMO_LAMP_COUNT, mounted: DEMO_LAMP_COUNT });
    const pole = (await page(visitor, { name: 'POLE-00001' })).data.list[0];
    expect(pole).toMatchObject({ code: 'POLE-00001', groupName: 'Demo poles', regionName: 'Huaqiangbei Subdistrict', mountedCount: 1 });
    // The strip hangs on the first pole of its region, beside that pole's lamp.
    const [strip] = await gw.db.query<{ pole: string; lamps: number }>(
      `SELECT p.code AS pole, (SELECT count(*)::int FROM device l WHERE l.pole_id = p.id AND l.type = 1) AS lamps
         FROM device s JOIN device p ON p.id = s.pole_id WHERE s.code = 'STRIP-0001'`,
    );
    const [first] = await gw.db.query<{ code: string }>(
      `SELECT d.code FROM device d JOIN region r ON r.id = d.region_id WHERE d.type = 0 AND d.code LIKE 'POLE-%' AND r.region_name = 'Lianhua Subdistrict' ORDER BY d.code LIMIT 1`,
    );
    expect(strip).toEqual({ pole: first.code, lamps: 1 });
  });
});
