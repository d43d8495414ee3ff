import type { MqttClient } from 'mqtt';
import { DispatchStatus, LampStatus, MqttChannel, mqttTopics, type LampCommand } from '@sc/contracts';
import { JobHandlerError } from '@sc/messaging';
import { waitFor } from '@sc/testing';
import { lampGatewayHandler } from '../src/families/lamp-gateway.handler';
import { stripHandler } from '../src/families/strip.handler';
import { connectMqtt, WorkerHarness } from './worker-harness';

type Reply = 'ok' | 'fail' | 'silent';

/** Plays the lamps: answers each command by the lamp's behaviour and remembers what arrived. */
class PlayedLamps {
  readonly received = new Map<string, LampCommand[]>();
  readonly behaviour = new Map<string, Reply>();

  constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload) => {
      const parsed = mqttTopics.parse(topic);
      if (!parsed || !this.behaviour.has(parsed.deviceId)) return;
      const command = JSON.parse(payload.toString()) as LampCommand;
      this.received.set(parsed.deviceId, [...(this.received.get(parsed.deviceId) ?? []), command]);
      const reply = this.behaviour.get(parsed.deviceId);
      if (reply === 'silent') return;
      const ack = reply === 'ok' ? { id: command.id, ok: true } : { id: command.id, ok: false, error: 'relay stuck' };
      client.publish(mqttTopics.of(parsed.family, parsed.deviceId, MqttChannel.Ack), JSON.stringify(ack), { qos: 1 });
    });
  }

  static async start(): Promise<PlayedLamps> {
    const client = await connectMqtt();
    await client.subscribeAsync('city/v1/lamp/+/cmd', { qos: 1 });
    return new PlayedLamps(client);
  }
}

describe('lighting worker: dispatches', () => {
  const h = new WorkerHarness();
  let lamps: PlayedLamps;

  beforeAll(async () => {
    await h.setUp('wl_dispatch');
    lamps = await PlayedLamps.start();
  });
  afterAll(async () => {
    await lamps.client.endAsync();
    await h.tearDown();
  });

  it('refuses to start when a job of its queue has no handler', async () => {
    // Strip lights share the lamps' queue: a worker serving them without lamps has no handler for the lamp job.
    await expect(h.startWorker({}, { families: [stripHandler, lampGatewayHandler] })).rejects.toThrow(JobHandlerError);
    await h.startWorker();
  });

  it('delivers a dispatch: rows delivered, lamps -4 with the commanded level, events on the bus', async () => {
    const ids = await h.addLamps(5, 'ok');
    for (const code of ids.keys()) lamps.behaviour.set(code, 'ok');
    const dispatchId = await h.dispatch([...ids.values()], 'dim', { level: 40 });

    const done = await waitFor(() => h.events.DispatchProgress.find((e) => e.dispatchId === dispatchId && e.status === DispatchStatus.AllSuccessful));
    expect(done.counts).toEqual({ queued: 0, sent: 0, delivered: 5, failed: 0, expired: 0 });
    const items = await h.db.query<{ state: string; attempts: number }>(`SELECT state, attempts FROM dispatch_item WHERE dispatch_id = $1`, [
      dispatchId,
    ]);
    expect(items.every((i) => i.state === 'delivered' && i.attempts === 1)).toBe(true);
    const stored = await h.db.query<{ status: number; bri: number; switch_state: number }>(
      `SELECT status, bri, switch_state FROM lamp WHERE device_id = ANY($1::int[])`,
      [[...ids.values()]],
    );
    expect(stored).toEqual(Array(5).fill({ status: LampStatus.DistributionSucceeded, bri: 40, switch_state: 1 }));
    const [dispatch] = await h.db.query<{ status: string; finished_at: Date | null }>(`SELECT status, finished_at FROM dispatch WHERE id = $1`, [
      dispatchId,
    ]);
    expect(dispatch.status).toBe(DispatchStatus.AllSuccessful);
    expect(dispatch.finished_at).not.toBeNull();

    const firstId = [...ids.values()][0];
    await waitFor(() => (h.events.DeviceStateChanged.some((e) => e.recordId === firstId && e.changed.status === -4) ? true : undefined));
    const changes = h.events.DeviceStateChanged.filter((e) => e.recordId === firstId).map((e) => e.changed);
    expect(changes).toEqual([{ status: LampStatus.Distributing }, { status: LampStatus.DistributionSucceeded, bri: 40, switchState: 1 }]);
    expect(h.worker!.snapshot().commandsPublished).toBeGreaterThanOrEqual(5);
  });

  it('a refused command fails its row (-3); a silent lamp is re-sent the same id, then expires; the batch is partially successful', async () => {
    const ids = await h.addLamps(3, 'mix');
    const [okCode, failCode, silentCode] = [...ids.keys()];
    lamps.behaviour.set(okCode, 'ok');
    lamps.behaviour.set(failCode, 'fail');
    lamps.behaviour.set(silentCode, 'silent');
    const dispatchId = await h.dispatch([...ids.values()], 'on', {}, 2000);

    const done = await waitFor(
      () => h.events.DispatchProgress.find((e) => e.dispatchId === dispatchId && e.status !== DispatchStatus.ToBeSent),
      8000,
    );
    expect(done.status).toBe(DispatchStatus.PartiallySuccessful);
    expect(done.counts).toEqual({ queued: 0, sent: 0, delivered: 1, failed: 1, expired: 1 });

    const rows = await h.db.query<{ code: string; state: string; attempts: number; last_error: string | null; status: number }>(
      `SELECT d.code, i.state, i.attempts, i.last_error, l.status FROM dispatch_item i JOIN device d ON d.id = i.device_id
         JOIN lamp l ON l.device_id = i.device_id WHERE i.dispatch_id = $1`,
      [dispatchId],
    );
    const byCode = new Map(rows.map((r) => [r.code, r]));
    expect(byCode.get(okCode)).toMatchObject({ state: 'delivered', status: LampStatus.DistributionSucceeded });
    expect(byCode.get(failCode)).toMatchObject({ state: 'failed', last_error: 'relay stuck', status: LampStatus.DistributionFailed });
    expect(byCode.get(silentCode)).toMatchObject({ state: 'expired', last_error: 'expired', status: LampStatus.DistributionFailed });

    // 300 ms, then 600 ms, then 1200 ms would pass the 2 s expiry: at least two sends, all under one command id.
    const sends = lamps.received.get(silentCode)!;
    expect(sends.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sends.map((c) => c.id)).size).toBe(1);
    expect(byCode.get(silentCode)!.attempts).toBe(sends.length);
    expect(lamps.received.get(okCode)).toHaveLength(1);
  });

  it('a lamp that went offline keeps its command until expiry; the tracker finishes the batch', async () => {
    const ids = await h.addLamps(1, 'gone');
    const dispatchId = await h.dispatch([...ids.values()], 'off', {}, 800);
    const done = await waitFor(
      () => h.events.DispatchProgress.find((e) => e.dispatchId === dispatchId && e.status !== DispatchStatus.ToBeSent),
      5000,
    );
    expect(done.status).toBe(DispatchStatus.AllFailures);
    expect(h.worker!.snapshot().expired).toBeGreaterThanOrEqual(1);
  });
});
