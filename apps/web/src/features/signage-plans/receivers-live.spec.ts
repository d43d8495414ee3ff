import { QueryClient } from '@tanstack/react-query';
import {
  AdReceiveStatus,
  DeviceFamily,
  DispatchItemState,
  OnlineState,
  emptyReceiveCounts,
  type AdPlanReceiver,
  type AdPlanReceiversPage,
} from '@sc/contracts';
import { patchReceiverNetwork, patchReceivers, planKeys } from './api';

const receiver = (deviceId: number, over: Partial<AdPlanReceiver> = {}): AdPlanReceiver => ({
  deviceId,
  deviceName: `Screen ${deviceId}`,
  deviceCode: `FS-${deviceId}`,
  networkStatus: OnlineState.Offline,
  receiveStatus: AdReceiveStatus.PublishedNotReceived,
  state: DispatchItemState.Sent,
  receipt: null,
  lastError: null,
  updatedAt: '2026-11-27T10:00:00.000Z',
  expiresAt: '2026-11-27T10:01:00.000Z',
  ...over,
});
const page = (dispatchId: string | null, list: AdPlanReceiver[]): AdPlanReceiversPage => ({
  total: list.length,
  list,
  dispatchId,
  receiveCounts: emptyReceiveCounts(),
});

describe('ad plan receive status moved live', () => {
  it("moves the rows of the plan's dispatch through the receive statuses, and leaves other plans' pages alone", () => {
    const client = new QueryClient();
    client.setQueryData(planKeys.receivers(1, 1), page('d1', [receiver(1), receiver(2)]));
    const other = page('d2', [receiver(1)]);
    client.setQueryData(planKeys.receivers(2, 1), other);
    const at = '2026-11-27T10:00:05.000Z';
    patchReceivers(client, 1, {
      dispatchId: 'd1',
      family: DeviceFamily.Signage,
      at,
      rows: [
        {
          deviceId: 1,
          state: DispatchItemState.Sent,
          receipt: { stage: 'downloading', received: 50, total: 200, at },
          lastError: null,
          updatedAt: at,
        },
        { deviceId: 2, state: DispatchItemState.Expired, receipt: null, lastError: 'expired', updatedAt: at },
      ],
    });
    const moved = client.getQueryData<AdPlanReceiversPage>(planKeys.receivers(1, 1))!;
    expect(moved.list.map((r) => [r.receiveStatus, r.expiresAt])).toEqual([
      [AdReceiveStatus.Downloading, '2026-11-27T10:01:00.000Z'],
      [AdReceiveStatus.Unknown, null],
    ]);
    expect(client.getQueryData(planKeys.receivers(2, 1))).toBe(other);
  });

  it('keeps the download progress of a new publication that arrives while its page is being read', async () => {
    const client = new QueryClient();
    // The page shows the plan's earlier publication; the console reads it again after publishing anew.
    client.setQueryData(planKeys.receivers(1, 1), page('old', [receiver(1)]));
    let answer: (page: AdPlanReceiversPage) => void = () => undefined;
    const reading = client.fetchQuery({
      queryKey: planKeys.receivers(1, 1),
      queryFn: () => new Promise<AdPlanReceiversPage>((resolve) => (answer = resolve)),
    });
    const at = '2026-11-27T10:00:05.000Z';
    patchReceivers(client, 1, {
      dispatchId: 'new',
      family: DeviceFamily.Signage,
      at,
      rows: [
        { deviceId: 1, state: DispatchItemState.Sent, receipt: { stage: 'downloading', received: 5, total: 10, at }, lastError: null, updatedAt: at },
      ],
    });
    // The answer was made before the screen's receipt.
    answer(page('new', [receiver(1)]));
    await reading;
    const shown = client.getQueryData<AdPlanReceiversPage>(planKeys.receivers(1, 1))!;
    expect(shown.list.map((r) => [r.receiveStatus, r.receipt?.received])).toEqual([[AdReceiveStatus.Downloading, 5]]);
  });

  it("moves a screen's online/offline on every page of the plan that shows it, and leaves other pages alone", () => {
    const client = new QueryClient();
    client.setQueryData(planKeys.receivers(1, 1), page('d1', [receiver(1), receiver(2)]));
    const second = page('d1', [receiver(51)]);
    client.setQueryData(planKeys.receivers(1, 2), second);
    client.setQueryData(planKeys.receivers(2, 1), page(null, [receiver(2)]));
    patchReceiverNetwork(client, 1, {
      family: DeviceFamily.Signage,
      at: '2026-11-27T10:00:05.000Z',
      changes: [
        { recordId: 2, deviceCode: 'FS-2', changed: { networkStatus: OnlineState.Online } },
        { recordId: 1, deviceCode: 'FS-1', changed: { volume: 30 } },
      ],
    });
    const moved = client.getQueryData<AdPlanReceiversPage>(planKeys.receivers(1, 1))!;
    expect(moved.list.map((r) => [r.deviceId, r.networkStatus, r.receiveStatus])).toEqual([
      [1, OnlineState.Offline, AdReceiveStatus.PublishedNotReceived],
      [2, OnlineState.Online, AdReceiveStatus.PublishedNotReceived],
    ]);
    expect(client.getQueryData(planKeys.receivers(1, 2))).toBe(second);
    // Another plan's view is its own: it follows its screens through its own feed.
    expect(client.getQueryData<AdPlanReceiversPage>(planKeys.receivers(2, 1))!.list[0].networkStatus).toBe(OnlineState.Offline);
  });
});
