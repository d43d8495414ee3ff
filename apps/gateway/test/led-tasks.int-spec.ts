import pino from 'pino';
import sharp from 'sharp';
import { DateTime } from 'luxon';
import type { Socket } from 'socket.io-client';
import {
  DispatchItemState,
  DispatchStatus,
  LED_FAMILY,
  LedPlayMode,
  LedReceiveStatus,
  MqttService,
  OnlineState,
  TaskTimeStatus,
  ledReceiveStatusOf,
  type ClientToServerEvents,
  type DispatchDetail,
  type DispatchRowsChangedEvent,
  type LampControlResult,
  type LedMediaRow,
  type LedRow,
  type LedTaskRequest,
  type LedTaskRow,
  type LedTaskScreensPage,
  type PageResult,
  type ServerToClientEvents,
} from '@sc/contracts';
import { ApiClient, mp4Clip, waitFor } from '@sc/testing';
import { startLedFleet, type LedFleet } from '../../device-sim/src/families/led.sim';
import { LED_FAMILIES } from '../../worker-led/src/led-worker';
import { startTestGateway, type TestGateway } from './harness';
import { MQTT_URL, startTestWorker, watchFamily } from './device-worker';
import type { DeviceWorker } from '@sc/device-runtime';

const CODES = ['LED-K1', 'LED-K2', 'LED-K3'];
/** Two screens in Shanghai, one in Madrid: a task's time status is read in each screen's own zone. */
const ZONES = ['Asia/Shanghai', 'Asia/Shanghai', 'Europe/Madrid'];
/** The task periods run from yesterday to a month on (the gateway's time status reads the real clock). */
const SHANGHAI_TODAY = DateTime.now().setZone('Asia/Shanghai').toISODate() as string;
const FROM = DateTime.now().minus({ days: 1 }).toISODate() as string;
const TO = DateTime.now().plus({ days: 30 }).toISODate() as string;

/**
 * LED real-time play and tasks on the real PostgreSQL, Redis and MQTT: the gateway's routes, the LED worker's ledger,
 * and simulated screens that fetch the file from its signed link, say how far they got and report what they show.
 */
