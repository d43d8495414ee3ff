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
 *
 * Rows followed one by one (commands declared with receipts) are announced as soon as they are stored, not at the
 * next interval: one announcement at a time, and the rows that move meanwhile go out together in the next one, so a
 * burst of receipts costs a few reads instead of one per row, and a row never waits for the tallies.
 */
export class DispatchProgress {
  private dirty = new Set<string>();
  /** Rows of commands declared with receipts that moved, by dispatch: announced one by one (DispatchRowsChanged). */
  private rows = new Map<string, Set<number>>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  /** The announcement of rows in hand, if one runs; it takes up the rows marked meanwhile before it ends. */
  private announcing: Promise<void> | null = null;
  private readonly families = new Map<string, FamilyName>();

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
      this.families.set(row.dispatch_id, row.family);
    }
    if (this.rows.size > 0) this.announceRows();
  }

  /** Announces the marked rows now, or right after the announcement in hand; answers when none is left. */
  announceRows(): Promise<void> {
    this.announcing ??= this.announceAll().finally(() => (this.announcing = null));
    return this.announcing;
  }

  private async announceAll(): Promise<void> {
    // Let the rows of the same turn (a stored batch and the sends beside it) join this announcement.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.rows.size > 0) {
      const rows = this.rows;
      this.rows = new Map();
      const families = new Map<string, FamilyName>();
      for (const dispatchId of rows.keys()) {
        families.set(dispatchId, this.families.get(dispatchId)!);
        this.families.delete(dispatchId);
      }
      try {
        const moved = await commandLedger.rowChanges(this.pool, rows);
        const at = new Date().toISOString();
        for (const [dispatchId, changes] of moved) {
          await this.bus.publish('DispatchRowsChanged', { dispatchId, family: families.get(dispatchId)!, rows: changes, at });
        }
      } catch (err) {
        // Keep them marked: the next interval announces them.
        this.keepRows(rows, families);
        this.logger.warn({ err: (err as Error).message }, 'dispatch rows not announced yet');
        return;
      }
    }
  }

  private keepRows(rows: Map<string, Set<number>>, families: Map<string, FamilyName>): void {
    for (const [dispatchId, devices] of rows) {
      this.families.set(dispatchId, families.get(dispatchId)!);
      const held = this.rows.get(dispatchId);
      if (held) for (const device of devices) held.add(device);
      else this.rows.set(dispatchId, devices);
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
    await this.announceRows();
    await this.flush();
  }

  private async publishDirty(): Promise<void> {
    // Rows an earlier announcement could not read are tried again with the tallies.
    if (this.rows.size > 0) await this.announceRows();
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
