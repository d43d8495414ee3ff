import type { Logger } from 'pino';
import type { Pool } from 'pg';
import { OnlineState, SILENT_AFTER_HEARTBEATS, type FamilyName } from '@sc/contracts';
import type { AnyFamilyHandler, ColumnSpec } from '../family/family-handler';
import type { Counters } from '../infra/counters';
import { Periodic } from '../infra/periodic';
import type { IntakeWriter } from './intake-writer';

/** Silent devices taken offline per statement; the sweep goes on until none is left. */
const SWEEP_BATCH = 5000;

interface SilentQuery {
  family: FamilyName;
  silentMs: number;
  sql: string;
}

/**
 * Online must be honest: a device shown online has been heard from lately. A device that vanished without a Last Will
 * (its broker restarted, its power cut behind a gateway that stayed up) or whose stored state said online long after
 * it went quiet is taken offline once it has been silent for SILENT_AFTER_HEARTBEATS of its family's heartbeats, as
 * if its Last Will had come: the event goes through the intake like any other, so the family's rules, the alarms and
 * the live views follow. A device that reports between the sweep's read and the write keeps its state (the event's
 * `silentSince`), and the next report of a silent one brings it back.
 *
 * Families without both a network status and a report time among their stored fields are not swept.
 */
export class SilenceSweep {
  private readonly queries: SilentQuery[];
  private readonly periodic: Periodic<number>;

  constructor(
    private readonly pool: Pool,
    handlers: readonly AnyFamilyHandler[],
    private readonly writer: IntakeWriter,
    private readonly counters: Counters,
    private readonly logger: Logger,
  ) {
    this.queries = handlers.flatMap((handler) => {
      const columns = handler.columns as Record<string, ColumnSpec | undefined>;
      const [network, reported] = [columns.networkStatus, columns.reportedAt];
      if (!network || !reported) return [];
      const { declaration } = handler;
      const key = declaration.deviceType !== null ? 'device_id' : 'id';
      return [
        {
          family: declaration.family,
          silentMs: declaration.heartbeatSeconds * SILENT_AFTER_HEARTBEATS * 1000,
          sql: `SELECT ${key} AS id FROM ${declaration.table}
                 WHERE ${network.column} = ${OnlineState.Online} AND ${reported.column} < $1 AND ${key} > $2
                 ORDER BY ${key} LIMIT ${SWEEP_BATCH}`,
        },
      ];
    });
    this.periodic = new Periodic(() => this.sweepAll(), logger, 'silence sweep failed');
  }

  /** Sweeps every `intervalMs`. */
  start(intervalMs: number): void {
    this.periodic.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  /** Takes every device silent past its family's limit offline; answers how many, once stored. */
  sweep(): Promise<number> {
    return this.periodic.run();
  }

  private async sweepAll(): Promise<number> {
    let taken = 0;
    for (const query of this.queries) {
      const silentSince = new Date(Date.now() - query.silentMs).toISOString();
      // A batch at a time in key order, so the sweep ends whatever a family's rules make of the event.
      for (let after = 0; ;) {
        const { rows } = await this.pool.query<{ id: number }>(query.sql, [silentSince, after]);
        const at = new Date().toISOString();
        for (const { id } of rows) this.writer.addEvent(query.family, id, { kind: 'offline', at, silentSince }, null);
        // Stored before the next read, which would find the same devices again.
        await this.writer.whenWritten();
        taken += rows.length;
        this.counters.add('silentOffline', rows.length);
        if (rows.length < SWEEP_BATCH) break;
        after = rows[rows.length - 1].id;
      }
    }
    if (taken > 0) this.logger.info({ devices: taken }, 'silent devices taken offline');
    return taken;
  }
}
