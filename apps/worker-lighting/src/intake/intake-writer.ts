import type { Logger } from 'pino';
import type { Pool, PoolClient } from 'pg';
import type { AckMessage } from '@sc/contracts';
import type { Counters } from '../infra/counters';
import { inTransaction } from '../infra/database';
import { fieldsAfterCommand, lampCommandOf } from '../lamps/lamp-commands';
import type { LampEvent } from '../lamps/lamp-state';
import type { LampChangeNotifier, LampStore } from '../lamps/lamp-store';
import type { DispatchProgress } from '../dispatch/dispatch-progress';

interface PendingAck {
  deviceId: number;
  ack: AckMessage;
}

interface Batch {
  events: Map<number, LampEvent[]>;
  acks: PendingAck[];
  size: number;
}

const newBatch = (): Batch => ({ events: new Map(), acks: [], size: 0 });
const WRITE_ATTEMPTS = 3;

/**
 * Accepted device messages, written in batches: one transaction per batch answers the acks in the ledger and applies
 * every lamp's events. Batches are written one after another, so a lamp's messages are applied in arrival order.
 */
export class IntakeWriter {
  private batch = newBatch();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: Pool,
    private readonly lamps: LampStore,
    private readonly notifier: LampChangeNotifier,
    private readonly progress: DispatchProgress,
    private readonly counters: Counters,
    private readonly logger: Logger,
    private readonly batchSize: number,
    private readonly flushMs: number,
  ) {}

  addEvent(deviceId: number, event: LampEvent): void {
    const events = this.batch.events.get(deviceId);
    if (events) events.push(event);
    else this.batch.events.set(deviceId, [event]);
    this.added();
  }

  addAck(deviceId: number, ack: AckMessage): void {
    this.batch.acks.push({ deviceId, ack });
    this.added();
  }

  /** Writes what is pending and waits for every write in progress. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.batch;
    this.batch = newBatch();
    if (batch.size > 0) this.writing = this.writing.then(() => this.writeWithRetry(batch));
    return this.writing;
  }

  private added(): void {
    this.batch.size++;
    if (this.batch.size >= this.batchSize) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }

  private async writeWithRetry(batch: Batch): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.write(batch);
        return;
      } catch (err) {
        if (attempt >= WRITE_ATTEMPTS) {
          this.counters.add('writeErrors', batch.size);
          this.logger.error({ err: (err as Error).message, messages: batch.size }, 'device messages dropped: the database refused them');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }

  private async write(batch: Batch): Promise<void> {
    const result = await inTransaction(this.pool, async (client) => {
      const events = new Map([...batch.events].map(([id, list]) => [id, [...list]]));
      const answered = await this.answerAcks(client, batch.acks);
      // Ack outcomes follow the lamp's own reports of the batch: a delivered command stays visible as -4.
      for (const row of answered) {
        const body = lampCommandOf(row.action, row.params);
        const event: LampEvent = row.state === 'delivered' && body ? { kind: 'delivered', ...fieldsAfterCommand(body) } : { kind: 'failed' };
        events.set(row.device_id, [...(events.get(row.device_id) ?? []), event]);
      }
      return { answered, changes: await this.lamps.apply(client, events) };
    });
    this.counters.add('acks', result.answered.length);
    this.counters.add('acksIgnored', batch.acks.length - result.answered.length);
    this.notifier.notify(result.changes);
    if (result.answered.length > 0) this.progress.touch(new Set(result.answered.map((row) => row.dispatch_id)));
  }

  /** An ack answers only an open row of the device it came from: a device cannot answer another's command. */
  private async answerAcks(client: PoolClient, acks: PendingAck[]) {
    if (acks.length === 0) return [];
    const { rows } = await client.query<{ dispatch_id: string; device_id: number; state: string; action: string; params: unknown }>(
      `UPDATE dispatch_item i
          SET state = CASE WHEN a.ok THEN 'delivered' ELSE 'failed' END,
              last_error = CASE WHEN a.ok THEN NULL ELSE left(coalesce(nullif(a.error, ''), 'failed'), 255) END,
              next_attempt_at = NULL, updated_at = now()
         FROM unnest($1::uuid[], $2::int[], $3::boolean[], $4::text[]) AS a(command_id, device_id, ok, error), dispatch d
        WHERE i.command_id = a.command_id AND i.device_id = a.device_id AND i.state IN ('queued', 'sent') AND d.id = i.dispatch_id
      RETURNING i.dispatch_id, i.device_id, i.state, d.action, d.params`,
      [acks.map((a) => a.ack.id), acks.map((a) => a.deviceId), acks.map((a) => a.ack.ok), acks.map((a) => a.ack.error ?? null)],
    );
    return rows;
  }
}
