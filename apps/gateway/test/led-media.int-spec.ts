import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { MediaType, type LedMediaRow, type MediaLink, type PageResult } from '@sc/contracts';
import { ApiClient, mp4Clip } from '@sc/testing';
import { LED_MEDIA_FOLDER } from '../src/led/led-media.service';
import { startTestGateway, type TestGateway } from './harness';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function form(content: Buffer | string, fileName: string, name?: string): FormData {
  const data = new FormData();
  if (name !== undefined) data.append('name', name);
  data.append('file', new Blob([content]), fileName);
  return data;
}

/** The LED media library on the upload and console ports, PostgreSQL, ffprobe, ffmpeg, sharp and the disk. */
describe('LED media library', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let visitor: ApiClient;
  let png: Buffer;
  let mp4: Buffer;
  const upload = (client: ApiClient, body: FormData, lng = client.language) =>
    new ApiClient(gw.uploadUrl, lng).as(client.token).post<LedMediaRow>('/api/led/mediaUpload', body);
  const page = async (filters: Record<string, unknown> = {}) =>
    (await admin.post<PageResult<LedMediaRow>>('/api/led/mediaPage', { pageNum: 1, pageSize: 50, ...filters })).body.data;
  const stored = async () => ({
    rows: (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM led_media`))[0].n,
    files: (await readdir(join(gw.config.uploadDir, LED_MEDIA_FOLDER)).catch(() => [] as string[])).filter((n) => n !== 'covers').length,
    covers: (await readdir(join(gw.config.uploadDir, LED_MEDIA_FOLDER, 'covers')).catch(() => [] as string[])).length,
  });

  beforeAll(async () => {
    gw = await startTestGateway();
    [admin, editor, visitor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor'), gw.signedIn('visitor')]);
    png = await sharp({ create: { width: 640, height: 320, channels: 3, background: '#1366ec' } })
      .png()
      .toBuffer();
    mp4 = await mp4Clip({ seconds: 2, width: 320, height: 160 });
  }, 120_000);
  afterAll(() => gw?.close());

  let picture: LedMediaRow;
  let video: LedMediaRow;

  it('takes a picture and a video, reading type, resolution and duration from the content, with covers', async () => {
    const a = await upload(editor, form(png, 'night-market.png'));
    expect(a.status).toBe(200);
    picture = a.body.data;
    expect(picture).toMatchObject({
      name: 'night-market',
      type: MediaType.Picture,
      width: 640,
      height: 320,
      duration: null,
      fileSize: png.length,
      mime: 'image/png',
      sha256: sha256(png),
      uploader: 'editor',
      coverUrl: expect.stringMatching(/^\/api\/led\/mediaCover\?id=\d+&expires=\d+&signature=/),
    });
    const b = await upload(admin, form(mp4, 'clip.mp4', 'Opening clip'));
    expect(b.status).toBe(200);
    video = b.body.data;
    expect(video).toMatchObject({ name: 'Opening clip', type: MediaType.Video, width: 320, height: 160, mime: 'video/mp4' });
    expect(video.duration).toBeCloseTo(2, 1);
    expect(await stored()).toEqual({ rows: 2, files: 2, covers: 2 });

    // The cover and the file through their signed links, no session.
    const cover = await fetch(`${gw.baseUrl}${picture.coverUrl}`);
    expect(cover.status).toBe(200);
    expect(cover.headers.get('content-type')).toBe('image/jpeg');
    const link = (await editor.get<MediaLink>(`/api/led/mediaPreview?id=${video.id}`)).body.data;
    const file = await fetch(`${gw.baseUrl}${link.url}`);
    expect(sha256(Buffer.from(await file.arrayBuffer()))).toBe(sha256(mp4));
    expect((await fetch(`${gw.baseUrl}${link.url.replace(/signature=[^&]+/, 'signature=forged')}`)).status).toBe(403);
  }, 60_000);

  it('refuses music, a video named .png and text, by content, leaving nothing', async () => {
    const before = await stored();
    const music = await upload(editor, form(Buffer.from('ID3\u0003\u0000\u0000\u0000\u0000\u0000\u0000tone'), 'tone.mp3'), 'en-US');
    expect(music.status).toBe(400);
    expect(music.body.message).toBe('Only pictures (JPEG, PNG, WebP, GIF) and videos (MP4, WebM) can be uploaded');
    const disguised = await upload(editor, form(mp4, 'poster.png'), 'zh-CN');
    expect(disguised.status).toBe(400);
    const text = await upload(editor, form('not a picture at all', 'note.jpg'), 'en-US');
    expect(text.status).toBe(400);
    expect(await stored()).toEqual(before);
  });

  it('lists with filters, newest first', async () => {
    expect((await page()).list.map((m) => m.id)).toEqual([video.id, picture.id]);
    expect((await page({ type: MediaType.Picture })).list.map((m) => m.id)).toEqual([picture.id]);
    expect((await page({ name: 'OPENING' })).list.map((m) => m.id)).toEqual([video.id]);
    expect((await page({ type: 3 })).list).toBeUndefined();
  });

  it('keeps visitors out and deletes a medium with its file and cover; refuses one a task plays', async () => {
    expect((await visitor.post('/api/led/mediaPage', { pageNum: 1, pageSize: 10 })).status).toBe(403);
    expect((await upload(visitor, form(png, 'x.png'))).status).toBe(403);
    await gw.db.query(
      `INSERT INTO led_task (name, media_id, play_mode, time_periods, task_periods, created_by)
       VALUES ('Evening loop', $1, 1, '[]', '[]', 'admin')`,
      [video.id],
    );
    const refused = await editor.post('/api/led/mediaDel', { id: video.id });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('Evening loop');
    expect((await editor.post('/api/led/mediaDel', { id: picture.id })).status).toBe(200);
    expect(await stored()).toEqual({ rows: 1, files: 1, covers: 1 });
  });
});
