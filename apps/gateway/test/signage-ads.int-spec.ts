import sharp from 'sharp';
import { AdAuditStatus, ScreenOrientation, type AdDetail, type AdRequest, type AdRow, type MaterialRow, type PageResult } from '@sc/contracts';
import { ApiClient, mp3Tone, mp4Clip } from '@sc/testing';
import { startTestGateway, type TestGateway } from './harness';

function form(content: Buffer, fileName: string): FormData {
  const data = new FormData();
  data.append('file', new Blob([content]), fileName);
  return data;
}

/** Postgres, the upload port and real files (sharp, ffmpeg): ads built from uploaded materials, and every refusal. */
describe('floor-screen ads', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let visitor: ApiClient;
  let image: MaterialRow;
  let image2: MaterialRow;
  let video: MaterialRow;
  let music: MaterialRow;
  let spare: MaterialRow;
  let ad: AdDetail;

  const upload = async (content: Buffer, fileName: string): Promise<MaterialRow> => {
    const answer = await new ApiClient(gw.uploadUrl, 'en-US')
      .as(editor.token)
      .post<MaterialRow>('/api/signage/material/upload', form(content, fileName));
    expect(answer.status).toBe(200);
    return answer.body.data;
  };
  const page = async (filters: Record<string, unknown> = {}) =>
    (await editor.post<PageResult<AdRow>>('/api/signage/ad/page', { pageNum: 1, pageSize: 50, ...filters })).body.data;
  /** The ads and their links as stored: a refusal must leave both unchanged. */
  const stored = async () => ({
    ads: await gw.db.query(`SELECT * FROM signage_ad ORDER BY id`),
    links: await gw.db.query(`SELECT * FROM signage_ad_material ORDER BY ad_id, material_id`),
  });
  const portrait = (): AdRequest => ({
    name: 'Spring sale',
    coverMaterialId: image.id,
    orientation: ScreenOrientation.Portrait,
    totalDuration: 30,
    splitCount: 3,
    zones: [
      [{ materialId: image.id, seconds: 5 }],
      [{ materialId: video.id, seconds: 2 }],
      [
        { materialId: image2.id, seconds: 10 },
        { materialId: video.id, seconds: 2 },
      ],
    ],
    music: [music.id],
    auditRequired: true,
  });

  beforeAll(async () => {
    gw = await startTestGateway();
    [admin, editor, visitor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor'), gw.signedIn('visitor')]);
    const png = (colour: string) =>
      sharp({ create: { width: 360, height: 640, channels: 3, background: colour } })
        .png()
        .toBuffer();
    image = await upload(await png('#1366ec'), 'poster.png');
    image2 = await upload(await png('#e8590c'), 'offer.png');
    spare = await upload(await png('#2f9e44'), 'spare.png');
    video = await upload(await mp4Clip({ seconds: 2, width: 180, height: 320 }), 'clip.mp4');
    music = await upload(await mp3Tone({ seconds: 3 }), 'tone.mp3');
  }, 120_000);
  afterAll(async () => {
    await gw?.close();
  });

  it('creates a 3-split portrait ad from uploaded materials, with its cover and the materials it uses', async () => {
    const answer = await editor.post<AdDetail>('/api/signage/ad/add', portrait());
    expect(answer.status).toBe(200);
    ad = answer.body.data;
    expect(ad).toMatchObject({
      ...portrait(),
      auditStatus: AdAuditStatus.NotAudited,
      createdBy: 'editor',
      coverUrl: expect.stringMatching(/^\/api\/signage\/material\/cover\?id=\d+&/),
    });
    expect(ad.materials.map((m) => [m.id, m.type])).toEqual([
      [image.id, 'image'],
      [image2.id, 'image'],
      [video.id, 'video'],
      [music.id, 'music'],
    ]);
    expect((await fetch(`${gw.baseUrl}${ad.coverUrl}`)).headers.get('content-type')).toBe('image/jpeg');
    const links = await gw.db.query<{ material_id: number }>(`SELECT material_id FROM signage_ad_material WHERE ad_id = $1 ORDER BY 1`, [ad.id]);
    expect(links.map((l) => l.material_id)).toEqual([image.id, image2.id, video.id, music.id]);
    expect((await editor.get<AdDetail>(`/api/signage/ad/detail?id=${ad.id}`)).body.data).toEqual(ad);
  });

  it('lists by name, orientation and audit status, a page at a time', async () => {
    const landscape = await admin.post<AdDetail>('/api/signage/ad/add', {
      ...portrait(),
      name: 'Night view',
      orientation: ScreenOrientation.Landscape,
      splitCount: 1,
      zones: [[{ materialId: spare.id, seconds: 8 }]],
      music: [],
    });
    expect(landscape.status).toBe(200);
    expect((await page()).list.map((a) => a.name)).toEqual(['Night view', 'Spring sale']);
    expect((await page({ name: 'SPRING' })).list.map((a) => a.id)).toEqual([ad.id]);
    expect((await page({ orientation: '16:9' })).list.map((a) => a.name)).toEqual(['Night view']);
    expect((await page({ auditStatus: 'audited' })).total).toBe(0);
    expect(await page({ pageNum: 2, pageSize: 1 })).toMatchObject({ total: 2, list: [{ id: ad.id }] });
    expect((await editor.post('/api/signage/ad/page', { pageNum: 1, pageSize: 10, orientation: '4:3' })).status).toBe(400);
  });

  it('edits an ad, and an administrator audits it; editing again makes it not audited', async () => {
    const edited = await editor.post<AdDetail>('/api/signage/ad/edit', {
      ...portrait(),
      id: ad.id,
      name: '  Spring sale 2  ',
      totalDuration: 60,
      music: [],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ name: 'Spring sale 2', totalDuration: 60, music: [] });
    expect(edited.body.data.materials.map((m) => m.id)).not.toContain(music.id);

    expect((await editor.post('/api/signage/ad/audit', { id: ad.id, auditStatus: 'audited' })).status).toBe(403);
    const audited = await admin.post<AdDetail>('/api/signage/ad/audit', { id: ad.id, auditStatus: 'audited' });
    expect(audited.body.data.auditStatus).toBe(AdAuditStatus.Audited);
    expect((await page({ auditStatus: 'audited' })).list.map((a) => a.id)).toEqual([ad.id]);
    const again = await editor.post<AdDetail>('/api/signage/ad/edit', { ...portrait(), id: ad.id });
    expect(again.body.data).toMatchObject({ name: 'Spring sale', auditStatus: AdAuditStatus.NotAudited });
    expect((await admin.post('/api/signage/ad/audit', { id: 999_999, auditStatus: 'audited' })).status).toBe(404);
  });

  it('refuses each bad ad with its message and changes nothing', async () => {
    const before = await stored();
    const cases: [string, Partial<AdRequest> | Record<string, unknown>, string][] = [
      ['601 s', { totalDuration: 601 }, 'Total duration: The total duration is 5 to 600 seconds'],
      ['4 s', { totalDuration: 4 }, 'Total duration: The total duration is 5 to 600 seconds'],
      ['10 splits', { splitCount: 10 }, 'Split-screen count: The split-screen count is 1 to 9'],
      ['0 splits', { splitCount: 0 }, 'Split-screen count: The split-screen count is 1 to 9'],
      ['no cover', { coverMaterialId: null }, 'Cover: Please choose a cover image'],
      ['no name', { name: '  ' }, 'Name: The name cannot be empty'],
      [
        'a zone without material',
        { zones: [[{ materialId: image.id, seconds: 5 }], [], [{ materialId: video.id, seconds: 2 }]] },
        'Screen 2: Add at least one material to each screen',
      ],
      [
        'a material twice in a zone',
        {
          zones: [
            [
              { materialId: image.id, seconds: 5 },
              { materialId: image.id, seconds: 5 },
            ],
            [{ materialId: video.id, seconds: 2 }],
            [{ materialId: image2.id, seconds: 5 }],
          ],
        },
        'Screen 1: A material already in the playlist cannot be added twice',
      ],
      [
        'music in a zone',
        { zones: [[{ materialId: music.id, seconds: 3 }], [{ materialId: video.id, seconds: 2 }], [{ materialId: image2.id, seconds: 5 }]] },
        'Screen 1: A screen plays images and videos only: "tone"',
      ],
      ['an image in the music', { music: [image2.id] }, 'Background music: Background music takes music only: "offer"'],
      ['a video as the cover', { coverMaterialId: video.id }, 'Cover: The cover must be an image'],
      [
        'a video cut longer than it is',
        { zones: [[{ materialId: image.id, seconds: 5 }], [{ materialId: video.id, seconds: 9 }], [{ materialId: image2.id, seconds: 5 }]] },
        'Screen 2: A video plays at most its own length: "clip" is 2 seconds',
      ],
      [
        'an image without seconds',
        { zones: [[{ materialId: image.id }], [{ materialId: video.id, seconds: 2 }], [{ materialId: image2.id, seconds: 5 }]] },
        'Screen 1: A material plays for 1 to 600 seconds',
      ],
      ['a missing material', { music: [999_999] }, 'These materials do not exist: 999999'],
    ];
    for (const [what, change, message] of cases) {
      const answer = await editor.post('/api/signage/ad/add', { ...portrait(), ...change });
      expect({ what, status: answer.status, message: answer.body.message }).toEqual({ what, status: 400, message });
    }
    // An unavailable material, in an edit too.
    await editor.post('/api/signage/material/status', { id: spare.id, status: 'unavailable' });
    const unavailable = await editor.post('/api/signage/ad/edit', { ...portrait(), id: ad.id, coverMaterialId: spare.id });
    expect({ status: unavailable.status, message: unavailable.body.message }).toEqual({
      status: 400,
      message: 'These materials are unavailable and cannot go into an ad: "spare"',
    });
    await editor.post('/api/signage/material/status', { id: spare.id, status: 'available' });
    // Field errors come back one by one for the form, in the caller's language.
    const zh = await new ApiClient(gw.baseUrl, 'zh-CN')
      .as(editor.token)
      .post<{ errors: { field: string; reason: string }[] }>('/api/signage/ad/add', {
        ...portrait(),
        totalDuration: 601,
        splitCount: 10,
      });
    expect(zh.body.data.errors).toEqual([
      { field: 'totalDuration', message: expect.any(String), reason: '总时长须为 5 到 600 秒' },
      { field: 'splitCount', message: expect.any(String), reason: '分屏数须为 1 到 9' },
    ]);
    expect(await stored()).toEqual(before);
  });

  it('refuses to delete a material an ad uses, naming the ad', async () => {
    const answer = await editor.get(`/api/signage/material/del?id=${video.id}`);
    expect({ status: answer.status, message: answer.body.message }).toEqual({
      status: 409,
      message: 'This material is used by the ads "Spring sale"; take it out of them first',
    });
    expect((await gw.db.query(`SELECT id FROM signage_material WHERE id = $1`, [video.id])).length).toBe(1);
  });

  it('keeps visitors and signed-out callers out, and logs each change', async () => {
    expect((await visitor.post('/api/signage/ad/page', { pageNum: 1, pageSize: 10 })).status).toBe(403);
    expect((await visitor.post('/api/signage/ad/add', portrait())).status).toBe(403);
    expect((await visitor.post('/api/signage/ad/delete', { ids: [ad.id] })).status).toBe(403);
    expect((await visitor.post('/api/signage/ad/audit', { id: ad.id, auditStatus: 'audited' })).status).toBe(403);
    expect((await new ApiClient(gw.baseUrl).get(`/api/signage/ad/detail?id=${ad.id}`)).status).toBe(401);
    const log = await gw.db.query<{ description: string; operator: string }>(
      `SELECT DISTINCT description, operator FROM operation_log WHERE description LIKE '%floor-screen ad%' AND status = 'success'`,
    );
    expect(log).toEqual(
      expect.arrayContaining([
        { description: 'Add floor-screen ad', operator: 'editor' },
        { description: 'Edit floor-screen ad', operator: 'editor' },
        { description: 'Audit floor-screen ad', operator: 'admin' },
      ]),
    );
  });

  it('deletes one ad or many, none refused, and then the material can go', async () => {
    const before = await stored();
    const none = await editor.post('/api/signage/ad/delete', { ids: [] });
    expect({ status: none.status, message: none.body.message }).toEqual({ status: 400, message: 'Batch delete needs at least one selected ad' });
    expect((await editor.post('/api/signage/ad/delete', { ids: [ad.id, 999_999] })).status).toBe(404);
    expect(await stored()).toEqual(before);
    // A publication still on its way to a screen names the ad and its video: neither can go until it is answered.
    const [{ id: sending }] = await gw.db.query<{ id: string }>(
      `INSERT INTO dispatch (id, family, action, params, created_by, expires_at)
       VALUES (gen_random_uuid(), 'signage', 'publish', $1, 'editor', now() + interval '1 hour') RETURNING id`,
      [JSON.stringify({ ads: [{ adId: ad.id }], files: [{ materialId: video.id }] })],
    );
    await gw.db.query(`INSERT INTO dispatch_item (dispatch_id, device_id, command_id, state) VALUES ($1, 1, gen_random_uuid(), 'sent')`, [sending]);
    const refused = await editor.post('/api/signage/ad/delete', { ids: [ad.id] });
    expect({ status: refused.status, message: refused.body.message }).toEqual({
      status: 409,
      message: 'Sends to devices still open that need it: 1; wait until they are answered or expire',
    });
    expect(await stored()).toEqual(before);
    await gw.db.query(`UPDATE dispatch_item SET state = 'delivered' WHERE dispatch_id = $1`, [sending]);
    const all = (await page()).list.map((a) => a.id);
    expect((await editor.post('/api/signage/ad/delete', { ids: all })).status).toBe(200);
    expect(await stored()).toEqual({ ads: [], links: [] });
    expect((await editor.get(`/api/signage/ad/detail?id=${ad.id}`)).status).toBe(404);
    await gw.db.query(`UPDATE dispatch_item SET state = 'sent' WHERE dispatch_id = $1`, [sending]);
    expect((await editor.get(`/api/signage/material/del?id=${video.id}`)).status).toBe(409);
    await gw.db.query(`UPDATE dispatch_item SET state = 'failed' WHERE dispatch_id = $1`, [sending]);
    expect((await editor.get(`/api/signage/material/del?id=${video.id}`)).status).toBe(200);
  });
});
