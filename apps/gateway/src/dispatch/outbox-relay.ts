import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { QUEUE_OF_JOB, type JobName, type JobPayloads } from '@sc/contracts';
import { OUTBOX_CHANNEL } from '@sc/database';
import { JobProducer } from '@sc/messaging';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { InjectDb } from '../infra/database';

export const OUTBOX_RELAY_OPTIONS = Symbol('OUTBOX_RELAY_OPTIONS');

export interface OutboxRelayOptions {
  /** The sweep catches rows written while no relay listened, and rows a failed batch gave back. */
  sweepMs?: number;
  batchSize?: number;
  /** How long one batch may wait for Redis before it gives its rows back to the table. */
  enqueueTimeoutMs?: number;
}

interface OutboxRow {
  id: string;
  job_name: string;
  job_id: string;
  payload: unknown;
}

const RELISTEN_AFTER_MS = 1000;

class EnqueueTimeout extends Error {}

/**
 * Moves outbox rows into the work queues: woken by NOTIFY on OUTBOX_CHANNEL (a dedicated connection listens) and by
 * a sweep every second. Each batch is taken FOR UPDATE SKIP LOCKED, so the relays of all gateway processes share the
 * work without waiting on each other; a row is deleted only in the transaction that saw its job added. A crash between
 * the add and the commit leaves the row, and adding it again is a no-op because the job id is the same. While Redis is
 * out of reach, rows simply stay and go once it is back.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly producer: JobProducer;
  private readonly sweepMs: number;
  private readonly batchSize: number;
  private readonly enqueueTimeoutMs: number;
  private listener: Client | null = null;
  private sweepTimer?: NodeJS.Timeout;
  private relistenTimer?: NodeJS.Timeout;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  /** Set while closing, so no batch in flight opens a queue connection the close would miss. */
  private closing = false;
  /** A problem is logged when it starts and when it clears, not on every sweep. */
  private failing = false;

  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(OUTBOX_RELAY_OPTIONS) options: OutboxRelayOptions = {},
  ) {
    this.sweepMs = options.sweepMs ?? 1000;
    this.batchSize = options.batchSize ?? 100;
    this.enqueueTimeoutMs = options.enqueueTimeoutMs ?? 2000;
    // Its own connection, failing fast while Redis is away (no offline queue): the rows wait in PostgreSQL instead.
    // A short disconnect time-out, so closing while Redis is away does not keep the process alive for long.
    this.producer = new JobProducer(
      {
        url: config.redisUrl,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        retryStrategy: (n: number) => Math.min(n * 200, 2000),
        disconnectTimeout: 200,
      },
      config.redisPrefix,
    );
  }

  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.close();
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    this.closing = false;
    await this.listen();
    this.sweepTimer = setInterval(() => this.kick(), this.sweepMs).unref();
    this.kick();
  }

  /** Runs a drain now, or once more right after the one in progress (whose snapshot may predate the wake-up). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Relays batches until the table is empty or a batch fails. */
  private async drain(): Promise<void> {
    try {
      while (!this.stopped && (await this.relayBatch()) === this.batchSize);
      if (this.failing) this.logger.log('Outbox relay: jobs are reaching the queues again');
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.logger.warn(`Outbox relay: rows stay in the outbox until the next sweep: ${(err as Error).message}`);
      this.failing = true;
    }
  }

  /** One batch in one transaction; returns how many rows it took. Throws after committing what did go. */
  async relayBatch(): Promise<number> {
    let failure: unknown;
    const taken = await this.db.transaction(async (tx) => {
      const rows: OutboxRow[] = await tx.query(`SELECT id, job_name, job_id, payload FROM outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`, [
        this.batchSize,
      ]);
      if (rows.length === 0) return 0;
      const results = await this.enqueueAll(rows);
      const done = rows.filter((_, i) => results[i].status === 'fulfilled').map((row) => row.id);
      if (done.length > 0) await tx.query(`DELETE FROM outbox WHERE id = ANY($1::bigint[])`, [done]);
      failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')?.reason;
      return rows.length;
    });
    if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
    return taken;
  }

  /** Adds the rows' jobs, giving up on whatever has not gone within the time-out. */
  private async enqueueAll(rows: OutboxRow[]): Promise<PromiseSettledResult<void>[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new EnqueueTimeout(`Redis did not take the jobs within ${this.enqueueTimeoutMs} ms`)), this.enqueueTimeoutMs);
    });
    timeout.catch(() => undefined);
    try {
      return await Promise.allSettled(
        rows.map((row) => {
          const added = this.enqueue(row);
          // An add that loses the race may still land later: harmless, the row's next add has the same job id.
          added.catch(() => undefined);
          return Promise.race([added, timeout]);
        }),
      );
    } finally {
      clearTimeout(timer);
    }
  }

  private async enqueue(row: OutboxRow): Promise<void> {
    if (this.closing) throw new Error('Outbox relay closing');
    if (!Object.hasOwn(QUEUE_OF_JOB, row.job_name)) throw new Error(`Outbox row ${row.id}: unknown job "${row.job_name}"`);
    const name = row.job_name as JobName;
    await this.producer.enqueue(name, row.payload as JobPayloads[typeof name], { jobId: row.job_id });
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.config.databaseUrl, application_name: 'gateway outbox relay' });
    client.on('notification', () => this.kick());
    client.on('error', (err) => this.relisten(client, err));
    client.on('end', () => this.relisten(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      this.listener = client;
      // Rows written while nobody listened.
      this.kick();
    } catch (err) {
      this.relisten(client, err as Error);
    }
  }

  /** A lost listening connection is replaced; the sweep carries on meanwhile. */
  private relisten(client: Client, err?: Error): void {
    if (this.listener && this.listener !== client) return;
    this.listener = null;
    client.removeAllListeners('end');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (this.stopped || this.relistenTimer) return;
    this.logger.warn(`Outbox relay: listening connection lost${err ? ` (${err.message})` : ''}; reconnecting`);
    this.relistenTimer = setTimeout(() => {
      this.relistenTimer = undefined;
      void this.listen();
    }, RELISTEN_AFTER_MS).unref();
  }

  async close(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.closing = true;
    clearInterval(this.sweepTimer);
    clearTimeout(this.relistenTimer);
    this.relistenTimer = undefined;
    const listener = this.listener;
    this.listener = null;
    if (listener) {
      listener.removeAllListeners('end');
      await listener.end().catch(() => undefined);
    }
    await this.running;
    await this.producer.close();
  }
}
