import type { MqttClient } from 'mqtt';
import type { DeviceWorker } from '@sc/device-runtime';
import { waitFor } from '@sc/testing';
import { connectMqtt, RuntimeHarness, THERMO_FAMILY } from './runtime-harness';

const stateTopic = (code: string) => `city/v1/radar/${code}/state`;
/** Three times what Mosquitto queues for one client by default (max_queued_messages 1000). */
const DEVICES = 3000;
/** Registered later in one statement: more than the 100 codes the database announces one by one, so it says `*`. */
const IMPORTED = 150;

/**
 * A worker that starts while its devices have long reported learns their states from what the broker stored
 * (retained): far more than the broker would queue for one client, read a chunk at a time. A catch-up later (what a
 * broker reconnect runs) reads every device in the database, also those registered after they reported.
 */
describe('device runtime: stored states of a family declared outside libs/contracts', () => {
  const h = new RuntimeHarness();
  let ids: Map<string, number>;
  let codes: string[];
  let imported: string[];
  let device: MqttClient;
  let worker: DeviceWorker;

  /** Setpoints 5.0 … 34.9, one per device, so a state read for the wrong device shows. */
  const setpointOf = (i: number) => 5 + (i % 300) / 10;

  const publishRetained = (list: string[], payload: (i: number) => unknown) =>
    Promise.all(list.map((code, i) => device.publishAsync(stateTopic(code), JSON.stringify(payload(i)), { qos: 1, retain: true })));

  beforeAll(async () => {
    await h.setUp('rt_catchup');
    ids = await h.addDevices(THERMO_FAMILY, DEVICES, 'C');
    codes = [...ids.keys()];
    imported = Array.from({ length: IMPORTED }, (_, i) => `${h.codePrefix}I${String(i + 1).padStart(5, '0')}`);
    device = await connectMqtt();
    // Every device online with its own setpoint but the last, whose Last Will fired before any worker listened.
    await publishRetained(codes, (i) => (i === DEVICES - 1 ? { online: false } : { online: true, setpoint: setpointOf(i), mode: 'heat' }));
  }, 120_000);

  afterAll(async () => {
    // Leave nothing stored behind on the shared broker.
    await Promise.all([...codes, ...imported].map((code) => device?.publishAsync(stateTopic(code), '', { qos: 1, retain: true })));
    await device?.endAsync();
    await h.tearDown();
  }, 60_000);

  it(`reads all ${DEVICES} stored states at start, each for its own device`, async () => {
    worker = await h.startWorker();
    const stored = await waitFor(
      async () => {
        const [row] = await h.db.query<{ online: number; offline: number }>(
          `SELECT count(*) FILTER (WHERE network_status = 1)::int AS online, count(*) FILTER (WHERE network_status = 0 AND status = -5)::int AS offline
             FROM test_thermo`,
        );
        return row.online + row.offline === DEVICES ? row : undefined;
      },
      60_000,
      200,
    );
    expect(stored).toEqual({ online: DEVICES - 1, offline: 1 });
    const rows = await h.db.query<{ code: string; setpoint: number | null; mode: string }>(
      `SELECT d.code, t.setpoint, t.mode FROM test_thermo t JOIN device d ON d.id = t.device_id ORDER BY d.code`,
    );
    const wrong = rows.filter((r, i) => (i === DEVICES - 1 ? r.setpoint !== null : r.setpoint !== setpointOf(i) || r.mode !== 'heat'));
    expect(wrong).toEqual([]);
    const counters = worker.counters.snapshot();
    // Unknown devices are not counted here: test files beside this one report devices of their own on the same broker,
    // which this worker hears and drops; its own devices' states were all stored (above).
    expect(counters.rejected).toMatchObject({ 'bad-topic': 0, malformed: 0 });
    expect(counters.writeErrors).toBe(0);
  }, 90_000);

  it('a later catch-up reads every device in the database, also those registered in bulk after they reported', async () => {
    // Devices already reporting before they were registered: their states are stored on the broker, and dropped
    // live as unknown.
    const rejected = worker.counters.snapshot().rejected['unknown-device'];
    await publishRetained(imported, () => ({ online: true, setpoint: 30, mode: 'cool' }));
    await waitFor(() => (worker.counters.snapshot().rejected['unknown-device'] >= rejected + IMPORTED ? true : undefined), 20_000);

    // One statement registers them all (announced as `*`: every cached code is dropped).
    await h.db.query(
      `WITH d AS (INSERT INTO device (type, code, name) SELECT $2, code, code FROM unnest($1::text[]) AS code RETURNING id)
       INSERT INTO test_thermo (device_id) SELECT id FROM d`,
      [imported, THERMO_FAMILY.deviceType],
    );
    const read = await worker.catchUp();
    expect(read).toBe(DEVICES + IMPORTED);
    const counts = await waitFor(async () => {
      const [row] = await h.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM test_thermo t JOIN device d ON d.id = t.device_id WHERE d.code = ANY($1::text[]) AND t.setpoint = 30 AND t.network_status = 1`,
        [imported],
      );
      return row.n === IMPORTED ? row : undefined;
    }, 20_000);
    expect(counts.n).toBe(IMPORTED);
  }, 60_000);
});
