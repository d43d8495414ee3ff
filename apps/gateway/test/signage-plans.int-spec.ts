import { Pool } from 'pg';
import pino from 'pino';
import sharp from 'sharp';
import {
  AdPlanStatus,
  AdPlayMode,
  AdPublishMode,
  AdReceiveStatus,
  DispatchItemState,
  PublishType,
  ScreenOrientation,
  TaskTimeStatus,
  adReceiveStatusOf,
  type AdDetail,
  type AdPlanCalendarEntry,
  type AdPlanDetail,
  type AdPlanPage,
  type AdPlanReceiversPage,
  type AdPlanRequest,
  type AdPlanRow,
  type MaterialRow,
  type LampControlResult,
  type PageResult,
} from '@sc/contracts';
import { ApiClient, waitFor } from '@sc/testing';
import { startSignageFleet, type SignageFleet } from '../../device-sim/src/families/signage.sim';
import { MQTT_URL } from './device-worker';
import { startTestGateway, type TestGateway } from './harness';
import { startSignageRig, type SignageRig } from './signage-rig';

const PLACED = { cMark: 'CM', address: 'Station hall', latitude: 22.5, longitude: 114.1 };
const ONLINE = ['FPL-1', 'FPL-2'];
/** In the group, but off until the retry. */
const LATE = 'FPL-3';

/**
 * Ad plans on the real services (PostgreSQL, Redis, MQTT, the signage worker, simulated players): saved and refused
 * with the catalogue's messages (nothing changed), published by group through the ledger with links to the ads'
 * materials, each screen's receive status moving live to download completed, an offline screen's row expiring to
 * unknown and taken by a retry of the failed only, an empty group refused, conflicts in the calendar.
 */
