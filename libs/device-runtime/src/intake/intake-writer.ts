import type { Logger } from 'pino';
import type { Pool } from 'pg';
import type { AckMessage, FamilyName, ReceiptMessage } from '@sc/contracts';
import type { AcknowledgeMessage } from '@sc/messaging';
import type { DispatchProgress } from '../dispatch/dispatch-progress';
import type { DeviceEvent } from '../family/family-handler';
import { EventsByFamily, type FamilyWrites } from '../family/family-writes';
import type { Counters } from '../infra/counters';
import { inTransaction, isTransientDatabaseError } from '../infra/database';
import { commandLedger } from '../ledger/command-ledger';

type Item = { family: FamilyName; recordId: number; acknowledge: AcknowledgeMessage | null; arrivedAt: number } & (
  { kind: 'event'; event: DeviceEvent } | { kind: 'ack'; ack: AckMessage } | { kind: 'receipt'; receipt: ReceiptMessage }
);

export interface WriterSettings {
  /** At most this many messages per transaction. */
  batchSize: number;
  /** A batch is written at most this long after its first message arrived (when it has not filled up before). */
  flushMs: number;
  /** A receipt keeps its command from being re-sent this long (the device holds it and is fetching its files). */
  receiptHoldMs?: number;
}

const RETRY_MIN_MS = 200;
const DEFAULT_RECEIPT_HOLD_MS = 30_000;
/** Ack times kept for ackTimeMs. */
const ACK_TIMES_KEPT = 2000;
const RETRY_MAX_MS = 5000;

/**
 * Accepted device messages, written in batches: one transaction per batch records the acks in the ledger, applies
 * every device's events to its family's rows and lets the observers record what follows. Batches are written one
 * after another, so a device's messages are applied in arrival order.
 *
 * A message is acknowledged to the broker only after the transaction holding it committed: what the broker counts
 * as delivered is stored, and a worker killed at any moment loses nothing the broker had let go of. While the
 * database is unreachable a batch is tried again (and the broker holds back the rest once the connections' receive
 * windows are full, so memory stays bounded). A batch the database refuses for what it holds is split until the
 * message at fault is found; that one is logged, counted and acknowledged, so it cannot block those behind it.
 */
export class IntakeWriter {
  private pending: Item[] = [];
  /** When the oldest message of the batch being written arrived. */
  private writingSince: number | null = null;
  /** How long recent acks took from their command's last send to being stored, milliseconds (a ring). */
  private readonly ackTimes = new Float64Array(ACK_TIMES_KEPT);
  private ackTimesSeen = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private stopped = false;
  /** Messages taken in, and messages done with (stored, or dropped after a refusal), in arrival order. */
  private taken = 0;
  private done = 0;
  private readonly watchers: { upTo: number; resolve: () => void }[] = [];

  constructor(
    private readonly pool: Pool,
    private readonly writes: FamilyWrites,
    private readonly progress: DispatchProgress,
    private readonly counters: Counters,
    private readonly logger: Logger,
    private readonly settings: WriterSettings,
  ) {}

  /** Accepted messages not yet stored. */
  get backlog(): number {
    return this.pending.length;
  }

  /**
   * How long the oldest message taken in and not yet stored has waited, milliseconds (0 when none waits): how far
   * behind the devices the stored state is. An ack that arrived is not overdue while it waits here.
   */
  get lagMs(): number {
    const oldest = this.writingSince ?? this.pending[0]?.arrivedAt;
    return oldest === undefined ? 0 : Math.max(0, Date.now() - oldest);
  }

  /**
   * How long acks take right now, from their command's last send to being stored (the 95th percentile of the last
   * ACK_TIMES_KEPT; 0 before any): when the platform is busy it grows, and a command is not overdue before it.
   */
  get ackTimeMs(): number {
    const n = Math.min(this.ackTimesSeen, ACK_TIMES_KEPT);
    if (n === 0) return 0;
    const sorted = this.ackTimes.slice(0, n).sort();
    return sorted[Math.min(n - 1, Math.floor(n * 0.95))];
  }

  addEvent(family: FamilyName, recordId: number, event: DeviceEvent, acknowledge: AcknowledgeMessage | null): void {
    this.take({ kind: 'event', family, recordId, event, acknowledge, arrivedAt: Date.now() });
  }

  addAck(family: FamilyName, recordId: number, ack: AckMessage, acknowledge: AcknowledgeMessage | null): void {
    this.take({ kind: 'ack', family, recordId, ack, acknowledge, arrivedAt: Date.now() });
  }

  addReceipt(family: FamilyName, recordId: number, receipt: ReceiptMessage, acknowledge: AcknowledgeMessage | null): void {
    this.take({ kind: 'receipt', family, recordId, receipt, acknowledge, arrivedAt: Date.now() });
  }

