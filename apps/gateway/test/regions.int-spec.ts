import type { AreaTreeNode } from '@sc/contracts';
import type { ApiClient } from '@sc/testing';
import { startTestGateway, type TestGateway } from './harness';

interface Shape {
  name: string;
  zhCn: string;
  enUs: string;
  childList: Shape[];
}

const street = (name: string, zhCn: string): Shape => ({ name, zhCn, enUs: name, childList: [] });
const DEMO_TREE: Shape[] = [
  {
    name: 'Shenzhen',
    zhCn: '深圳市',
    enUs: 'Shenzhen',
    childList: [
      {
        name: 'Futian District',
        zhCn: '福田区',
        enUs: 'Futian District',
        childList: [street('Huaqiangbei Subdistrict', '华强北街道'), street('Lianhua Subdistrict', '莲花街道')],
      },
      {
        name: 'Nanshan District',
        zhCn: '南山区',
        enUs: 'Nanshan District',
        childList: [street('Yuehai Subdistrict', '粤海街道'), street('Shekou Subdistrict', '蛇口街道')],
      },
    ],
  },
  {
    name: 'Hangzhou',
    zhCn: '杭州市',
    enUs: 'Hangzhou',
    childList: [
      {
        name: 'Xihu District',
        zhCn: '西湖区',
        enUs: 'Xihu District',
        childList: [street('Beishan Subdistrict', '北山街道'), street('Lingyin Subdistrict', '灵隐街道')],
      },
      {
        name: 'Shangcheng District',
        zhCn: '上城区',
        enUs: 'Shangcheng District',
        childList: [street('Hubin Subdistrict', '湖滨街道'), street('Qingbo Subdistrict', '清波街道')],
      },
    ],
  },
];

/** The tree as names only, to compare the structure. */
const shape = (nodes: AreaTreeNode[]): Shape[] => nodes.map((n) => ({ name: n.name, zhCn: n.zhCn, enUs: n.enUs, childList: shape(n.childList) }));
const names = (nodes: AreaTreeNode[]): unknown[] => nodes.map((n) => (n.childList.length ? { [n.name]: names(n.childList) } : n.name));

