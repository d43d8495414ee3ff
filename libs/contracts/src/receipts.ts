// Receipts: how far each device has got with a command that names files to fetch (a command declared with
// `receipts`), stored beside its ledger row and pushed to the console row by row.
import type { ReceiptStage } from './families/declaration';
import type { FamilyName } from './families';
import { DispatchItemState } from './lighting';

/** The last receipt of a ledger row: its stage, bytes in so far of the total (when the device said), and when. */
export interface DispatchReceipt {
  stage: ReceiptStage;
  received: number | null;
  total: number | null;
  at: string;
}

/** One ledger row as it is now. */
export interface DispatchRowChange {
  deviceId: number;
  state: DispatchItemState;
  receipt: DispatchReceipt | null;
  lastError: string | null;
  updatedAt: string;
}

/**
 * Rows of one dispatch of a command declared with receipts moved (a receipt, an ack, a refusal, an expiry): their
 * latest state, gathered over one progress interval. DispatchProgress still carries the dispatch's counts.
 */
export interface DispatchRowsChangedEvent {
  dispatchId: string;
  family: FamilyName;
  rows: DispatchRowChange[];
  at: string;
}

/** Percent of the bytes in (0 to 100, floored: 100 only when all are in), or null when the device gave no sizes. */
export function receiptPercent(receipt: Pick<DispatchReceipt, 'received' | 'total'> | null): number | null {
  if (!receipt || receipt.received === null || receipt.total === null || receipt.total <= 0) return null;
  return Math.min(100, Math.floor((receipt.received / receipt.total) * 100));
}

/** The receive status a family shows for each step of a ledger row and its receipts (receiveStatusOf). */
export interface ReceiveStatuses<S> {
  /** No row: the device was not sent this (yet). */
  none: S;
  /** Queued or sent, nothing heard back. */
  waiting: S;
  /** Queued or sent, the device said it got the command. */
  received: S;
  /** Queued or sent, the device is fetching the files. */
  downloading: S;
  /** Acked: the device holds it. */
  delivered: S;
  /** Failed or expired. */
  failed: S;
}

/** A device's receive status from its ledger row and last receipt, in a family's statuses (ads, LED tasks). */
export function receiveStatusOf<S>(
  row: { state: DispatchItemState; receipt: Pick<DispatchReceipt, 'stage'> | null } | null,
  statuses: ReceiveStatuses<S>,
): S {
  if (!row) return statuses.none;
  switch (row.state) {
    case DispatchItemState.Delivered:
      return statuses.delivered;
    case DispatchItemState.Failed:
    case DispatchItemState.Expired:
      return statuses.failed;
    default:
      if (row.receipt?.stage === 'downloading') return statuses.downloading;
      if (row.receipt?.stage === 'received') return statuses.received;
      return statuses.waiting;
  }
}
