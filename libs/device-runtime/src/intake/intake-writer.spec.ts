import type { Pool, PoolClient } from 'pg';
import pino from 'pino';
import { DeviceFamily } from '@sc/contracts';
import type { DispatchProgress } from '../dispatch/dispatch-progress';
import type { EventsByFamily, FamilyWrites } from '../family/family-writes';
import { Counters } from '../infra/counters';
import { IntakeWriter, type WriterSettings } from './intake-writer';

/** An error as pg reports it: a server error carries its SQLSTATE in `code`. */
const pgError = (code: string, message = `pg error ${code}`) => Object.assign(new Error(message), { code });

/**
 * The writer's seams in memory: a pool whose transactions are recorded (BEGIN, the family writes, COMMIT), and family
 * writes that hold the ids of the devices they were given. Every message here is one device (its record id names
 * it), so a transaction's ids are the messages it holds. `failApply` / `failCommit` decide, per attempt, whether the
 * database refuses.
 */
class FakeDatabase {
  readonly log: string[] = [];
  /** Committed transactions, each with the ids it held, in commit order. */
  readonly transactions: number[][] = [];
  readonly committed = new Set<number>();
  readonly acks: number[] = [];
  /** Acknowledgements of messages whose transaction had not committed (must stay empty). */
  readonly ackedUncommitted: number[] = [];
  attempts = 0;
  failApply: (ids: number[], attempt: number) => unknown = () => null;
  failCommit: (ids: number[], attempt: number) => unknown = () => null;
  /** Runs inside each transaction before the writes return (a slow database, or one held by a test). */
  during: () => Promise<void> = async () => undefined;
  publishThrows = 0;
  private inTransaction: number[] = [];

  private readonly client = {
    query: async (sql: string) => {
      if (sql === 'BEGIN') {
        this.inTransaction = [];
        this.log.push('begin');
      } else if (sql === 'COMMIT') {
        const failure = this.failCommit(this.inTransaction, this.attempts);
        if (failure) throw failure;
        this.log.push(`commit ${this.inTransaction.join(',')}`);
        this.transactions.push(this.inTransaction);
        for (const id of this.inTransaction) this.committed.add(id);
      } else if (sql === 'ROLLBACK') {
        this.log.push('rollback');
      } else {
        // The ledger's ack statement: no dispatch rows in these tests.
        return { rows: [], rowCount: 0 };
      }
      return { rows: [], rowCount: 0 };
    },
    release: () => undefined,
  } as unknown as PoolClient;

  readonly pool = { connect: async () => this.client } as unknown as Pool;

  readonly writes = {
    apply: async (_client: PoolClient, events: EventsByFamily) => {
      const ids = [...events.byFamily.values()].flatMap((devices) => [...devices.keys()]);
      this.attempts++;
      this.log.push(`apply ${ids.join(',')}`);
      await this.during();
      const failure = this.failApply(ids, this.attempts);
      if (failure) throw failure;
      this.inTransaction = ids;
      return () => {
        this.log.push(`publish ${ids.join(',')}`);
        if (this.publishThrows > 0) {
          this.publishThrows--;
          throw new Error('an observer failed to announce');
        }
      };
    },
  } as unknown as FamilyWrites;

  /** The acknowledgement of message `id`, recording whether its transaction had committed. */
  ack(id: number): () => void {
    return () => {
      this.acks.push(id);
      this.log.push(`ack ${id}`);
      if (!this.committed.has(id)) this.ackedUncommitted.push(id);
    };
  }
}

const progress = { touch: () => undefined, touchRows: () => undefined } as unknown as DispatchProgress;
const at = '2024-11-21T10:00:00.000Z';

function setUp(settings: Partial<WriterSettings> = {}) {
  const db = new FakeDatabase();
  const counters = new Counters();
  const writer = new IntakeWriter(db.pool, db.writes, progress, counters, pino({ level: 'silent' }), {
    batchSize: 100,
    flushMs: 2,
    ...settings,
  });
  /** One message of device `id` (a state report), acknowledged through the fake. */
  const add = (id: number) =>
    writer.addEvent(DeviceFamily.Lamp, id, { kind: 'report', channel: 'state', report: { n: id }, at } as never, db.ack(id));
  return { db, counters, writer, add };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await sleep(2);
  }
}

