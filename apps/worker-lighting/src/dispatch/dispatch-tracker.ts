import type { Logger } from 'pino';
import type { Pool } from 'pg';
import type { Counters } from '../infra/counters';
import { inTransaction } from '../infra/database';
import { answerEvent } from '../lamps/lamp-commands';
import type { LampEvent } from '../lamps/lamp-state';
import type { LampChangeNotifier, LampStore } from '../lamps/lamp-store';
import type { CommandSender } from './command-sender';
import type { FamilyStore } from '../intake/family-store';
import type { DispatchProgress } from './dispatch-progress';

export interface TrackerTiming {
  intervalMs: number;
  /** Queued rows older than this are sent here: their job was lost, failed, or its worker died. */
  orphanAfterMs: number;
}

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
    private readonly lamps: LampStore,
    private readonly notifier: LampChangeNotifier,
    private readonly progress: DispatchProgress,
    private readonly counters: Counters,
    private readonly logger: Logger,
    private readonly timing: TrackerTiming,
    /** The families served beside single lamps (strip lights): their expired rows fail their devices too. */
    private readonly families: readonly FamilyStore[] = [],
  ) {}

  start(): void {
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.tick;
  }

  /** One pass: expire, re-send, and now and then pick up orphans and unfinished dispatches. */
  async runOnce(): Promise<void> {
    await this.expireOverdue();
    await this.sender.resendOverdue();
    if (Date.now() - this.lastSlowSweep >= SLOW_SWEEP_EVERY_MS) {
      this.lastSlowSweep = Date.now();
      await this.sender.sendQueued({ queuedForMs: this.timing.orphanAfterMs });
      await this.touchFinishable();
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

  /** Rows still open at their dispatch's expiry become expired, and their lamps distribution-failed. */
  async expireOverdue(limit = 5000): Promise<number> {
    const result = await inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ dispatch_id: string; device_id: number; family: string; action: string }>(
        `WITH due AS (
           SELECT i.dispatch_id, i.device_id FROM dispatch_item i JOIN dispatch d ON d.id = i.dispatch_id
            WHERE i.state IN ('queued', 'sent') AND d.expires_at <= now()
            LIMIT $1 FOR UPDATE OF i SKIP LOCKED)
         UPDATE dispatch_item i SET state = 'expired', last_error = 'expired', next_attempt_at = NULL, updated_at = now()
           FROM due, dispatch d WHERE i.dispatch_id = due.dispatch_id AND i.device_id = due.device_id AND d.id = i.dispatch_id
         RETURNING i.dispatch_id, i.device_id, d.family, d.action`,
        [limit],
      );
      const events = new Map<number, LampEvent[]>();
      for (const row of rows) events.set(row.device_id, [answerEvent(row.action, null, false)]);
      const published: (() => void)[] = [];
      for (const family of this.families) {
        const mine = rows.filter((row) => row.family === family.family);
        if (mine.length > 0) published.push(await family.apply(client, new Map(mine.map((row) => [row.device_id, [{ kind: 'failed' as const }]]))));
      }
      return { rows, changes: await this.lamps.apply(client, events), published };
    });
    if (result.rows.length === 0) return 0;
    this.notifier.notify(result.changes);
    for (const publish of result.published) publish();
    this.progress.touch(new Set(result.rows.map((row) => row.dispatch_id)));
    this.counters.add('expired', result.rows.length);
    return result.rows.length;
  }

  /** Dispatches whose rows are all terminal but which were never finished (their last change was seen by a replica that died). */
  private async touchFinishable(): Promise<void> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT d.id FROM dispatch d
        WHERE d.finished_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM dispatch_item i WHERE i.dispatch_id = d.id AND i.state IN ('queued', 'sent'))
        LIMIT 1000`,
    );
    this.progress.touch(rows.map((row) => row.id));
  }
}
