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
import { patchReceivers, planKeys } from './api';

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
    patchReceivers(client, {
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
});
