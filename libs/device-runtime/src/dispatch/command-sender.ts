import type { Logger } from 'pino';
import type { Pool } from 'pg';
import { MqttChannel, mqttTopics, type FamilyName } from '@sc/contracts';
import type { MqttConnection } from '@sc/messaging';
import type { AnyFamilyHandler } from '../family/family-handler';
import { EventsByFamily, type FamilyWrites } from '../family/family-writes';
import type { Counters } from '../infra/counters';
import { inTransaction } from '../infra/database';
import { commandLedger, type AckTiming, type QueuedScope, type TakenItem } from '../ledger/command-ledger';
import type { DispatchProgress } from './dispatch-progress';

/** How long a chunk of publishes may wait for the broker before the tracker is left to re-send it. */
const PUBLISH_WAIT_MS = 10_000;
/** Chunks being published at once: one goes out while the next is taken. */
const PUBLISHING_CHUNKS = 1;

/**
 * Publishes the ledger's commands. Rows are marked sent (and their devices `sending`) in a transaction BEFORE their
 * commands go out: an ack can then never find its row still queued, and a crash after the commit only delays the
 * command until the tracker re-sends it under the same id.
 */
export class CommandSender {
  /** The families served: the only ones whose ledger rows this worker takes. */
  readonly families: readonly FamilyName[];

  constructor(
    private readonly pool: Pool,
    private readonly mqtt: MqttConnection,
    private readonly handlers: ReadonlyMap<FamilyName, AnyFamilyHandler>,
    private readonly writes: FamilyWrites,
    private readonly progress: DispatchProgress,
    private readonly counters: Counters,
    private readonly logger: Logger,
    private readonly timing: AckTiming,
    private readonly chunkSize: number,
  ) {
    this.families = [...handlers.keys()];
  }

  /**
   * Sends every queued row in scope, chunk by chunk; returns how many commands were published. A chunk is taken (and
   * its ack time-out starts) only once the broker has acknowledged all but the last chunk published: taking rows
   * faster than the broker takes their commands would start their time-outs while they still wait in this process,
   * and make them look unanswered.
   */
  async sendQueued(scope: QueuedScope): Promise<number> {
    let sent = 0;
    const inFlight: Promise<void>[] = [];
    for (;;) {
      if (inFlight.length >= PUBLISHING_CHUNKS) await inFlight[inFlight.length - PUBLISHING_CHUNKS];
      const taken = await inTransaction(this.pool, async (client) => {
        const items = await commandLedger.takeQueued(client, scope, this.chunkSize, this.timing, this.families);
        const events = new EventsByFamily();
        events.addSending(items);
        return { items, publish: await this.writes.apply(client, events) };
      });
      if (taken.items.length === 0) break;
      taken.publish();
      this.progress.touch(new Set(taken.items.map((item) => item.dispatch_id)));
      inFlight.push(this.publish(taken.items));
      sent += taken.items.length;
      if (taken.items.length < this.chunkSize) break;
    }
    await Promise.all(inFlight);
    this.counters.add('commandsPublished', sent);
    return sent;
  }

  /**
   * Re-publishes rows still unanswered at their next attempt time, under the same command id; `graceMs` moves that
   * time on by how far behind the intake is.
   */
  async resendOverdue(limit = 5000, graceMs = 0): Promise<number> {
    const rows = await commandLedger.takeDueForResend(this.pool, limit, this.timing, this.families, graceMs);
    if (rows.length === 0) return 0;
    this.progress.touch(new Set(rows.map((row) => row.dispatch_id)));
    await this.publish(rows);
    this.counters.add('commandsResent', rows.length);
    return rows.length;
  }

  /**
   * Starts every publish at once and waits for the broker's acknowledgements together. A publish that fails or
   * hangs (broker gone) is only logged: its row stays sent and the tracker re-sends it. A row whose action its
   * family cannot turn into a command stays sent too, and expires.
   */
  private async publish(items: readonly TakenItem[]): Promise<void> {
    const publishes: Promise<void>[] = [];
    let failed = 0;
    for (const item of items) {
      const body = this.handlers.get(item.family)?.command?.(item.action, item.params);
      if (!body) {
        failed++;
        continue;
      }
      const command = { id: item.command_id, ...body, expiresAt: item.expires_at.toISOString() };
      publishes.push(this.mqtt.publishJson(mqttTopics.of(item.family, item.code, MqttChannel.Cmd), command, { qos: 1 }).catch(() => void failed++));
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), PUBLISH_WAIT_MS)));
    const outcome = await Promise.race([Promise.all(publishes), timeout]);
    clearTimeout(timer);
    if (outcome === 'timeout')
      this.logger.warn({ commands: publishes.length }, 'broker did not acknowledge commands in time; the tracker re-sends them');
    if (failed > 0) this.logger.warn({ failed }, 'commands not published; the tracker re-sends them');
  }
}
