import { LampStatus, OnlineState } from '@sc/contracts';
import { waitFor } from '@sc/testing';
import { connectMqtt, WorkerHarness } from './worker-harness';

const stateTopic = (code: string) => `city/v1/lamp/${code}/state`;

/**
 * A worker that starts while lamps have long been connected learns their state from what the broker stored: more
 * stored states than a broker queues for one client (Mosquitto: 1,000), and a Last Will that fired while no worker
 * listened.
 */
describe('lighting worker: stored lamp states at start-up', () => {
  const h = new WorkerHarness();
  let ids: Map<string, number>;
  const codes: string[] = [];

  beforeAll(async () => {
    await h.setUp('wl_catchup');
    ids = await h.addLamps(1500, 'cu');
    codes.push(...ids.keys());
    const device = await connectMqtt();
    // All online but the last one, whose Last Will fired before the worker started.
    await Promise.all(
      codes.map((code, i) =>
        device.publishAsync(stateTopic(code), JSON.stringify(i === codes.length - 1 ? { online: false } : { online: true, on: true, level: 60 }), {
          qos: 1,
          retain: true,
        }),
      ),
    );
    await device.endAsync();
  }, 60_000);

  afterAll(async () => {
    const device = await connectMqtt();
    await Promise.all(codes.map((code) => device.publishAsync(stateTopic(code), '', { qos: 1, retain: true })));
    await device.endAsync();
    await h.tearDown();
  });

  it('reads every stored state once, online and offline', async () => {
    await h.startWorker();
    const counts = await waitFor(async () => {
      const [row] = await h.db.query<{ online: number; offline: number }>(
        `SELECT count(*) FILTER (WHERE network_status = 1 AND bri = 60)::int AS online,
                  count(*) FILTER (WHERE network_status = 0 AND status = $1)::int AS offline
             FROM lamp`,
        [LampStatus.Offline],
      );
      return row.online === codes.length - 1 && row.offline === 1 ? row : undefined;
    }, 20_000);
    expect(counts).toEqual({ online: 1499, offline: 1 });
    const last = ids.get(codes[codes.length - 1])!;
    const [row] = await h.db.query<{ network_status: number }>(`SELECT network_status FROM lamp WHERE device_id = $1`, [last]);
    expect(row.network_status).toBe(OnlineState.Offline);
  }, 30_000);
});