  /** Resolves once every message taken in so far is stored, whatever keeps arriving after it. */
  whenWritten(): Promise<void> {
    if (this.done >= this.taken || this.stopped) return Promise.resolve();
    const upTo = this.taken;
    this.kick();
    return new Promise((resolve) => this.watchers.push({ upTo, resolve }));
  }

  /** Stops retrying a database that is gone; what is not stored stays unacknowledged, for the broker to deliver again. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const watcher of this.watchers.splice(0)) watcher.resolve();
  }

  private take(item: Item): void {
    this.taken++;
    this.pending.push(item);
    this.added();
  }

  private finished(count: number): void {
    this.done += count;
    while (this.watchers.length > 0 && this.watchers[0].upTo <= this.done) this.watchers.shift()!.resolve();
  }

  private added(): void {
    if (this.writing) return;
    if (this.pending.length >= this.settings.batchSize) this.kick();
    else this.timer ??= setTimeout(() => this.kick(), this.settings.flushMs);
  }

  /** Starts the write loop unless it runs; it takes batch after batch until nothing is pending. */
  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.writing || this.pending.length === 0) return;
    this.writing = this.drain().finally(() => {
      this.writing = null;
      if (this.pending.length > 0 && !this.stopped) this.added();
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0 && !this.stopped) {
      const batch = this.pending.splice(0, this.settings.batchSize);
      this.writingSince = batch[0].arrivedAt;
      try {
        await this.writeWhole(batch);
      } finally {
        this.writingSince = null;
      }
    }
  }

  /** Writes a batch, waiting out an unreachable database; splits a batch the database refuses. */
  private async writeWhole(batch: Item[]): Promise<void> {
    for (let delay = RETRY_MIN_MS; ; delay = Math.min(delay * 2, RETRY_MAX_MS)) {
      try {
        await this.write(batch);
        return;
      } catch (err) {
        if (!isTransientDatabaseError(err)) return this.split(batch, err);
        if (this.stopped) return;
        this.counters.add('writeRetries');
        this.logger.warn({ err: (err as Error).message, messages: batch.length, retryInMs: delay }, 'device messages not stored yet; trying again');
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private async split(batch: Item[], err: unknown): Promise<void> {
    if (batch.length === 1) {
      const [item] = batch;
      this.counters.add('writeErrors');
      this.logger.error(
        { err: (err as Error).message, family: item.family, device: item.recordId, kind: item.kind },
        'device message refused by the database: dropped',
      );
      item.acknowledge?.();
      this.finished(1);
      return;
    }
    const half = Math.ceil(batch.length / 2);
    await this.writeWhole(batch.slice(0, half));
    await this.writeWhole(batch.slice(half));
  }

  private async write(batch: readonly Item[]): Promise<void> {
    const acks = batch.flatMap((item) =>
      item.kind === 'ack' ? [{ deviceId: item.recordId, commandId: item.ack.id, ok: item.ack.ok, error: item.ack.error }] : [],
    );
    const receipts = batch.flatMap((item) =>
      item.kind === 'receipt'
        ? [
            {
              deviceId: item.recordId,
              commandId: item.receipt.id,
              stage: item.receipt.receipt.stage,
              received: item.receipt.receipt.received ?? null,
              total: item.receipt.receipt.total ?? null,
            },
          ]
        : [],
    );
    const { answered, receipted, publish } = await inTransaction(this.pool, async (client) => {
      const receipted = await commandLedger.recordReceipts(client, receipts, this.settings.receiptHoldMs ?? DEFAULT_RECEIPT_HOLD_MS);
      const answered = await commandLedger.recordAcks(client, acks);
      const events = new EventsByFamily();
      for (const item of batch) if (item.kind === 'event') events.add(item.family, item.recordId, item.event);
      // Ack outcomes follow the devices' own reports of the batch: a delivered command stays visible.
      events.addAnswers(answered);
      return { answered, receipted, publish: await this.writes.apply(client, events) };
    });
    this.counters.add('written', batch.length);
    this.counters.add('receipts', receipted.length);
    this.counters.add('acks', answered.length);
    this.counters.add('acksIgnored', acks.length - answered.length);
    // The batch is stored: a failure to announce it must not write it again (as a retry would) nor keep its messages
    // from being acknowledged.
    try {
      publish();
    } catch (err) {
      this.logger.error({ err: (err as Error).message, messages: batch.length }, 'stored device messages not announced');
    }
    if (answered.length > 0 || receipted.length > 0) this.progress.touchRows([...answered, ...receipted]);
    for (const row of answered) if (row.ack_ms !== undefined && row.ack_ms !== null) this.ackTimes[this.ackTimesSeen++ % ACK_TIMES_KEPT] = row.ack_ms;
    for (const item of batch) item.acknowledge?.();
    this.finished(batch.length);
  }
}
