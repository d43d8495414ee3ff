import type { EnergyLampRow, EnergyRegionNode, EnergySeries, EnergyTree, PageResult } from '@sc/contracts';
import type { ApiClient } from '@sc/testing';
import { startTestGateway, type TestGateway } from './harness';

describe('lamp energy by region, per lamp and over time', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  const region: Record<string, number> = {};
  const lamp: Record<string, number> = {};

  const addLamp = async (lampName: string, clientId: string, regionId: number | null) => {
    const answer = await admin.post<{ id: number }>('/api/light/lampAddOrEdit', { lampName, clientId, regionId });
    expect(answer.body).toMatchObject({ code: 200 });
    return answer.body.data.id;
  };
  const hour = (deviceId: number, at: string, wh: number, litSeconds: number) =>
    gw.db.query(`INSERT INTO lamp_energy_hourly (device_id, hour, energy_wh, lit_seconds, covered_seconds) VALUES ($1, $2, $3, $4, 3600)`, [
      deviceId,
      at,
      wh,
      litSeconds,
    ]);
  const find = (nodes: EnergyRegionNode[], name: string): EnergyRegionNode | undefined => {
    for (const node of nodes) {
      if (node.name === name) return node;
      const below = find(node.childList, name);
      if (below) return below;
    }
    return undefined;
  };

  beforeAll(async () => {
    // The installation's days are Shanghai days (UTC+8): 2026-11-21 runs from 2026-11-20T16:00Z to 2026-11-21T16:00Z.
    gw = await startTestGateway({ defaultPlace: { latitude: 22.5431, longitude: 114.0579, timeZone: 'Asia/Shanghai' } });
    admin = await gw.signedIn('admin');
    for (const row of await gw.db.query<{ id: number; region_name: string }>(`SELECT id, region_name FROM region`)) region[row.region_name] = row.id;
    lamp.a = await addLamp('Huaqiang North 1', 'EN-0001', region['Huaqiangbei Subdistrict']);
    lamp.b = await addLamp('Keyuan Road 1', 'EN-0002', region['Yuehai Subdistrict']);
    lamp.c = await addLamp('Depot spare', 'EN-0003', null);
    await gw.db.query(`UPDATE lamp SET rated_power = 200 WHERE device_id = $1`, [lamp.b]);
    await hour(lamp.a, '2026-11-20T16:00:00Z', 50, 3600); // 00:00 local: half of full power
    await hour(lamp.a, '2026-11-21T15:00:00Z', 30, 1800); // 23:00 local
    await hour(lamp.a, '2026-11-20T15:00:00Z', 99, 0); // 23:00 the evening before: the month, not the day
    await hour(lamp.b, '2026-11-21T02:00:00Z', 210, 3600); // a little above its rating: no negative saving
    await hour(lamp.c, '2026-11-21T03:00:00Z', 10, 0); // standby draw only
  });
  afterAll(() => gw.close());

  it('rolls a day up the region tree, with the saving against rated power', async () => {
    const answer = await admin.get<EnergyTree>('/api/light/energyTree?period=day&date=2026-11-21');
    expect(answer.body.code).toBe(200);
    const day = answer.body.data;
    expect(day).toMatchObject({
      period: 'day',
      from: '2026-11-21T00:00:00.000+08:00',
      to: '2026-11-22T00:00:00.000+08:00',
      timeZone: 'Asia/Shanghai',
    });
    expect(day.total).toEqual({ energyWh: 300, fullWh: 350, savingWh: 70, litHours: 2.5, lampCount: 3 });
    expect(day.unassigned).toEqual({ energyWh: 10, fullWh: 0, savingWh: 0, litHours: 0, lampCount: 1 });
    expect(find(day.tree, 'Shenzhen')).toMatchObject({ energyWh: 290, fullWh: 350, savingWh: 70, lampCount: 2, zhCn: '深圳市' });
    expect(find(day.tree, 'Futian District')).toMatchObject({ energyWh: 80, fullWh: 150, savingWh: 70, litHours: 1.5, lampCount: 1 });
    expect(find(day.tree, 'Nanshan District')).toMatchObject({ energyWh: 210, fullWh: 200, savingWh: 0, lampCount: 1 });
    expect(find(day.tree, 'Hangzhou')).toMatchObject({ energyWh: 0, lampCount: 0 });
  });

  it('a month takes in every day of it', async () => {
    const month = (await admin.get<EnergyTree>('/api/light/energyTree?period=month&date=2026-11-05')).body.data;
    expect(month.from).toBe('2026-11-01T00:00:00.000+08:00');
    expect(month.to).toBe('2026-12-01T00:00:00.000+08:00');
    expect(find(month.tree, 'Shenzhen')?.energyWh).toBe(389);
    const october = (await admin.get<EnergyTree>('/api/light/energyTree?period=month&date=2026-10-31')).body.data;
    expect(october.total.energyWh).toBe(0);
  });

  it('pages lamps, largest users first, filtered by region', async () => {
    const page = (
      await admin.post<PageResult<EnergyLampRow>>('/api/light/energyLampPage', { pageNum: 1, pageSize: 10, period: 'day', date: '2026-11-21' })
    ).body.data;
    expect(page.total).toBe(3);
    expect(page.list.map((r) => r.clientId)).toEqual(['EN-0002', 'EN-0001', 'EN-0003']);
    expect(page.list[1]).toEqual({
      id: lamp.a,
      lampName: 'Huaqiang North 1',
      clientId: 'EN-0001',
      regionId: region['Huaqiangbei Subdistrict'],
      regionName: 'Huaqiangbei Subdistrict',
      ratedPower: 100,
      energyWh: 80,
      fullWh: 150,
      savingWh: 70,
      litHours: 1.5,
    });
    const futian = (
      await admin.post<PageResult<EnergyLampRow>>('/api/light/energyLampPage', {
        pageNum: 1,
        pageSize: 10,
        period: 'day',
        date: '2026-11-21',
        regionId: region['Futian District'],
      })
    ).body.data;
    expect(futian.list.map((r) => r.id)).toEqual([lamp.a]);
    const past = (
      await admin.post<PageResult<EnergyLampRow>>('/api/light/energyLampPage', { pageNum: 5, pageSize: 10, period: 'day', date: '2026-11-21' })
    ).body.data;
    expect(past).toEqual({ list: [], total: 3 });
  });

  it('gives hourly points for a day and daily points for a month, gaps as zero', async () => {
    const day = (await admin.get<EnergySeries>('/api/light/energySeries?period=day&date=2026-11-21')).body.data;
    expect(day.points).toHaveLength(24);
    expect(day.points[0]).toEqual({ at: '2026-11-21T00:00:00.000+08:00', energyWh: 50, fullWh: 100 });
    expect(day.points[10]).toEqual({ at: '2026-11-21T10:00:00.000+08:00', energyWh: 210, fullWh: 200 });
    expect(day.points[23]).toMatchObject({ energyWh: 30, fullWh: 50 });
    expect(day.points[5]).toMatchObject({ energyWh: 0, fullWh: 0 });
    const nanshan = (await admin.get<EnergySeries>(`/api/light/energySeries?period=day&date=2026-11-21&regionId=${region['Nanshan District']}`)).body
      .data;
    expect(nanshan.points.filter((p) => p.energyWh > 0).map((p) => p.at)).toEqual(['2026-11-21T10:00:00.000+08:00']);
    const month = (await admin.get<EnergySeries>(`/api/light/energySeries?period=month&date=2026-11-21&id=${lamp.a}`)).body.data;
    expect(month.points).toHaveLength(30);
    expect(month.points[19]).toEqual({ at: '2026-11-20T00:00:00.000+08:00', energyWh: 99, fullWh: 0 });
    expect(month.points[20]).toEqual({ at: '2026-11-21T00:00:00.000+08:00', energyWh: 80, fullWh: 150 });
  });

  it('sets a rated power (Edit button): full power and saving follow, history included; bad input changes nothing', async () => {
    const ratings = async () =>
      (await gw.db.query<{ device_id: number; rated_power: number }>(`SELECT device_id, rated_power FROM lamp ORDER BY device_id`)).map((r) => [
        r.device_id,
        r.rated_power,
      ]);
    const before = await ratings();
    const unknown = await admin.post('/api/light/lampRatedPower', { ids: [lamp.a, 999_999], ratedPower: 120 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Lamps: These lamps do not exist: 999999');
    expect((await admin.post('/api/light/lampRatedPower', { ids: [lamp.a], ratedPower: 0 })).body.message).toBe(
      'Rated power: Must be between 1 and 10000',
    );
    expect((await admin.post('/api/light/lampRatedPower', { ids: [], ratedPower: 80 })).body.message).toBe('Lamps: Please select a list item');
    const editor = await gw.signedIn('editor');
    expect((await editor.post('/api/light/lampRatedPower', { ids: [lamp.a], ratedPower: 80 })).status).toBe(403);
    expect(await ratings()).toEqual(before);

    expect((await admin.post('/api/light/lampRatedPower', { ids: [lamp.a], ratedPower: 80 })).body).toMatchObject({
      code: 200,
      data: { changed: 1 },
    });
    const day = (await admin.get<EnergyTree>('/api/light/energyTree?period=day&date=2026-11-21')).body.data;
    // Lamp A: 1.5 h lit at 80 W is 120 Wh full power, 80 Wh used.
    expect(find(day.tree, 'Futian District')).toMatchObject({ energyWh: 80, fullWh: 120, savingWh: 40 });
    await admin.post('/api/light/lampRatedPower', { ids: [lamp.a], ratedPower: 100 });
  });

  it('refuses a bad period or date with the translated message, and other roles', async () => {
    const week = await admin.get('/api/light/energyTree?period=week&date=2026-11-21');
    expect(week.status).toBe(400);
    const badDate = await admin.get('/api/light/energyTree?period=day&date=21/11/2026');
    expect(badDate.status).toBe(400);
    expect(badDate.body.message).toBe('Date: Use a date like 2026-11-21');
    const noDay = await admin.get('/api/light/energySeries?period=day&date=2026-02-30');
    expect(noDay.body.message).toBe('Date: Use a date like 2026-11-21');
    // Years the database cannot take (no year 0; a month after 9999-12 is in year 10000) are a field error, not a 500.
    for (const path of [
      '/api/light/energyTree?period=day&date=0000-01-01',
      '/api/light/energyTree?period=month&date=9999-12-01',
      '/api/light/energySeries?period=day&date=1969-12-31',
    ]) {
      const answer = await admin.get(path);
      expect({ path, status: answer.status, message: answer.body.message }).toEqual({
        path,
        status: 400,
        message: 'Date: Use a date from 1970-01-01 to 9998-12-31',
      });
    }
    const outOfRange = await admin.post('/api/light/energyLampPage', { pageNum: 1, pageSize: 10, period: 'month', date: '9999-12-01' });
    expect({ status: outOfRange.status, message: outOfRange.body.message }).toEqual({
      status: 400,
      message: 'Date: Use a date from 1970-01-01 to 9998-12-31',
    });
    expect((await admin.as(admin.token, 'zh-CN').get('/api/light/energyTree?period=day&date=0000-01-01')).body.message).toBe(
      '日期：请输入 1970-01-01 至 9998-12-31 之间的日期',
    );
    const zh = await admin.as(admin.token, 'zh-CN').get('/api/light/energyTree?period=day');
    expect(zh.status).toBe(400);
    expect(zh.body.message).toMatch(/\p{Script=Han}/u);
    for (const username of ['editor', 'visitor'] as const) {
      const client = await gw.signedIn(username);
      expect((await client.get('/api/light/energyTree?period=day&date=2026-11-21')).status).toBe(403);
      expect((await client.post('/api/light/energyLampPage', { pageNum: 1, pageSize: 10, period: 'day', date: '2026-11-21' })).status).toBe(403);
    }
  });

  it('reads the hours and days of a region or a lamp on its own clock, as its schedules do; over all lamps, the installation clock', async () => {
    const hangzhou = region['Hangzhou'];
    const [{ zone }] = await gw.db.query<{ zone: string | null }>(`SELECT time_zone AS zone FROM region WHERE id = $1`, [hangzhou]);
    await gw.db.query(`UPDATE region SET time_zone = 'Asia/Tokyo' WHERE id = $1`, [hangzhou]);
    try {
      lamp.d = await addLamp('West Lake 1', 'EN-0004', hangzhou);
      await hour(lamp.d, '2026-11-20T15:00:00Z', 40, 3600); // 00:00 on the 21st in Tokyo, 23:00 on the 20th in Shanghai
      for (const query of [`regionId=${hangzhou}`, `id=${lamp.d}`]) {
        const day = (await admin.get<EnergySeries>(`/api/light/energySeries?period=day&date=2026-11-21&${query}`)).body.data;
        expect(day.timeZone).toBe('Asia/Tokyo');
        expect(day.points).toHaveLength(24);
        expect(day.points[0]).toEqual({ at: '2026-11-21T00:00:00.000+09:00', energyWh: 40, fullWh: 100 });
        const month = (await admin.get<EnergySeries>(`/api/light/energySeries?period=month&date=2026-11-21&${query}`)).body.data;
        expect(month.points[20]).toEqual({ at: '2026-11-21T00:00:00.000+09:00', energyWh: 40, fullWh: 100 });
      }
      // The tree and the lamp table count the lamp over its own day too, so the region's figure is its chart's sum.
      const hangzhouOn = async (date: string) =>
        find((await admin.get<EnergyTree>(`/api/light/energyTree?period=day&date=${date}`)).body.data.tree, 'Hangzhou')?.energyWh;
      expect(await hangzhouOn('2026-11-21')).toBe(40);
      expect(await hangzhouOn('2026-11-20')).toBe(0);
      const rowOn = async (date: string) =>
        (
          await admin.post<PageResult<EnergyLampRow>>('/api/light/energyLampPage', {
            pageNum: 1,
            pageSize: 10,
            period: 'day',
            date,
            regionId: hangzhou,
          })
        ).body.data.list.find((row) => row.id === lamp.d);
      expect(await rowOn('2026-11-21')).toMatchObject({ energyWh: 40, fullWh: 100, savingWh: 60 });
      expect(await rowOn('2026-11-20')).toMatchObject({ energyWh: 0 });
      const all = (await admin.get<EnergySeries>('/api/light/energySeries?period=day&date=2026-11-20')).body.data;
      expect(all.timeZone).toBe('Asia/Shanghai');
      expect(all.points[23]).toMatchObject({ at: '2026-11-20T23:00:00.000+08:00', energyWh: 40 + 99 });
    } finally {
      await gw.db.query(`UPDATE region SET time_zone = $2 WHERE id = $1`, [hangzhou, zone]);
    }
  });
});
