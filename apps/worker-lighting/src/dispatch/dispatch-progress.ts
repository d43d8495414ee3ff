import type { Logger } from 'pino';
import type { Pool } from 'pg';
import { DispatchItemState, dispatchStatusOf, type DeviceFamily, type DispatchCounts } from '@sc/contracts';
import type { RedisBus } from '@sc/messaging';

function emptyCounts(): DispatchCounts {
  return { queued: 0, sent: 0, delivered: 0, failed: 0, expired: 0 };
}

/**
 * DispatchProgress, coalesced: rows that move only mark their dispatch; every interval the marked dispatches are
 * counted with one query and published once each. A dispatch whose rows are all terminal is finished here
 * (finished_at and its batch status), exactly once across replicas thanks to `WHERE finished_at IS NULL`.
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
    const [{ rows: counted }, { rows: dispatches }] = await Promise.all([
      this.pool.query<{ dispatch_id: string; state: DispatchItemState; n: number }>(
        `SELECT dispatch_id, state, count(*)::int AS n FROM dispatch_item WHERE dispatch_id = ANY($1::uuid[]) GROUP BY 1, 2`,
        [ids],
      ),
      this.pool.query<{ id: string; family: DeviceFamily; finished: boolean }>(
        `SELECT id, family, finished_at IS NOT NULL AS finished FROM dispatch WHERE id = ANY($1::uuid[])`,
        [ids],
      ),
    ]);
    const counts = new Map<string, DispatchCounts>(ids.map((id) => [id, emptyCounts()]));
    for (const row of counted) {
      const c = counts.get(row.dispatch_id);
      if (c && row.state in c) c[row.state] = row.n;
    }
    const at = new Date().toISOString();
    for (const dispatch of dispatches) {
      const c = counts.get(dispatch.id)!;
      const status = dispatchStatusOf(c);
      const total = Object.values(c).reduce((a, b) => a + b, 0);
      if (!dispatch.finished && total > 0 && c.queued + c.sent === 0) {
        await this.pool.query(`UPDATE dispatch SET finished_at = now(), status = $2 WHERE id = $1 AND finished_at IS NULL`, [dispatch.id, status]);
      }
      await this.bus.publish('DispatchProgress', { dispatchId: dispatch.id, family: dispatch.family, status, counts: c, total, at });
    }
  }
}
