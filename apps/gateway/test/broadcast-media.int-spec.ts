import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  LIMITS,
  MediaAuditStatus,
  PlaybackMode,
  type MediaLink,
  type MediaRow,
  type PageResult,
  type PlaylistDetail,
  type PlaylistRow,
} from '@sc/contracts';
import { ApiClient, mp3Tone, wavTone } from '@sc/testing';
import { MediaLinks } from '../src/broadcast/media-links';
import { MEDIA_FOLDER, MediaService } from '../src/broadcast/media.service';
import { startTestGateway, type TestGateway } from './harness';

const ONLY_MP3 = { 'en-US': 'Only MP3 audio files are supported', 'zh-CN': '只支持 MP3 格式的音频文件' } as const;
const TOO_LARGE = { 'en-US': 'File size cannot exceed 50MB', 'zh-CN': '文件大小不能超过 50MB' } as const;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function form(content: Buffer | string, fileName: string, materialName?: string): FormData {
  const data = new FormData();
  if (materialName !== undefined) data.append('materialName', materialName);
  data.append('file', new Blob([content]), fileName);
  return data;
}

/** Upload port, console port, PostgreSQL and the disk: MP3s in, refusals leaving nothing, signed ranges out, playlists. */
describe('broadcast media library and playlists', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let visitor: ApiClient;
  /** A 3 s tone at 64 kbit/s, 44.1 kHz mono, and a 2 s one at 128 kbit/s, 48 kHz stereo. */
  let toneA: Buffer;
  let toneB: Buffer;
  const uploader = (client: ApiClient, lng = client.language) => new ApiClient(gw.uploadUrl, lng).as(client.token);
  const upload = (client: ApiClient, body: FormData, lng?: string) => uploader(client, lng).post<MediaRow>('/api/broadcast/mediaUpload', body);
  const page = async (filters: Record<string, unknown> = {}, client = admin) =>
    (await client.post<PageResult<MediaRow>>('/api/broadcast/mediaPage', { pageNum: 1, pageSize: 50, ...filters })).body.data;
  const audit = (id: number, auditStatus: MediaAuditStatus, client = admin) =>
    client.post<MediaRow>('/api/broadcast/mediaAudit', { id, auditStatus, auditRemark: auditStatus === 'rejected' ? 'Too quiet' : undefined });
  /** What is on disk and in the table. */
  const stored = async () => ({
    rows: (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM broadcast_media`))[0].n,
    top: (await readdir(gw.config.uploadDir)).filter((name) => name !== MEDIA_FOLDER),
    media: await readdir(join(gw.config.uploadDir, MEDIA_FOLDER)).catch(() => [] as string[]),
  });

  beforeAll(async () => {
    gw = await startTestGateway();
    [admin, editor, visitor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor'), gw.signedIn('visitor')]);
    [toneA, toneB] = await Promise.all([
      mp3Tone({ seconds: 3, kbps: 64, sampleRate: 44100, channels: 1 }),
      mp3Tone({ seconds: 2, frequency: 880, kbps: 128, sampleRate: 48000, channels: 2 }),
    ]);
  }, 60_000);
  afterAll(() => gw?.close());

  let a: MediaRow;
  let b: MediaRow;

  it('takes an MP3 on the upload port and reads duration, bitrate, sample rate and checksum from its content', async () => {
    const answer = await upload(editor, form(toneA, 'evening-notice.mp3'));
    expect(answer.status).toBe(200);
    a = answer.body.data;
    expect(a).toMatchObject({
      materialName: 'evening-notice',
      materialType: 1,
      fileSize: toneA.length,
      bitrate: 64000,
      sampleRate: 44100,
      channels: 1,
      sha256: sha256(toneA),
      auditStatus: MediaAuditStatus.Pending,
      uploader: 'editor',
      playlistCount: 0,
    });
    expect(a.duration).toBeGreaterThan(2.95);
    expect(a.duration).toBeLessThan(3.2);

    const second = await upload(admin, form(toneB, 'b.mp3', '  Morning chime  '));
    expect(second.status).toBe(200);
    b = second.body.data;
    expect(b).toMatchObject({ materialName: 'Morning chime', bitrate: 128000, sampleRate: 48000, channels: 2, uploader: 'admin' });
    expect(b.duration).toBeGreaterThan(1.95);
    expect(b.duration).toBeLessThan(2.2);

    // Kept under UPLOAD_DIR/broadcast-media, byte for byte.
    const [{ path }] = await gw.db.query<{ path: string }>(`SELECT storage_path AS path FROM broadcast_media WHERE id = $1`, [a.id]);
    expect(path).toMatch(new RegExp(`^${MEDIA_FOLDER}/[0-9a-f-]{36}\\.mp3$`));
    expect(sha256(await readFile(join(gw.config.uploadDir, path)))).toBe(a.sha256);
    expect(await stored()).toEqual({ rows: 2, top: [], media: expect.any(Array) });
    expect((await stored()).media).toHaveLength(2);
  });

  it('lists, searches and filters the library by name and audit status, a page at a time', async () => {
    expect((await page()).list.map((m) => m.id)).toEqual([b.id, a.id]);
    expect((await page({ materialName: 'CHIME' })).list.map((m) => m.id)).toEqual([b.id]);
    expect((await page({ auditStatus: 'approved' })).total).toBe(0);
    const first = await page({ pageSize: 1 });
    expect({ total: first.total, ids: first.list.map((m) => m.id) }).toEqual({ total: 2, ids: [b.id] });
    expect((await page({ pageNum: 2, pageSize: 1 }, visitor)).list.map((m) => m.id)).toEqual([a.id]);
  });

  it.each(['en-US', 'zh-CN'] as const)('refuses a renamed WAV and a text file by content, keeping nothing (%s)', async (lng) => {
    const before = await stored();
    for (const [content, name] of [
      [await wavTone({ seconds: 1 }), 'tone.mp3'],
      ['Name,Code\nPole 1,P-001\n', 'notes.mp3'],
      [toneA, 'evening.wav'],
      // An ID3 tag in front of something else.
      [Buffer.concat([toneA.subarray(0, 45), Buffer.alloc(4000, 0x41)]), 'tagged.mp3'],
    ] as const) {
      const answer = await upload(editor, form(content, name), lng);
      expect({ name, status: answer.status, body: answer.body }).toEqual({
        name,
        status: 400,
        body: { code: 400, data: null, message: ONLY_MP3[lng] },
      });
    }
    expect(await stored()).toEqual(before);
  });

  it.each(['en-US', 'zh-CN'] as const)(
    'refuses 50 MB + 1 byte with 413 while streaming, keeping nothing (%s)',
    async (lng) => {
      const before = await stored();
      const big = Buffer.concat([toneA, Buffer.alloc(LIMITS.audioMaxBytes + 1 - toneA.length, 0)]);
      expect(big.length).toBe(50 * 1024 * 1024 + 1);
      const answer = await upload(editor, form(big, 'big.mp3'), lng);
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual({ code: 413, data: null, message: TOO_LARGE[lng] });
      expect(await stored()).toEqual(before);
    },
    30_000,
  );

  it('refuses the same file twice, naming the medium that has it', async () => {
    const answer = await upload(editor, form(toneA, 'copy.mp3'));
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe('This file is already in the media library as "evening-notice"');
    expect((await stored()).rows).toBe(2);
  });

  it('lets editors upload and rename, visitors only look; only administrators audit; the log records each change', async () => {
    const before = await stored();
    expect((await upload(visitor, form(await mp3Tone({ seconds: 1, frequency: 300 }), 'v.mp3'))).status).toBe(403);
    expect(await stored()).toEqual(before);
    expect((await visitor.post('/api/broadcast/mediaRename', { id: a.id, materialName: 'x' })).status).toBe(403);
    expect((await visitor.get(`/api/broadcast/mediaDel?id=${a.id}`)).status).toBe(403);
    expect((await audit(a.id, MediaAuditStatus.Approved, editor)).status).toBe(403);
    expect((await new ApiClient(gw.baseUrl).post('/api/broadcast/mediaPage', { pageNum: 1, pageSize: 10 })).status).toBe(401);

    const renamed = await editor.post<MediaRow>('/api/broadcast/mediaRename', { id: a.id, materialName: 'Evening notice' });
    expect(renamed.body.data).toMatchObject({ id: a.id, materialName: 'Evening notice' });
    expect((await editor.post('/api/broadcast/mediaRename', { id: a.id, materialName: '  ' })).body.message).toBe(
      'Material name: The name cannot be empty',
    );
    const log = await gw.db.query<{ description: string; status: string; operator: string }>(
      `SELECT description, status, operator FROM operation_log WHERE description IN ('Upload broadcast media', 'Rename broadcast media', 'Audit broadcast media') ORDER BY id`,
    );
    expect(log).toEqual(
      expect.arrayContaining([
        { description: 'Upload broadcast media', status: 'success', operator: 'editor' },
        { description: 'Upload broadcast media', status: 'failure', operator: 'editor' },
        { description: 'Rename broadcast media', status: 'success', operator: 'editor' },
      ]),
    );
  });

  describe('files: the preview link and signed links for terminals', () => {
    let link: MediaLink;
    const fetchFile = (url: string, headers: Record<string, string> = {}) => fetch(`${gw.baseUrl}${url}`, { headers });

    beforeAll(async () => {
      const answer = await visitor.get<MediaLink>(`/api/broadcast/mediaPreview?id=${a.id}`);
      expect(answer.status).toBe(200);
      link = answer.body.data;
    });

    it('gives the console a signed link that lasts the medium and more, with the checksum', async () => {
      expect(link).toMatchObject({
        sha256: a.sha256,
        fileSize: a.fileSize,
        url: expect.stringMatching(/^\/api\/broadcast\/mediaFile\?id=\d+&expires=\d+&signature=/),
      });
      const lasts = (Date.parse(link.expiresAt) - Date.now()) / 1000;
      expect(lasts).toBeGreaterThan(gw.config.media.linkTtlSeconds);
      expect((await new ApiClient(gw.baseUrl).get(`/api/broadcast/mediaPreview?id=${a.id}`)).status).toBe(401);
    });

    it('streams the whole file, and one byte range at a time (206), without a session', async () => {
      const whole = await fetchFile(link.url);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('audio/mpeg');
      expect(whole.headers.get('accept-ranges')).toBe('bytes');
      expect(Number(whole.headers.get('content-length'))).toBe(toneA.length);
      expect(Buffer.from(await whole.arrayBuffer()).equals(toneA)).toBe(true);

      const head = await fetchFile(link.url, { Range: 'bytes=0-99' });
      expect(head.status).toBe(206);
      expect(head.headers.get('content-range')).toBe(`bytes 0-99/${toneA.length}`);
      expect(Buffer.from(await head.arrayBuffer()).equals(toneA.subarray(0, 100))).toBe(true);

      const tail = await fetchFile(link.url, { Range: 'bytes=-10' });
      expect(tail.status).toBe(206);
      expect(Buffer.from(await tail.arrayBuffer()).equals(toneA.subarray(toneA.length - 10))).toBe(true);

      const middle = await fetchFile(link.url, { Range: `bytes=1000-` });
      expect(middle.headers.get('content-range')).toBe(`bytes 1000-${toneA.length - 1}/${toneA.length}`);
      expect(Buffer.from(await middle.arrayBuffer()).equals(toneA.subarray(1000))).toBe(true);

      const past = await fetchFile(link.url, { Range: `bytes=${toneA.length}-` });
      expect(past.status).toBe(416);
      expect(past.headers.get('content-range')).toBe(`bytes */${toneA.length}`);
      // If-Range of other content: the whole file.
      const changed = await fetchFile(link.url, { Range: 'bytes=0-9', 'If-Range': '"other"' });
      expect(changed.status).toBe(200);
      await changed.arrayBuffer();
    });

    it('refuses an expired, tampered or missing signature with 403', async () => {
      const links = gw.app.get(MediaLinks);
      const expired = links.sign(a, { ttlSeconds: 60, now: Date.now() - 61_000 });
      const url = new URL(link.url, gw.baseUrl);
      const tampered = (name: string, value: string) => {
        const next = new URL(url);
        next.searchParams.set(name, value);
        return `${next.pathname}${next.search}`;
      };
      const signature = url.searchParams.get('signature')!;
      for (const bad of [
        expired.url,
        tampered('id', String(b.id)),
        tampered('expires', String(Number(url.searchParams.get('expires')) + 1)),
        tampered('signature', `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`),
        '/api/broadcast/mediaFile',
        `/api/broadcast/mediaFile?id=${a.id}`,
      ]) {
        const answer = await fetchFile(bad, { 'Accept-Language': 'zh-CN' });
        expect({ bad, status: answer.status, body: await answer.json() }).toEqual({
          bad,
          status: 403,
          body: { code: 403, data: null, message: '下载链接无效或已过期' },
        });
      }
    });

    it("signs terminals' links for approved media only, absolute, and the download matches the checksum", async () => {
      const media = gw.app.get(MediaService);
      await expect(media.terminalLink(b.id)).rejects.toMatchObject({ key: 'mediaNotAudited' });
      expect((await audit(a.id, MediaAuditStatus.Approved)).body.data).toMatchObject({ auditStatus: 'approved', auditedBy: 'admin' });
      const terminal = await media.terminalLink(a.id);
      expect(Date.parse(terminal.expiresAt) - Date.now()).toBeLessThanOrEqual(gw.config.media.linkTtlSeconds * 1000);
      const download = await fetchFile(terminal.url.slice(gw.config.media.linkBaseUrl.length));
      expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(terminal.sha256);
    });
  });

  describe('playlists', () => {
    const save = (body: Record<string, unknown>, client: ApiClient = editor) => client.post<{ id: number }>('/api/broadcast/playlistAddOrEdit', body);
    const detail = async (id: number) => (await visitor.get<PlaylistDetail>(`/api/broadcast/playlistDetail?id=${id}`)).body.data;
    let playlist: number;

    it('takes approved media only, each at most once, and at least one', async () => {
      const unaudited = await save({ name: 'Notices', playbackMode: PlaybackMode.Normal, mediaIds: [a.id, b.id] });
      expect(unaudited.status).toBe(400);
      expect(unaudited.body.message).toBe('Materials: Only approved materials can be added to a playlist: "Morning chime"');
      const twice = await save({ name: 'Notices', playbackMode: PlaybackMode.Normal, mediaIds: [a.id, a.id] });
      expect(twice.body.message).toBe('Materials: A material already in the playlist cannot be added twice');
      const none = await save({ name: 'Notices', playbackMode: PlaybackMode.Normal, mediaIds: [] }, editor);
      expect(none.body.message).toBe('Materials: Add at least one material to the playlist');
      const unknown = await save({ name: 'Notices', playbackMode: PlaybackMode.Normal, mediaIds: [a.id, 999_999] });
      expect(unknown.body.message).toBe('Materials: These materials do not exist: 999999');
      const noName = await save({ name: ' ', playbackMode: PlaybackMode.Normal, mediaIds: [a.id] });
      expect(noName.body.message).toBe('Name: The name cannot be empty');
      const badMode = await save({ name: 'Notices', playbackMode: 'shuffle', mediaIds: [a.id] });
      expect(badMode.status).toBe(400);
      expect((await gw.db.query(`SELECT * FROM broadcast_playlist`)).length).toBe(0);
    });

    it('keeps the order given, sums the durations, and reorders, adds and removes by saving a new list', async () => {
      expect((await audit(b.id, MediaAuditStatus.Approved)).status).toBe(200);
      const created = await save({ name: 'Notices', playbackMode: PlaybackMode.ListCycle, mediaIds: [b.id, a.id] });
      expect(created.status).toBe(200);
      playlist = created.body.data.id;
      let shown = await detail(playlist);
      expect(shown).toMatchObject({ name: 'Notices', playbackMode: 'list_cycle_mode', itemCount: 2, updatedBy: 'editor' });
      expect(shown.items.map((i) => i.mediaId)).toEqual([b.id, a.id]);
      expect(shown.totalDuration).toBeCloseTo(a.duration + b.duration, 3);

      expect((await save({ id: playlist, name: 'Notices', playbackMode: PlaybackMode.Random, mediaIds: [a.id, b.id] })).status).toBe(200);
      shown = await detail(playlist);
      expect({ mode: shown.playbackMode, ids: shown.items.map((i) => i.mediaId) }).toEqual({ mode: 'random_mode', ids: [a.id, b.id] });
      expect((await save({ id: playlist, name: 'Notices', playbackMode: PlaybackMode.Random, mediaIds: [a.id] })).status).toBe(200);
      expect((await detail(playlist)).totalDuration).toBeCloseTo(a.duration, 3);

      const list = (await visitor.post<PageResult<PlaylistRow>>('/api/broadcast/playlistPage', { pageNum: 1, pageSize: 10, name: 'notice' })).body
        .data;
      expect(list).toMatchObject({ total: 1, list: [{ id: playlist, itemCount: 1, playbackMode: 'random_mode' }] });
      expect((await page({ materialName: 'Evening' })).list[0].playlistCount).toBe(1);
    });

    it('refuses a taken name, and visitors', async () => {
      const taken = await save({ name: 'NOTICES', playbackMode: PlaybackMode.Normal, mediaIds: [b.id] });
      expect(taken.status).toBe(409);
      expect(taken.body.message).toBe('A playlist named "NOTICES" already exists');
      expect((await save({ name: 'Visitor list', playbackMode: PlaybackMode.Normal, mediaIds: [b.id] }, visitor)).status).toBe(403);
      expect((await visitor.get(`/api/broadcast/playlistDel?id=${playlist}`)).status).toBe(403);
    });

    it('keeps a medium a playlist holds: no delete, no rejection, with the playlist named', async () => {
      const before = await stored();
      const refused = await editor.get(`/api/broadcast/mediaDel?id=${a.id}`);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe('This material is used by the playlists "Notices"; remove it from them first');
      const zh = await editor.as(editor.token, 'zh-CN').get(`/api/broadcast/mediaDel?id=${a.id}`);
      expect(zh.body.message).toBe('该素材正被播放列表 "Notices" 使用，请先将其从这些列表中移除');
      expect((await audit(a.id, MediaAuditStatus.Rejected)).status).toBe(409);
      expect(await stored()).toEqual(before);
      // Not in a playlist: rejected, and then it cannot be added.
      expect((await audit(b.id, MediaAuditStatus.Rejected)).body.data).toMatchObject({ auditStatus: 'rejected', auditRemark: 'Too quiet' });
      expect((await save({ id: playlist, name: 'Notices', playbackMode: PlaybackMode.Normal, mediaIds: [a.id, b.id] })).status).toBe(400);
    });

    it('deletes playlists, then the medium with its file', async () => {
      expect((await editor.get(`/api/broadcast/playlistDel?id=${playlist}`)).status).toBe(200);
      expect((await editor.get(`/api/broadcast/playlistDetail?id=${playlist}`)).status).toBe(404);
      expect((await editor.get(`/api/broadcast/mediaDel?id=${a.id}`)).status).toBe(200);
      expect((await editor.get(`/api/broadcast/mediaDel?id=${a.id}`)).status).toBe(404);
      const after = await stored();
      expect({ rows: after.rows, files: after.media.length, top: after.top }).toEqual({ rows: 1, files: 1, top: [] });
      const log = await gw.db.query<{ description: string }>(
        `SELECT DISTINCT description FROM operation_log WHERE description IN ('Save playlist', 'Delete playlist', 'Delete broadcast media')`,
      );
      expect(log.map((r) => r.description).sort()).toEqual(['Delete broadcast media', 'Delete playlist', 'Save playlist']);
    });
  });
});