describe('LED real-time play and tasks through the ledger with simulated screens', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let visitor: ApiClient;
  let worker: DeviceWorker;
  let fleet: LedFleet;
  let socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  const rowEvents: DispatchRowsChangedEvent[] = [];
  let socketClosed: string | null = null;
  const ids: number[] = [];
  let picture: LedMediaRow;
  let video: LedMediaRow;

  const upload = async (content: Buffer, fileName: string) => {
    const body = new FormData();
    body.append('file', new Blob([content]), fileName);
    return (await new ApiClient(gw.uploadUrl).as(editor.token).post<LedMediaRow>('/api/led/mediaUpload', body)).body.data;
  };
  const screens = async () => (await admin.post<PageResult<LedRow>>('/api/led/ledPage', { pageNum: 1, pageSize: 50 })).body.data.list;
  const taskScreens = async (id: number) =>
    (await editor.post<LedTaskScreensPage>('/api/led/taskScreens', { id, pageNum: 1, pageSize: 50 })).body.data.list;
  const dispatch = async (id: string) => (await editor.get<DispatchDetail>(`/api/dispatch/detail?id=${id}`)).body.data;
  const task = (over: Partial<LedTaskRequest> = {}): LedTaskRequest => ({
    name: 'Evening programme',
    mediaIds: [video.id],
    playMode: LedPlayMode.Synchronous,
    timePeriods: [
      { start: '08:00', end: '09:00' },
      { start: '12:00', end: '13:00' },
      { start: '19:00', end: '22:00' },
    ],
    taskPeriods: [{ startDate: FROM, endDate: TO }],
    screenIds: ids,
    ...over,
  });

  beforeAll(async () => {
    gw = await startTestGateway();
    // The screens fetch from the test gateway itself.
    gw.config.media.linkBaseUrl = gw.baseUrl;
    [admin, editor, visitor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor'), gw.signedIn('visitor')]);
    for (const [i, code] of CODES.entries()) {
      const answer = await admin.post<{ id: number }>('/api/led/ledAddOrEdit', {
        name: `Screen ${code}`,
        sn: code,
        IPAddress: `10.30.2.${i + 1}`,
        width: 640,
        height: 320,
        timeZone: ZONES[i],
      });
      ids.push(answer.body.data.id);
    }
    const png = await sharp({ create: { width: 640, height: 320, channels: 3, background: '#1366ec' } })
      .png()
      .toBuffer();
    picture = await upload(png, 'welcome.png');
    video = await upload(await mp4Clip({ seconds: 2, width: 320, height: 160 }), 'clip.mp4');
    worker = await startTestWorker(gw, { name: 'led', families: LED_FAMILIES, service: MqttService.WorkerLed }, 'led-tasks', { ackTimeoutMs: 500 });
    socket = await watchFamily(gw, editor.token, LED_FAMILY.family, 'DispatchRowsChanged');
    socket.on('DispatchRowsChanged', (event) => rowEvents.push(event));
    socket.on('disconnect', (reason) => (socketClosed = reason));
    fleet = await startLedFleet({
      mqttUrl: MQTT_URL,
      screens: CODES,
      ackLatencyMs: { min: 5, max: 20 },
      clock: { speed: 1 },
      scheduleTickMs: 100,
      logger: pino({ level: 'silent' }),
    });
    await waitFor(async () => ((await screens()).every((s) => s.networkStatus === OnlineState.Online) ? true : undefined), 10_000);
  }, 120_000);
  afterAll(async () => {
    socket?.close();
    await fleet?.stop({ clearRetained: true });
    await worker?.stop();
    await gw?.close();
  });

  it('plays a picture now on two screens: they fetch it, ack, and report it playing; stop takes it off', async () => {
    const answer = await editor.post<LampControlResult>('/api/led/realTimePlay', { mediaId: picture.id, ids: [ids[0], ids[1]] });
    expect(answer.status).toBe(200);
    const done = await waitFor(async () => {
      const d = await dispatch(answer.body.data.dispatchId);
      return d.status === DispatchStatus.AllSuccessful ? d : undefined;
    }, 10_000);
    // A screen says it received the command, then acks once it holds the file; when both reach the ledger in one batch
    // the ack settles the row and the receipt has nothing left to move.
    expect(done.items.map((i) => i.state)).toEqual([DispatchItemState.Delivered, DispatchItemState.Delivered]);
    expect(done.items.every((i) => i.receipt === null || i.receipt.stage === 'received' || i.receipt.stage === 'downloading')).toBe(true);
    await waitFor(async () => {
      const list = await screens();
      const playing = list.filter((s) => s.playing?.source === 'realtime' && s.playing.mediaId === picture.id);
      return playing.length === 2 ? true : undefined;
    }, 5000);
    expect((await screens()).find((s) => s.id === ids[2])?.playing).toBeNull();
    // Announced with the dispatch's next progress, a moment after the ledger has the rows.
    await waitFor(() => (rowEvents.some((e) => e.dispatchId === answer.body.data.dispatchId) ? true : socketClosed ? false : undefined), 5000);
    expect(socketClosed).toBeNull();

    await editor.post('/api/led/realTimeStop', { ids: [ids[0], ids[1]] });
    await waitFor(async () => ((await screens()).every((s) => s.playing === null) ? true : undefined), 5000);
  }, 30_000);

  it('refuses 8 time periods, 2 files, overlapping periods and 8 task periods with the spec messages, saving nothing', async () => {
    const count = async () => (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM led_task`))[0].n;
    const eight = Array.from({ length: 8 }, (_, i) => ({ start: `0${i}:00`.slice(-5), end: `0${i}:30`.slice(-5) }));
    const tooMany = await editor.post('/api/led/taskAddOrEdit', task({ timePeriods: eight }));
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain('At most 7 time periods');
    const twoFiles = await editor.post('/api/led/taskAddOrEdit', task({ mediaIds: [video.id, picture.id] }));
    expect(JSON.stringify(twoFiles.body)).toContain('At most 1 file');
    const overlapping = await editor.post(
      '/api/led/taskAddOrEdit',
      task({
        timePeriods: [
          { start: '08:00', end: '10:00' },
          { start: '09:00', end: '11:00' },
        ],
      }),
    );
    expect(JSON.stringify(overlapping.body)).toContain('Time Repeats');
    const unordered = await editor.post(
      '/api/led/taskAddOrEdit',
      task({
        timePeriods: [
          { start: '12:00', end: '13:00' },
          { start: '08:00', end: '09:00' },
        ],
      }),
    );
    expect(JSON.stringify(unordered.body)).toContain('Order Wrong');
    const days = Array.from({ length: 8 }, (_, i) => ({ startDate: `2027-01-0${i + 1}`, endDate: `2027-01-0${i + 1}` }));
    expect(JSON.stringify((await editor.post('/api/led/taskAddOrEdit', task({ taskPeriods: days }))).body)).toContain('At most 7 task periods');
    const zh = await new ApiClient(gw.baseUrl, 'zh-CN').as(editor.token).post('/api/led/taskAddOrEdit', task({ mediaIds: [video.id, picture.id] }));
    expect(JSON.stringify(zh.body)).toContain('最多1个文件');
    expect((await visitor.post('/api/led/taskAddOrEdit', task())).status).toBe(403);
    // Files that are no record ids are the catalogue's message, not a server error.
    for (const mediaIds of [['abc'], [1.5], [{}], [99999999999]]) {
      const bad = await editor.post('/api/led/taskAddOrEdit', task({ mediaIds: mediaIds as number[] }));
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('Invalid value');
    }
    expect(await count()).toBe(0);
  });

  it('keeps only the known fields of periods, so the command matches its schema', async () => {
    const saved = await editor.post<{ id: number }>(
      '/api/led/taskAddOrEdit',
      task({
        name: 'Extra keys',
        timePeriods: [{ start: '08:00', end: '09:00', colour: 'red' } as never],
        taskPeriods: [{ startDate: FROM, endDate: TO, note: 'x' } as never],
      }),
    );
    expect(saved.status).toBe(200);
    const [row] = await gw.db.query<{ time_periods: unknown; task_periods: unknown }>(
      `SELECT time_periods, task_periods FROM led_task WHERE id = $1`,
      [saved.body.data.id],
    );
    expect(row.time_periods).toEqual([{ start: '08:00', end: '09:00' }]);
    expect(row.task_periods).toEqual([{ startDate: FROM, endDate: TO }]);
    expect((await editor.post('/api/led/taskDel', { id: saved.body.data.id })).status).toBe(200);
  });

  it('publishes a task with 3 periods: each screen to be sent → downloading → received → playing, live; time status per zone', async () => {
    const saved = await editor.post<{ id: number }>('/api/led/taskAddOrEdit', task());
    expect(saved.status).toBe(200);
    const id = saved.body.data.id;
    // Every zone is within its task period; a task whose period is next year has not started.
    expect((await editor.get<LedTaskRow>(`/api/led/taskDetail?id=${id}`)).body.data.timeStatus).toBe(TaskTimeStatus.InProgress);
    const later = await editor.post<{ id: number }>(
      '/api/led/taskAddOrEdit',
      task({ name: 'Next year', taskPeriods: [{ startDate: '2099-01-01', endDate: '2099-01-02' }] }),
    );
    expect((await editor.get<LedTaskRow>(`/api/led/taskDetail?id=${later.body.data.id}`)).body.data.timeStatus).toBe(TaskTimeStatus.NotStarted);
    await editor.post('/api/led/taskDel', { id: later.body.data.id });
    expect((await taskScreens(id)).map((s) => ledReceiveStatusOf(s.state ? { state: s.state, receipt: s.receipt } : null, false))).toEqual([
      LedReceiveStatus.ToBeSent,
      LedReceiveStatus.ToBeSent,
      LedReceiveStatus.ToBeSent,
    ]);
    // Deleting the video it plays is refused.
    expect((await editor.post('/api/led/mediaDel', { id: video.id })).status).toBe(409);

    const published = await editor.post<LampControlResult>('/api/led/taskPublish', { id });
    expect(published.status).toBe(200);
    const dispatchId = published.body.data.dispatchId;
    await waitFor(async () => ((await dispatch(dispatchId)).status === DispatchStatus.AllSuccessful ? true : undefined), 15_000);
    // The rows moved live, row by row (announced with the dispatch's next progress, a moment after the ledger has them),
    // with their receipts when a screen's receipt reached the ledger before its ack.
    const moved = () => rowEvents.filter((e) => e.dispatchId === dispatchId).flatMap((e) => e.rows);
    const delivered = () =>
      new Set(
        moved()
          .filter((r) => r.state === DispatchItemState.Delivered)
          .map((r) => r.deviceId),
      );
    await waitFor(() => (delivered().size === ids.length ? true : undefined), 5000);
    expect(delivered()).toEqual(new Set(ids));
    expect(moved().every((r) => r.receipt === null || r.receipt.stage === 'received' || r.receipt.stage === 'downloading')).toBe(true);
    const rows = await taskScreens(id);
    expect(rows.map((r) => r.state)).toEqual([DispatchItemState.Delivered, DispatchItemState.Delivered, DispatchItemState.Delivered]);
    expect(rows.map((r) => r.timeZone)).toEqual(ZONES);

    // 19:30 in Shanghai: its screens play it, by their own clocks.
    await fleet.setClock(DateTime.fromISO(`${SHANGHAI_TODAY}T19:30`, { zone: 'Asia/Shanghai' }).toJSDate());
    await waitFor(async () => ((await taskScreens(id)).slice(0, 2).every((r) => r.playingTaskId === id) ? true : undefined), 5000);
    expect(fleet.screen(CODES[0])?.playing).toMatchObject({ source: 'task', taskId: id, mediaId: video.id });
    // 23:00 in Shanghai: its screens rest; Madrid is in its afternoon, between its periods too.
    await fleet.setClock(DateTime.fromISO(`${SHANGHAI_TODAY}T23:00`, { zone: 'Asia/Shanghai' }).toJSDate());
    await waitFor(async () => ((await taskScreens(id)).every((r) => r.playingTaskId === null) ? true : undefined), 5000);
    // 08:30 in Madrid (15:30 in Shanghai): only the Madrid screen plays.
    await fleet.setClock(DateTime.fromISO(`${SHANGHAI_TODAY}T08:30`, { zone: 'Europe/Madrid' }).toJSDate());
    await waitFor(async () => {
      const now = await taskScreens(id);
      return now.map((r) => r.playingTaskId === id).join() === 'false,false,true' ? true : undefined;
    }, 5000);
  }, 60_000);

  it('retries failed screens only and deletes a task, telling its screens to drop it', async () => {
    const saved = await editor.post<{ id: number }>('/api/led/taskAddOrEdit', task({ name: 'Morning', playMode: LedPlayMode.Asynchronous }));
    const id = saved.body.data.id;
    // Rows of a silent screen expire after 4 s here.
    gw.config.dispatchTtlSeconds = 4;
    await fleet.takeOffline(CODES[2]);
    const published = (await editor.post<LampControlResult>('/api/led/taskPublish', { id })).body.data.dispatchId;
    const detail = await waitFor(async () => {
      const d = await dispatch(published);
      return d.counts.delivered === 2 && d.counts.failed + d.counts.expired === 1 ? d : undefined;
    }, 20_000);
    expect(detail.items.find((i) => i.deviceId === ids[2])?.state).not.toBe(DispatchItemState.Delivered);
    await fleet.bringOnline(CODES[2]);
    // The link the silent screen was sent has expired since: the retry signs it again, or its download is refused.
    await gw.db.query(
      `UPDATE dispatch_item SET params = regexp_replace(params::text, 'expires=[0-9]+', 'expires=1000000000', 'g')::jsonb
        WHERE dispatch_id = $1 AND params IS NOT NULL`,
      [published],
    );
    const retried = await editor.post<{ requeued: number }>('/api/dispatch/retryFailed', { id: published });
    expect(retried.status).toBe(200);
    const [renewed] = await gw.db.query<{ url: string }>(
      `SELECT params->'file'->>'url' AS url FROM dispatch_item WHERE dispatch_id = $1 AND device_id = $2`,
      [published, ids[2]],
    );
    expect(Number(new URL(renewed.url).searchParams.get('expires'))).toBeGreaterThan(Date.now() / 1000 + gw.config.dispatchTtlSeconds);
    await waitFor(async () => ((await dispatch(published)).status === DispatchStatus.AllSuccessful ? true : undefined), 15_000);

    expect((await editor.post('/api/led/taskDel', { id })).status).toBe(200);
    const forget = await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM dispatch WHERE family = 'led' AND action = 'forgetTask'`);
    expect(forget[0].n).toBe(1);
  }, 60_000);

  it('a new publication supersedes the earlier one; screens dropped from the task and, on delete, every screen sent it are told to forget it', async () => {
    gw.config.dispatchTtlSeconds = 60;
    const itemOf = async (dispatchId: string, deviceId: number) =>
      (
        await gw.db.query<{ state: string; last_error: string | null }>(
          `SELECT state, last_error FROM dispatch_item WHERE dispatch_id = $1 AND device_id = $2`,
          [dispatchId, deviceId],
        )
      )[0];
    const forgets = async (taskId: number) =>
      (
        await gw.db.query<{ device_id: number }>(
          `SELECT i.device_id FROM dispatch d JOIN dispatch_item i ON i.dispatch_id = d.id
            WHERE d.family = 'led' AND d.action = 'forgetTask' AND (d.params->>'taskId')::int = $1 ORDER BY i.device_id`,
          [taskId],
        )
      ).map((r) => r.device_id);
    // The Madrid screen is silent: its row of the first publication stays open.
    await fleet.takeOffline(CODES[2]);
    const id = (await editor.post<{ id: number }>('/api/led/taskAddOrEdit', task({ name: 'Moving', screenIds: [ids[0], ids[2]] }))).body.data.id;
    const first = (await editor.post<LampControlResult>('/api/led/taskPublish', { id })).body.data.dispatchId;
    expect((await editor.post('/api/led/taskAddOrEdit', task({ id, name: 'Moving', screenIds: [ids[0], ids[1]] }))).status).toBe(200);
    const second = (await editor.post<LampControlResult>('/api/led/taskPublish', { id })).body.data.dispatchId;
    expect(await itemOf(first, ids[2])).toEqual({ state: DispatchItemState.Expired, last_error: 'superseded' });
    expect(await forgets(id)).toEqual([ids[2]]);
    await waitFor(async () => ((await dispatch(second)).status === DispatchStatus.AllSuccessful ? true : undefined), 15_000);

    expect((await editor.post('/api/led/taskDel', { id })).status).toBe(200);
    expect(await forgets(id)).toEqual([ids[0], ids[1], ids[2]]);
  }, 60_000);

  it('stop supersedes an unanswered play, and a medium an open play names cannot be deleted', async () => {
    const play = (await editor.post<LampControlResult>('/api/led/realTimePlay', { mediaId: picture.id, ids: [ids[2]] })).body.data.dispatchId;
    const refused = await editor.post('/api/led/mediaDel', { id: picture.id });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain('Sends to devices still open that need it: 1');
    expect((await editor.post('/api/led/realTimeStop', { ids: [ids[2]] })).status).toBe(200);
    const [row] = await gw.db.query<{ state: string; last_error: string | null }>(
      `SELECT state, last_error FROM dispatch_item WHERE dispatch_id = $1`,
      [play],
    );
    expect(row).toEqual({ state: DispatchItemState.Expired, last_error: 'superseded' });
    expect((await editor.post('/api/led/mediaDel', { id: picture.id })).status).toBe(200);
    await fleet.bringOnline(CODES[2]);
  }, 30_000);
});
