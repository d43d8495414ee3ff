import type { Logger } from 'pino';
import type { Pool, PoolClient } from 'pg';
import type { AckMessage } from '@sc/contracts';
import type { Counters } from '../infra/counters';
import { inTransaction } from '../infra/database';
import { answerEvent } from '../lamps/lamp-commands';
import type { LampEvent } from '../lamps/lamp-state';
import type { LampChangeNotifier, LampStore } from '../lamps/lamp-store';
import type { DispatchProgress } from '../dispatch/dispatch-progress';
import type { BatchRecorder } from './batch-recorder';
import type { FamilyStore } from './family-store';

interface PendingAck {
  deviceId: number;
  ack: AckMessage;
}

interface Batch {
  events: Map<number, LampEvent[]>;
  /** Events of the other families (strip lights), by family, then by device. */
  familyEvents: Map<FamilyStore, Map<number, { kind: string }[]>>;
  acks: PendingAck[];
  size: number;
}

const newBatch = (): Batch => ({ events: new Map(), familyEvents: new Map(), acks: [], size: 0 });

function push<K, E>(map: Map<K, E[]>, key: K, event: E): void {
  const list = map.get(key);
  if (list) list.push(event);
  else map.set(key, [event]);
}
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
    /** Alarms and energy, written in the same transaction as the lamps they come from. */
    private readonly recorders: readonly BatchRecorder[] = [],
    /** The families served beside single lamps: their events are applied in the same transaction. */
    private readonly families: readonly FamilyStore[] = [],
  ) {}

  addFamilyEvent(family: FamilyStore, deviceId: number, event: { kind: string }): void {
    let byDevice = this.batch.familyEvents.get(family);
    if (!byDevice) this.batch.familyEvents.set(family, (byDevice = new Map()));
    push(byDevice, deviceId, event);
    this.added();
  }

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
      const familyEvents = new Map(this.families.map((f) => [f, new Map([...(batch.familyEvents.get(f) ?? [])].map(([id, l]) => [id, [...l]]))]));
      const answered = await this.answerAcks(client, batch.acks);
      // Ack outcomes follow the lamp's own reports of the batch: a delivered command stays visible as -4.
      for (const row of answered) {
        const family = this.families.find((f) => f.family === row.family);
        if (family) {
          push(familyEvents.get(family)!, row.device_id, row.state === 'delivered' ? family.delivered(row.action, row.params) : { kind: 'failed' });
          continue;
        }
        const event = answerEvent(row.action, row.params, row.state === 'delivered');
        events.set(row.device_id, [...(events.get(row.device_id) ?? []), event]);
      }
      const changes = await this.lamps.apply(client, events);
      const published: (() => void)[] = [];
      for (const recorder of this.recorders) published.push(await recorder.record(client, changes, events));
      for (const [family, byDevice] of familyEvents) published.push(await family.apply(client, byDevice));
      return { answered, changes, published };
    });
    this.counters.add('acks', result.answered.length);
    this.counters.add('acksIgnored', batch.acks.length - result.answered.length);
    this.notifier.notify(result.changes);
    for (const publish of result.published) publish();
    if (result.answered.length > 0) this.progress.touch(new Set(result.answered.map((row) => row.dispatch_id)));
  }

  /** An ack answers only an open row of the device it came from: a device cannot answer another's command. */
  private async answerAcks(client: PoolClient, acks: PendingAck[]) {
    if (acks.length === 0) return [];
    const { rows } = await client.query<{ dispatch_id: string; device_id: number; state: string; family: string; action: string; params: unknown }>(
      `UPDATE dispatch_item i
          SET state = CASE WHEN a.ok THEN 'delivered' ELSE 'failed' END,
              last_error = CASE WHEN a.ok THEN NULL ELSE left(coalesce(nullif(a.error, ''), 'failed'), 255) END,
              next_attempt_at = NULL, updated_at = now()
         FROM unnest($1::uuid[], $2::int[], $3::boolean[], $4::text[]) AS a(command_id, device_id, ok, error), dispatch d
        WHERE i.command_id = a.command_id AND i.device_id = a.device_id AND i.state IN ('queued', 'sent') AND d.id = i.dispatch_id
      RETURNING i.dispatch_id, i.device_id, i.state, d.family, d.action, coalesce(i.params, d.params) AS params`,
      [acks.map((a) => a.ack.id), acks.map((a) => a.deviceId), acks.map((a) => a.ack.ok), acks.map((a) => a.ack.error ?? null)],
    );
    return rows;
  }
}
