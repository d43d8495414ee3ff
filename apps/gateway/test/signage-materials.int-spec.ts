import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { MATERIAL_UPLOAD, MaterialStatus, MaterialType, type MaterialRow, type MediaLink, type PageResult } from '@sc/contracts';
import { ApiClient } from '@sc/testing';
import { COVER_FOLDER, MATERIAL_FOLDER } from '../src/signage-materials/materials.service';
import { startTestGateway, type TestGateway } from './harness';

const run = promisify(execFile);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function form(content: Buffer | string, fileName: string, name?: string): FormData {
  const data = new FormData();
  if (name !== undefined) data.append('name', name);
  data.append('file', new Blob([content]), fileName);
  return data;
}

/** A file ffmpeg makes from its test sources (`lavfi`), read back. */
async function ffmpeg(dir: string, fileName: string, args: string[]): Promise<Buffer> {
  const out = join(dir, fileName);
  await run('ffmpeg', ['-v', 'error', '-nostdin', ...args, '-y', out], { timeout: 60_000 });
  return readFile(out);
}

/** Upload port, console port, PostgreSQL, ffprobe, ffmpeg, sharp and the disk: materials in, refusals leaving nothing. */
describe('floor-screen materials', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let visitor: ApiClient;
  let dir: string;
  let png: Buffer;
  let mp4: Buffer;
  let mp3: Buffer;
  let m4a: Buffer;
  const uploader = (client: ApiClient, lng = client.language) => new ApiClient(gw.uploadUrl, lng).as(client.token);
  const upload = (client: ApiClient, body: FormData, lng?: string) => uploader(client, lng).post<MaterialRow>('/api/signage/material/upload', body);
  const page = async (filters: Record<string, unknown> = {}, client = admin) =>
    (await client.post<PageResult<MaterialRow>>('/api/signage/material/page', { pageNum: 1, pageSize: 50, ...filters })).body.data;
  /** What is on disk and in the table. */
  const stored = async () => ({
    rows: (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM signage_material`))[0].n,
    top: (await readdir(gw.config.uploadDir)).filter((name) => name !== MATERIAL_FOLDER),
    files: (await readdir(join(gw.config.uploadDir, MATERIAL_FOLDER)).catch(() => [] as string[])).filter((name) => name !== 'covers').sort(),
    covers: (await readdir(join(gw.config.uploadDir, COVER_FOLDER)).catch(() => [] as string[])).sort(),
  });

  beforeAll(async () => {
    gw = await startTestGateway();
    [admin, editor, visitor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor'), gw.signedIn('visitor')]);
    dir = await mkdtemp(join(tmpdir(), 'sc-materials-'));
    png = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#1366ec' } })
      .png()
      .toBuffer();
    [mp4, mp3, m4a] = await Promise.all([
      ffmpeg(dir, 'clip.mp4', [
        ...['-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=25'],
        ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-preset', 'ultrafast', '-movflags', '+faststart'],
      ]),
      ffmpeg(dir, 'tone.mp3', ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-c:a', 'libmp3lame', '-b:a', '64k']),
      ffmpeg(dir, 'tone.m4a', ['-f', 'lavfi', '-i', 'sine=frequency=660:duration=2', '-c:a', 'aac', '-b:a', '64k']),
    ]);
  }, 120_000);
  afterAll(async () => {
    await gw?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  let image: MaterialRow;
  let video: MaterialRow;
  let music: MaterialRow;

  it('takes an image, a video and music, reading type, resolution, duration and size from the content, with covers', async () => {
    const a = await upload(editor, form(png, 'spring-sale.png'));
    expect(a.status).toBe(200);
    image = a.body.data;
    expect(image).toMatchObject({
      name: 'spring-sale',
      type: MaterialType.Image,
      width: 640,
      height: 360,
      duration: null,
      fileSize: png.length,
      mime: 'image/png',
      sha256: sha256(png),
      status: MaterialStatus.Available,
      storageArea: null,
      uploader: 'editor',
      coverUrl: expect.stringMatching(/^\/api\/signage\/material\/cover\?id=\d+&expires=\d+&signature=/),
    });

    const b = await upload(admin, form(mp4, 'clip.mp4', '  Opening clip  '));
    expect(b.status).toBe(200);
    video = b.body.data;
    expect(video).toMatchObject({ name: 'Opening clip', type: MaterialType.Video, width: 320, height: 240, mime: 'video/mp4', fileSize: mp4.length });
    expect(video.duration).toBeCloseTo(2, 1);
    expect(video.coverUrl).not.toBeNull();

    const c = await upload(editor, form(mp3, 'tone.mp3'));
    expect(c.status).toBe(200);
    music = c.body.data;
    expect(music).toMatchObject({ type: MaterialType.Music, width: null, height: null, mime: 'audio/mpeg', coverUrl: null });
    expect(music.duration).toBeGreaterThan(2.9);
    expect(music.duration).toBeLessThan(3.2);

    const d = await upload(editor, form(m4a, 'jingle.m4a'));
    expect(d.body.data).toMatchObject({ type: MaterialType.Music, mime: 'audio/mp4', coverUrl: null });
    expect(d.body.data.duration).toBeCloseTo(2, 0);

    // Each file under UPLOAD_DIR/signage-materials byte for byte; covers for the image and the video only.
    const [{ path }] = await gw.db.query<{ path: string }>(`SELECT file_path AS path FROM signage_material WHERE id = $1`, [video.id]);
    expect(path).toMatch(new RegExp(`^${MATERIAL_FOLDER}/[0-9a-f-]{36}\\.mp4$`));
    expect(sha256(await readFile(join(gw.config.uploadDir, path)))).toBe(sha256(mp4));
    const now = await stored();
    expect({ rows: now.rows, top: now.top, files: now.files.length, covers: now.covers.length }).toEqual({ rows: 4, top: [], files: 4, covers: 2 });
  }, 60_000);

  it('serves covers as JPEG thumbnails and the file with ranges through signed links, never to a forged one', async () => {
    for (const material of [image, video]) {
      const cover = await fetch(`${gw.baseUrl}${material.coverUrl}`);
      expect(cover.status).toBe(200);
      expect(cover.headers.get('content-type')).toBe('image/jpeg');
      const meta = await sharp(Buffer.from(await cover.arrayBuffer())).metadata();
      expect(meta.format).toBe('jpeg');
      expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(320);
      expect(meta.width! / meta.height!).toBeCloseTo(material.width! / material.height!, 1);
    }
    const preview = await visitor.get<MediaLink>(`/api/signage/material/preview?id=${video.id}`);
    expect(preview.status).toBe(403);
    const link = (await editor.get<MediaLink>(`/api/signage/material/preview?id=${video.id}`)).body.data;
    expect(link).toMatchObject({ sha256: sha256(mp4), fileSize: mp4.length, url: expect.stringMatching(/^\/api\/signage\/material\/file\?/) });
    const whole = await fetch(`${gw.baseUrl}${link.url}`);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(sha256(Buffer.from(await whole.arrayBuffer()))).toBe(sha256(mp4));
    const part = await fetch(`${gw.baseUrl}${link.url}`, { headers: { Range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${mp4.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(mp4.subarray(100, 200))).toBe(true);

    // A cover link does not open the file, nor the reverse.
    const coverQuery = image.coverUrl!.slice(image.coverUrl!.indexOf('?'));
    const forged = await fetch(`${gw.baseUrl}/api/signage/material/file${coverQuery}`, { headers: { 'Accept-Language': 'zh-CN' } });
    expect({ status: forged.status, body: await forged.json() }).toEqual({
      status: 403,
      body: { code: 403, data: null, message: '下载链接无效或已过期' },
    });
    expect((await fetch(`${gw.baseUrl}/api/signage/material/cover${link.url.slice(link.url.indexOf('?'))}`)).status).toBe(403);
  });

  it('lists by name, type and status, a page at a time', async () => {
    expect((await page()).total).toBe(4);
    expect((await page({ type: 'video' })).list.map((m) => m.id)).toEqual([video.id]);
    expect((await page({ name: 'SALE' })).list.map((m) => m.id)).toEqual([image.id]);
    const first = await page({ pageSize: 2 });
    expect({ total: first.total, n: first.list.length }).toEqual({ total: 4, n: 2 });
    expect((await editor.get<MaterialRow>(`/api/signage/material/detail?id=${image.id}`)).body.data).toMatchObject({ id: image.id, width: 640 });
  });

  it.each(['en-US', 'zh-CN'] as const)(
    'refuses a video renamed .png, music renamed .mp4 and a text file by content, keeping nothing (%s)',
    async (lng) => {
      const before = await stored();
      const cases = [
        [
          mp4,
          'poster.png',
          {
            'en-US': 'Upload failed: the content of this file is not an image, whatever its name says',
            'zh-CN': '上传失败：该文件的内容不是图片，与文件名不符',
          },
        ],
        [
          m4a,
          'film.mp4',
          {
            'en-US': 'Upload failed: the content of this file is not a video, whatever its name says',
            'zh-CN': '上传失败：该文件的内容不是视频，与文件名不符',
          },
        ],
        [
          png,
          'song.mp3',
          {
            'en-US': 'Upload failed: the content of this file is not music, whatever its name says',
            'zh-CN': '上传失败：该文件的内容不是音乐，与文件名不符',
          },
        ],
        [
          'Name,Code\nScreen 1,S-001\n',
          'notes.png',
          {
            'en-US': 'Only images (JPEG, PNG, WebP, GIF), videos (MP4, WebM) and music (MP3, M4A) can be uploaded',
            'zh-CN': '只能上传图片（JPEG、PNG、WebP、GIF）、视频（MP4、WebM）和音乐（MP3、M4A）',
          },
        ],
        [
          'plain text',
          'notes.txt',
          {
            'en-US': 'Only images (JPEG, PNG, WebP, GIF), videos (MP4, WebM) and music (MP3, M4A) can be uploaded',
            'zh-CN': '只能上传图片（JPEG、PNG、WebP、GIF）、视频（MP4、WebM）和音乐（MP3、M4A）',
          },
        ],
        // The first bytes of a video and nothing readable behind them.
        [
          Buffer.concat([mp4.subarray(0, 32), Buffer.alloc(5000, 0x41)]),
          'broken.mp4',
          {
            'en-US': 'Upload failed: the video could not be read; only MP4 (H.264) and WebM (VP8, VP9) videos are supported',
            'zh-CN': '上传失败：无法读取该视频，只支持 MP4（H.264）和 WebM（VP8、VP9）视频',
          },
        ],
      ] as const;
      for (const [content, name, message] of cases) {
        const answer = await upload(editor, form(content, name), lng);
        expect({ name, status: answer.status, body: answer.body }).toEqual({
          name,
          status: 400,
          body: { code: 400, data: null, message: message[lng] },
        });
      }
      expect(await stored()).toEqual(before);
    },
  );

  it('refuses an image past 20 MB with 413 while streaming, keeping nothing', async () => {
    const before = await stored();
    const big = Buffer.concat([png, Buffer.alloc(MATERIAL_UPLOAD.image.maxBytes + 1 - png.length, 0)]);
    const answer = await upload(editor, form(big, 'huge.png'), 'zh-CN');
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 413, body: { code: 413, data: null, message: '文件大小不能超过 20MB' } });
    expect(await stored()).toEqual(before);
  }, 60_000);

  it('lets administrators and editors change materials; visitors and signed-out callers are refused; the log records each change', async () => {
    const before = await stored();
    expect((await upload(visitor, form(png, 'v.png'))).status).toBe(403);
    expect((await upload(new ApiClient(gw.uploadUrl), form(png, 'v.png'))).status).toBe(401);
    expect(await stored()).toEqual(before);
    expect((await visitor.post('/api/signage/material/page', { pageNum: 1, pageSize: 10 })).status).toBe(403);
    expect((await visitor.post('/api/signage/material/rename', { id: image.id, name: 'x' })).status).toBe(403);
    expect((await visitor.get(`/api/signage/material/del?id=${image.id}`)).status).toBe(403);
    expect((await new ApiClient(gw.baseUrl).post('/api/signage/material/page', { pageNum: 1, pageSize: 10 })).status).toBe(401);

    expect((await editor.post<MaterialRow>('/api/signage/material/rename', { id: image.id, name: 'Spring sale' })).body.data).toMatchObject({
      name: 'Spring sale',
    });
    expect((await editor.post('/api/signage/material/rename', { id: image.id, name: '  ' })).body.message).toBe('Name: The name cannot be empty');
    expect((await editor.post<MaterialRow>('/api/signage/material/status', { id: image.id, status: 'unavailable' })).body.data.status).toBe(
      'unavailable',
    );
    expect((await editor.post('/api/signage/material/status', { id: image.id, status: 'gone' })).status).toBe(400);
    expect((await admin.post<MaterialRow>('/api/signage/material/storageArea', { id: image.id, storageArea: 3 })).body.data.storageArea).toBe(3);
    expect((await admin.post('/api/signage/material/storageArea', { id: image.id, storageArea: 10_000 })).status).toBe(400);
    expect(
      (await admin.post<MaterialRow>('/api/signage/material/storageArea', { id: image.id, storageArea: null })).body.data.storageArea,
    ).toBeNull();
    expect((await page({ status: 'unavailable' })).list.map((m) => m.id)).toEqual([image.id]);

    const log = await gw.db.query<{ description: string; status: string; operator: string }>(
      `SELECT description, status, operator FROM operation_log WHERE description LIKE '%floor-screen material%' ORDER BY id`,
    );
    expect(log).toEqual(
      expect.arrayContaining([
        { description: 'Upload floor-screen material', status: 'success', operator: 'editor' },
        { description: 'Upload floor-screen material', status: 'failure', operator: 'editor' },
        { description: 'Rename floor-screen material', status: 'success', operator: 'editor' },
        { description: 'Set floor-screen material status', status: 'success', operator: 'editor' },
        { description: 'Set floor-screen material storage area', status: 'success', operator: 'admin' },
      ]),
    );
  });

  it('deletes a material with its file and cover', async () => {
    const before = await stored();
    expect((await editor.get(`/api/signage/material/del?id=${video.id}`)).status).toBe(200);
    const after = await stored();
    expect({ rows: after.rows, files: after.files.length, covers: after.covers.length }).toEqual({
      rows: before.rows - 1,
      files: before.files.length - 1,
      covers: before.covers.length - 1,
    });
    expect((await editor.get(`/api/signage/material/del?id=${video.id}`)).status).toBe(404);
    expect((await fetch(`${gw.baseUrl}${video.coverUrl}`)).status).toBe(404);
  });
});
