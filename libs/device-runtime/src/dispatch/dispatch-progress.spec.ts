import type { Pool } from 'pg';
import pino from 'pino';
import { DeviceFamily, type FamilyDeclaration, type FamilyName } from '@sc/contracts';
import type { RedisBus } from '@sc/messaging';
import { DispatchProgress } from './dispatch-progress';

const D1 = '00000000-0000-4000-8000-000000000001';
const D2 = '00000000-0000-4000-8000-000000000002';

/** A family whose `show` command is followed row by row (receipts) and whose `ping` is not. */
const signage = {
  family: DeviceFamily.Signage,
  commands: { show: { receipts: true }, ping: {} },
} as unknown as FamilyDeclaration;

/**
 * The ledger's reads in memory: each read of moved rows is recorded (the pairs it asked for) and answered with one
 * row per pair, unless `failNext` refuses it, or `hold` keeps it open until the test lets it go.
 */
class FakeLedger {
  readonly rowReads: Array<Array<[string, number]>> = [];
  countReads = 0;
  failNext = false;
  hold: Promise<void> | null = null;

  readonly pool = {
    query: async (sql: string, params: unknown[]) => {
      if (sql.includes('unnest($1::uuid[], $2::int[])')) {
        const [dispatchIds, deviceIds] = params as [string[], number[]];
        this.rowReads.push(dispatchIds.map((id, i) => [id, deviceIds[i]]));
        if (this.hold) await this.hold;
        if (this.failNext) {
          this.failNext = false;
          throw new Error('connection lost');
        }
        return {
          rows: dispatchIds.map((dispatchId, i) => ({
            dispatchId,
            deviceId: deviceIds[i],
            state: 'sent',
            lastError: null,
            updatedAt: 'now',
            receipt: null,
          })),
        };
      }
      this.countReads++;
      return { rows: [] };
    },
  } as unknown as Pool;
}

function busRecorder() {
  const published: Array<{ type: string; payload: { dispatchId: string; family: string; rows?: Array<{ deviceId: number }> } }> = [];
  const bus = { publish: async (type: string, payload: never) => void published.push({ type, payload }) } as unknown as RedisBus;
  const rowEvents = () => published.filter((e) => e.type === 'DispatchRowsChanged');
  return { bus, published, rowEvents };
}

const row = (dispatch_id: string, device_id: number, action = 'show') => ({
  dispatch_id,
  device_id,
  family: DeviceFamily.Signage as FamilyName,
  action,
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('DispatchProgress row announcements', () => {
  const logger = pino({ level: 'silent' });

  it('announces stored rows at once, without waiting for the tallies interval', async () => {
    const ledger = new FakeLedger();
    const { bus, rowEvents } = busRecorder();
    // An interval far longer than the test: only the announcement itself can publish.
    const progress = new DispatchProgress(ledger.pool, bus, logger, 3_600_000, [signage]);
    progress.start();
    progress.touchRows([row(D1, 1), row(D1, 2), row(D2, 7)]);
    await settle();
    expect(rowEvents().map((e) => [e.payload.dispatchId, e.payload.family, e.payload.rows!.map((r) => r.deviceId)])).toEqual([
      [D1, DeviceFamily.Signage, [1, 2]],
      [D2, DeviceFamily.Signage, [7]],
    ]);
    // The tallies wait for their interval.
    expect(ledger.countReads).toBe(0);
    await progress.stop();
  });

  it('does not announce rows of commands without receipts one by one', async () => {
    const ledger = new FakeLedger();
    const { bus, rowEvents } = busRecorder();
    const progress = new DispatchProgress(ledger.pool, bus, logger, 3_600_000, [signage]);
    progress.touchRows([row(D1, 1, 'ping')]);
    await settle();
    expect(ledger.rowReads).toEqual([]);
    expect(rowEvents()).toEqual([]);
  });

  it('gathers the rows stored during an announcement into the next one, a single read', async () => {
    const ledger = new FakeLedger();
    const { bus, rowEvents } = busRecorder();
    const progress = new DispatchProgress(ledger.pool, bus, logger, 3_600_000, [signage]);
    let release!: () => void;
    ledger.hold = new Promise((resolve) => (release = resolve));
    progress.touchRows([row(D1, 1)]);
    await settle();
    expect(ledger.rowReads).toHaveLength(1);
    for (let device = 2; device <= 50; device++) progress.touchRows([row(D1, device)]);
    ledger.hold = null;
    release();
    await progress.announceRows();
    expect(ledger.rowReads.map((read) => read.length)).toEqual([1, 49]);
    expect(rowEvents().flatMap((e) => e.payload.rows!.map((r) => r.deviceId))).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('keeps rows whose read failed and announces them with the next tallies', async () => {
    const ledger = new FakeLedger();
    const { bus, published, rowEvents } = busRecorder();
    const progress = new DispatchProgress(ledger.pool, bus, logger, 3_600_000, [signage]);
    ledger.failNext = true;
    progress.touchRows([row(D2, 3)]);
    await settle();
    expect(rowEvents()).toEqual([]);
    await progress.flush();
    expect(rowEvents().map((e) => [e.payload.dispatchId, e.payload.family, e.payload.rows!.map((r) => r.deviceId)])).toEqual([
      [D2, DeviceFamily.Signage, [3]],
    ]);
    expect(ledger.countReads).toBeGreaterThan(0);
    expect(published.filter((e) => e.type === 'DispatchRowsChanged')).toHaveLength(1);
  });
});
