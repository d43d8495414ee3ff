import type { Logger } from 'pino';
import type { Pool } from 'pg';
import { dispatchStatusOf, type DispatchCounts } from '@sc/contracts';
import type { RedisBus } from '@sc/messaging';
import { commandLedger, total } from '../ledger/command-ledger';

const EMPTY: DispatchCounts = { queued: 0, sent: 0, delivered: 0, failed: 0, expired: 0 };

/**
 * DispatchProgress, coalesced: rows that move only mark their dispatch; every interval the marked dispatches' tallies
 * are read with one query and published once each. A dispatch whose rows are all terminal is finished here
 * (finished_at and its batch status), exactly once across replicas.
 */
export class DispatchProgress {
  private dirty = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: Pool,
    private readonly bus: RedisBus,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
  }

  touch(dispatchIds: Iterable<string>): void {
    for (const id of dispatchIds) this.dirty.add(id);
  }

  /** Publishes what is marked; flushes never overlap, so a slow one delays the next instead of doubling the load. */
  flush(): Promise<void> {
    this.running = this.running
      .then(() => this.publishDirty())
      .catch((err: Error) => this.logger.warn({ err: err.message }, 'dispatch progress failed'));
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  private async publishDirty(): Promise<void> {
    if (this.dirty.size === 0) return;
    const ids = [...this.dirty];
    this.dirty = new Set();
    try {
      await this.publish(ids);
    } catch (err) {
      // Keep them marked: the next interval tries again.
      this.touch(ids);
      throw err;
    }
  }

  private async publish(ids: string[]): Promise<void> {
    const [counts, dispatches] = await Promise.all([commandLedger.counts(this.pool, ids), commandLedger.dispatches(this.pool, ids)]);
    const at = new Date().toISOString();
    for (const dispatch of dispatches) {
      const c = counts.get(dispatch.id) ?? EMPTY;
      const status = dispatchStatusOf(c);
      const all = total(c);
      if (!dispatch.finished && all > 0 && c.queued + c.sent === 0) await commandLedger.finish(this.pool, dispatch.id, status);
      await this.bus.publish('DispatchProgress', { dispatchId: dispatch.id, family: dispatch.family, status, counts: c, total: all, at });
    }
  }
}
