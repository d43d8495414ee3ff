import {
  AlarmKind,
  AlarmState,
  DeviceFamily,
  DeviceType,
  FAMILIES,
  type AlarmChangedEvent,
  type AlarmRow,
  type AlarmSummary,
  type FamilyName,
  type PageResult,
} from '@sc/contracts';
import { waitFor, type ApiClient } from '@sc/testing';
import { startTestGateway, type TestGateway } from './harness';
import { watchFamily } from './device-worker';

/**
 * Every family's alarms on the real PostgreSQL and Redis (/api/alarms): a caller sees the families its roles see (the
 * lamps' are the administrators'), filters by family, acknowledges and clears them, each change pushed to that
 * family's watchers; another family's alarm is unknown to it and nothing changes.
 */
describe('Device alarms of every family, by the roles that see each family', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let visitor: ApiClient;
  const alarmOf: Partial<Record<FamilyName, number>> = {};

  const page = async (client: ApiClient, filters: Record<string, unknown> = {}) =>
    client.post<PageResult<AlarmRow>>('/api/alarms/page', { pageNum: 1, pageSize: 50, ...filters });
  const states = async () => gw.db.query(`SELECT id, state, acknowledged_by, cleared_by FROM device_alarm ORDER BY id`);

  beforeAll(async () => {
    gw = await startTestGateway();
    [admin, editor, visitor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor'), gw.signedIn('visitor')]);
    const devices: [FamilyName, DeviceType, string][] = [
      [DeviceFamily.Lamp, DeviceType.SingleLamp, 'LAMP-DA1'],
      [DeviceFamily.Radar, DeviceType.Radar, 'RADAR-DA1'],
      [DeviceFamily.AccessPoint, DeviceType.AccessPoint, 'AP-DA1'],
    ];
    for (const [family, type, code] of devices) {
      const [{ id }] = await gw.db.query<{ id: number }>(`INSERT INTO device (type, code, name) VALUES ($1, $2, $2) RETURNING id`, [type, code]);
      const kind = family === DeviceFamily.AccessPoint ? AlarmKind.Overload : AlarmKind.Offline;
      const [alarm] = await gw.db.query<{ id: number }>(`INSERT INTO device_alarm (device_id, family, kind) VALUES ($1, $2, $3) RETURNING id`, [
        id,
        family,
        kind,
      ]);
      alarmOf[family] = alarm.id;
    }
  });
  afterAll(() => gw?.close());

  it("lists the families each caller's roles see, and their alarms only", async () => {
    const editorFamilies = (await editor.get<FamilyName[]>('/api/alarms/families')).body.data;
    expect(editorFamilies).toContain(DeviceFamily.Radar);
    expect(editorFamilies).toContain(DeviceFamily.AccessPoint);
    expect(editorFamilies).not.toContain(DeviceFamily.Lamp);
    expect((await admin.get<FamilyName[]>('/api/alarms/families')).body.data).toContain(DeviceFamily.Lamp);

    const seen = (await page(editor)).body.data;
    expect(seen.list.map((a) => a.family).sort()).toEqual([DeviceFamily.AccessPoint, DeviceFamily.Radar]);
    expect((await page(admin)).body.data.total).toBe(3);
    expect((await page(admin, { family: DeviceFamily.Radar })).body.data.list).toEqual([
      expect.objectContaining({ family: DeviceFamily.Radar, deviceCode: 'RADAR-DA1', kind: AlarmKind.Offline, state: AlarmState.Active }),
    ]);
    expect((await page(editor, { family: DeviceFamily.AccessPoint, kind: AlarmKind.Overload })).body.data.total).toBe(1);
    const summary = (await editor.get<AlarmSummary>('/api/alarms/summary')).body.data;
    expect(summary).toMatchObject({ active: 2, acknowledged: 0 });
    expect((await editor.get<AlarmSummary>(`/api/alarms/summary?family=${DeviceFamily.Radar}`)).body.data.active).toBe(1);
    // The lamp alarm page's API keeps to lamps.
    expect(
      (await admin.post<PageResult<AlarmRow>>('/api/light/alarmPage', { pageNum: 1, pageSize: 50 })).body.data.list.map((a) => a.family),
    ).toEqual([DeviceFamily.Lamp]);
  });

  it("refuses a family the caller's roles do not see, an unknown family, an alarm of such a family, and visitors; nothing changes", async () => {
    const before = await states();
    expect((await page(editor, { family: DeviceFamily.Lamp })).status).toBe(403);
    expect((await editor.get(`/api/alarms/summary?family=${DeviceFamily.Lamp}`)).status).toBe(403);
    expect((await page(admin, { family: 'toaster' })).status).toBe(400);
    const lamp = await editor.post('/api/alarms/acknowledge', { ids: [alarmOf.lamp] });
    expect(lamp.status).toBe(400);
    expect(JSON.stringify(lamp.body)).toContain(String(alarmOf.lamp));
    expect((await visitor.post('/api/alarms/page', { pageNum: 1, pageSize: 10 })).status).toBe(403);
    expect((await visitor.post('/api/alarms/clear', { ids: [alarmOf.radar] })).status).toBe(403);
    expect((await editor.post('/api/alarms/acknowledge', { ids: [] })).status).toBe(400);
    expect(await states()).toEqual(before);
  });

  it("acknowledges and clears a family's alarms, each change pushed to that family's watchers", async () => {
    const socket = await watchFamily(gw, editor.token, DeviceFamily.Radar, 'AlarmChanged');
    const pushed: AlarmChangedEvent[] = [];
    socket.on('AlarmChanged', (e) => pushed.push(e));
    try {
      expect((await editor.post('/api/alarms/acknowledge', { ids: [alarmOf.radar] })).body).toMatchObject({ code: 200, data: { changed: 1 } });
      const event = await waitFor(async () => pushed[0], 5000);
      expect(event).toMatchObject({ family: DeviceFamily.Radar, change: 'acknowledged', alarm: { id: alarmOf.radar, acknowledgedBy: 'editor' } });
      expect((await editor.post('/api/alarms/clear', { ids: [alarmOf.radar, alarmOf.ap] })).body).toMatchObject({ data: { changed: 2 } });
      expect((await page(editor, { open: true })).body.data.total).toBe(0);
      await waitFor(async () => (pushed.some((e) => e.change === 'cleared') ? true : undefined), 5000);
      expect(pushed.every((e) => e.family === DeviceFamily.Radar)).toBe(true);
    } finally {
      socket.close();
    }
  });

  it("lists a floor screen's and a lamp gateway's alarms under their own records' names, finds one's history, and drops them with the record", async () => {
    const [{ id: region }] = await gw.db.query<{ id: number }>(`INSERT INTO region (region_name) VALUES ('Alarm square') RETURNING id`);
    const [{ id: screen }] = await gw.db.query<{ id: number }>(
      `INSERT INTO signage_device (code, name, region_id) VALUES ('FS-DA1', 'Plaza screen', $1) RETURNING id`,
      [region],
    );
    const [{ id: concentrator }] = await gw.db.query<{ id: number }>(
      `INSERT INTO lamp_gateway (code, name) VALUES ('GW-DA1', 'Plaza concentrator') RETURNING id`,
    );
    await gw.db.query(`INSERT INTO device_alarm (record_id, family, kind) VALUES ($1, 'signage', 'offline'), ($2, 'lamp-gateway', 'offline')`, [
      screen,
      concentrator,
    ]);

    const screens = (await page(editor, { family: DeviceFamily.Signage })).body.data;
    expect(screens.list).toEqual([
      expect.objectContaining({ family: 'signage', deviceId: screen, deviceCode: 'FS-DA1', deviceName: 'Plaza screen', regionName: 'Alarm square' }),
    ]);
    expect(screens.total).toBe(1);
    // Found by its name and by its region, and its history by its id with its family.
    expect((await page(editor, { keyword: 'plaza scr' })).body.data.list.map((a) => a.deviceCode)).toEqual(['FS-DA1']);
    expect((await page(editor, { regionId: region })).body.data.list.map((a) => a.deviceCode)).toEqual(['FS-DA1']);
    expect((await page(editor, { family: DeviceFamily.Signage, deviceId: screen })).body.data.total).toBe(1);
    // A registry device's history is its own, whatever record shares its id.
    const [{ id: sameId }] = await gw.db.query<{ id: number }>(`SELECT device_id AS id FROM device_alarm WHERE id = $1`, [alarmOf.radar]);
    await gw.db.query(`UPDATE device_alarm SET record_id = $1 WHERE family = 'signage'`, [sameId]);
    await gw.db.query(`UPDATE signage_device SET id = $1 WHERE id = $2`, [sameId, screen]);
    expect((await page(editor, { deviceId: sameId })).body.data.list.map((a) => a.family)).toEqual([DeviceFamily.Radar]);
    expect((await page(editor, { family: DeviceFamily.Signage, deviceId: sameId })).body.data.list.map((a) => a.deviceCode)).toEqual(['FS-DA1']);
    // Lamp gateways are lighting's: the administrators'.
    expect((await page(editor, { family: DeviceFamily.LampGateway })).status).toBe(403);
    expect((await page(admin, { family: DeviceFamily.LampGateway })).body.data.list).toEqual([
      expect.objectContaining({ deviceId: concentrator, deviceCode: 'GW-DA1', deviceName: 'Plaza concentrator', regionName: null }),
    ]);
    expect((await editor.get<AlarmSummary>(`/api/alarms/summary?family=${DeviceFamily.Signage}`)).body.data.active).toBe(1);
    // Acknowledged as any alarm, answered with the record's name.
    const [{ id: screenAlarm }] = await gw.db.query<{ id: number }>(`SELECT id FROM device_alarm WHERE family = 'signage'`);
    expect((await editor.post('/api/alarms/acknowledge', { ids: [screenAlarm] })).body).toMatchObject({ data: { changed: 1 } });
    expect((await page(editor, { family: DeviceFamily.Signage })).body.data.list[0]).toMatchObject({
      deviceName: 'Plaza screen',
      state: AlarmState.Acknowledged,
      acknowledgedBy: 'editor',
    });

    // A second open alarm of the same record and kind is refused by the database; the record's deletion takes its alarms.
    await expect(gw.db.query(`INSERT INTO device_alarm (record_id, family, kind) VALUES ($1, 'signage', 'offline')`, [sameId])).rejects.toThrow(
      /device_alarm_record_open_uq/,
    );
    await expect(gw.db.query(`INSERT INTO device_alarm (family, kind) VALUES ('signage', 'offline')`)).rejects.toThrow(/device_alarm_one_subject/);
    // Every family whose devices are records of their own has the trigger.
    for (const family of FAMILIES.filter((f) => f.deviceType === null)) {
      expect(await gw.db.query(`SELECT tgname FROM pg_trigger WHERE tgname = $1`, [`${family.table}_alarms_gone`])).toHaveLength(1);
    }
    await gw.db.query(`DELETE FROM signage_device WHERE id = $1`, [sameId]);
    await gw.db.query(`DELETE FROM lamp_gateway WHERE id = $1`, [concentrator]);
    expect(await gw.db.query(`SELECT family FROM device_alarm WHERE record_id IS NOT NULL`)).toEqual([]);
  });
});
