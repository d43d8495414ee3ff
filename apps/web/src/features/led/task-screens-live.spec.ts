// A task's screen rows moved live against a real query client: a ledger row that moves while the rows are being read
// is kept when that read's (older) answer lands.
import {
  DeviceFamily,
  DispatchItemState,
  LedReceiveStatus,
  TaskTimeStatus,
  type DispatchRowsChangedEvent,
  type LedTaskScreenRow,
  type LedTaskScreensPage,
} from '@sc/contracts';
import { watchedList, type WatchedList } from '@/realtime/watched-list.fixture';
import { ledTaskKeys, patchTaskScreenRows, patchTaskScreensPlaying } from './tasks-api';

const screen = (deviceId: number, over: Partial<LedTaskScreenRow> = {}): LedTaskScreenRow => ({
  deviceId,
  name: `Screen ${deviceId}`,
  sn: `LED-${deviceId}`,
  timeZone: 'Asia/Shanghai',
  networkStatus: 1,
  state: DispatchItemState.Sent,
  receipt: null,
  lastError: null,
  timeStatus: TaskTimeStatus.InProgress,
  playingTaskId: null,
  ...over,
});

const noCounts = () => Object.fromEntries(Object.values(LedReceiveStatus).map((s) => [s, 0])) as LedTaskScreensPage['receiveCounts'];
const pageOf = (rows: LedTaskScreenRow[]): LedTaskScreensPage => ({ total: 60, list: rows, dispatchId: 'd1', receiveCounts: noCounts() });

const at = '2026-11-27T10:00:01.000Z';
/** A DispatchRowsChanged event: one screen's row of a publication moved. */
const rowMoved = (dispatchId: string, deviceId: number, state: DispatchItemState, lastError: string | null = null): DispatchRowsChangedEvent => ({
  dispatchId,
  family: DeviceFamily.Led,
  rows: [{ deviceId, state, receipt: null, lastError, updatedAt: at }],
  at,
});

let list: WatchedList<LedTaskScreensPage>;
beforeEach(async () => {
  list = await watchedList<LedTaskScreensPage>(ledTaskKeys.screens(7, 1));
});
afterEach(() => list.stop());

describe("an LED task's screen rows moved live", () => {
  it('keeps a row that moved while the rows were being read, and ignores other publications', async () => {
    patchTaskScreenRows(list.client, 7, rowMoved('d1', 2, DispatchItemState.Delivered));
    patchTaskScreenRows(list.client, 7, rowMoved('d0', 1, DispatchItemState.Failed, 'old'));
    await list.answer(0, pageOf([screen(1), screen(2)]));
    expect(list.observer.getCurrentResult().data?.list.map((r) => [r.deviceId, r.state])).toEqual([
      [1, DispatchItemState.Sent],
      [2, DispatchItemState.Delivered],
    ]);
  });

  it('moves the rows of every page held, and tells when a screen starts or stops playing the task', async () => {
    await list.answer(0, pageOf([screen(1), screen(2)]));
    list.client.setQueryData(ledTaskKeys.screens(7, 2), pageOf([screen(51)]));
    patchTaskScreenRows(list.client, 7, rowMoved('d1', 51, DispatchItemState.Delivered));
    expect(list.client.getQueryData<LedTaskScreensPage>(ledTaskKeys.screens(7, 2))?.list[0].state).toBe(DispatchItemState.Delivered);
    const playing = (recordId: number, taskId: number | null) => ({
      family: DeviceFamily.Led,
      changes: [{ recordId, changed: { playing: taskId === null ? null : { source: 'task', mediaId: 3, name: 'v', taskId, since: at } } }],
    });
    expect(patchTaskScreensPlaying(list.client, 7, playing(51, 7) as never)).toBe(true);
    expect(list.client.getQueryData<LedTaskScreensPage>(ledTaskKeys.screens(7, 2))?.list[0].playingTaskId).toBe(7);
    expect(patchTaskScreensPlaying(list.client, 7, playing(51, null) as never)).toBe(true);
    expect(patchTaskScreensPlaying(list.client, 7, playing(99, 8) as never)).toBe(false);
    expect(list.observer.getCurrentResult().data?.list.map((r) => r.playingTaskId)).toEqual([null, null]);
  });

  it('tells when a screen no page shows changes while the totals count screens playing the task that no page shows', async () => {
    // 40 of the task's screens play it; the page shows 2 of them.
    await list.answer(0, {
      ...pageOf([screen(1, { playingTaskId: 7 }), screen(2, { playingTaskId: 7 })]),
      receiveCounts: { ...noCounts(), [LedReceiveStatus.Playing]: 40 },
    });
    const stopped = (recordId: number, taskId: number | null) =>
      ({
        family: DeviceFamily.Led,
        changes: [{ recordId, changed: { playing: taskId === null ? null : { source: 'task', mediaId: 3, name: 'v', taskId, since: at } } }],
      }) as never;
    // Screen 99 is not shown: it may have been one of the 38 others playing it.
    expect(patchTaskScreensPlaying(list.client, 7, stopped(99, null))).toBe(true);
    expect(patchTaskScreensPlaying(list.client, 7, stopped(99, 8))).toBe(true);
    // Read again: only the shown two play it; an unseen screen's change cannot move the totals.
    list.client.setQueryData(ledTaskKeys.screens(7, 1), {
      ...pageOf([screen(1, { playingTaskId: 7 }), screen(2, { playingTaskId: 7 })]),
      receiveCounts: { ...noCounts(), [LedReceiveStatus.Playing]: 2 },
    });
    expect(patchTaskScreensPlaying(list.client, 7, stopped(99, null))).toBe(false);
    expect(patchTaskScreensPlaying(list.client, 7, stopped(2, null))).toBe(true);
  });
});
