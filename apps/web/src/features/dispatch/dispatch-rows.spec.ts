import { QueryClient } from '@tanstack/react-query';
import { DeviceFamily, DispatchItemState, DispatchStatus, receiptPercent, type DispatchDetail, type DispatchItemRow } from '@sc/contracts';
import { dispatchKeys, patchDispatchRows } from './api';

const row = (deviceId: number, over: Partial<DispatchItemRow> = {}): DispatchItemRow => ({
  deviceId,
  deviceCode: `FS-${deviceId}`,
  deviceName: `Screen ${deviceId}`,
  state: DispatchItemState.Sent,
  attempts: 1,
  lastError: null,
  updatedAt: '2026-11-27T10:00:00.000Z',
  receipt: null,
  ...over,
});

const detail = (items: DispatchItemRow[]): DispatchDetail => ({
  id: 'd1',
  family: DeviceFamily.Broadcast,
  action: 'task',
  params: {},
  status: DispatchStatus.ToBeSent,
  counts: { queued: 0, sent: items.length, delivered: 0, failed: 0, expired: 0 },
  total: items.length,
  createdBy: 'admin',
  createdAt: '2026-11-27T10:00:00.000Z',
  expiresAt: '2026-11-27T11:00:00.000Z',
  items,
  itemsTotal: items.length,
});

describe('dispatch rows moved live', () => {
  it('moves the rows of every open page of the dispatch that hold them, and leaves the rest alone', () => {
    const client = new QueryClient();
    const first = dispatchKeys.page('d1', { pageNum: 1 });
    const sentOnly = dispatchKeys.page('d1', { pageNum: 1, state: DispatchItemState.Sent });
    const other = dispatchKeys.page('d2', { pageNum: 1 });
    client.setQueryData(first, detail([row(1), row(2)]));
    client.setQueryData(sentOnly, detail([row(2)]));
    const untouched = detail([row(1)]);
    client.setQueryData(other, untouched);

    const receipt = { stage: 'downloading' as const, received: 25, total: 100, at: '2026-11-27T10:00:01.000Z' };
    patchDispatchRows(client, {
      dispatchId: 'd1',
      family: DeviceFamily.Broadcast,
      rows: [{ deviceId: 2, state: DispatchItemState.Sent, receipt, lastError: null, updatedAt: receipt.at }],
      at: receipt.at,
    });
    expect(client.getQueryData<DispatchDetail>(first)!.items.map((r) => [r.deviceId, r.receipt?.stage ?? null])).toEqual([
      [1, null],
      [2, 'downloading'],
    ]);
    expect(client.getQueryData<DispatchDetail>(sentOnly)!.items[0].receipt).toEqual(receipt);
    expect(client.getQueryData(other)).toBe(untouched);

    patchDispatchRows(client, {
      dispatchId: 'd1',
      family: DeviceFamily.Broadcast,
      rows: [{ deviceId: 1, state: DispatchItemState.Failed, receipt: null, lastError: 'disk full', updatedAt: receipt.at }],
      at: receipt.at,
    });
    expect(client.getQueryData<DispatchDetail>(first)!.items[0]).toMatchObject({ state: DispatchItemState.Failed, lastError: 'disk full' });
  });

  it('reads a receipt as a percentage only when the device gave sizes', () => {
    expect(receiptPercent({ received: 25, total: 100 })).toBe(25);
    expect(receiptPercent({ received: 999, total: 1000 })).toBe(99);
    expect(receiptPercent({ received: 1000, total: 1000 })).toBe(100);
    expect(receiptPercent({ received: null, total: 1000 })).toBeNull();
    expect(receiptPercent({ received: 5, total: 0 })).toBeNull();
    expect(receiptPercent(null)).toBeNull();
  });
});
