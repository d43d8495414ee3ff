// Receipts: how far each device has got with a command that names files to fetch (a command declared with
// `receipts`), stored beside its ledger row and pushed to the console row by row.
import type { ReceiptStage } from './families/declaration';
import type { FamilyName } from './families';
import type { DispatchItemState } from './lighting';

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