describe('region management', () => {
  let gw: TestGateway;
  let editor: ApiClient;
  const region: Record<string, number> = {};
  const tree = async (query = '') => {
    const answer = await editor.get<AreaTreeNode[]>(`/api/bi/area/queryAreaTree${query}`);
    expect(answer.body.code).toBe(200);
    return answer.body.data;
  };
  const regionCount = async () => (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM region`))[0].n;

  beforeAll(async () => {
    gw = await startTestGateway();
    editor = await gw.signedIn('editor');
    for (const r of await gw.db.query<{ id: number; region_name: string }>(`SELECT id, region_name FROM region`)) region[r.region_name] = r.id;
  });
  afterAll(() => gw.close());

  it('answers the demo tree: 2 cities, their districts and streets, each node {id, name, zhCn, enUs, childList}', async () => {
    const nodes = await tree();
    expect(shape(nodes)).toEqual(DEMO_TREE);
    const walk = (list: AreaTreeNode[], parentId: number | null): void => {
      for (const n of list) {
        expect(n).toEqual({ id: region[n.name], name: n.name, zhCn: n.zhCn, enUs: n.enUs, remark: '', parentId, childList: expect.any(Array) });
        walk(n.childList, n.id);
      }
    };
    walk(nodes, null);
  });

  it('creates a region under a parent, with its translations', async () => {
    const added = await editor.post<{ id: number }>('/api/bi/area/add', {
      regionName: "  Bao'an District ",
      parentRegion: region.Shenzhen,
      zhCn: '宝安区',
      enUs: "Bao'an District",
      remark: 'Airport area',
    });
    expect(added.status).toBe(200);
    region["Bao'an District"] = added.body.data.id;
    const shenzhen = (await tree()).find((n) => n.name === 'Shenzhen')!;
    expect(shenzhen.childList.find((n) => n.id === added.body.data.id)).toEqual({
      id: added.body.data.id,
      name: "Bao'an District",
      zhCn: '宝安区',
      enUs: "Bao'an District",
      remark: 'Airport area',
      parentId: region.Shenzhen,
      childList: [],
    });
  });

  it('creates a top-level region when no parent is given', async () => {
    const added = await editor.post<{ id: number }>('/api/bi/area/add', { regionName: 'Guangzhou', zhCn: '广州市' });
    expect(added.status).toBe(200);
    region.Guangzhou = added.body.data.id;
    expect((await tree()).map((n) => n.name)).toContain('Guangzhou');
  });

  it('edits a region: renames it and moves it under another parent', async () => {
    const edited = await editor.post('/api/bi/area/edit', {
      id: region["Bao'an District"],
      regionName: 'Baoan District',
      parentRegion: region.Guangzhou,
      zhCn: '宝安',
      enUs: 'Baoan',
      remark: 'Moved',
    });
    expect(edited.body).toEqual({ code: 200, data: null, message: 'success' });
    const guangzhou = (await tree()).find((n) => n.name === 'Guangzhou')!;
    expect(guangzhou.childList).toEqual([expect.objectContaining({ name: 'Baoan District', zhCn: '宝安', enUs: 'Baoan', remark: 'Moved' })]);
    expect((await tree()).find((n) => n.name === 'Shenzhen')!.childList.map((n) => n.name)).toEqual(['Futian District', 'Nanshan District']);
  });

  it('keeps what an edit leaves out, and moves a region to the top only on an explicit null parent', async () => {
    const id = region["Bao'an District"];
    expect((await editor.post('/api/bi/area/edit', { id, regionName: 'Baoan' })).body.code).toBe(200);
    let node = (await tree()).find((n) => n.name === 'Guangzhou')!.childList[0];
    expect(node).toMatchObject({ id, name: 'Baoan', zhCn: '宝安', enUs: 'Baoan', remark: 'Moved', parentId: region.Guangzhou });

    expect((await editor.post('/api/bi/area/edit', { id, regionName: 'Baoan', parentRegion: null })).body.code).toBe(200);
    node = (await tree()).find((n) => n.id === id)!;
    expect(node).toMatchObject({ name: 'Baoan', zhCn: '宝安', parentId: null });
    expect((await editor.post('/api/bi/area/edit', { id, regionName: 'Baoan District', parentRegion: region.Guangzhou })).body.code).toBe(200);
  });

  it('deletes a region without sub-regions or devices', async () => {
    const before = await regionCount();
    const deleted = await editor.get(`/api/bi/area/del?id=${region["Bao'an District"]}`);
    expect(deleted.body).toEqual({ code: 200, data: null, message: 'success' });
    expect(await regionCount()).toBe(before - 1);
    const again = await editor.get(`/api/bi/area/del?id=${region["Bao'an District"]}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ code: 404, data: null, message: 'The requested item does not exist' });
  });

  it('refuses to delete a region that has sub-regions', async () => {
    const before = await regionCount();
    const en = await editor.get(`/api/bi/area/del?id=${region['Futian District']}`);
    expect(en.status).toBe(409);
    expect(en.body).toEqual({ code: 409, data: null, message: 'This region still has sub-regions and cannot be deleted' });
    const zh = await editor.as(editor.token, 'zh-CN').get(`/api/bi/area/del?id=${region.Shenzhen}`);
    expect(zh.body).toEqual({ code: 409, data: null, message: '该区域下还有子区域，无法删除' });
    expect(await regionCount()).toBe(before);
  });

  it('refuses to delete a region that has devices', async () => {
    await gw.db.query(`INSERT INTO device (type, code, name, region_id) VALUES (0, 'POLE-0001', 'Pole 1', $1), (1, 'LAMP-0001', 'Lamp 1', $1)`, [
      region['Huaqiangbei Subdistrict'],
    ]);
    const answer = await editor.get(`/api/bi/area/del?id=${region['Huaqiangbei Subdistrict']}`);
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ code: 409, data: null, message: 'This region cannot be deleted: devices still in it: 2' });
    expect(await gw.db.query(`SELECT 1 FROM region WHERE id = $1`, [region['Huaqiangbei Subdistrict']])).toHaveLength(1);
  });

  it('refuses to move a region under itself or any of its descendants', async () => {
    const expected = 'Parent region: A region cannot be placed under itself or one of its sub-regions';
    for (const target of ['Shenzhen', 'Futian District', 'Lianhua Subdistrict']) {
      const answer = await editor.post('/api/bi/area/edit', {
        id: region.Shenzhen,
        regionName: 'Shenzhen',
        parentRegion: region[target],
        zhCn: '深圳市',
        enUs: 'Shenzhen',
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        code: 400,
        data: { errors: [{ field: 'parentRegion', message: expected, reason: expect.any(String) }] },
        message: expected,
      });
    }
    expect((await gw.db.query(`SELECT parent_id FROM region WHERE id = $1`, [region.Shenzhen]))[0]).toEqual({ parent_id: null });
    // A move to an unrelated branch is fine.
    const moved = await editor.post('/api/bi/area/edit', {
      id: region['Lianhua Subdistrict'],
      regionName: 'Lianhua Subdistrict',
      parentRegion: region['Nanshan District'],
    });
    expect(moved.body.code).toBe(200);
  });

  it('refuses an unknown parent and an unknown region', async () => {
    const parent = await editor.post('/api/bi/area/add', { regionName: 'Nowhere', parentRegion: 999999 });
    expect(parent.status).toBe(400);
    expect(parent.body.data).toEqual({
      errors: [{ field: 'parentRegion', message: 'Parent region: The parent region does not exist', reason: 'The parent region does not exist' }],
    });
    const unknown = await editor.post('/api/bi/area/edit', { id: 999999, regionName: 'Nowhere' });
    expect(unknown.status).toBe(404);
  });

  it('refuses a name already used by a sibling, in any case, but allows it under another parent', async () => {
    const before = await regionCount();
    const dup = await editor.post('/api/bi/area/add', { regionName: 'futian district', parentRegion: region.Shenzhen });
    expect(dup.status).toBe(409);
    // The message once, and under the field that holds the name for the form.
    const taken = 'A region named "futian district" already exists at this level';
    expect(dup.body).toEqual({
      code: 409,
      data: { errors: [{ field: 'regionName', message: `Region name: ${taken}`, reason: taken }] },
      message: taken,
    });
    const topLevel = await editor.as(editor.token, 'zh-CN').post('/api/bi/area/add', { regionName: 'HANGZHOU' });
    expect(topLevel.body).toMatchObject({ code: 409, message: '同一层级下已存在名为“HANGZHOU”的区域' });
    expect(topLevel.body.data).toMatchObject({ errors: [{ field: 'regionName', reason: '同一层级下已存在名为“HANGZHOU”的区域' }] });
    const renamed = await editor.post('/api/bi/area/edit', {
      id: region['Nanshan District'],
      regionName: 'Futian District',
      parentRegion: region.Shenzhen,
    });
    expect(renamed.status).toBe(409);
    expect(await regionCount()).toBe(before);

    const elsewhere = await editor.post('/api/bi/area/add', { regionName: 'Futian District', parentRegion: region.Hangzhou });
    expect(elsewhere.body.code).toBe(200);
  });

  it('filters the tree by name in any language, keeping the ancestors of each match', async () => {
    expect(names(await tree('?name=yuehai'))).toEqual([{ Shenzhen: [{ 'Nanshan District': ['Yuehai Subdistrict'] }] }]);
    expect(names(await tree(`?name=${encodeURIComponent('灵隐')}`))).toEqual([{ Hangzhou: [{ 'Xihu District': ['Lingyin Subdistrict'] }] }]);
    expect(names(await tree('?name=SHANGCHENG'))).toEqual([{ Hangzhou: ['Shangcheng District'] }]);
    expect(await tree('?name=atlantis')).toEqual([]);
    expect(shape(await tree('?name=')).length).toBe((await tree()).length);
  });
});
