// A task's screen rows moved live against a real query client: a ledger row that moves while the rows are being read
// is kept when that read's (older) answer lands.
import { DeviceFamily, DispatchItemState, TaskTimeStatus, type LedTaskScreenRow } from '@sc/contracts';
import { watchedList, type WatchedList } from '@/realtime/watched-list.fixture';
import { ledTaskKeys, patchTaskScreenRows } from './tasks-api';

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

let list: WatchedList<LedTaskScreenRow[]>;
beforeEach(async () => {
  list = await watchedList<LedTaskScreenRow[]>(ledTaskKeys.screens(7));
});
afterEach(() => list.stop());

describe("an LED task's screen rows moved live", () => {
  it('keeps a row that moved while the rows were being read, and ignores other publications', async () => {
    const at = '2026-11-27T10:00:01.000Z';
    patchTaskScreenRows(list.client, 7, 'd1', {
      dispatchId: 'd1',
      family: DeviceFamily.Led,
      rows: [{ deviceId: 2, state: DispatchItemState.Delivered, receipt: null, lastError: null, updatedAt: at }],
      at,
    });
    patchTaskScreenRows(list.client, 7, 'd1', {
      dispatchId: 'd0',
      family: DeviceFamily.Led,
      rows: [{ deviceId: 1, state: DispatchItemState.Failed, receipt: null, lastError: 'old', updatedAt: at }],
      at,
    });
    await list.answer(0, [screen(1), screen(2)]);
    expect(list.observer.getCurrentResult().data?.map((r) => [r.deviceId, r.state])).toEqual([
      [1, DispatchItemState.Sent],
      [2, DispatchItemState.Delivered],
    ]);
  });
});
