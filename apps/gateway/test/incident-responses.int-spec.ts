import {
  DeviceType,
  IncidentActionKind,
  IncidentResponse,
  IncidentState,
  MediaAuditStatus,
  type AlarmIncidentDetail,
  type IncidentNearby,
  type IncidentRespondResult,
} from '@sc/contracts';
import { Client } from 'pg';
import { waitFor, type ApiClient } from '@sc/testing';
import { startTestGateway, type TestGateway } from './harness';

/** Metres north of the column, in degrees of latitude. */
const north = (metres: number) => metres / ((Math.PI * 6_371_000) / 180);
/** Somewhere no demo device is: only this file's devices are near. */
const HERE = { latitude: 10, longitude: 20 };

/**
 * An incident pulls in the city around its column, on the real PostgreSQL: the nearest street lights (a lamp without a
 * position of its own at its pole's), LED screen and broadcast terminals within the radius, nearest first; each
 * response a dispatch of that family through the ledger to exactly those devices, written in the incident's log and
 * pushed; bad input, a closed incident, nothing near and visitors refused with nothing sent.
 */
describe('Alarm incident responses: the devices near the column, sent through the ledger', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let visitor: ApiClient;
  let incidentId: string;
  let closedId: string;
  let raceId: string;
  let nowhereId: string;
  let dateLineId: string;
  /** The lamps' ids by their distance from the column. */
  const lampAt = new Map<number, number>();
  const ledAt = new Map<number, number>();
  let ledMediaId: number;
  let broadcastMediaId: number;
  const cameraAt = new Map<number, number>();

  const device = async (
    type: DeviceType,
    table: string,
    code: string,
    metres: number | null,
    extra: Record<string, unknown> = {},
    poleId?: number,
  ) => {
    const [{ id }] = await gw.db.query<{ id: number }>(
      `INSERT INTO device (type, code, name, latitude, longitude, pole_id) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [type, code, `Near ${code}`, metres === null ? null : HERE.latitude + north(metres), metres === null ? null : HERE.longitude, poleId ?? null],
    );
    const columns = ['device_id', ...Object.keys(extra)];
    await gw.db.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`, [
      id,
      ...Object.values(extra),
    ]);
    return id;
  };
  const incident = async (columnId: number, code: string, state = IncidentState.Open) => {
    const [{ id: pressId }] = await gw.db.query<{ id: string }>(
      `INSERT INTO alarm_press (device_id, device_code, level, pressed_at) VALUES ($1, $2, 1, now()) RETURNING id::text`,
      [columnId, code],
    );
    const [{ id }] = await gw.db.query<{ id: string }>(
      `INSERT INTO alarm_incident (press_id, device_id, device_code, device_name, level, state, pressed_at)
       VALUES ($1, $2, $3, $4, 1, $5, now()) RETURNING id::text`,
      [pressId, columnId, code, `Column ${code}`, state],
    );
    return id;
  };
  const ledger = async () => {
    const [{ dispatches, items }] = await gw.db.query<{ dispatches: number; items: number }>(
      `SELECT (SELECT count(*)::int FROM dispatch) AS dispatches, (SELECT count(*)::int FROM dispatch_item) AS items`,
    );
    const [{ actions, tasks, levels }] = await gw.db.query<{ actions: number; tasks: number; levels: string | null }>(
      `SELECT (SELECT count(*)::int FROM alarm_incident_action) AS actions, (SELECT count(*)::int FROM broadcast_task) AS tasks,
              (SELECT string_agg(device_id || '=' || COALESCE(level::text, '-'), ',' ORDER BY device_id) FROM lamp) AS levels`,
    );
    return { dispatches, items, actions, tasks, levels };
  };
  const respond = (client: ApiClient, body: Record<string, unknown>) => client.post<IncidentRespondResult>('/api/alarm/incidentRespond', body);

  beforeAll(async () => {
    gw = await startTestGateway();
    [admin, editor, visitor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor'), gw.signedIn('visitor')]);
    const column = await device(DeviceType.OneKeyAlarm, 'alarm_column', 'NEAR-C1', 0);
    // A pole 40 m away carries a lamp that has no position of its own.
    const pole = await device(DeviceType.LampPole, 'lamp_pole', 'NEAR-P1', 40);
    lampAt.set(40, await device(DeviceType.SingleLamp, 'lamp', 'NEAR-L40', null, {}, pole));
    for (const metres of [300, 100, 250, 150, 200, 350, 700])
      lampAt.set(metres, await device(DeviceType.SingleLamp, 'lamp', `NEAR-L${metres}`, metres));
    for (const metres of [480, 450]) {
      ledAt.set(
        metres,
        await device(DeviceType.LedScreen, 'led_screen', `NEAR-S${metres}`, metres, {
          ip_address: '10.9.0.1',
          width: 192,
          height: 96,
          time_zone: 'UTC',
        }),
      );
    }
    // Cameras: the live view opens the nearest with a stream (an address of its own, or a Dahua or Haikang address).
    for (const [metres, extra] of [
      [120, { vendor: 3, category: 1, sub_type: 2, rtsp_url: 'rtsp://10.9.0.2/live' }],
      [60, { vendor: 3, category: 53, ip: '10.9.0.3' }],
      [300, { vendor: 1, category: 1, sub_type: 2, ip: '10.9.0.4' }],
      [400, { vendor: 2, category: 5, sub_type: 22, ip: '10.9.0.5' }],
      [600, { vendor: 3, category: 1, sub_type: 2, rtsp_url: 'rtsp://10.9.0.6/live' }],
    ] as const)
      cameraAt.set(metres, await device(DeviceType.VideoEquipment, 'camera', `NEAR-V${metres}`, metres, extra));
    incidentId = await incident(column, 'NEAR-C1');
    closedId = await incident(column, 'NEAR-C1', IncidentState.Closed);
    raceId = await incident(column, 'NEAR-C1');
    const dateLine = await gw.db.query<{ id: number }>(
      `INSERT INTO device (type, code, name, latitude, longitude) VALUES ($1, 'NEAR-CX', 'Date line column', 0, 179.999),
              ($2, 'NEAR-LX', 'Date line lamp', 0, -179.999) RETURNING id`,
      [DeviceType.OneKeyAlarm, DeviceType.SingleLamp],
    );
    await gw.db.query(`INSERT INTO alarm_column (device_id) VALUES ($1)`, [dateLine[0].id]);
    await gw.db.query(`INSERT INTO lamp (device_id) VALUES ($1)`, [dateLine[1].id]);
    dateLineId = await incident(dateLine[0].id, 'NEAR-CX');
    const nowhere = await device(DeviceType.OneKeyAlarm, 'alarm_column', 'NEAR-C2', null);
    nowhereId = await incident(nowhere, 'NEAR-C2');
    [{ id: ledMediaId }] = await gw.db.query<{ id: number }>(
      `INSERT INTO led_media (name, media_type, file_size, width, height, file_path, cover_path, sha256, mime, uploader)
       VALUES ('Evacuate north', 1, 2048, 192, 96, 'led/evacuate.png', 'led/evacuate-cover.png', $1, 'image/png', 'admin') RETURNING id`,
      ['a'.repeat(64)],
    );
    [{ id: broadcastMediaId }] = await gw.db.query<{ id: number }>(
      `INSERT INTO broadcast_media (material_name, storage_path, file_size, sha256, duration_ms, bitrate, sample_rate, channels, uploader, audit_status)
       VALUES ('Please keep clear', 'media/keep-clear.mp3', 4096, $1, 3000, 128000, 44100, 1, 'admin', $2) RETURNING id`,
      ['b'.repeat(64), MediaAuditStatus.Approved],
    );
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('names the devices within the radius, nearest first, as many of each as a response takes', async () => {
    const near = (await admin.get<IncidentNearby>(`/api/alarm/incidentNearby?id=${incidentId}`)).body.data;
    expect(near.lamps.map((d) => d.id)).toEqual([40, 100, 150, 200, 250, 300].map((m) => lampAt.get(m)));
    expect(near.lamps.map((d) => d.distanceMeters)).toEqual([40, 100, 150, 200, 250, 300]);
    expect(near.lamps[0]).toMatchObject({ code: 'NEAR-L40', name: 'Near NEAR-L40', networkStatus: 0 });
    expect(near.ledScreens.map((d) => [d.id, d.distanceMeters])).toEqual([[ledAt.get(450), 450]]);
    expect(near.terminals).toEqual([]);
    // The two nearest cameras with a stream (the IP speaker 60 m away has none).
    expect(near.cameras.map((d) => [d.id, d.distanceMeters])).toEqual([
      [cameraAt.get(120), 120],
      [cameraAt.get(300), 300],
    ]);
    // The street lights and the cameras are the administrators' (docs/permissions.md): an editor is not told of them.
    const asEditor = (await editor.get<IncidentNearby>(`/api/alarm/incidentNearby?id=${incidentId}`)).body.data;
    expect(asEditor).toEqual({ ...near, lamps: [], cameras: [] });
    // Across the antimeridian: a lamp 222 m east of a column at 179.999° E stands at 179.999° W.
    expect(
      (await admin.get<IncidentNearby>(`/api/alarm/incidentNearby?id=${dateLineId}`)).body.data.lamps.map((d) => [d.code, d.distanceMeters]),
    ).toEqual([['NEAR-LX', 222]]);
    // A column with no position has nothing near it.
    expect((await editor.get<IncidentNearby>(`/api/alarm/incidentNearby?id=${nowhereId}`)).body.data).toEqual({
      lamps: [],
      ledScreens: [],
      terminals: [],
      cameras: [],
    });
    expect((await editor.get(`/api/alarm/incidentNearby?id=99999999`)).status).toBe(404);
    expect((await visitor.get(`/api/alarm/incidentNearby?id=${incidentId}`)).status).toBe(403);
  });

  it('turns the nearest lamps to 100 % and shows a medium on the nearest screen, each a dispatch to exactly those devices, in the log', async () => {
    const lamps = await respond(admin, { id: incidentId, response: IncidentResponse.Lamps });
    expect(lamps.status).toBe(200);
    const { dispatchId, incident } = lamps.body.data;
    expect(incident.id).toBe(incidentId);
    const [dispatch] = await gw.db.query<{ family: string; action: string; params: { level: number } }>(
      `SELECT family, action, params FROM dispatch WHERE id = $1`,
      [dispatchId],
    );
    expect(dispatch).toMatchObject({ family: 'lamp', action: 'dim', params: { level: 100 } });
    const items = await gw.db.query<{ id: number }>(`SELECT device_id AS id FROM dispatch_item WHERE dispatch_id = $1 ORDER BY device_id`, [
      dispatchId,
    ]);
    expect(items.map((i) => i.id)).toEqual([40, 100, 150, 200, 250, 300].map((m) => lampAt.get(m)!).sort((a, b) => a - b));

    const led = await respond(editor, { id: incidentId, response: IncidentResponse.Led, mediaId: ledMediaId });
    expect(led.status).toBe(200);
    const screens = await gw.db.query<{ id: number; action: string }>(
      `SELECT i.device_id AS id, d.action FROM dispatch_item i JOIN dispatch d ON d.id = i.dispatch_id WHERE i.dispatch_id = $1`,
      [led.body.data.dispatchId],
    );
    expect(screens).toEqual([{ id: ledAt.get(450), action: 'play' }]);

    const detail = (await admin.get<AlarmIncidentDetail>(`/api/alarm/incidentDetail?id=${incidentId}`)).body.data;
    expect(detail.actions.map((a) => [a.kind, a.userName, a.dispatchId, a.deviceCount])).toEqual([
      [IncidentActionKind.Lamps, 'admin', dispatchId, 6],
      [IncidentActionKind.Led, 'editor', led.body.data.dispatchId, 1],
    ]);
  });

  it('refuses a response it cannot send with the catalogue message, translated, sending and logging nothing', async () => {
    const before = await ledger();
    const none = await respond(editor, { id: incidentId, response: IncidentResponse.Broadcast, mediaId: broadcastMediaId });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('There are no broadcast terminals within 500 m of this alarm column');
    const inChinese = await respond(editor.as(editor.token, 'zh-CN'), {
      id: incidentId,
      response: IncidentResponse.Broadcast,
      mediaId: broadcastMediaId,
    });
    expect(inChinese.body.message).toBe('该报警柱 500 米内没有广播终端');
    const noMedium = await respond(editor, { id: incidentId, response: IncidentResponse.Led });
    expect(noMedium.status).toBe(400);
    expect(JSON.stringify(noMedium.body)).toContain('Please select a file');
    const unknownMedium = await respond(editor, { id: incidentId, response: IncidentResponse.Led, mediaId: 987654 });
    expect(unknownMedium.status).toBe(400);
    expect(JSON.stringify(unknownMedium.body)).toContain('This medium no longer exists');
    const nullMedium = await respond(editor, { id: incidentId, response: IncidentResponse.Broadcast, mediaId: null });
    expect(JSON.stringify(nullMedium.body)).toContain('Please select a playlist or at least one material');
    const noPosition = await respond(editor, { id: nowhereId, response: IncidentResponse.Lamps });
    expect(noPosition.body.message).toBe('This alarm column has no position: place it or its pole on the map first');
    const closed = await respond(editor, { id: closedId, response: IncidentResponse.Lamps });
    expect(closed.status).toBe(409);
    expect(closed.body.message).toBe('This incident is already closed');
    expect((await respond(editor, { id: incidentId, response: 'sirens' })).status).toBe(400);
    expect((await respond(editor, { id: '99999999', response: IncidentResponse.Lamps })).status).toBe(404);
    expect((await respond(visitor, { id: incidentId, response: IncidentResponse.Lamps })).status).toBe(403);
    // The street lights are the administrators' (docs/permissions.md): an editor may not send them a response either.
    expect((await respond(editor, { id: incidentId, response: IncidentResponse.Lamps })).status).toBe(403);
    expect(await ledger()).toEqual(before);
  });

  it('sends nothing when the incident is closed while its response is being written (the log line is in the dispatch)', async () => {
    const before = await ledger();
    // Another transaction closes the incident and holds its row: the response, past its first look (the incident was
    // open then), waits for the row in its dispatch's transaction, then finds it closed and writes nothing.
    const closer = new Client({ connectionString: gw.db.url });
    await closer.connect();
    let race;
    try {
      await closer.query('BEGIN');
      await closer.query(`UPDATE alarm_incident SET state = 'closed', closed_at = now(), closed_by = 'admin' WHERE id = $1`, [raceId]);
      const pending = respond(admin, { id: raceId, response: IncidentResponse.Lamps });
      await waitFor(async () => {
        const waiting = await gw.db.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%alarm_incident%FOR UPDATE%'`,
        );
        return waiting.length > 0 ? true : undefined;
      }, 10_000);
      await closer.query('COMMIT');
      race = await pending;
    } finally {
      await closer.end();
    }
    expect(race.status).toBe(409);
    expect(race.body.message).toBe('This incident is already closed');
    expect(await ledger()).toEqual(before);
  });

  it('plays an announcement on the nearest terminals at the first priority, once there are some', async () => {
    const terminals = [];
    for (const metres of [120, 60, 90, 30])
      terminals.push(await device(DeviceType.Broadcast, 'broadcast_terminal', `NEAR-T${metres}`, metres, { terminal_ip: '10.9.1.1' }));
    const played = await respond(editor, { id: incidentId, response: IncidentResponse.Broadcast, mediaId: broadcastMediaId });
    expect(played.status).toBe(200);
    const [task] = await gw.db.query<{ name: string; priority: number; terminals: number[] }>(
      `SELECT task_name AS name, priority, terminal_ids AS terminals FROM broadcast_task ORDER BY id DESC LIMIT 1`,
    );
    // The three nearest: 30, 60 and 90 m.
    expect(task).toEqual({
      name: 'NEAR-C1 Column NEAR-C1',
      priority: 1,
      terminals: [terminals[3], terminals[1], terminals[2]].sort((a, b) => a - b),
    });
    const detail = (await editor.get<AlarmIncidentDetail>(`/api/alarm/incidentDetail?id=${incidentId}`)).body.data;
    expect(detail.actions.at(-1)).toMatchObject({ kind: IncidentActionKind.Broadcast, dispatchId: played.body.data.dispatchId, deviceCount: 3 });
  });
});
