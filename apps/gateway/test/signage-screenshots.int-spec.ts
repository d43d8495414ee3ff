import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import sharp from 'sharp';
import type { Socket } from 'socket.io-client';
import {
  DeviceFamily,
  DispatchStatus,
  MqttService,
  OnlineState,
  SCREENSHOT_MAX_BYTES,
  ScreenOrientation,
  type ClientToServerEvents,
  type DeviceStateChangedEvent,
  type DispatchDetail,
  type LampControlResult,
  type PageResult,
  type ServerToClientEvents,
  type SignageDeviceRow,
  type SignageScreenshot,
} from '@sc/contracts';
import type { DeviceWorker } from '@sc/device-runtime';
import { waitFor, type ApiClient } from '@sc/testing';
import { startSignageFleet, type SignageFleet } from '../../device-sim/src/families/signage.sim';
import { SIGNAGE_FAMILIES, SIGNAGE_OBSERVERS } from '../../worker-signage/src/signage-worker';
import { ScreenshotUploadLinks } from '../src/signage/screenshot-links';
import { SCREENSHOT_FOLDER } from '../src/signage/screenshots.service';
import { MQTT_URL, startTestWorker, watchFamily } from './device-worker';
import { startTestGateway, type TestGateway } from './harness';

/** Gateway, the floor-screen worker and a simulated player on the real PostgreSQL, Redis and broker. */
describe('floor-screen screenshots end to end: asked, uploaded on the upload port, stored, announced live', () => {
  let gw: TestGateway;
  let editor: ApiClient;
  let worker: DeviceWorker;
  let fleet: SignageFleet;
  let socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  let id: number;
  let links: ScreenshotUploadLinks;
  const seen: DeviceStateChangedEvent[] = [];

  const row = async () =>
    (await editor.post<PageResult<SignageDeviceRow>>('/api/signage/devicePage', { pageNum: 1, pageSize: 50 })).body.data.list.find(
      (d) => d.id === id,
    )!;
  const stored = async () => readdir(join(gw.config.uploadDir, SCREENSHOT_FOLDER)).catch(() => [] as string[]);
  const statusOf = async (shot: number) =>
    (await gw.db.query<{ status: string }>(`SELECT status FROM signage_screenshot WHERE id = $1`, [shot]))[0].status;
  /** A requested screenshot of the player, as the action writes it, and a link to it. */
  const requested = async (now = Date.now()) => {
    const [{ id: shot }] = await gw.db.query<{ id: number }>(
      `INSERT INTO signage_screenshot (device_id, requested_by) VALUES ($1, 'test') RETURNING id`,
      [id],
    );
    return { shot, link: links.sign(shot, { ttlSeconds: 300, now }) };
  };
  const put = (url: string, body: Uint8Array, type = 'image/jpeg') => fetch(url, { method: 'PUT', body, headers: { 'content-type': type } });

  beforeAll(async () => {
    gw = await startTestGateway();
    // The upload port listens on a free port: the players' links lead there.
    gw.config.media.uploadBaseUrl = gw.uploadUrl;
    links = gw.app.get(ScreenshotUploadLinks);
    editor = await gw.signedIn('editor');
    const added = await editor.post<{ id: number }>('/api/signage/deviceAddOrEdit', {
      name: 'Screen FSS-1',
      code: 'FSS-1',
      orientation: ScreenOrientation.Portrait,
    });
    id = added.body.data.id;
    worker = await startTestWorker(
      gw,
      { name: 'signage', service: MqttService.WorkerSignage, families: SIGNAGE_FAMILIES, observers: SIGNAGE_OBSERVERS() },
      'signage',
      { ackTimeoutMs: 500 },
    );
    socket = await watchFamily(gw, editor.token, DeviceFamily.Signage);
    socket.on('DeviceStateChanged', (event) => seen.push(event));
    fleet = await startSignageFleet({
      mqttUrl: MQTT_URL,
      players: [{ code: 'FSS-1', record: { name: 'Screen FSS-1', orientation: ScreenOrientation.Portrait } }],
      ackLatencyMs: { min: 5, max: 20 },
      logger: pino({ level: 'silent' }),
    });
    await waitFor(async () => ((await row()).networkStatus === OnlineState.Online ? true : undefined), 5000);
  });
  afterAll(async () => {
    socket?.close();
    await fleet?.stop({ clearRetained: true });
    await worker?.stop();
    await gw?.close();
  });

  it('has no screenshot before one is asked for', async () => {
    expect((await row()).lastScreenshotAt).toBeNull();
    expect((await editor.get(`/api/signage/screenshot?deviceId=${id}`)).body).toMatchObject({ code: 200, data: null });
  });

  it('asks the player: it uploads its picture, the row and the live event follow, and the latest answers it', async () => {
    const asked = await editor.post<LampControlResult>('/api/signage/screenshot', { ids: [id] });
    expect(asked.body.code).toBe(200);
    const dispatch = await waitFor(async () => {
      const d = (await editor.get<DispatchDetail>(`/api/dispatch/detail?id=${asked.body.data.dispatchId}`)).body.data;
      return d.status === DispatchStatus.AllSuccessful ? d : undefined;
    }, 10_000);
    expect(dispatch.counts.delivered).toBe(1);
    const live = await waitFor(
      () =>
        seen
          .flatMap((e) => e.changes)
          .find((c) => c.deviceCode === 'FSS-1' && typeof (c.changed as Partial<SignageDeviceRow>).lastScreenshotAt === 'string'),
      10_000,
    );
    const at = (live.changed as Partial<SignageDeviceRow>).lastScreenshotAt!;
    await waitFor(() => (fleet.player('FSS-1')?.screenshots === 1 ? true : undefined), 5000);
    expect(fleet.player('FSS-1')).toMatchObject({ lastUpload: '200' });
    expect(Date.parse((await row()).lastScreenshotAt!)).toBe(Date.parse(at));
    const latest = (await editor.get<SignageScreenshot>(`/api/signage/screenshot?deviceId=${id}`)).body.data;
    expect(latest).toMatchObject({ deviceId: id, width: 540, height: 960 });
    expect(Date.parse(latest.receivedAt)).toBe(Date.parse(at));
    // The picture itself, through its signed link, without a session.
    const image = await fetch(`${gw.baseUrl}${latest.url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(await sharp(Buffer.from(await image.arrayBuffer())).metadata()).toMatchObject({ format: 'jpeg', width: 540, height: 960 });
    expect(await stored()).toHaveLength(1);
    // A visitor is refused, whatever the buttons.
    const visitor = await gw.signedIn('visitor');
    expect((await visitor.post('/api/signage/screenshot', { ids: [id] })).status).toBe(403);
  });

  it('takes a PNG by POST as well, read with sharp', async () => {
    const { shot, link } = await requested();
    const png = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const answer = await fetch(link.url, { method: 'POST', body: new Uint8Array(png), headers: { 'content-type': 'application/octet-stream' } });
    expect(answer.status).toBe(200);
    expect(await statusOf(shot)).toBe('received');
    const latest = (await editor.get<SignageScreenshot>(`/api/signage/screenshot?deviceId=${id}`)).body.data;
    expect(latest).toMatchObject({ id: shot, width: 320, height: 200 });
    expect(await stored()).toHaveLength(2);
  });

  it('refuses a non-image, an oversize body, a forged, an expired and a used link, storing nothing', async () => {
    const before = await stored();
    const { shot, link } = await requested();
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer();

    const text = await put(link.url, new TextEncoder().encode('this is not a picture at all'));
    expect(text.status).toBe(415);
    expect(((await text.json()) as { message: string }).message).toBe('A screenshot must be a JPEG or PNG image');
    // A video renamed as a picture: right type, wrong content.
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), Buffer.alloc(64)]);
    expect((await put(link.url, mp4)).status).toBe(415);
    // Sent as text, it is no picture's body.
    expect((await put(link.url, jpeg, 'text/plain')).status).toBe(400);

    const oversize = Buffer.concat([jpeg.subarray(0, 3), Buffer.alloc(SCREENSHOT_MAX_BYTES)]);
    const tooLarge = await put(link.url, oversize);
    expect(tooLarge.status).toBe(413);

    const forged = link.url.replace(/signature=([^&]+)/, (_, s: string) => `signature=${s.startsWith('A') ? 'B' : 'A'}${s.slice(1)}`);
    const forgedAnswer = await put(forged, jpeg);
    expect(forgedAnswer.status).toBe(403);
    expect(((await forgedAnswer.json()) as { message: string }).message).toBe(
      'This screenshot link is invalid, has expired or has been used already',
    );
    // Another screenshot's link with this one's id.
    const other = await requested();
    expect((await put(other.link.url.replace(`id=${other.shot}`, `id=${shot}`), jpeg)).status).toBe(403);
    const expired = await requested(Date.now() - 301_000);
    expect((await put(expired.link.url, jpeg)).status).toBe(403);
    expect(await statusOf(expired.shot)).toBe('requested');

    expect(await statusOf(shot)).toBe('requested');
    expect(await stored()).toEqual(before);

    // Taken once: the second upload to the same link is refused and leaves the first.
    expect((await put(link.url, jpeg)).status).toBe(200);
    const again = await put(link.url, jpeg);
    expect(again.status).toBe(403);
    expect(await stored()).toHaveLength(before.length + 1);
    const [kept] = await gw.db.query<{ width: number }>(`SELECT width FROM signage_screenshot WHERE id = $1`, [shot]);
    expect(kept.width).toBe(64);
  });

  it('marks a request left unanswered past its link failed once the player is asked again, and no other', async () => {
    const lapsed = await requested();
    const fresh = await requested();
    await gw.db.query(`UPDATE signage_screenshot SET requested_at = now() - interval '1 hour' WHERE id = $1`, [lapsed.shot]);
    const asked = await editor.post<LampControlResult>('/api/signage/screenshot', { ids: [id] });
    expect(asked.body.code).toBe(200);
    expect(await statusOf(lapsed.shot)).toBe('failed');
    expect(await statusOf(fresh.shot)).toBe('requested');
    // The player answers the new request (its picture is stored before the next test counts the files).
    await waitFor(() => (fleet.player('FSS-1')?.screenshots === 2 ? true : undefined), 5000);
    // Its link no longer takes a picture.
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer();
    expect((await put(lapsed.link.url, jpeg)).status).not.toBe(200);
    expect(await statusOf(lapsed.shot)).toBe('failed');
  });
});
