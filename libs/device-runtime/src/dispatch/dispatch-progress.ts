import type { Logger } from 'pino';
import type { Pool } from 'pg';
import { dispatchStatusOf, type DispatchCounts, type FamilyDeclaration, type FamilyName } from '@sc/contracts';
import type { RedisBus } from '@sc/messaging';
import { commandLedger, total } from '../ledger/command-ledger';

const EMPTY: DispatchCounts = { queued: 0, sent: 0, delivered: 0, failed: 0, expired: 0 };

/** The `family/action` keys of actions that send a command declared with receipts (a command of the action's name). */
function receiptActions(declarations: readonly FamilyDeclaration[]): Set<string> {
  const keys = new Set<string>();
  for (const d of declarations) for (const [type, command] of Object.entries(d.commands)) if (command.receipts) keys.add(`${d.family}/${type}`);
  return keys;
}

/**
 * DispatchProgress, coalesced: rows that move only mark their dispatch; every interval the marked dispatches' tallies
 * are read with one query and published once each. A dispatch whose rows are all terminal is finished here
 * (finished_at and its batch status), exactly once across replicas.
 */
export class DispatchProgress {
  private dirty = new Set<string>();
  /** Rows of commands declared with receipts that moved, by dispatch: announced one by one (DispatchRowsChanged). */
  private rows = new Map<string, Set<number>>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: Pool,
    private readonly bus: RedisBus,
    private readonly logger: Logger,
    private readonly intervalMs: number,
    declarations: readonly FamilyDeclaration[] = [],
  ) {
    this.receiptActions = receiptActions(declarations);
  }

  private readonly receiptActions: Set<string>;

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
  }

  touch(dispatchIds: Iterable<string>): void {
    for (const id of dispatchIds) this.dirty.add(id);
  }

  /**
   * Marks rows that moved, and their dispatches. Only rows of commands declared with receipts are announced one by one
   * (their receive status is followed row by row); others count in their dispatch's progress only.
   */
  touchRows(rows: Iterable<{ dispatch_id: string; device_id: number; family: FamilyName; action?: string }>): void {
    for (const row of rows) {
      this.dirty.add(row.dispatch_id);
      if (row.action !== undefined && !this.receiptActions.has(`${row.family}/${row.action}`)) continue;
      let devices = this.rows.get(row.dispatch_id);
      if (!devices) this.rows.set(row.dispatch_id, (devices = new Set()));
      devices.add(row.device_id);
    }
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
    const rows = this.rows;
    this.dirty = new Set();
    this.rows = new Map();
    try {
      await this.publish(ids, rows);
    } catch (err) {
      // Keep them marked: the next interval tries again.
      this.touch(ids);
      for (const [dispatchId, devices] of rows) {
        const held = this.rows.get(dispatchId);
        if (held) for (const device of devices) held.add(device);
        else this.rows.set(dispatchId, devices);
      }
      throw err;
    }
  }

  private async publish(ids: string[], rows: Map<string, Set<number>>): Promise<void> {
    const [counts, dispatches, moved] = await Promise.all([
      commandLedger.counts(this.pool, ids),
      commandLedger.dispatches(this.pool, ids),
      commandLedger.rowChanges(this.pool, rows),
    ]);
    const at = new Date().toISOString();
    for (const dispatch of dispatches) {
      const changes = moved.get(dispatch.id);
      if (changes) await this.bus.publish('DispatchRowsChanged', { dispatchId: dispatch.id, family: dispatch.family, rows: changes, at });
      const c = counts.get(dispatch.id) ?? EMPTY;
      const status = dispatchStatusOf(c);
      const all = total(c);
      if (!dispatch.finished && all > 0 && c.queued + c.sent === 0) await commandLedger.finish(this.pool, dispatch.id, status);
      await this.bus.publish('DispatchProgress', { dispatchId: dispatch.id, family: dispatch.family, status, counts: c, total: all, at });
    }
  }
}
