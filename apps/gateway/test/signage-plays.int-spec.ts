import { DateTime } from 'luxon';
import * as XLSX from '@e965/xlsx';
import type { PlayReportResult } from '@sc/contracts';
import type { ApiClient } from '@sc/testing';
import { startTestGateway, type TestGateway } from './harness';

/** Postgres: proof-of-play reports summed from stored plays (through the hourly sums the trigger keeps), and refusals. */
describe('floor-screen proof-of-play reports', () => {
  let gw: TestGateway;
  let editor: ApiClient;
  let visitor: ApiClient;
  let group: number;
  let parent: number;
  const device: Record<'a' | 'b' | 'c', number> = { a: 0, b: 0, c: 0 };
  let ad: number;

  const report = (body: Record<string, unknown>) =>
    editor.post<PlayReportResult>('/api/signage/playReport', { pageNum: 1, pageSize: 20, startDate: '2026-11-01', endDate: '2026-11-03', ...body });
  const stored = async () => ({
    plays: await gw.db.query(`SELECT * FROM signage_play ORDER BY id`),
    hourly: await gw.db.query(`SELECT * FROM signage_play_hourly ORDER BY hour, device_id, ad_id`),
  });

  beforeAll(async () => {
    gw = await startTestGateway();
    [editor, visitor] = await Promise.all([gw.signedIn('editor'), gw.signedIn('visitor')]);
    const zone = gw.config.defaultPlace.timeZone;
    // A region and one below it: a report of the region counts the players of both.
    [{ id: parent }] = await gw.db.query<{ id: number }>(`INSERT INTO region (region_name) VALUES ('Plays district') RETURNING id`);
    const [{ id: child }] = await gw.db.query<{ id: number }>(
      `INSERT INTO region (region_name, parent_id) VALUES ('Plays street', $1) RETURNING id`,
      [parent],
    );
    [{ id: group }] = await gw.db.query<{ id: number }>(`INSERT INTO signage_group (name) VALUES ('Plays hall') RETURNING id`);
    const add = async (code: string, region: number | null, inGroup: boolean) =>
      (
        await gw.db.query<{ id: number }>(`INSERT INTO signage_device (code, name, region_id, group_id) VALUES ($1, $2, $3, $4) RETURNING id`, [
          code,
          `Screen ${code}`,
          region,
          inGroup ? group : null,
        ])
      )[0].id;
    device.a = await add('PLAY-A', parent, true);
    device.b = await add('PLAY-B', child, true);
    device.c = await add('PLAY-C', null, false);
    // One ad with a row (its name is shown), one deleted since it played (id 987654: no row).
    const [{ id: material }] = await gw.db.query<{ id: number }>(
      `INSERT INTO signage_material (name, cover_path, type, file_size, width, height, file_path, sha256, mime, uploader)
       VALUES ('cover', 'plays-cover.png', 'image', 1, 1, 1, 'plays-cover.png', repeat('0', 64), 'image/png', 'editor') RETURNING id`,
    );
    [{ id: ad }] = await gw.db.query<{ id: number }>(
      `INSERT INTO signage_ad (name, cover_material_id, orientation, total_duration, split_count, zones, creator)
       VALUES ('Winter sale', $1, '9:16', 30, 1, '[[]]', 'editor') RETURNING id`,
      [material],
    );
    const at = (local: string) => DateTime.fromISO(local, { zone }).toUTC().toISO();
    const plays: [number, number, string, number][] = [
      [device.a, ad, '2026-11-01T10:00:00', 30],
      // Late on the 1st on the installation's clock: the 1st, whatever day it is in UTC.
      [device.a, ad, '2026-11-01T23:30:00', 30],
      [device.a, 987654, '2026-11-02T00:10:00', 15],
      [device.b, ad, '2026-11-02T12:00:00', 30],
      [device.c, 987654, '2026-11-03T08:00:00', 15],
      // After the range; and before it.
      [device.c, ad, '2026-11-04T00:00:00', 30],
      [device.a, ad, '2026-10-31T23:59:59', 30],
    ];
    const insert = (rows: typeof plays) =>
      gw.db.query(
        `INSERT INTO signage_play (device_id, plan_id, ad_id, started_at, seconds)
         SELECT d, 'plan-1', a, t, s FROM unnest($1::int[], $2::int[], $3::timestamptz[], $4::int[]) AS x(d, a, t, s)
         ON CONFLICT (device_id, started_at, ad_id) DO NOTHING`,
        [rows.map((p) => p[0]), rows.map((p) => p[1]), rows.map((p) => at(p[2])), rows.map((p) => p[3])],
      );
    await insert(plays);
    // A player's report delivered again adds nothing.
    await insert(plays.slice(0, 2));
  }, 60_000);

  afterAll(() => gw?.close());

  it('sums plays and seconds per ad, per player, per day and per all three', async () => {
    const byAd = (await report({ by: 'ad' })).body.data;
    expect(byAd).toEqual({
      list: [
        { adId: ad, adName: 'Winter sale', plays: 3, seconds: 90 },
        { adId: 987654, adName: null, plays: 2, seconds: 30 },
      ],
      total: 2,
      totalPlays: 5,
      totalSeconds: 120,
    });
    expect((await report({ by: 'day' })).body.data.list).toEqual([
      { day: '2026-11-01', plays: 2, seconds: 60 },
      { day: '2026-11-02', plays: 2, seconds: 45 },
      { day: '2026-11-03', plays: 1, seconds: 15 },
    ]);
    expect((await report({ by: 'device', groupId: group })).body.data).toMatchObject({
      list: [
        { deviceId: device.a, deviceName: 'Screen PLAY-A', deviceCode: 'PLAY-A', plays: 3, seconds: 75 },
        { deviceId: device.b, deviceName: 'Screen PLAY-B', deviceCode: 'PLAY-B', plays: 1, seconds: 30 },
      ],
      totalPlays: 4,
    });
    // A region counts its sub-regions' players.
    expect((await report({ by: 'device', regionId: parent })).body.data.list.map((r) => r.deviceId)).toEqual([device.a, device.b]);
    expect((await report({ by: 'detail', deviceId: device.a })).body.data.list).toEqual([
      {
        day: '2026-11-01',
        adId: ad,
        adName: 'Winter sale',
        deviceId: device.a,
        deviceName: 'Screen PLAY-A',
        deviceCode: 'PLAY-A',
        plays: 2,
        seconds: 60,
      },
      { day: '2026-11-02', adId: 987654, adName: null, deviceId: device.a, deviceName: 'Screen PLAY-A', deviceCode: 'PLAY-A', plays: 1, seconds: 15 },
    ]);
    expect((await report({ by: 'ad', adId: 987654, startDate: '2026-11-03' })).body.data).toMatchObject({ total: 1, totalPlays: 1 });
    // Pages: the totals are the whole range's.
    expect((await report({ by: 'ad', pageSize: 1, pageNum: 2 })).body.data).toEqual({
      list: [{ adId: 987654, adName: null, plays: 2, seconds: 30 }],
      total: 2,
      totalPlays: 5,
      totalSeconds: 120,
    });
    expect((await report({ by: 'ad', pageNum: 9 })).body.data).toEqual({ list: [], total: 2, totalPlays: 5, totalSeconds: 120 });
  });

  it('exports the report as xlsx, in the caller language', async () => {
    const answer = await fetch(`${gw.baseUrl}/api/signage/playExport?startDate=2026-11-01&endDate=2026-11-03&by=detail`, {
      headers: { Authorization: `Bearer ${editor.token}`, 'Accept-Language': 'en-US' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toContain('floor-screen-plays.xlsx');
    const book = XLSX.read(Buffer.from(await answer.arrayBuffer()), { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]], { header: 1 });
    expect(rows).toEqual([
      ['Day', 'Ad', 'Floor screen', 'Device code', 'Plays', 'Played seconds'],
      ['2026-11-01', 'Winter sale', 'Screen PLAY-A', 'PLAY-A', 2, 60],
      ['2026-11-02', 'Winter sale', 'Screen PLAY-B', 'PLAY-B', 1, 30],
      ['2026-11-02', '#987654', 'Screen PLAY-A', 'PLAY-A', 1, 15],
      ['2026-11-03', '#987654', 'Screen PLAY-C', 'PLAY-C', 1, 15],
    ]);
    const zh = await fetch(`${gw.baseUrl}/api/signage/playExport?startDate=2026-11-01&endDate=2026-11-03&by=ad`, {
      headers: { Authorization: `Bearer ${editor.token}`, 'Accept-Language': 'zh-CN' },
    });
    const zhRows = XLSX.utils.sheet_to_json<unknown[]>(XLSX.read(Buffer.from(await zh.arrayBuffer()), { type: 'buffer' }).Sheets.plays, {
      header: 1,
    });
    expect(zhRows[0]).toEqual(['广告', '播放次数', '播放秒数']);
    expect(zhRows.slice(1)).toEqual([
      ['Winter sale', 3, 90],
      ['#987654', 2, 30],
    ]);
  });

  it('refuses bad ranges and filters with their messages, changes nothing, and is not for visitors', async () => {
    const before = await stored();
    const cases: [string, Record<string, unknown>, string][] = [
      ['end before start', { startDate: '2026-11-03', endDate: '2026-11-01' }, 'End date: The end date must not be before the start date'],
      ['367 days', { startDate: '2026-01-01', endDate: '2027-01-02' }, 'End date: A report covers at most 366 days'],
      ['no such day', { startDate: '2026-02-30' }, 'Start date: Use a date like 2026-12-24'],
      ['not a day', { endDate: '11/03/2026' }, 'End date: Use a date like 2026-12-24'],
      ['a week', { by: 'week' }, 'Summed by: Invalid value'],
      ['a region 0', { regionId: 0 }, 'Region: Must be between 1 and 2147483647'],
    ];
    for (const [what, change, message] of cases) {
      const answer = await report({ by: 'ad', ...change });
      expect({ what, status: answer.status, message: answer.body.message }).toEqual({ what, status: 400, message });
    }
    const exported = await fetch(`${gw.baseUrl}/api/signage/playExport?startDate=2026-11-03&endDate=2026-11-01&by=ad`, {
      headers: { Authorization: `Bearer ${editor.token}`, 'Accept-Language': 'en-US' },
    });
    expect(exported.status).toBe(400);
    expect(((await exported.json()) as { message: string }).message).toBe('End date: The end date must not be before the start date');
    expect(
      (await visitor.post('/api/signage/playReport', { pageNum: 1, pageSize: 20, startDate: '2026-11-01', endDate: '2026-11-01', by: 'ad' })).status,
    ).toBe(403);
    expect(await stored()).toEqual(before);
  });
});
