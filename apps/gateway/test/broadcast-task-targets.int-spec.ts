import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  DispatchStatus,
  PlaybackMode,
  TaskTimeStatus,
  TerminalOccupancy,
  type BroadcastTaskRow,
  type MediaRow,
  type PageResult,
  type TaskStopResult,
} from '@sc/contracts';
import { waitFor, type ApiClient } from '@sc/testing';
import type { BroadcastFleet } from '../../device-sim/src/families/broadcast.sim';
import { startBroadcastTaskRig, type BroadcastTaskRig } from './broadcast-task-rig';
import type { TestGateway } from './harness';

const CODES = ['BTG-1', 'BTG-2', 'BTG-3'];

/**
 * Broadcast tasks addressed to groups, stopped from the console, and the media library keeping what tasks that have
 * not ended still name: gateway, broadcast worker and simulated terminals on PostgreSQL, Redis and the broker.
 */
describe('broadcast tasks: groups as targets, stopping, media kept while named', () => {
  let rig: BroadcastTaskRig;
  let gw: TestGateway;
  let fleet: BroadcastFleet;
  let admin: ApiClient;
  let editor: ApiClient;
  let ids: number[];
  let emptyGroup: number;
  let north: number;
  let south: number;
  let tone: MediaRow;
  let music: MediaRow;

  const task = async (id: number) =>
    (await admin.post<PageResult<BroadcastTaskRow>>('/api/broadcast/taskPage', { pageNum: 1, pageSize: 50 })).body.data.list.find(
      (t) => t.id === id,
    )!;
  const playing = (codes: string[], taskId: number) =>
    waitFor(() => (codes.every((code) => fleet.terminal(code)?.playing?.taskId === `task-${taskId}`) ? true : undefined), 8000, 20);
  const fileOf = async (id: number) =>
    join(gw.config.uploadDir, (await gw.db.query<{ path: string }>(`SELECT storage_path AS path FROM broadcast_media WHERE id = $1`, [id]))[0].path);
  const group = async (groupName: string, terminalIds: number[]) => {
    const answer = await admin.post<{ id: number }>('/api/broadcast/groupAddOrEdit', { groupName, terminalIds });
    expect(answer.body).toMatchObject({ code: 200 });
    return answer.body.data.id;
  };

  beforeAll(async () => {
    rig = await startBroadcastTaskRig('btargets', CODES, 'Group terminal', '10.31.1');
    ({ gw, fleet, admin, editor, ids } = rig);
    // Two groups sharing a terminal (it takes the task once), and an empty one.
    [emptyGroup, north, south] = [await group('Nobody yet', []), await group('North square', [ids[0], ids[1]]), await group('South gate', [ids[1]])];
    [tone, music] = [await rig.upload(2, 660, 'Group chime'), await rig.upload(30, 440, 'Square music')];
  }, 90_000);
  afterAll(() => rig?.stop());

  it('refuses an empty, unknown or mixed group selection with translated messages, recording and sending nothing', async () => {
    const before = await rig.counts();
    const zh = await gw.signedIn('editor', 'zh-CN');
    const refused = async (client: ApiClient, selection: Record<string, unknown>) => {
      const answer = await client.post('/api/broadcast/immediateBroadcast', {
        taskName: 'Refused',
        mediaIds: [tone.id],
        priority: 3,
        volume: 50,
        ...selection,
      });
      expect(answer.status).toBe(400);
      return answer.body as { message: string; data: { errors?: { field: string; reason: string }[] } | null };
    };
    expect((await refused(editor, { groupIds: [north, emptyGroup] })).data?.errors).toEqual([
      expect.objectContaining({ field: 'groupIds', reason: 'This group has no devices and cannot be selected' }),
    ]);
    expect((await refused(zh, { groupIds: [emptyGroup] })).data?.errors?.[0]).toMatchObject({
      field: 'groupIds',
      reason: '该分组下没有设备，不能选择',
    });
    expect((await refused(editor, { groupIds: [north, 999999] })).data?.errors?.[0]).toMatchObject({
      field: 'groupIds',
      reason: 'These broadcast groups do not exist: 999999',
    });
    expect((await refused(editor, { groupIds: [north], ids })).message).toBe('Select terminals, a region or groups: only one of them');
    expect((await refused(zh, { groupIds: [] })).message).toBe('请选择终端、区域或分组');
    // The terminal commands take groups too, with the same refusals.
    expect((await editor.post('/api/broadcast/terminalVolume', { groupIds: [emptyGroup], broadcastVolume: 20 })).status).toBe(400);
    expect(await rig.counts()).toEqual(before);
    expect(fleet.terminal(CODES[0])?.occupancy).toBe(TerminalOccupancy.Idle);
  });

  it('delivers a broadcast to the terminals of groups through the ledger, each terminal once, and lists who plays it', async () => {
    const answer = await editor.post<{ id: number; dispatchId: string }>('/api/broadcast/immediateBroadcast', {
      taskName: 'Square notice',
      mediaIds: [tone.id],
      groupIds: [north, south],
      priority: 2,
      volume: 60,
    });
    expect(answer.body).toMatchObject({ code: 200 });
    const { id, dispatchId } = answer.body.data;
    const detail = await rig.delivered(dispatchId);
    expect(detail.total).toBe(2);
    await playing([CODES[0], CODES[1]], id);
    expect(fleet.terminal(CODES[2])?.occupancy).toBe(TerminalOccupancy.Idle);
    const row = await waitFor(async () => {
      const r = await task(id);
      return r.playingCount === 2 ? r : undefined;
    }, 3000);
    expect(row).toMatchObject({
      terminalCount: 2,
      dispatchStatus: DispatchStatus.AllSuccessful,
      timeStatus: TaskTimeStatus.InProgress,
      stoppedAt: null,
    });
    expect(row.players).toEqual([
      { id: ids[0], terminalId: CODES[0], terminalName: 'Group terminal 1', media: 'Group chime', paused: false },
      { id: ids[1], terminalId: CODES[1], terminalName: 'Group terminal 2', media: 'Group chime', paused: false },
    ]);
    // While it plays, its medium stays; once it has played (two seconds) and no terminal plays it, it has ended.
    expect((await editor.get(`/api/broadcast/mediaDel?id=${tone.id}`)).status).toBe(409);
    await waitFor(async () => ((await task(id)).timeStatus === TaskTimeStatus.Ended ? true : undefined), 8000, 100);
    expect((await task(id)).players).toEqual([]);
  }, 30_000);

  it('keeps a medium and a playlist a cycling broadcast names until it is stopped on its terminals, then deletes them', async () => {
    const playlist = (
      await admin.post<{ id: number }>('/api/broadcast/playlistAddOrEdit', {
        name: 'Square loop',
        playbackMode: PlaybackMode.ListCycle,
        mediaIds: [tone.id],
      })
    ).body.data.id;
    const fromList = await editor.post<{ id: number }>('/api/broadcast/immediateBroadcast', {
      taskName: 'Loop from a list',
      playlistId: playlist,
      ids: [ids[2]],
      priority: 5,
      volume: 30,
    });
    const cycling = await editor.post<{ id: number; dispatchId: string }>('/api/broadcast/immediateBroadcast', {
      taskName: 'Square music',
      mediaIds: [music.id],
      playbackMode: PlaybackMode.ListCycle,
      groupIds: [north],
      priority: 4,
      volume: 40,
    });
    expect([fromList.body.code, cycling.body.code]).toEqual([200, 200]);
    const { id } = cycling.body.data;
    await playing([CODES[0], CODES[1]], id);

    const file = await fileOf(music.id);
    const refused = await editor.get(`/api/broadcast/mediaDel?id=${music.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This material is used by broadcast tasks that have not ended: "Square music"; stop them first');
    const zh = await editor.as(editor.token, 'zh-CN').get(`/api/broadcast/mediaDel?id=${music.id}`);
    expect(zh.body.message).toBe('该素材正被未结束的广播任务使用："Square music"，请先停止这些任务');
    const playlistRefused = await editor.get(`/api/broadcast/playlistDel?id=${playlist}`);
    expect(playlistRefused.status).toBe(409);
    expect(playlistRefused.body.message).toBe('This playlist is used by broadcast tasks that have not ended: "Loop from a list"; stop them first');
    expect(existsSync(file)).toBe(true);
    expect((await gw.db.query(`SELECT 1 FROM broadcast_media WHERE id = $1`, [music.id])).length).toBe(1);
    expect((await gw.db.query(`SELECT 1 FROM broadcast_playlist WHERE id = $1`, [playlist])).length).toBe(1);

    // Visitors may not stop it; an editor stops it on its terminals through the ledger (cancelTask).
    expect((await (await gw.signedIn('visitor')).post('/api/broadcast/taskStop', { id })).status).toBe(403);
    const stop = await editor.post<TaskStopResult>('/api/broadcast/taskStop', { id });
    expect(stop.body).toMatchObject({ code: 200, data: { id } });
    const stopDispatch = await rig.delivered(stop.body.data.dispatchId!);
    expect(stopDispatch).toMatchObject({ action: 'cancelTask', total: 2, params: { taskId: `task-${id}` } });
    await waitFor(() => (fleet.terminal(CODES[0])?.occupancy === TerminalOccupancy.Idle ? true : undefined), 5000, 20);
    expect(fleet.terminal(CODES[1])?.occupancy).toBe(TerminalOccupancy.Idle);
    expect(await task(id)).toMatchObject({ timeStatus: TaskTimeStatus.Ended, stoppedBy: 'editor', playingCount: 0 });
    expect((await editor.post('/api/broadcast/taskStop', { id })).body).toMatchObject({
      code: 409,
      message: 'This broadcast task has already been stopped',
    });

    expect((await editor.get(`/api/broadcast/mediaDel?id=${music.id}`)).status).toBe(200);
    expect(existsSync(file)).toBe(false);
    await editor.post('/api/broadcast/taskStop', { id: fromList.body.data.id });
    expect((await editor.get(`/api/broadcast/playlistDel?id=${playlist}`)).status).toBe(200);
    const log = await gw.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM operation_log WHERE description = 'Stop broadcast task' AND operator = 'editor'`,
    );
    expect(log[0].n).toBeGreaterThanOrEqual(2);
  }, 40_000);
});
