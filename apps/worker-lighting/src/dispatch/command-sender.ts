import type { Logger } from 'pino';
import type { Pool, PoolClient } from 'pg';
import { DeviceFamily, MqttChannel, mqttTopics, type LampCommand } from '@sc/contracts';
import type { MqttConnection } from '@sc/messaging';
import type { Counters } from '../infra/counters';
import { inTransaction } from '../infra/database';
import { lampCommandOf, sendingEvent } from '../lamps/lamp-commands';
import type { LampEvent } from '../lamps/lamp-state';
import type { LampChangeNotifier, LampStore } from '../lamps/lamp-store';
import type { DispatchProgress } from './dispatch-progress';
import type { FamilyStore } from '../intake/family-store';

export interface SendTiming {
  /** First wait for an ack, milliseconds; doubles with each attempt. */
  ackTimeoutMs: number;
  maxBackoffMs: number;
}

/** A ledger row taken for publishing, with what its command needs. */
interface TakenItem {
  dispatch_id: string;
  device_id: number;
  command_id: string;
  code: string;
  family: DeviceFamily;
  action: string;
  params: unknown;
  expires_at: Date;
}

/** Which queued rows to take: those of one dispatch (its job), or any left queued too long (a lost or failed job). */
export type QueuedScope = { dispatchId: string } | { queuedForMs: number };

const PUBLISH_WAIT_MS = 10_000;

/**
 * Publishes lamp commands. Rows are marked sent (and their lamps distributing) in a transaction BEFORE their
 * commands go out: an ack can then never find its row still queued, and a crash after the commit only delays the
 * command until the tracker re-sends it under the same id.
 */
export class CommandSender {
  constructor(
    private readonly pool: Pool,
    private readonly mqtt: MqttConnection,
    private readonly lamps: LampStore,
    private readonly notifier: LampChangeNotifier,
    private readonly progress: DispatchProgress,
    private readonly counters: Counters,
    private readonly logger: Logger,
    private readonly timing: SendTiming,
    private readonly chunkSize: number,
    /** The families served beside single lamps (strip lights): their rows go through the same ledger. */
    private readonly families: readonly FamilyStore[] = [],
  ) {}

  /** Marks the taken rows' devices of the other families distributing; answers what to publish after the commit. */
  private async markFamilies(client: PoolClient, items: readonly TakenItem[]): Promise<(() => void)[]> {
    const published: (() => void)[] = [];
    for (const family of this.families) {
      const mine = items.filter((item) => item.family === family.family);
      if (mine.length > 0)
        published.push(await family.apply(client, new Map(mine.map((item) => [item.device_id, [{ kind: 'distributing' as const }]]))));
    }
    return published;
  }

  /** Sends every queued row in scope, chunk by chunk; returns how many commands were published. */
  async sendQueued(scope: QueuedScope): Promise<number> {
    let sent = 0;
    const inFlight: Promise<void>[] = [];
    for (;;) {
      const taken = await inTransaction(this.pool, async (client) => {
        const items = await this.takeQueued(client, scope);
        const events = new Map<number, LampEvent[]>(items.map((item) => [item.device_id, [sendingEvent(item.action)]]));
        return { items, changes: await this.lamps.apply(client, events), published: await this.markFamilies(client, items) };
      });
      if (taken.items.length === 0) break;
      this.notifier.notify(taken.changes);
      for (const publish of taken.published) publish();
      this.progress.touch(new Set(taken.items.map((item) => item.dispatch_id)));
      inFlight.push(this.publish(taken.items));
      sent += taken.items.length;
      if (taken.items.length < this.chunkSize) break;
    }
    await Promise.all(inFlight);
    this.counters.add('commandsPublished', sent);
    return sent;
  }

  /** Re-publishes rows still unanswered at their next attempt time, under the same command id. */
  async resendOverdue(limit = 5000): Promise<number> {
    const { rows } = await this.pool.query<TakenItem>(
      `WITH due AS (
         SELECT dispatch_id, device_id FROM dispatch_item
          WHERE state = 'sent' AND next_attempt_at <= now()
          ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE dispatch_item i
          SET attempts = i.attempts + 1, sent_at = now(), updated_at = now(),
              next_attempt_at = now() + least($1 * power(2, i.attempts), $2) * interval '1 millisecond'
         FROM due, dispatch d, device dev
        WHERE i.dispatch_id = due.dispatch_id AND i.device_id = due.device_id AND d.id = i.dispatch_id AND dev.id = i.device_id
          AND d.expires_at > now()
      RETURNING i.dispatch_id, i.device_id, i.command_id, dev.code, d.family, d.action, coalesce(i.params, d.params) AS params, d.expires_at`,
      [this.timing.ackTimeoutMs, this.timing.maxBackoffMs, limit],
    );
    if (rows.length === 0) return 0;
    this.progress.touch(new Set(rows.map((row) => row.dispatch_id)));
    await this.publish(rows);
    this.counters.add('commandsResent', rows.length);
    return rows.length;
  }

  private async takeQueued(client: PoolClient, scope: QueuedScope): Promise<TakenItem[]> {
    const filter = 'dispatchId' in scope ? 'i.dispatch_id = $4' : `i.updated_at < now() - $4 * interval '1 millisecond'`;
    const { rows } = await client.query<TakenItem>(
      `WITH picked AS (
         SELECT i.dispatch_id, i.device_id FROM dispatch_item i JOIN dispatch d ON d.id = i.dispatch_id
          WHERE ${filter} AND i.state = 'queued' AND d.expires_at > now()
          ORDER BY i.dispatch_id, i.device_id LIMIT $3 FOR UPDATE OF i SKIP LOCKED)
       UPDATE dispatch_item i
          SET state = 'sent', attempts = i.attempts + 1, sent_at = now(), updated_at = now(), last_error = NULL,
              next_attempt_at = now() + least($1 * power(2, i.attempts), $2) * interval '1 millisecond'
         FROM picked, dispatch d, device dev
        WHERE i.dispatch_id = picked.dispatch_id AND i.device_id = picked.device_id AND d.id = i.dispatch_id AND dev.id = i.device_id
      RETURNING i.dispatch_id, i.device_id, i.command_id, dev.code, d.family, d.action, coalesce(i.params, d.params) AS params, d.expires_at`,
      [this.timing.ackTimeoutMs, this.timing.maxBackoffMs, this.chunkSize, 'dispatchId' in scope ? scope.dispatchId : scope.queuedForMs],
    );
    return rows;
  }

  /**
   * Starts every publish at once and waits for the broker's acknowledgements together. A publish that fails or
   * hangs (broker gone) is only logged: its row stays sent and the tracker re-sends it.
   */
  private async publish(items: TakenItem[]): Promise<void> {
    const publishes: Promise<void>[] = [];
    let failed = 0;
    for (const item of items) {
      const family = this.families.find((f) => f.family === item.family);
      const body = family ? family.commandOf(item.action, item.params) : lampCommandOf(item.action, item.params);
      if (!body) {
        failed++;
        continue;
      }
      const command = { id: item.command_id, ...body, expiresAt: item.expires_at.toISOString() } as LampCommand;
      const topic = mqttTopics.of(family ? family.family : DeviceFamily.Lamp, item.code, MqttChannel.Cmd);
      publishes.push(this.mqtt.publishJson(topic, command, { qos: 1 }).catch(() => void failed++));
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
