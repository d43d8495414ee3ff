import { DateTime } from 'luxon';
import {
  BroadcastTaskMode,
  DispatchItemState,
  DispatchStatus,
  PlaybackMode,
  TaskPlayStatus,
  TaskTimeStatus,
  TerminalOccupancy,
  taskWireId,
  type BroadcastTaskDetail,
  type BroadcastTaskRow,
  type DispatchDetail,
  type MediaRow,
  type PageResult,
  type TaskTerminal,
  type TerminalRow,
} from '@sc/contracts';
import { waitFor, type ApiClient } from '@sc/testing';
import type { BroadcastFleet } from '../../device-sim/src/families/broadcast.sim';
import { startBroadcastTaskRig, type BroadcastTaskRig } from './broadcast-task-rig';
import type { TestGateway } from './harness';

const CODES = ['BSK-1', 'BSK-2', 'BSK-3'];

/**
 * Scheduled broadcast tasks below the browser: gateway, broadcast worker and simulated terminals on PostgreSQL, Redis
 * and the broker. The terminals keep the task and play it in its period by their own (simulated) clock.
 */
describe('broadcast tasks: scheduled tasks', () => {
  let scene: BroadcastTaskRig;
  let gw: TestGateway;
  let fleet: BroadcastFleet;
  let admin: ApiClient;
  let editor: ApiClient;
  let ids: number[];
  let tone: MediaRow;
  let zone: string;
  // A Monday well ahead: the task has not started by the real clock; the terminals' clock is moved into its period.
  const day = '2030-01-07';
  const schedule = { weekdays: ['1'], periods: [{ start: '10:00', end: '10:30' }], startDate: day, endDate: day };
  let taskId = 0;

  const row = async (id: number) =>
    (await admin.post<PageResult<BroadcastTaskRow>>('/api/broadcast/taskPage', { pageNum: 1, pageSize: 50 })).body.data.list.find((t) => t.id === id);
  const terminals = async (id: number) =>
    (await admin.post<PageResult<TaskTerminal>>('/api/broadcast/taskTerminalPage', { id, pageNum: 1, pageSize: 10 })).body.data.list;
  const settled = (dispatchId: string) =>
    waitFor(async () => {
      const d = (await admin.get<DispatchDetail>(`/api/dispatch/detail?id=${dispatchId}`)).body.data;
      return d.status === DispatchStatus.AllSuccessful ? d : undefined;
    }, 10_000);
  /** The tasks each terminal reports holding (stored by the worker). */
  const held = async () =>
    Promise.all(ids.map(async (id) => (await admin.get<TerminalRow>(`/api/broadcast/terminalDetail?id=${id}`)).body.data.heldTasks ?? []));
  const playingOn = (code: string) => fleet.terminal(code)?.playing;

  beforeAll(async () => {
    scene = await startBroadcastTaskRig('bsched', CODES, 'Task terminal', '10.40.1');
    ({ gw, fleet, admin, editor, ids } = scene);
    zone = gw.config.defaultPlace.timeZone;
    tone = await scene.upload(2, 550, 'Chime');
  }, 90_000);
  afterAll(() => scene?.stop());

  it('refuses a bad task with the message at its field, recording and sending nothing; a visitor may not create one', async () => {
    const before = await scene.counts();
    const zh = await gw.signedIn('editor', 'zh-CN');
    const base = { taskName: 'Bad', mediaIds: [tone.id], ids, priority: 3, volume: 50, schedule };
    const refused = async (client: ApiClient, body: Record<string, unknown>) => {
      const answer = await client.post('/api/broadcast/taskAddOrEdit', { ...base, ...body });
      expect(answer.status).toBe(400);
      return (answer.body.data as { errors: { field: string; reason: string }[] }).errors;
    };
    const periods = (...p: [string, string][]) => ({ schedule: { ...schedule, periods: p.map(([start, end]) => ({ start, end })) } });
    expect(await refused(editor, periods(['10:00', '10:30'], ['09:00', '09:30']))).toEqual([
      { field: 'schedule.periods[1].start', message: expect.stringContaining('Start of period 2'), reason: 'Order Wrong' },
    ]);
    expect(await refused(zh, periods(['10:00', '10:30'], ['10:15', '11:00']))).toMatchObject([
      { field: 'schedule.periods[1].start', reason: '时间重复' },
    ]);
    expect(await refused(editor, periods(['10:30', '10:00']))).toMatchObject([{ field: 'schedule.periods[0].end', reason: 'Order Wrong' }]);
    expect(await refused(editor, { schedule: { ...schedule, endDate: '2030-01-01' } })).toMatchObject([
      { field: 'schedule.endDate', reason: 'Order Wrong' },
    ]);
    expect(await refused(editor, { schedule: undefined })).toMatchObject([{ field: 'schedule', reason: 'The time cannot be empty' }]);
    expect(await refused(zh, { volume: undefined })).toMatchObject([{ field: 'volume', reason: '音量不能为空' }]);
    expect(await refused(editor, { volume: 'loud' })).toMatchObject([{ field: 'volume' }]);
    expect(await refused(editor, { volume: 101 })).toMatchObject([{ field: 'volume' }]);
    expect(await refused(editor, { priority: 11 })).toMatchObject([{ field: 'priority' }]);
    const visitor = await gw.signedIn('visitor');
    expect((await visitor.post('/api/broadcast/taskAddOrEdit', base)).status).toBe(403);
    expect((await visitor.post('/api/broadcast/taskPage', { pageNum: 1, pageSize: 10 })).status).toBe(200);
    expect(await scene.counts()).toEqual(before);
  });

  it('sends a new task through the ledger; the terminals keep it and play it in its period by their clock', async () => {
    const answer = await editor.post<{ id: number; dispatchId: string }>('/api/broadcast/taskAddOrEdit', {
      taskName: 'Morning chime',
      mediaIds: [tone.id],
      playbackMode: PlaybackMode.ListCycle,
      ids: [ids[0], ids[1]],
      priority: 4,
      volume: 60,
      schedule: { ...schedule, weekdays: ['1', '1'] },
    });
    expect(answer.body).toMatchObject({ code: 200 });
    taskId = answer.body.data.id;
    await settled(answer.body.data.dispatchId);
    const wire = taskWireId(taskId);
    await waitFor(async () => ((await held()).slice(0, 2).every((tasks) => tasks.includes(wire)) ? true : undefined), 5000);
    expect(await row(taskId)).toMatchObject({
      taskName: 'Morning chime',
      taskMode: BroadcastTaskMode.Scheduled,
      schedule: { weekdays: ['1'], periods: schedule.periods, startDate: day, endDate: day },
      terminalCount: 2,
      dispatchStatus: DispatchStatus.AllSuccessful,
      timeStatus: TaskTimeStatus.NotStarted,
      playStatus: TaskPlayStatus.Idle,
      createdBy: 'editor',
    });
    expect(await terminals(taskId)).toMatchObject([
      { id: ids[0], timeZone: zone, timeStatus: TaskTimeStatus.NotStarted, delivery: DispatchItemState.Delivered },
      { id: ids[1], delivery: DispatchItemState.Delivered },
    ]);
    // The terminals' clock reaches the period: they play it, and the task shows it.
    await fleet.setClock(DateTime.fromISO(`${day}T10:05`, { zone }).toJSDate());
    await waitFor(() => (playingOn(CODES[0])?.taskId === wire && playingOn(CODES[1])?.taskId === wire ? true : undefined), 5000, 20);
    expect(playingOn(CODES[0])).toMatchObject({ title: 'Morning chime', media: 'Chime', priority: 4 });
    expect(fleet.terminal(CODES[2])?.occupancy).toBe(TerminalOccupancy.Idle);
    await waitFor(async () => ((await row(taskId))?.playingCount === 2 ? true : undefined), 5000);
    expect(await row(taskId)).toMatchObject({ playStatus: TaskPlayStatus.Playing });
    expect((await admin.get<BroadcastTaskDetail>(`/api/broadcast/taskDetail?id=${taskId}`)).body.data).toMatchObject({
      terminalIds: [ids[0], ids[1]],
      nextWindow: { start: DateTime.fromISO(`${day}T10:00`, { zone }).toUTC().toISO() },
    });
  }, 30_000);

  it('pauses, cancels the pause, stops and plays the one task through the ledger', async () => {
    const wire = taskWireId(taskId);
    const control = async (action: string, only?: number[]) => {
      const answer = await editor.post<{ dispatchId: string }>('/api/broadcast/taskControl', { id: taskId, action, ...(only ? { ids: only } : {}) });
      expect(answer.body).toMatchObject({ code: 200 });
      return settled(answer.body.data.dispatchId);
    };
    await control('pause');
    await waitFor(() => (playingOn(CODES[0])?.paused && playingOn(CODES[1])?.paused ? true : undefined), 3000, 20);
    await waitFor(async () => ((await row(taskId))?.playStatus === TaskPlayStatus.Paused ? true : undefined), 3000);
    await control('cancelPause', [ids[0]]);
    await waitFor(() => (playingOn(CODES[0])?.paused === false ? true : undefined), 3000, 20);
    expect(playingOn(CODES[1])?.paused).toBe(true);
    await control('stop');
    await waitFor(() => (CODES.slice(0, 2).every((c) => fleet.terminal(c)?.occupancy === TerminalOccupancy.Idle) ? true : undefined), 3000, 20);
    // Stopped until its next period; played on demand, it starts again at once.
    await control('play', [ids[1]]);
    await waitFor(() => (playingOn(CODES[1])?.taskId === wire ? true : undefined), 3000, 20);
    expect(fleet.terminal(CODES[0])?.occupancy).toBe(TerminalOccupancy.Idle);
    // A terminal outside the task is refused.
    const outside = await editor.post('/api/broadcast/taskControl', { id: taskId, action: 'pause', ids: [ids[2]] });
    expect(outside.body).toMatchObject({ data: { errors: [{ field: 'ids', reason: `These terminals are not terminals of the task: ${ids[2]}` }] } });
  }, 30_000);

  it('sends an edited task again; a terminal dropped from it forgets it; deleting it cancels it everywhere', async () => {
    const wire = taskWireId(taskId);
    const edited = await editor.post<{ id: number; dispatchId: string }>('/api/broadcast/taskAddOrEdit', {
      id: taskId,
      taskName: 'Morning chime (new)',
      mediaIds: [tone.id],
      playbackMode: PlaybackMode.Random,
      ids: [ids[1], ids[2]],
      priority: 2,
      volume: 40,
      schedule,
    });
    expect(edited.body).toMatchObject({ code: 200, data: { id: taskId } });
    await settled(edited.body.data.dispatchId);
    await waitFor(async () => {
      const [first, second, third] = await held();
      return !first.includes(wire) && second.includes(wire) && third.includes(wire) ? true : undefined;
    }, 5000);
    expect(await row(taskId)).toMatchObject({ taskName: 'Morning chime (new)', terminalCount: 2, priority: 2, volume: 40 });
    await waitFor(() => (playingOn(CODES[2])?.taskId === wire ? true : undefined), 5000, 20);
    expect(playingOn(CODES[2])).toMatchObject({ title: 'Morning chime (new)', priority: 2 });
    // An immediate broadcast is not edited.
    const immediate = await editor.post<{ id: number }>('/api/broadcast/immediateBroadcast', {
      taskName: 'Now',
      mediaIds: [tone.id],
      ids: [ids[0]],
      priority: 9,
      volume: 30,
    });
    const notEditable = await editor.post('/api/broadcast/taskAddOrEdit', {
      id: immediate.body.data.id,
      taskName: 'x',
      mediaIds: [tone.id],
      ids,
      priority: 1,
      volume: 1,
      schedule,
    });
    expect(notEditable.body).toMatchObject({ message: 'Only a scheduled task can be edited; an immediate broadcast is sent again as a new one' });

    const removed = await editor.get<{ dispatchId: string }>(`/api/broadcast/taskDel?id=${taskId}`);
    expect(removed.body).toMatchObject({ code: 200 });
    await settled(removed.body.data.dispatchId);
    await waitFor(async () => ((await held()).every((tasks) => !tasks.includes(wire)) ? true : undefined), 5000);
    await waitFor(() => (fleet.terminal(CODES[2])?.occupancy === TerminalOccupancy.Idle ? true : undefined), 3000, 20);
    expect((await admin.get(`/api/broadcast/taskDetail?id=${taskId}`)).status).toBe(404);
    expect(await row(taskId)).toBeUndefined();
    // Every change is in the operation log.
    const log = await gw.db.query<{ description: string }>(
      `SELECT DISTINCT description FROM operation_log WHERE operator = 'editor' AND status = 'success' AND description LIKE '%broadcast task'`,
    );
    expect(log.map((l) => l.description).sort()).toEqual(['Control broadcast task', 'Delete broadcast task', 'Save broadcast task']);
  }, 30_000);
});
