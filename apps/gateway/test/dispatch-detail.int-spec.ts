import { Client } from 'pg';
import { DeviceType, DispatchItemState, type DispatchDetail } from '@sc/contracts';
import { commandLedger } from '@sc/device-runtime';
import { waitFor, type ApiClient } from '@sc/testing';
import { startTestGateway, type TestGateway } from './harness';

const STATES = Object.values(DispatchItemState);

/** How an answer's totals stand against its own rows: each state's count, and the total, as told and as counted. */
function tally(detail: DispatchDetail) {
  const rows = Object.fromEntries(STATES.map((state) => [state, detail.items.filter((item) => item.state === state).length]));
  return { counts: detail.counts, rows, total: detail.total, itemsTotal: detail.itemsTotal, items: detail.items.length };
}

describe('dispatch detail: the totals and the rows of one answer', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  /** A connection of its own for the acks (the test database's is a single one). */
  let acks: Client;

  beforeAll(async () => {
    gw = await startTestGateway();
    admin = await gw.signedIn('admin');
    acks = new Client({ connectionString: gw.db.url });
    await acks.connect();
  });
  afterAll(async () => {
    await acks?.end();
    await gw?.close();
  });

  it('agree in every answer while acks land: each state counted as many times as it has rows', async () => {
    // 300 lamps and no worker: the rows stay queued until the acks below answer them.
    const ids = (
      await gw.db.query<{ id: number }>(
        `WITH d AS (INSERT INTO device (type, code, name) SELECT $1, 'ACK-' || g, 'Ack lamp ' || g FROM generate_series(1, 300) g RETURNING id)
         , l AS (INSERT INTO lamp (device_id) SELECT id FROM d) SELECT id FROM d ORDER BY id`,
        [DeviceType.SingleLamp],
      )
    ).map((row) => row.id);
    const control = await admin.post<{ dispatchId: string }>('/api/light/lampControl', { ids, action: 'on' });
    expect(control.status).toBe(200);
    const { dispatchId } = control.body.data;
    const items = await gw.db.query<{ device_id: number; command_id: string }>(
      `SELECT device_id, command_id FROM dispatch_item WHERE dispatch_id = $1 ORDER BY device_id`,
      [dispatchId],
    );

    // The acks land a few at a time, each batch committed on its own, as the lighting worker records them; every
    // seventh lamp refuses. Meanwhile two readers ask for the whole dispatch, as the dispatch panel does.
    let landing = true;
    const answers: DispatchDetail[] = [];
    const land = async () => {
      try {
        // Once a reader has its first answer (a busy machine may take longer over that than over every ack), then
        // with a moment between the batches, so readers see the dispatch on its way.
        await waitFor(() => (answers.length > 0 ? true : undefined), 10_000, 5);
        for (let i = 0; i < items.length; i += 5) {
          if (i > 0) await new Promise((resolve) => setTimeout(resolve, 5));
          const batch = items.slice(i, i + 5).map((item) => ({ deviceId: item.device_id, commandId: item.command_id, ok: item.device_id % 7 !== 0 }));
          expect(await commandLedger.recordAcks(acks, batch)).toHaveLength(batch.length);
        }
      } finally {
        landing = false;
      }
    };
    const read = async () => {
      while (landing) {
        const answer = await admin.get<DispatchDetail>(`/api/dispatch/detail?id=${dispatchId}`);
        expect(answer.status).toBe(200);
        answers.push(answer.body.data);
      }
    };
    await Promise.all([land(), read(), read()]);
    answers.push((await admin.get<DispatchDetail>(`/api/dispatch/detail?id=${dispatchId}`)).body.data);

    const disagreeing = answers
      .map(tally)
      .filter((t) => t.total !== t.items || t.itemsTotal !== t.items || STATES.some((s) => t.counts[s] !== t.rows[s]));
    expect(disagreeing).toEqual([]);
    // The readers saw the dispatch move: answers with some acks landed and some still to come.
    const moving = answers.filter((a) => a.counts.queued > 0 && a.counts.queued < items.length);
    expect(moving.length).toBeGreaterThan(0);
    const refused = items.filter((item) => item.device_id % 7 === 0).length;
    expect(answers.at(-1)!.counts).toEqual({ queued: 0, sent: 0, delivered: items.length - refused, failed: refused, expired: 0 });
  });
});
