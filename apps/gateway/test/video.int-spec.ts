import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import * as XLSX from '@e965/xlsx';
import {
  CameraAccess,
  DeviceFamily,
  MqttService,
  OnlineState,
  VIDEO_DEVICE_CATEGORIES,
  VideoVendor,
  type CameraLiveLinks,
  type CameraRow,
  type DeviceStateChangedEvent,
  type PageResult,
} from '@sc/contracts';
import { decryptDeviceSecret } from '@sc/database';
import { translate, translateField } from '@sc/i18n';
import type { DeviceWorker } from '@sc/device-runtime';
import { ApiClient, waitFor } from '@sc/testing';
import { RtspCameraServer } from '../../device-sim/src/kit/rtsp-cameras';
import { loadVideoSettings, startVideoWorker } from '../../worker-video/src/video-worker';
import { freePort } from '../../../tests/support/gateway-process';
import { loadConfig } from '../src/config/app-config';
import { startTestGateway, type TestGateway } from './harness';
import { testWorkerConfig, watchFamily } from './device-worker';

const run = promisify(execFile);
const { encoding, checkpoint, ipSpeaker } = VIDEO_DEVICE_CATEGORIES;

/** Video equipment on the real PostgreSQL, Redis and broker, with the video worker and simulated cameras over RTSP. */
describe('Video monitoring: equipment, the probe, live views and snapshots', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let cameras: RtspCameraServer;
  let worker: DeviceWorker | null = null;
  let dir: string;

  const page = async (filters: Record<string, unknown> = {}) =>
    (await admin.post<PageResult<CameraRow>>('/api/video/equipmentPage', { pageNum: 1, pageSize: 50, ...filters })).body.data;
  const snapshot = async () => ({
    // The records, not what the probe writes beside them meanwhile.
    cameras: await gw.db.query(
      `SELECT device_id, vendor, category, sub_type, ip, rtsp_port, channel, rtsp_url, username, password_enc FROM camera ORDER BY device_id`,
    ),
    devices: await gw.db.query(`SELECT id, code, name, region_id, pole_id FROM device WHERE type = 9 ORDER BY id`),
  });
  const camera = (code: string, over: Record<string, unknown> = {}) => ({
    name: `Camera ${code}`,
    code,
    vendor: VideoVendor.Other,
    category: encoding.code,
    subType: encoding.types.IPC,
    rtspUrl: `${cameras.url}/${code}`,
    username: 'viewer',
    password: 'p@ss word',
    ...over,
  });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sc-video-'));
    cameras = await RtspCameraServer.start({ width: 320, height: 180, fps: 10, idleStopMs: 1000 });
    gw = await startTestGateway({ video: { ...loadConfig({}).video, linkTtlSeconds: 600 } });
    // Chosen once the gateway listens, so it cannot be one of the gateway's own ports.
    const httpPort = await freePort();
    gw.config.video.serviceUrls = [`http://127.0.0.1:${httpPort}`];
    [admin, editor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor')]);
    worker = await startVideoWorker(testWorkerConfig(gw, { name: 'video', service: MqttService.WorkerVideo }, 'video'), pino({ level: 'silent' }), {
      ...loadVideoSettings({}),
      httpPort,
      dir,
      idleStopMs: 3000,
      probe: { intervalMs: 300, timeoutMs: 1000, concurrency: 8 },
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await cameras?.stop();
    await gw?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps equipment with its category, stream and login; the password is sealed and never answered; bad input changes nothing', async () => {
    const added = await admin.post<{ id: number }>('/api/video/equipmentAddOrEdit', camera('CAM-T1'));
    expect(added.body.code).toBe(200);
    const id = added.body.data.id;
    const [stored] = await gw.db.query<{ password_enc: string }>(`SELECT password_enc FROM camera WHERE device_id = $1`, [id]);
    expect(stored.password_enc).not.toContain('word');
    expect(decryptDeviceSecret(gw.config.video.secretKey, stored.password_enc)).toBe('p@ss word');

    const listed = await page({ category: encoding.code, subType: encoding.types.IPC });
    expect(listed.list.map((r) => r.code)).toEqual(['CAM-T1']);
    expect(listed.list[0]).toMatchObject({ hasPassword: true, hasStream: true, username: 'viewer', networkStatus: OnlineState.Offline });
    expect(JSON.stringify(listed)).not.toContain('p@ss');
    expect(JSON.stringify((await admin.get(`/api/video/equipmentDetail?id=${id}`)).body)).not.toContain('p@ss');
    expect((await page({ category: checkpoint.code })).list).toEqual([]);

    // An edit without the password keeps it; '' removes it.
    await admin.post('/api/video/equipmentAddOrEdit', { ...camera('CAM-T1', { name: 'Renamed' }), id, password: undefined });
    expect(
      decryptDeviceSecret(
        gw.config.video.secretKey,
        (await gw.db.query(`SELECT password_enc FROM camera WHERE device_id = $1`, [id]))[0].password_enc,
      ),
    ).toBe('p@ss word');
    await admin.post('/api/video/equipmentAddOrEdit', { ...camera('CAM-T1'), id, password: '' });
    expect((await page()).list[0].hasPassword).toBe(false);
    await admin.post('/api/video/equipmentAddOrEdit', { ...camera('CAM-T1'), id });
    // Pointed elsewhere without the password typed again, the camera keeps none: a login goes only where it was given.
    await admin.post('/api/video/equipmentAddOrEdit', { ...camera('CAM-T1', { rtspUrl: 'rtsp://203.0.113.9/capture' }), id, password: undefined });
    expect((await page()).list[0].hasPassword).toBe(false);
    await admin.post('/api/video/equipmentAddOrEdit', { ...camera('CAM-T1'), id });
    expect((await page()).list[0].hasPassword).toBe(true);

    const before = await snapshot();
    const refusals: [Record<string, unknown>, number, string][] = [
      // A sub-type of another category; one for a category without sub-types.
      [camera('CAM-T2', { subType: checkpoint.types.trafficCamera }), 400, 'Select a sub-type of the selected category'],
      [camera('CAM-T2', { category: ipSpeaker.code, subType: encoding.types.IPC }), 400, 'Select a sub-type of the selected category'],
      // A login inside the address (it belongs in the sealed fields), and not an RTSP address.
      [
        camera('CAM-T2', { rtspUrl: 'rtsp://admin:secret@10.0.0.1/live' }),
        400,
        'Enter an RTSP address (rtsp://host/path) without a user name or password in it',
      ],
      [camera('CAM-T2', { rtspUrl: 'http://10.0.0.1/live' }), 400, 'Enter an RTSP address (rtsp://host/path) without a user name or password in it'],
      [camera('CAM-T2', { vendor: 7 }), 400, ''],
      [camera('CAM-T2', { rtspPort: 70000 }), 400, ''],
      [camera('CAM-T2', { ip: 'not a host!' }), 400, 'Enter an IP address or a host name'],
      // Neither an address nor an RTSP address.
      [camera('CAM-T2', { rtspUrl: '' }), 400, 'Enter the address or the RTSP address'],
      [camera('CAM-T1'), 409, 'Video equipment with the code "CAM-T1" already exists'],
    ];
    for (const [body, status, message] of refusals) {
      const res = await admin.post('/api/video/equipmentAddOrEdit', body);
      expect({ body, status: res.status }).toEqual({ body, status });
      if (message) expect(JSON.stringify(res.body)).toContain(JSON.stringify(message).slice(1, -1));
    }
    // In the caller's language.
    const zh = await (
      await gw.signedIn('admin', 'zh-CN')
    ).post('/api/video/equipmentAddOrEdit', camera('CAM-T2', { subType: checkpoint.types.trafficCamera }));
    expect(JSON.stringify(zh.body)).toContain('请选择所选类别下的子类型');
    expect(await snapshot()).toEqual(before);

    // A Dahua or Haikang camera needs only its address: the console knows their usual stream address.
    const dahua = await admin.post<{ id: number }>(
      '/api/video/equipmentAddOrEdit',
      camera('CAM-T3', { vendor: VideoVendor.Dahua, rtspUrl: '', ip: '10.1.2.3' }),
    );
    expect(dahua.status).toBe(200);
    expect((await page({ vendor: VideoVendor.Dahua })).list[0]).toMatchObject({ code: 'CAM-T3', hasStream: true, rtspPort: 554, channel: 1 });
    expect((await admin.get(`/api/video/equipmentDel?id=${dahua.body.data.id}`)).body.code).toBe(200);
  });

  it("is administrators' only (spec: Real video, its children admin only), enforced by the server", async () => {
    const [{ id }] = await gw.db.query<{ id: number }>(`SELECT id FROM device WHERE code = 'CAM-T1'`);
    for (const [method, path, body] of [
      ['post', '/api/video/equipmentPage', { pageNum: 1, pageSize: 10 }],
      ['post', '/api/video/equipmentAddOrEdit', camera('CAM-E1')],
      ['get', `/api/video/equipmentDel?id=${id}`, undefined],
      ['get', `/api/video/live?id=${id}`, undefined],
      ['get', '/api/video/equipmentExport', undefined],
    ] as const) {
      const res = method === 'post' ? await editor.post(path, body) : await editor.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
    }
    expect((await gw.db.query(`SELECT 1 FROM device WHERE code = 'CAM-E1'`)).length).toBe(0);
  });

  it('learns from the probe who answers, whether the login was taken, and who went dark, live, with an offline alarm', async () => {
    const socket = await watchFamily(gw, admin.token, DeviceFamily.Camera);
    const events: DeviceStateChangedEvent[] = [];
    socket.on('DeviceStateChanged', (e: DeviceStateChangedEvent) => events.push(e));
    // CAM-T1 had no stream at its address so far (the simulator did not play it): now it does.
    cameras.setCamera('CAM-T1', { title: 'Camera T1', username: 'viewer', password: 'p@ss word', online: true });
    cameras.setCamera('CAM-T4', { title: 'Camera T4', username: 'viewer', password: 'another', online: true });
    await admin.post('/api/video/equipmentAddOrEdit', camera('CAM-T4'));
    await admin.post('/api/video/equipmentAddOrEdit', camera('CAM-T5'));
    try {
      const state = async () => Object.fromEntries((await page()).list.map((r) => [r.code, [r.networkStatus, r.access]]));
      await waitFor(async () => {
        const now = await state();
        return now['CAM-T1'][1] === CameraAccess.Ok && now['CAM-T4'][0] === OnlineState.Online && now['CAM-T5'][0] === OnlineState.Online
          ? now
          : undefined;
      }, 10_000);
      // CAM-T4 refuses the stored login; CAM-T5 is not there at all (no stream at that path).
      expect(await state()).toEqual({
        'CAM-T1': [OnlineState.Online, CameraAccess.Ok],
        'CAM-T4': [OnlineState.Online, CameraAccess.Unauthorized],
        'CAM-T5': [OnlineState.Online, CameraAccess.NoStream],
      });
      const [{ id }] = await gw.db.query<{ id: number }>(`SELECT id FROM device WHERE code = 'CAM-T1'`);
      await waitFor(() => events.some((e) => e.changes.some((c) => c.recordId === id && c.changed.access === CameraAccess.Ok)) || undefined, 5_000);

      // Its power is cut: it stops answering, goes offline live, and an offline alarm is raised for it.
      cameras.setCamera('CAM-T1', { title: 'Camera T1', username: 'viewer', password: 'p@ss word', online: false });
      await waitFor(
        () => events.some((e) => e.changes.some((c) => c.recordId === id && c.changed.networkStatus === OnlineState.Offline)) || undefined,
        10_000,
      );
      const alarms = await gw.db.query(`SELECT kind, state FROM device_alarm WHERE device_id = $1`, [id]);
      expect(alarms).toEqual([{ kind: 'offline', state: 'active' }]);
      cameras.setCamera('CAM-T1', { title: 'Camera T1', username: 'viewer', password: 'p@ss word', online: true });
      await waitFor(
        async () => ((await page({ networkStatus: OnlineState.Online })).list.some((r) => r.code === 'CAM-T1') ? true : undefined),
        10_000,
      );
      // Back: its alarm clears.
      expect(await gw.db.query(`SELECT kind, state FROM device_alarm WHERE device_id = $1`, [id])).toEqual([{ kind: 'offline', state: 'cleared' }]);
    } finally {
      socket.close();
    }
  });

  it('plays a camera live through signed links (HLS), takes its snapshot, and refuses links that are not its own', async () => {
    const [{ id }] = await gw.db.query<{ id: number }>(`SELECT id FROM device WHERE code = 'CAM-T1'`);
    const [{ id: other }] = await gw.db.query<{ id: number }>(`SELECT id FROM device WHERE code = 'CAM-T4'`);
    const links = (await admin.get<CameraLiveLinks>(`/api/video/live?id=${id}`)).body.data;
    expect(links.expiresIn).toBe(gw.config.video.linkTtlSeconds);

    // No session needed: the signature is the permission (a video element sends none).
    const playlist = await fetch(`${gw.baseUrl}${links.playlist}`);
    expect(playlist.status).toBe(200);
    expect(playlist.headers.get('content-type')).toContain('mpegurl');
    const text = await playlist.text();
    const segment = text.split('\n').find((l) => l.startsWith('hls?file=seg-'));
    expect(segment).toMatch(/^hls\?file=seg-\d+\.ts&id=\d+&expires=\d+&signature=/);
    const ts = await fetch(`${gw.baseUrl}/api/video/${segment}`);
    expect(ts.status).toBe(200);
    const file = join(dir, 'segment.ts');
    await writeFile(file, Buffer.from(await ts.arrayBuffer()));
    const probe = await run('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=codec_name,width,height',
      '-of',
      'csv=p=0',
      file,
    ]);
    expect(probe.stdout.trim().split('\n')[0]).toBe('h264,320,180');

    const jpeg = await fetch(`${gw.baseUrl}${links.snapshot}`);
    expect(jpeg.status).toBe(200);
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    expect([...Buffer.from(await jpeg.arrayBuffer()).subarray(0, 2)]).toEqual([0xff, 0xd8]);

    // Another camera's id under this signature, a changed signature, a path outside the stream: refused.
    const query = new URLSearchParams(links.playlist.split('?')[1]);
    const forged = new URLSearchParams(query);
    forged.set('id', String(other));
    expect((await fetch(`${gw.baseUrl}/api/video/hls?${forged}`)).status).toBe(403);
    const bad = new URLSearchParams(query);
    bad.set('signature', `${query.get('signature')!.slice(0, -2)}xx`);
    expect((await fetch(`${gw.baseUrl}/api/video/hls?${bad}`)).status).toBe(403);
    expect((await fetch(`${gw.baseUrl}/api/video/hls?file=..%2F..%2Fetc%2Fpasswd&${query}`)).status).toBe(404);
    expect((await fetch(`${gw.baseUrl}/api/video/hls?file=seg-1.ts&file=seg-2.ts&${query}`)).status).toBe(404);
    expect((await fetch(`${gw.baseUrl}/api/video/hls`)).status).toBe(403);

    // Nobody watching: the transcoder stops, and the camera's source with it.
    await waitFor(() => (cameras.stats().sources === 0 ? true : undefined), 15_000);
  });

  it("exports the list as filtered, in the caller's language, without any password", async () => {
    const res = await fetch(`${gw.baseUrl}/api/video/equipmentExport?category=${encoding.code}`, {
      headers: { Authorization: admin.token, 'Accept-Language': 'zh-CN' },
    });
    expect(res.status).toBe(200);
    const sheet = XLSX.read(Buffer.from(await res.arrayBuffer()));
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(sheet.Sheets[sheet.SheetNames[0]]);
    const codeHeader = translateField('zh-CN', 'code');
    expect(rows.map((r) => r[codeHeader])).toEqual(expect.arrayContaining(['CAM-T1', 'CAM-T4', 'CAM-T5']));
    expect(JSON.stringify(rows)).not.toContain('p@ss');
    expect(JSON.stringify(rows)).toContain('其他');
    // The category and sub-type in words, as the list's tree shows them.
    const t1 = rows.find((r) => r[codeHeader] === 'CAM-T1')!;
    expect([t1[translateField('zh-CN', 'videoCategory')], t1[translateField('zh-CN', 'videoSubType')]]).toEqual([
      translate('zh-CN', 'videoCategory1'),
      translate('zh-CN', 'videoSubType1_2'),
    ]);
  });
});
