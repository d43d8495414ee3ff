import { Client } from 'pg';
import type { MqttClient } from 'mqtt';
import { DEVICE_CODES_CHANNEL } from '@sc/database';
import { waitFor } from '@sc/testing';
import { DEVICE_CODES_LISTENER } from '@sc/device-runtime';
import { connectMqtt, WorkerHarness } from './worker-harness';

const topic = (code: string) => `city/v1/lamp/${code}/state`;

describe('lighting worker: device codes that change', () => {
  const h = new WorkerHarness();
  let device: MqttClient;
  let listener: Client;
  const payloads: string[] = [];

  const levelOf = async (id: number) =>
    (await h.db.query<{ bri: number }>(`SELECT bri FROM lamp WHERE device_id = $1`, [id]))[0]?.bri as number | undefined;
  /** Publishes a state with this level from `code` and waits until lamp `id` holds it. */
  const reportLands = async (code: string, level: number, id: number) => {
    await device.publishAsync(topic(code), JSON.stringify({ online: true, on: level > 0, level }), { qos: 1 });
    return waitFor(async () => ((await levelOf(id)) === level ? true : undefined), 4000);
  };
  const addLamp = async (code: string) => {
    const [{ id }] = await h.db.query<{ id: number }>(`INSERT INTO device (type, code, name) VALUES (1, $1, $1) RETURNING id`, [code]);
    await h.db.query(`INSERT INTO lamp (device_id, network_status) VALUES ($1, 1)`, [id]);
    return id;
  };
  /** Runs a change and waits until the database announced it (the worker hears it on its own connection at the same moment). */
  const announced = async <T>(change: () => Promise<T>): Promise<T> => {
    const before = payloads.length;
    const result = await change();
    await waitFor(() => (payloads.length > before ? true : undefined), 2000, 5);
    await new Promise((r) => setTimeout(r, 100));
    return result;
  };
  const workerListening = async () =>
    (
      await h.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
        [DEVICE_CODES_LISTENER],
      )
    )[0].n;

  beforeAll(async () => {
    await h.setUp('wl_codes');
    await h.startWorker();
    device = await connectMqtt();
    listener = new Client({ connectionString: h.db.url });
    await listener.connect();
    listener.on('notification', (msg) => payloads.push(msg.payload ?? ''));
    await listener.query(`LISTEN ${DEVICE_CODES_CHANNEL}`);
  });
  afterAll(async () => {
    await device?.endAsync();
    await listener?.end();
    await h.tearDown();
  });

  it('announces added, re-coded and deleted devices with their keys, and many at once as *', async () => {
    const code = `${h.codePrefix}ann`;
    payloads.length = 0;
    const id = await addLamp(code);
    await h.db.query(`UPDATE device SET name = 'renamed only' WHERE id = $1`, [id]);
    await h.db.query(`UPDATE device SET code = $2 WHERE id = $1`, [id, `${code}2`]);
    await h.db.query(`DELETE FROM device WHERE id = $1`, [id]);
    await h.db.query(`INSERT INTO device (type, code, name) SELECT 1, $1 || g, 'many' FROM generate_series(1, 101) g`, [`${code}-m`]);
    await waitFor(() => (payloads.length >= 4 ? true : undefined), 2000, 5);
    expect(payloads.map((p) => (p === '*' ? p : JSON.parse(p)))).toEqual([
      [`1/${code}`],
      expect.arrayContaining([`1/${code}`, `1/${code}2`]),
      [`1/${code}2`],
      '*',
    ]);
  });

  it("a lamp's reports follow its code: after a re-code, a new lamp under the old code gets the old code's reports", async () => {
    const oldCode = `${h.codePrefix}A`;
    const newCode = `${h.codePrefix}B`;
    const first = await addLamp(oldCode);
    await reportLands(oldCode, 20, first);
    await announced(() => h.db.query(`UPDATE device SET code = $2 WHERE id = $1`, [first, newCode]));
    const second = await announced(() => addLamp(oldCode));
    await reportLands(oldCode, 60, second);
    expect(await levelOf(first)).toBe(20);
    await reportLands(newCode, 80, first);
    expect(await levelOf(second)).toBe(60);
  });

  it('a lamp deleted and added again under its code has its reports accepted for the new record', async () => {
    const code = `${h.codePrefix}C`;
    const gone = await addLamp(code);
    await reportLands(code, 40, gone);
    await announced(() => h.db.query(`DELETE FROM device WHERE id = $1`, [gone]));
    // A report in the gap is refused (and the miss remembered); the new record must still be found at once.
    await device.publishAsync(topic(code), JSON.stringify({ online: true, on: true, level: 100 }), { qos: 1 });
    await new Promise((r) => setTimeout(r, 100));
    const again = await announced(() => addLamp(code));
    expect(again).not.toBe(gone);
    await reportLands(code, 60, again);
  });

  it('forgets everything it knew when its LISTEN connection was lost, so a change made meanwhile cannot mislead it', async () => {
    const code = `${h.codePrefix}D`;
    const first = await addLamp(code);
    await reportLands(code, 20, first);
    await h.db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`, [
      DEVICE_CODES_LISTENER,
    ]);
    await waitFor(async () => ((await workerListening()) === 0 ? true : undefined), 2000, 5);
    // Nobody hears these announcements.
    await h.db.query(`UPDATE device SET code = $2 WHERE id = $1`, [first, `${code}-old`]);
    const second = await addLamp(code);
    await waitFor(async () => ((await workerListening()) === 1 ? true : undefined), 5000, 20);
    await new Promise((r) => setTimeout(r, 200));
    await reportLands(code, 80, second);
    expect(await levelOf(first)).toBe(20);
  });
});