describe('floor-screen ad plans', () => {
  let gw: TestGateway;
  let editor: ApiClient;
  let visitor: ApiClient;
  let rig: SignageRig;
  let fleet: SignageFleet;
  let late: SignageFleet | undefined;
  let ad: AdDetail;
  let groupId: number;
  let emptyGroupId: number;
  const ids = new Map<string, number>();

  const plan = (over: Partial<AdPlanRequest> = {}): AdPlanRequest => ({
    publishName: 'Winter sale',
    publishMode: AdPublishMode.Group,
    groupId,
    adIds: [ad.id],
    schedule: { startDate: '2026-12-01', endDate: '2099-12-31', allDay: false, startTime: '09:00', endTime: '18:00', weekdays: [] },
    playMode: AdPlayMode.NormalLoop,
    publishType: PublishType.Replace,
    ...over,
  });
  const stored = async () => ({
    plans: await gw.db.query(`SELECT * FROM signage_ad_plan ORDER BY id`),
    dispatches: await gw.db.query(`SELECT id FROM dispatch WHERE action = 'publish' ORDER BY created_at`),
  });
  const receivers = async (id: number) =>
    (await editor.post<AdPlanReceiversPage>('/api/signage/plan/receivers', { id, pageNum: 1, pageSize: 50 })).body.data;

  beforeAll(async () => {
    gw = await startTestGateway({ dispatchTtlSeconds: 4 });
    gw.config.media.linkBaseUrl = gw.baseUrl;
    [editor, visitor] = await Promise.all([gw.signedIn('editor'), gw.signedIn('visitor')]);
    const png = await sharp({ create: { width: 360, height: 640, channels: 3, background: '#1366ec' } })
      .png()
      .toBuffer();
    const data = new FormData();
    data.append('file', new Blob([png]), 'poster.png');
    const image = (await new ApiClient(gw.uploadUrl, 'en-US').as(editor.token).post<MaterialRow>('/api/signage/material/upload', data)).body.data;
    ad = (
      await editor.post<AdDetail>('/api/signage/ad/add', {
        name: 'Poster',
        coverMaterialId: image.id,
        orientation: ScreenOrientation.Portrait,
        totalDuration: 10,
        splitCount: 1,
        zones: [[{ materialId: image.id, seconds: 10 }]],
        music: [],
        auditRequired: false,
      })
    ).body.data;
    groupId = (await editor.post<{ id: number }>('/api/signage/groupAddOrEdit', { name: 'Hall' })).body.data.id;
    emptyGroupId = (await editor.post<{ id: number }>('/api/signage/groupAddOrEdit', { name: 'Nobody' })).body.data.id;
    for (const code of [...ONLINE, LATE]) {
      const answer = await editor.post<{ id: number }>('/api/signage/deviceAddOrEdit', { name: `Screen ${code}`, code, ...PLACED });
      ids.set(code, answer.body.data.id);
    }
    expect((await editor.post('/api/signage/bind', { ids: [...ids.values()], groupId })).status).toBe(200);
    rig = await startSignageRig(gw, editor.token, 'signage-plans');
    fleet = await startSignageFleet({
      mqttUrl: MQTT_URL,
      players: ONLINE.map((code) => ({ code, record: { name: `Screen ${code}`, orientation: ScreenOrientation.Portrait } })),
      ackLatencyMs: { min: 5, max: 20 },
      logger: pino({ level: 'silent' }),
    });
  }, 120_000);

  afterAll(async () => {
    await late?.stop({ clearRetained: true });
    await fleet?.stop({ clearRetained: true });
    await rig?.stop();
    await gw?.close();
  }, 30_000);

  let planId: number;

  it('refuses bad plans with the catalogue messages and changes nothing', async () => {
    const before = await stored();
    const refused = await editor.post('/api/signage/plan/add', {
      ...plan(),
      publishName: ' !!! ',
      playMode: AdPlayMode.OnDemand,
      playLimitCount: 10_000_001,
      onDemandType: 3,
      schedule: { ...plan().schedule, startTime: '18:00', endTime: '09:00' },
    });
    expect(refused.status).toBe(400);
    const fields = (refused.body.data as { errors: { field: string; reason: string }[] }).errors.map((f) => [f.field, f.reason]);
    expect(fields).toEqual(
      expect.arrayContaining([
        ['publishName', 'A meaningful publish name is required'],
        ['playLimitCount', 'The play count is a whole number from 1 to 10000000'],
        ['onDemandType', 'The on-demand type is fixed at 2'],
      ]),
    );
    expect((await editor.post('/api/signage/plan/add', plan({ adIds: [] }))).body.data).toEqual({
      errors: [{ field: 'adIds', reason: 'Choose at least one ad to publish', message: 'Ads: Choose at least one ad to publish' }],
    });
    expect((await editor.post('/api/signage/plan/add', plan({ adIds: [987654] }))).body.message).toMatch(/987654/);
    const badIds = await editor.post<{ errors: { field: string }[] }>('/api/signage/plan/add', {
      ...plan({ publishMode: AdPublishMode.Devices, deviceIds: ['x', 0] as unknown as number[] }),
      adIds: [2 ** 40],
    });
    expect(badIds.body.data.errors.map((e) => e.field)).toEqual(['deviceIds', 'adIds']);
    expect((await editor.post('/api/signage/plan/add', plan({ groupId: 987654 }))).status).toBe(400);
    // Visitors see no floor screens: nothing of the plans either.
    expect((await visitor.post('/api/signage/plan/add', plan())).status).toBe(403);
    expect((await visitor.post('/api/signage/plan/page', { pageNum: 1, pageSize: 10 })).status).toBe(403);
    expect(await stored()).toEqual(before);
  });

  it('refuses to publish to an empty group, and sends nothing', async () => {
    const saved = await editor.post<AdPlanDetail>('/api/signage/plan/add', plan({ publishName: 'Nobody sees', groupId: emptyGroupId }));
    expect(saved.status).toBe(200);
    const before = await stored();
    const refused = await editor.post('/api/signage/plan/publish', { id: saved.body.data.id });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('This group has no devices and cannot be selected');
    expect(await stored()).toEqual(before);
    expect((await editor.post('/api/signage/plan/delete', { id: saved.body.data.id })).status).toBe(200);
  });

  it('publishes by group: each screen moves live to download completed; the offline one expires to unknown with its expiry shown', async () => {
    const saved = await editor.post<AdPlanDetail>('/api/signage/plan/add', plan());
    expect(saved.status).toBe(200);
    planId = saved.body.data.id;
    expect(saved.body.data).toMatchObject({ status: AdPlanStatus.Unpublished, adNames: ['Poster'], groupName: 'Hall', expiryDate: '2099-12-31' });
    expect((await receivers(planId)).receiveCounts[AdReceiveStatus.NotPublished]).toBe(3);

    const published = await editor.post<{ dispatchId: string }>('/api/signage/plan/publish', { id: planId });
    expect(published.status).toBe(200);
    const { dispatchId } = published.body.data;

    // While the late screen is off, its row waits with its expiry shown.
    const waiting = await receivers(planId);
    const lateRow = waiting.list.find((r) => r.deviceCode === LATE)!;
    expect([AdReceiveStatus.PublishedNotReceived]).toContain(lateRow.receiveStatus);
    expect(lateRow.expiresAt).not.toBeNull();

    const done = await waitFor(async () => {
      const page = await receivers(planId);
      return page.receiveCounts[AdReceiveStatus.DownloadCompleted] === 2 && page.receiveCounts[AdReceiveStatus.Unknown] === 1 ? page : undefined;
    }, 30_000);
    expect(Object.fromEntries(done.list.map((r) => [r.deviceCode, r.receiveStatus]))).toEqual({
      'FPL-1': AdReceiveStatus.DownloadCompleted,
      'FPL-2': AdReceiveStatus.DownloadCompleted,
      [LATE]: AdReceiveStatus.Unknown,
    });
    // Each online screen was seen live reaching download completed on the socket, after its receipts.
    const seen = (code: string) =>
      rig.rowEvents
        .filter((e) => e.dispatchId === dispatchId)
        .flatMap((e) => e.rows.filter((r) => r.deviceId === ids.get(code)))
        .map((r) => adReceiveStatusOf(r));
    for (const code of ONLINE) expect(seen(code).at(-1)).toBe(AdReceiveStatus.DownloadCompleted);
    await waitFor(() => (seen(LATE).at(-1) === AdReceiveStatus.Unknown ? true : undefined));
    await waitFor(() => (ONLINE.every((code) => fleet.player(code)?.plans.some((p) => p.planId === `plan-${planId}` && p.ready)) ? true : undefined));

    const listed = (await editor.post<PageResult<AdPlanRow>>('/api/signage/plan/page', { pageNum: 1, pageSize: 10, status: 'published' })).body.data;
    expect(listed.list.map((p) => [p.id, p.targetCount, p.dispatchId])).toEqual([[planId, 3, dispatchId]]);
    expect(
      (await editor.post<PageResult<AdPlanRow>>('/api/signage/plan/page', { pageNum: 1, pageSize: 10, date: '2026-11-30' })).body.data.total,
    ).toBe(0);
    const detail = (await editor.get<AdPlanDetail>(`/api/signage/plan/detail?id=${planId}`)).body.data;
    expect(detail.receiveCounts).toMatchObject({ [AdReceiveStatus.DownloadCompleted]: 2, [AdReceiveStatus.Unknown]: 1 });
  }, 60_000);

  it('retries the failed screen only: the late screen, now on, downloads it', async () => {
    late = await startSignageFleet({
      mqttUrl: MQTT_URL,
      players: [{ code: LATE, record: { name: `Screen ${LATE}`, orientation: ScreenOrientation.Portrait } }],
      ackLatencyMs: { min: 5, max: 20 },
      logger: pino({ level: 'silent' }),
    });
    // The links the late screen was sent have expired since: any retry (here the ledger's own, as the dispatch page
    // asks) signs them again, or the screen's downloads would be refused.
    const { dispatchId } = await receivers(planId);
    for (const table of ['dispatch', 'dispatch_item'])
      await gw.db.query(
        `UPDATE ${table} SET params = regexp_replace(params::text, 'expires=[0-9]+', 'expires=1000000000', 'g')::jsonb
          WHERE ${table === 'dispatch' ? 'id' : 'dispatch_id'} = $1 AND params IS NOT NULL`,
        [dispatchId],
      );
    const retried = await editor.post<{ retried: number }>('/api/dispatch/retryFailed', { id: dispatchId });
    expect(retried.status).toBe(200);
    const [renewed] = await gw.db.query<{ params: { files: { url: string }[] } }>(`SELECT params FROM dispatch WHERE id = $1`, [dispatchId]);
    const expiry = Number(new URL(renewed.params.files[0].url).searchParams.get('expires'));
    expect(expiry).toBeGreaterThan(Date.now() / 1000 + gw.config.dispatchTtlSeconds);
    expect(retried.body.data.retried).toBe(1);
    const page = await waitFor(async () => {
      const p = await receivers(planId);
      return p.receiveCounts[AdReceiveStatus.DownloadCompleted] === 3 ? p : undefined;
    }, 30_000);
    // The two that had it were not asked again.
    const attempts = await gw.db.query<{ device_id: number; attempts: number; state: string }>(
      `SELECT device_id, attempts, state FROM dispatch_item WHERE dispatch_id = $1 ORDER BY device_id`,
      [page.dispatchId],
    );
    expect(attempts.every((a) => a.state === DispatchItemState.Delivered)).toBe(true);
    expect((await editor.post('/api/signage/plan/retryFailed', { id: planId })).body.message).toBe(
      'This dispatch has no failed or expired commands to retry',
    );
  }, 60_000);

  it('shows conflicts in the calendar, and keeps an ad a plan uses', async () => {
    const other = await editor.post<AdPlanDetail>(
      '/api/signage/plan/add',
      plan({
        publishName: 'Lunch offer',
        publishMode: AdPublishMode.Devices,
        groupId: null,
        deviceIds: [ids.get('FPL-1')!],
        publishType: PublishType.Append,
        schedule: { startDate: '2026-12-07', endDate: '2026-12-13', allDay: false, startTime: '12:00', endTime: '14:00', weekdays: ['1'] },
      }),
    );
    expect(other.status).toBe(200);
    const calendar = (await editor.get<AdPlanCalendarEntry[]>('/api/signage/plan/calendar?from=2026-12-07&to=2026-12-13')).body.data;
    const byId = new Map(calendar.map((entry) => [entry.id, entry]));
    expect(byId.get(other.body.data.id)!.occurrences).toEqual([{ date: '2026-12-07', start: 720, end: 840 }]);
    expect(byId.get(other.body.data.id)!.conflicts).toEqual([
      { id: planId, publishName: 'Winter sale', at: { date: '2026-12-07', start: 720, end: 840 } },
    ]);
    expect(byId.get(planId)!.conflicts.map((c) => c.id)).toEqual([other.body.data.id]);
    expect((await editor.get('/api/signage/plan/calendar?from=2026-12-07&to=2027-03-01')).status).toBe(400);

    const deleting = await editor.post('/api/signage/ad/delete', { ids: [ad.id] });
    expect(deleting.status).toBe(409);
    expect(deleting.body.message).toContain('"Winter sale"');
  });

  it('publishes what the plan says once it holds its row: screens and content from the same reading', async () => {
    const added = await editor.post<AdPlanDetail>('/api/signage/plan/add', plan({ publishName: 'Edited meanwhile' }));
    expect(added.status).toBe(200);
    const id = added.body.data.id;
    const pool = new Pool({ connectionString: gw.db.url, max: 1 });
    const other = await pool.connect();
    try {
      // Someone edits the plan (group to one chosen screen) while the publish waits for its row.
      await other.query('BEGIN');
      await other.query(`SELECT id FROM signage_ad_plan WHERE id = $1 FOR UPDATE`, [id]);
      const publishing = editor.post<LampControlResult>('/api/signage/plan/publish', { id });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await other.query(`UPDATE signage_ad_plan SET publish_mode = $2, device_ids = $3, group_id = NULL WHERE id = $1`, [
        id,
        AdPublishMode.Devices,
        [ids.get('FPL-1')],
      ]);
      await other.query('COMMIT');
      const published = await publishing;
      expect(published.status).toBe(200);
      const rows = await gw.db.query<{ device_id: number }>(`SELECT device_id FROM dispatch_item WHERE dispatch_id = $1`, [
        published.body.data.dispatchId,
      ]);
      expect(rows.map((r) => r.device_id)).toEqual([ids.get('FPL-1')]);
    } finally {
      other.release();
      await pool.end();
    }
    expect((await editor.post('/api/signage/plan/delete', { id })).status).toBe(200);
  });

  it("calls a plan expired by the default place's date, not the database's", async () => {
    const [{ today }] = await gw.db.query<{ today: string }>(`SELECT current_date::text AS today`);
    const dateIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
    // Far east or far west of the database, one of these zones is on another day at any hour.
    const timeZone = ['Etc/GMT-14', 'Etc/GMT+12'].find((zone) => dateIn(zone) !== today)!;
    const place = dateIn(timeZone);
    const lastDay = place < today ? place : today;
    const added = await editor.post<AdPlanDetail>(
      '/api/signage/plan/add',
      plan({ publishName: 'Last day', schedule: { startDate: lastDay, endDate: lastDay, allDay: true, weekdays: [] } }),
    );
    expect(added.status).toBe(200);
    const saved = added.body.data;
    const before = gw.config.defaultPlace.timeZone;
    gw.config.defaultPlace.timeZone = timeZone;
    try {
      // Over in the place (its day is later) or still on there (its day is earlier), whatever the database's date says.
      const expected = lastDay < place ? AdPlanStatus.Expired : AdPlanStatus.Unpublished;
      expect((await editor.get<AdPlanDetail>(`/api/signage/plan/detail?id=${saved.id}`)).body.data.status).toBe(expected);
      const expiredIds = (
        await editor.post<PageResult<AdPlanRow>>('/api/signage/plan/page', { pageNum: 1, pageSize: 50, status: AdPlanStatus.Expired })
      ).body.data.list.map((p) => p.id);
      expect(expiredIds.includes(saved.id)).toBe(expected === AdPlanStatus.Expired);
    } finally {
      gw.config.defaultPlace.timeZone = before;
    }
    expect((await editor.post('/api/signage/plan/delete', { id: saved.id })).status).toBe(200);
  });
  it("calls a plan expired once its last day is over on every screen's clock (its region's or an ancestor's zone)", async () => {
    const dateIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
    // 26 hours apart: the east is always a day or two ahead of the west.
    const [east, west] = ['Etc/GMT-14', 'Etc/GMT+12'];
    const lastDay = dateIn(west);
    expect(dateIn(east) > lastDay).toBe(true);
    const region = async (name: string, timeZone: string | null, parentId: number | null = null) =>
      (
        await gw.db.query<{ id: number }>(`INSERT INTO region (region_name, time_zone, parent_id) VALUES ($1, $2, $3) RETURNING id`, [
          name,
          timeZone,
          parentId,
        ])
      )[0].id;
    const eastRegion = await region('Far east', east);
    // A region naming no zone keeps its ancestor's.
    const eastHall = await region('Far east hall', null, eastRegion);
    const westRegion = await region('Far west', west);
    const screen = async (code: string, regionId: number) =>
      (await editor.post<{ id: number }>('/api/signage/deviceAddOrEdit', { name: `Screen ${code}`, code, ...PLACED, regionId })).body.data.id;
    const eastScreen = await screen('FPE-1', eastHall);
    const westScreen = await screen('FPW-1', westRegion);
    const before = gw.config.defaultPlace.timeZone;
    // The installation's day is still on: only the screens' clocks can end the plans.
    gw.config.defaultPlace.timeZone = west;
    const added: number[] = [];
    try {
      const add = async (publishName: string, deviceIds: number[]) => {
        const answer = await editor.post<AdPlanDetail>(
          '/api/signage/plan/add',
          plan({
            publishName,
            publishMode: AdPublishMode.Devices,
            deviceIds,
            groupId: null,
            schedule: { startDate: lastDay, endDate: lastDay, allDay: true, weekdays: [] },
          }),
        );
        expect(answer.status).toBe(200);
        added.push(answer.body.data.id);
        return answer.body.data;
      };
      const statusOf = async (id: number) => (await editor.get<AdPlanDetail>(`/api/signage/plan/detail?id=${id}`)).body.data.status;
      const expiredIds = async () =>
        (
          await editor.post<PageResult<AdPlanRow>>('/api/signage/plan/page', { pageNum: 1, pageSize: 50, status: AdPlanStatus.Expired })
        ).body.data.list.map((p) => p.id);

      // The page names the installation's zone, whose day a new plan starts on in the editor.
      expect((await editor.post<AdPlanPage>('/api/signage/plan/page', { pageNum: 1, pageSize: 1 })).body.data.timeZone).toBe(west);
      const eastOnly = await add('East only', [eastScreen]);
      const both = await add('East and west', [eastScreen, westScreen]);
      expect(eastOnly.status).toBe(AdPlanStatus.Expired);
      expect(both.status).toBe(AdPlanStatus.Unpublished);
      // Its time status on the same clocks (schedulesTimeStatus): over in the east, playing in the west today.
      expect(eastOnly.timeStatus).toBe(TaskTimeStatus.Ended);
      expect(both.timeStatus).toBe(TaskTimeStatus.InProgress);
      expect(await expiredIds()).toEqual(expect.arrayContaining([eastOnly.id]));
      expect(await expiredIds()).not.toContain(both.id);

      // Published, it keeps the clocks its screens were sent, whatever their regions say afterwards.
      expect((await editor.post<LampControlResult>('/api/signage/plan/publish', { id: both.id })).status).toBe(200);
      const [{ zones }] = await gw.db.query<{ zones: string[] }>(`SELECT time_zones AS zones FROM signage_ad_plan WHERE id = $1`, [both.id]);
      expect([...zones].sort()).toEqual([east, west].sort());
      await gw.db.query(`UPDATE region SET time_zone = $2 WHERE id = $1`, [westRegion, east]);
      expect(await statusOf(both.id)).toBe(AdPlanStatus.Published);
      // An unpublished plan reads its screens' clocks when it is saved.
      const later = await add('West now east', [westScreen]);
      expect(later.status).toBe(AdPlanStatus.Expired);
      // A screen whose regions name no zone keeps the installation's.
      await gw.db.query(`UPDATE signage_device SET region_id = NULL WHERE id = $1`, [westScreen]);
      const unplaced = await add('No region', [westScreen]);
      expect(unplaced.status).toBe(AdPlanStatus.Unpublished);
      gw.config.defaultPlace.timeZone = east;
      expect(await statusOf(unplaced.id)).toBe(AdPlanStatus.Expired);
    } finally {
      gw.config.defaultPlace.timeZone = before;
      for (const id of added) expect((await editor.post('/api/signage/plan/delete', { id })).status).toBe(200);
    }
  });
});
