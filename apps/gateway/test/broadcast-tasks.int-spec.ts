import {
  BroadcastTaskMode,
  DispatchStatus,
  PlaybackMode,
  TaskTimeStatus,
  TerminalOccupancy,
  type BroadcastTaskRow,
  type DispatchDetail,
  type MediaRow,
  type PageResult,
  type TerminalHistory,
} from '@sc/contracts';
import { waitFor, type ApiClient } from '@sc/testing';
import type { BroadcastFleet } from '../../device-sim/src/families/broadcast.sim';
import { startTaskScene, type TaskScene } from './broadcast-worker';
import type { TestGateway } from './harness';

const CODES = ['BTK-1', 'BTK-2', 'BTK-3'];

/**
 * Immediate broadcasts end to end below the browser: gateway, broadcast worker and simulated terminals on PostgreSQL,
 * Redis and the broker; the terminals download the MP3 from the gateway's signed links and play it by priority.
 */
describe('broadcast tasks: immediate broadcasts', () => {
  let gw: TestGateway;
  let fleet: BroadcastFleet;
  let admin: ApiClient;
  let editor: ApiClient;
  let ids: number[];
  let upload: TaskScene['upload'];
  let counts: TaskScene['counts'];
  let stop: TaskScene['stop'];
  let short: MediaRow;
  let long: MediaRow;
  let pending: MediaRow;

  const tasks = async () => (await admin.post<PageResult<BroadcastTaskRow>>('/api/broadcast/taskPage', { pageNum: 1, pageSize: 50 })).body.data;

  beforeAll(async () => {
    ({ gw, admin, editor, ids, fleet, upload, counts, stop } = await startTaskScene(CODES, 'btasks', '10.30.1'));
    [short, long, pending] = await Promise.all([
      upload('Storm warning tone', 2, 660),
      upload('Background music', 30, 440),
      upload('Unchecked', 1, 990, false),
    ]);
  }, 90_000);
  afterAll(() => stop?.());

  it('plays chosen media on the terminals now: delivered through the ledger, downloaded and checked, played for their length', async () => {
    const answer = await editor.post<{ id: number; dispatchId: string }>('/api/broadcast/immediateBroadcast', {
      taskName: 'Storm warning',
      mediaIds: [short.id],
      ids,
      priority: 1,
      volume: 70,
    });
    expect(answer.body).toMatchObject({ code: 200 });
    const { id, dispatchId } = answer.body.data;
    await waitFor(async () => {
      const d = (await editor.get<DispatchDetail>(`/api/dispatch/detail?id=${dispatchId}`)).body.data;
      return d.status === DispatchStatus.AllSuccessful ? d : undefined;
    }, 10_000);
    // Each terminal has the file (its checksum matched) and plays it, at the task's volume.
    await waitFor(() => (CODES.every((code) => fleet.terminal(code)?.playing?.taskId === `task-${id}`) ? true : undefined), 5000, 20);
    for (const code of CODES)
      expect(fleet.terminal(code)).toMatchObject({
        occupancy: TerminalOccupancy.Task,
        broadcastVolume: 70,
        playing: { title: 'Storm warning', media: 'Storm warning tone', priority: 1 },
      });
    const [row] = (await tasks()).list;
    expect(row).toMatchObject({
      id,
      taskName: 'Storm warning',
      taskMode: BroadcastTaskMode.Immediate,
      playbackMode: PlaybackMode.Normal,
      terminalCount: 3,
      dispatchId,
      dispatchStatus: DispatchStatus.AllSuccessful,
      timeStatus: TaskTimeStatus.InProgress,
      media: [{ mediaId: short.id, title: 'Storm warning tone', durationMs: Math.round(short.duration * 1000) }],
      createdBy: 'editor',
    });
    // Two seconds of audio, then idle; each terminal's day holds it.
    await waitFor(() => (CODES.every((code) => fleet.terminal(code)?.occupancy === TerminalOccupancy.Idle) ? true : undefined), 6000, 50);
    await waitFor(async () => ((await tasks()).list[0].timeStatus === TaskTimeStatus.Ended ? true : undefined), 3000);
    const day = await waitFor(async () => {
      const h = (await admin.get<TerminalHistory>(`/api/broadcast/terminalHistory?id=${ids[0]}`)).body.data;
      return h.plays[0]?.endedAt ? h : undefined;
    }, 3000);
    expect(day.plays[0]).toMatchObject({ title: 'Storm warning', media: 'Storm warning tone', taskId: `task-${id}` });
  }, 30_000);

  it('lets a first-priority broadcast pre-empt a cycling one, which plays on after it', async () => {
    const music = await editor.post<{ id: number }>('/api/broadcast/immediateBroadcast', {
      taskName: 'Park music',
      mediaIds: [long.id],
      playbackMode: PlaybackMode.ListCycle,
      ids: [ids[1]],
      priority: 5,
      volume: 40,
    });
    expect(music.body).toMatchObject({ code: 200 });
    await waitFor(() => (fleet.terminal(CODES[1])?.playing?.taskId === `task-${music.body.data.id}` ? true : undefined), 5000, 20);
    const urgent = await editor.post<{ id: number }>('/api/broadcast/immediateBroadcast', {
      taskName: 'Evacuation notice',
      mediaIds: [short.id],
      ids: [ids[1]],
      priority: 1,
      volume: 90,
    });
    await waitFor(() => (fleet.terminal(CODES[1])?.playing?.taskId === `task-${urgent.body.data.id}` ? true : undefined), 5000, 20);
    await waitFor(() => (fleet.terminal(CODES[1])?.playing?.taskId === `task-${music.body.data.id}` ? true : undefined), 6000, 20);
    expect(fleet.terminal(CODES[1])).toMatchObject({
      occupancy: TerminalOccupancy.Task,
      playing: { title: 'Park music', media: 'Background music' },
    });
    // The cycling broadcast is stopped from the terminal list's playback control.
    await editor.post('/api/broadcast/terminalPlayback', { ids: [ids[1]], action: 'stop' });
    await waitFor(() => (fleet.terminal(CODES[1])?.occupancy === TerminalOccupancy.Idle ? true : undefined), 5000, 20);
  }, 30_000);

  it('plays a playlist in its own mode and order', async () => {
    const playlist = await admin.post<{ id: number }>('/api/broadcast/playlistAddOrEdit', {
      name: 'Announcements',
      playbackMode: PlaybackMode.Normal,
      mediaIds: [short.id, long.id],
    });
    expect(playlist.body).toMatchObject({ code: 200 });
    const answer = await editor.post<{ id: number }>('/api/broadcast/immediateBroadcast', {
      taskName: 'From a playlist',
      playlistId: playlist.body.data.id,
      ids: [ids[2]],
      priority: 3,
      volume: 50,
    });
    expect(answer.body).toMatchObject({ code: 200 });
    await waitFor(() => (fleet.terminal(CODES[2])?.playing?.media === 'Storm warning tone' ? true : undefined), 5000, 20);
    await waitFor(() => (fleet.terminal(CODES[2])?.playing?.media === 'Background music' ? true : undefined), 5000, 20);
    const [row] = (await tasks()).list;
    expect(row.media.map((m) => m.title)).toEqual(['Storm warning tone', 'Background music']);
    expect(row.durationMs).toBe(Math.round(short.duration * 1000) + Math.round(long.duration * 1000));
    await editor.post('/api/broadcast/terminalPlayback', { ids: [ids[2]], action: 'stop' });
  }, 30_000);

  it('refuses bad requests with translated messages, recording and sending nothing', async () => {
    const before = await counts();
    const zh = await gw.signedIn('editor', 'zh-CN');
    const refused = async (client: ApiClient, body: Record<string, unknown>) => {
      const answer = await client.post('/api/broadcast/immediateBroadcast', { taskName: 'Bad', ids, priority: 2, volume: 50, ...body });
      expect(answer.status).toBe(400);
      return answer.body;
    };
    /** What the console shows: the message under the field, else the answer's. */
    const said = (body: { message: string; data: unknown }) =>
      (body.data as { errors?: { reason: string }[] } | null)?.errors?.[0]?.reason ?? body.message;
    expect(said(await refused(editor, { mediaIds: [pending.id] }))).toBe(`Only approved materials can be broadcast: "Unchecked"`);
    expect(said(await refused(zh, { mediaIds: [short.id], playlistId: 1 }))).toBe('播放列表和素材只能选择其一');
    expect(said(await refused(editor, {}))).toBe('Please select a playlist or at least one material');
    expect(said(await refused(editor, { mediaIds: [999999] }))).toBe('These materials do not exist: 999999');
    expect(await refused(zh, { mediaIds: [short.id], volume: undefined })).toMatchObject({
      data: { errors: [{ field: 'volume', reason: '音量不能为空' }] },
    });
    expect(await refused(editor, { mediaIds: [short.id], priority: 0 })).toMatchObject({ data: { errors: [{ field: 'priority' }] } });
    expect(said(await refused(editor, { mediaIds: [short.id], ids: [999999] }))).toContain('999999');
    expect(await refused(editor, { mediaIds: [short.id], taskName: ' ' })).toMatchObject({ data: { errors: [{ field: 'taskName' }] } });
    // A visitor sees the tasks but may not broadcast.
    const visitor = await gw.signedIn('visitor');
    expect(
      (await visitor.post('/api/broadcast/immediateBroadcast', { taskName: 'No', mediaIds: [short.id], ids, priority: 1, volume: 50 })).status,
    ).toBe(403);
    expect((await visitor.post('/api/broadcast/taskPage', { pageNum: 1, pageSize: 10 })).status).toBe(200);
    expect(await counts()).toEqual(before);
  });
});
