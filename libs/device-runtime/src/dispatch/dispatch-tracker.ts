import type { Logger } from 'pino';
import type { Pool } from 'pg';
import { EventsByFamily, type FamilyWrites } from '../family/family-writes';
import type { Counters } from '../infra/counters';
import { inTransaction } from '../infra/database';
import { commandLedger } from '../ledger/command-ledger';
import type { CommandSender } from './command-sender';
import type { DispatchProgress } from './dispatch-progress';

export interface TrackerTiming {
  intervalMs: number;
  /** Queued rows older than this are sent here: their job was lost, failed, or its worker died. */
  orphanAfterMs: number;
  /** A receipt this recent keeps a row past its dispatch's expiry open: its device is still downloading. */
  receiptHoldMs?: number;
  /** For at most this long past the dispatch's expiry. */
  downloadGraceMs?: number;
}

/**
 * How much later than its ack time-out a command's ack may still come, milliseconds: how far behind the devices this
 * worker's intake is, or how long acks take right now, whichever is more; null while the broker holds more of the
 * devices' messages than the worker has taken in (its window is full), so nothing can be said of the acks among them.
 */
export type IntakeLag = () => number | null;

/** Sweeps that need not run on every tick. */
const SLOW_SWEEP_EVERY_MS = 2000;

/**
 * The ack and expiry loop. Every statement takes its rows with `FOR UPDATE SKIP LOCKED` and re-checks their state,
 * so several replicas can run it at once without handling a row twice.
 */
export class DispatchTracker {
  private timer: NodeJS.Timeout | null = null;
  private tick: Promise<void> = Promise.resolve();
  private lastSlowSweep = 0;
  private stopped = false;

  constructor(
    private readonly pool: Pool,
    private readonly sender: CommandSender,
    private readonly writes: FamilyWrites,
    private readonly progress: DispatchProgress,
    private readonly counters: Counters,
    private readonly logger: Logger,
    private readonly timing: TrackerTiming,
    private readonly intakeLag: IntakeLag = () => 0,
  ) {}

  start(): void {
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.tick;
  }

  /**
   * One pass: expire, re-send, and now and then pick up orphans and unfinished dispatches. A command is re-sent when
   * its ack has not come: not while its ack may be among those the worker has not stored yet, so a slow moment of
   * the platform itself never doubles the commands.
   */
  async runOnce(): Promise<void> {
    await this.expireOverdue();
    const lag = this.intakeLag();
    if (lag !== null) await this.sender.resendOverdue(5000, lag);
    if (Date.now() - this.lastSlowSweep >= SLOW_SWEEP_EVERY_MS) {
      this.lastSlowSweep = Date.now();
      await this.sender.sendQueued({ queuedForMs: this.timing.orphanAfterMs });
      this.progress.touch(await commandLedger.finishable(this.pool, 1000));
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.tick = this.runOnce()
        .catch((err: Error) => this.logger.warn({ err: err.message }, 'dispatch tracker pass failed'))
        .finally(() => this.schedule());
    }, this.timing.intervalMs);
  }

  /** Rows still open at their dispatch's expiry become expired, and their devices hear that their command went unanswered. */
  async expireOverdue(limit = 5000): Promise<number> {
    const result = await inTransaction(this.pool, async (client) => {
      const rows = await commandLedger.expireDue(client, limit, this.sender.families, {
        receiptHoldMs: this.timing.receiptHoldMs ?? 0,
        graceMs: this.timing.downloadGraceMs ?? 0,
      });
      const events = new EventsByFamily();
      events.addAnswers(rows);
      return { rows, publish: await this.writes.apply(client, events) };
    });
    if (result.rows.length === 0) return 0;
    result.publish();
    this.progress.touchRows(result.rows);
    this.counters.add('expired', result.rows.length);
    return result.rows.length;
  }
}