describe('IntakeWriter', () => {
  it('acknowledges messages only after the transaction holding them committed', async () => {
    const { db, writer, add } = setUp();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    db.during = () => held;
    for (const id of [1, 2, 3]) add(id);
    await until(() => db.attempts === 1);
    await sleep(20);
    expect(db.acks).toEqual([]);
    expect(writer.backlog).toBe(0);
    release();
    await writer.whenWritten();
    expect(db.acks).toEqual([1, 2, 3]);
    expect(db.ackedUncommitted).toEqual([]);
    // The changes are announced after the commit, never before.
    expect(db.log).toEqual(['begin', 'apply 1,2,3', 'commit 1,2,3', 'publish 1,2,3', 'ack 1', 'ack 2', 'ack 3']);
  });

  it('writes at most batchSize messages per transaction, in arrival order', async () => {
    const { db, counters, writer, add } = setUp({ batchSize: 4, flushMs: 1000 });
    for (const id of range(1, 10)) add(id);
    await writer.whenWritten();
    expect(db.transactions).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10],
    ]);
    expect(db.acks).toEqual(range(1, 10));
    expect(counters.snapshot().written).toBe(10);
  });

  it('writes a batch that has not filled up once flushMs has passed since its first message', async () => {
    const { db, add } = setUp({ batchSize: 100, flushMs: 30 });
    add(1);
    add(2);
    await sleep(5);
    expect(db.attempts).toBe(0);
    await until(() => db.acks.length === 2);
    expect(db.transactions).toEqual([[1, 2]]);
  });

  it.each([
    ['a lost connection (08006)', () => pgError('08006', 'connection failure')],
    ['an error without a code (pg: "Connection terminated unexpectedly")', () => new Error('Connection terminated unexpectedly')],
  ])('retries a batch after %s until it is stored, acknowledging nothing before', async (_label, failure) => {
    const { db, counters, writer, add } = setUp();
    db.failApply = (_ids, attempt) => (attempt <= 2 ? failure() : null);
    for (const id of [1, 2, 3]) add(id);
    await until(() => db.attempts >= 2);
    expect(db.acks).toEqual([]);
    await writer.whenWritten();
    expect(db.attempts).toBe(3);
    expect(db.transactions).toEqual([[1, 2, 3]]);
    expect(db.acks).toEqual([1, 2, 3]);
    expect(db.ackedUncommitted).toEqual([]);
    expect(counters.snapshot()).toMatchObject({ written: 3, writeRetries: 2, writeErrors: 0 });
  });

  it('does not acknowledge a batch whose COMMIT failed; it is written again', async () => {
    const { db, counters, writer, add } = setUp();
    db.failCommit = (_ids, attempt) => (attempt === 1 ? pgError('08006', 'connection failure') : null);
    for (const id of [1, 2]) add(id);
    await writer.whenWritten();
    expect(db.log.slice(0, 3)).toEqual(['begin', 'apply 1,2', 'rollback']);
    expect(db.transactions).toEqual([[1, 2]]);
    expect(db.ackedUncommitted).toEqual([]);
    expect(counters.snapshot().writeRetries).toBe(1);
  });

  it.each([
    ['a duplicate key (23505)', '23505'],
    ['an invalid value (22P02)', '22P02'],
  ])('splits a batch refused for %s until the bad message is found; drops and acknowledges only that one', async (_label, code) => {
    const { db, counters, writer, add } = setUp({ flushMs: 1000 });
    const BAD = 6;
    db.failApply = (ids) => (ids.includes(BAD) ? pgError(code) : null);
    for (const id of range(1, 9)) add(id);
    await writer.whenWritten();
    const stored = db.transactions.flat();
    expect(stored).toEqual([1, 2, 3, 4, 5, 7, 8, 9]);
    expect(db.committed.has(BAD)).toBe(false);
    expect([...db.acks].sort((a, b) => a - b)).toEqual(range(1, 9));
    expect(db.ackedUncommitted).toEqual([BAD]);
    expect(counters.snapshot()).toMatchObject({ written: 8, writeErrors: 1, writeRetries: 0 });

    // Nothing behind it is held up.
    add(10);
    await writer.whenWritten();
    expect(db.transactions.flat()).toContain(10);
  });

  it('whenWritten() resolves once the messages taken so far are stored, while more keep arriving', async () => {
    const { db, writer, add } = setUp({ batchSize: 3, flushMs: 1 });
    db.during = () => sleep(15);
    expect(await Promise.race([writer.whenWritten().then(() => 'resolved'), sleep(50).then(() => 'pending')])).toBe('resolved');

    for (const id of range(1, 5)) add(id);
    const written = writer.whenWritten();
    let next = 6;
    const arriving = setInterval(() => add(next++), 2);
    try {
      const outcome = await Promise.race([written.then(() => 'resolved'), sleep(4000).then(() => 'timed out')]);
      expect(outcome).toBe('resolved');
      // Everything taken before the call is stored and acknowledged; messages kept arriving meanwhile.
      for (const id of range(1, 5)) expect(db.committed.has(id)).toBe(true);
      expect(db.acks.slice(0, 5)).toEqual(range(1, 5));
      expect(next).toBeGreaterThan(7);
    } finally {
      clearInterval(arriving);
    }
    const last = next - 1;
    await writer.whenWritten();
    expect(db.acks).toEqual(range(1, last));
    expect(db.ackedUncommitted).toEqual([]);
  });

  it('stop() gives up on an unreachable database without acknowledging what it holds', async () => {
    const { db, writer, add } = setUp();
    db.failApply = () => pgError('57P01', 'terminating connection due to administrator command');
    add(1);
    const written = writer.whenWritten();
    await until(() => db.attempts >= 1);
    writer.stop();
    await written;
    // The attempt under way may end; none follows it, and nothing unstored is acknowledged.
    await sleep(400);
    const attempts = db.attempts;
    expect(attempts).toBeLessThanOrEqual(2);
    await sleep(1000);
    expect(db.attempts).toBe(attempts);
    expect(db.acks).toEqual([]);
  });

  it('a failure while announcing a committed batch neither writes it again nor holds back its acknowledgements', async () => {
    const { db, counters, writer, add } = setUp();
    db.publishThrows = 1;
    for (const id of [1, 2]) add(id);
    await writer.whenWritten();
    expect(db.transactions).toEqual([[1, 2]]);
    expect(db.attempts).toBe(1);
    expect(db.acks).toEqual([1, 2]);
    expect(counters.snapshot()).toMatchObject({ written: 2, writeRetries: 0, writeErrors: 0 });
  });
});

describe('IntakeWriter: errors of the program itself', () => {
  it('treats an error that is no database failure as the batch’s fault: split, dropped and counted, never retried forever', async () => {
    const { db, counters, writer, add } = setUp({ flushMs: 1000 });
    const BAD = 3;
    // A family's rule that throws on one device's message.
    db.failApply = (ids) => (ids.includes(BAD) ? new Error('a family rule failed') : null);
    for (const id of range(1, 4)) add(id);
    await writer.whenWritten();
    expect(db.transactions.flat()).toEqual([1, 2, 4]);
    expect(counters.snapshot()).toMatchObject({ written: 3, writeErrors: 1, writeRetries: 0 });
  });
});
