import {
  OnlineState,
  TerminalOccupancy,
  TerminalStatus,
  type BroadcastGroupDetail,
  type BroadcastGroupOption,
  type BroadcastGroupRow,
  type PageResult,
} from '@sc/contracts';
import { waitFor, type ApiClient } from '@sc/testing';
import { startTestGateway, type TestGateway } from './harness';

/** Broadcast groups on the real PostgreSQL and Redis: records, membership, refusals, roles and the picker's options. */
describe('broadcast groups', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let visitor: ApiClient;
  /** Terminal device ids, by terminal ID. */
  const terminal: Record<string, number> = {};
  let lianhua: number;
  let futian: number;

  const page = async (filters: Record<string, unknown> = {}, client = admin) =>
    (await client.post<PageResult<BroadcastGroupRow>>('/api/broadcast/groupPage', { pageNum: 1, pageSize: 50, ...filters })).body.data;
  const detail = async (id: number) => (await admin.get<BroadcastGroupDetail>(`/api/broadcast/groupDetail?id=${id}`)).body.data;
  const save = (body: Record<string, unknown>, client = admin) => client.post<{ id: number }>('/api/broadcast/groupAddOrEdit', body);
  const memberCodes = async (id: number) => (await detail(id)).members.map((m) => m.terminalId);
  const snapshot = async () => ({
    groups: await gw.db.query(`SELECT id, name, region_id, remark, updated_at FROM broadcast_group ORDER BY id`),
    members: await gw.db.query(`SELECT group_id, device_id FROM broadcast_group_member ORDER BY group_id, device_id`),
    terminals: await gw.db.query(`SELECT id FROM device WHERE type = 3 ORDER BY id`),
  });

  beforeAll(async () => {
    gw = await startTestGateway();
    admin = await gw.signedIn('admin');
    visitor = await gw.signedIn('visitor');
    [{ id: lianhua }] = await gw.db.query<{ id: number }>(`SELECT id FROM region WHERE region_name = 'Lianhua Subdistrict'`);
    [{ id: futian }] = await gw.db.query<{ id: number }>(`SELECT parent_id AS id FROM region WHERE id = $1`, [lianhua]);
    for (const [i, code] of ['BG-1', 'BG-2', 'BG-3', 'BG-4'].entries()) {
      const answer = await admin.post<{ id: number }>('/api/broadcast/terminalAddOrEdit', {
        terminalName: `Square ${i + 1}`,
        terminalId: code,
        terminalIP: `10.30.0.${i + 1}`,
        regionId: lianhua,
      });
      expect(answer.body).toMatchObject({ code: 200 });
      terminal[code] = answer.body.data.id;
    }
    // As the broadcast worker stores reports: BG-1 online and idle, BG-2 online and playing, the others offline.
    await gw.db.query(`UPDATE broadcast_terminal SET network_status = $2 WHERE device_id = ANY($1::int[])`, [
      [terminal['BG-1'], terminal['BG-2']],
      OnlineState.Online,
    ]);
    await gw.db.query(`UPDATE broadcast_terminal SET occupancy = $2 WHERE device_id = $1`, [terminal['BG-2'], TerminalOccupancy.Task]);
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('creates a group with its terminals, lists it with its member count by name and by region, and shows its members with their status', async () => {
    const created = await save({
      groupName: 'Lianhua squares',
      regionId: lianhua,
      remark: 'Evening notices',
      terminalIds: [terminal['BG-2'], terminal['BG-1'], terminal['BG-3']],
    });
    expect(created.body).toMatchObject({ code: 200 });
    const id = created.body.data.id;
    await save({ groupName: 'Empty corner' });

    const found = await page({ groupName: 'SQUARES' });
    expect(found.total).toBe(1);
    expect(found.list[0]).toMatchObject({
      id,
      groupName: 'Lianhua squares',
      regionId: lianhua,
      regionName: 'Lianhua Subdistrict',
      remark: 'Evening notices',
      memberCount: 3,
    });
    // By a region above the group's, and not by another one.
    expect((await page({ regionId: futian })).list.map((g) => g.groupName)).toEqual(['Lianhua squares']);
    const [{ id: other }] = await gw.db.query<{ id: number }>(`SELECT id FROM region WHERE region_name = 'Nanshan District'`);
    expect((await page({ regionId: other })).total).toBe(0);
    expect((await page()).list.map((g) => [g.groupName, g.memberCount])).toEqual([
      ['Empty corner', 0],
      ['Lianhua squares', 3],
    ]);

    const shown = await detail(id);
    expect(shown).toMatchObject({ groupName: 'Lianhua squares', memberCount: 3 });
    expect(shown.members.map((m) => [m.terminalId, m.status])).toEqual([
      ['BG-1', TerminalStatus.Online],
      ['BG-2', TerminalStatus.Occupied],
      ['BG-3', TerminalStatus.Offline],
    ]);
  });

  it('edits the name and the members; leaving the members out keeps them, an empty list empties the group; the options mark empty groups', async () => {
    const [{ id }] = (await page({ groupName: 'Lianhua squares' })).list;
    expect(await save({ id, groupName: 'Lianhua plazas', terminalIds: [terminal['BG-3'], terminal['BG-4']] })).toMatchObject({ status: 200 });
    const edited = await detail(id);
    // Region and remark left out: kept.
    expect(edited).toMatchObject({ groupName: 'Lianhua plazas', regionId: lianhua, remark: 'Evening notices', memberCount: 2 });
    expect(edited.members.map((m) => m.terminalId)).toEqual(['BG-3', 'BG-4']);

    expect((await save({ id, groupName: 'Lianhua plazas', regionId: null, remark: '' })).status).toBe(200);
    expect(await detail(id)).toMatchObject({ regionId: null, regionName: null, remark: '', memberCount: 2 });

    const options = async () => (await admin.get<BroadcastGroupOption[]>('/api/broadcast/groupOptions')).body.data;
    expect(await options()).toEqual([
      expect.objectContaining({ groupName: 'Empty corner', memberCount: 0, empty: true }),
      { id, groupName: 'Lianhua plazas', memberCount: 2, empty: false },
    ]);
    expect((await save({ id, groupName: 'Lianhua plazas', terminalIds: [] })).status).toBe(200);
    expect((await options()).find((o) => o.id === id)).toMatchObject({ memberCount: 0, empty: true });
    await save({ id, groupName: 'Lianhua plazas', terminalIds: [terminal['BG-1'], terminal['BG-2']] });
  });

  it('refuses a missing or taken name and unknown terminals under their fields, translated, changing nothing', async () => {
    const [{ id }] = (await page({ groupName: 'Lianhua plazas' })).list;
    const before = await snapshot();

    const blank = await save({ groupName: '   ', terminalIds: [terminal['BG-1']] });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ data: { errors: [{ field: 'groupName', reason: 'Please enter the group name' }] } });
    const zh = await save({ terminalIds: [] }, admin.as(admin.token, 'zh-CN'));
    expect(zh.body).toMatchObject({ code: 400, data: { errors: [{ field: 'groupName', reason: '请输入分组名称' }] } });

    // Taken in any case, by a new group and by a renamed one.
    for (const body of [{ groupName: 'EMPTY CORNER' }, { id, groupName: 'empty corner', terminalIds: [terminal['BG-4']] }]) {
      const taken = await save(body);
      expect(taken.status).toBe(409);
      expect(taken.body).toMatchObject({
        code: 409,
        data: { errors: [{ field: 'groupName', reason: `A broadcast group named "${body.groupName}" already exists` }] },
      });
    }

    // A lamp pole is a device, not a terminal.
    const [{ id: pole }] = await gw.db.query<{ id: number }>(`INSERT INTO device (type, code, name) VALUES (0, 'POLE-BG', 'Pole BG') RETURNING id`);
    for (const body of [
      { groupName: 'Ghosts', terminalIds: [terminal['BG-1'], 999_999] },
      { id, groupName: 'Renamed', terminalIds: [pole] },
    ]) {
      const unknown = await save(body);
      expect(unknown.status).toBe(400);
      expect(unknown.body.data).toMatchObject({ errors: [{ field: 'terminalIds' }] });
      expect(unknown.body.message).toContain('These terminals do not exist');
    }
    const notIds = await save({ groupName: 'Bad ids', terminalIds: ['x', 0] });
    expect(notIds.status).toBe(400);
    expect((await save({ id: 999_999, groupName: 'Nowhere' })).status).toBe(404);
    expect((await save({ groupName: 'Elsewhere', regionId: 999_999 })).body).toMatchObject({ data: { errors: [{ field: 'regionId' }] } });

    await gw.db.query(`DELETE FROM device WHERE id = $1`, [pole]);
    expect(await snapshot()).toEqual(before);
  });

  it('lets a visitor list the groups, their detail and options, but not add, edit or delete one (403, nothing changed); signed out gets 401', async () => {
    const [{ id }] = (await page({ groupName: 'Lianhua plazas' })).list;
    const before = await snapshot();
    expect((await page({}, visitor)).total).toBe(2);
    expect((await visitor.get(`/api/broadcast/groupDetail?id=${id}`)).status).toBe(200);
    expect((await visitor.get('/api/broadcast/groupOptions')).status).toBe(200);

    for (const answer of [
      await save({ groupName: 'Visitor group' }, visitor),
      await save({ id, groupName: 'Visitor rename', terminalIds: [] }, visitor),
      await visitor.get(`/api/broadcast/groupDel?id=${id}`),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe(403);
    }
    expect((await gw.client().post('/api/broadcast/groupPage', { pageNum: 1, pageSize: 10 })).status).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it('takes a deleted terminal out of its groups, and deletes a group without its terminals', async () => {
    const [{ id }] = (await page({ groupName: 'Lianhua plazas' })).list;
    expect(await memberCodes(id)).toEqual(['BG-1', 'BG-2']);
    expect((await admin.get(`/api/broadcast/terminalDel?id=${terminal['BG-2']}`)).status).toBe(200);
    expect(await memberCodes(id)).toEqual(['BG-1']);

    const editor = await gw.signedIn('editor');
    expect((await editor.get(`/api/broadcast/groupDel?id=${id}`)).status).toBe(200);
    expect((await admin.get(`/api/broadcast/groupDetail?id=${id}`)).status).toBe(404);
    expect((await admin.get(`/api/broadcast/groupDel?id=${id}`)).status).toBe(404);
    expect((await admin.get(`/api/broadcast/terminalDetail?id=${terminal['BG-1']}`)).status).toBe(200);
    expect((await gw.db.query(`SELECT 1 FROM broadcast_group_member WHERE group_id = $1`, [id])).length).toBe(0);
  });

  it('records saving and deleting groups in the operation log', async () => {
    const logged = await waitFor(async () => {
      const rows = await gw.db.query<{ description: string; status: string }>(
        `SELECT DISTINCT description, status FROM operation_log WHERE description LIKE '% broadcast group' ORDER BY description, status`,
      );
      return rows.some((r) => r.description === 'Delete broadcast group') ? rows : undefined;
    }, 5000);
    expect(logged).toEqual(
      expect.arrayContaining([
        { description: 'Save broadcast group', status: expect.any(String) },
        { description: 'Delete broadcast group', status: expect.any(String) },
      ]),
    );
  });
});
