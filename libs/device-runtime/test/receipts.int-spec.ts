import type { MqttClient } from 'mqtt';
import { DispatchItemState, type DispatchRowChange } from '@sc/contracts';
import { commandLedger, type DeviceWorker } from '@sc/device-runtime';
import { waitFor } from '@sc/testing';
import { connectMqtt, RuntimeHarness, THERMO_FAMILY, type CommandSeen } from './runtime-harness';

/**
 * Commands declared with receipts (a firmware the test family's devices fetch): the devices say how far they have got
 * before they ack, the ledger keeps each row's last receipt, a receipt keeps the command from being re-sent, and every
 * row's move is announced on its own (DispatchRowsChanged), for the console's receive-status views.
 */
describe('device runtime: receipts of commands that name files to fetch', () => {
  const h = new RuntimeHarness();
  let worker: DeviceWorker;
  let device: MqttClient;
  let ids: Map<string, number>;
  let codes: string[];
  const received = new Map<string, CommandSeen[]>();

  const send = (code: string, body: unknown) => device.publishAsync(`city/v1/radar/${code}/ack`, JSON.stringify(body), { qos: 1 });
  const commandsOf = (code: string) => received.get(code) ?? [];
  const rowsOf = async (dispatchId: string) => {
    const detail = await commandLedger.detail(h.pool, { id: dispatchId });
    return new Map(detail!.items.map((row) => [row.deviceCode, row]));
  };
  /** Every announced move of one device's row, in order. */
  const announced = (dispatchId: string, deviceId: number): DispatchRowChange[] =>
    h.events.DispatchRowsChanged.filter((e) => e.dispatchId === dispatchId).flatMap((e) => e.rows.filter((r) => r.deviceId === deviceId));

  beforeAll(async () => {
    await h.setUp('rt_receipts');
    ids = await h.addDevices(THERMO_FAMILY, 3, 'R');
    codes = [...ids.keys()];
    device = await connectMqtt();
    device.on('message', (topic, payload) => {
      const code = topic.split('/')[3];
      if (!ids.has(code)) return;
      received.set(code, [...commandsOf(code), JSON.parse(payload.toString()) as CommandSeen]);
    });
    await device.subscribeAsync(
      codes.map((code) => `city/v1/radar/${code}/cmd`),
      { qos: 1 },
    );
    // A short ack time-out: a command nobody answers is re-sent within a second; a receipt holds it for two.
    worker = await h.startWorker(undefined, { ackTimeoutMs: 300, maxBackoffMs: 2000 });
  }, 60_000);

  afterAll(async () => {
    await device?.endAsync();
    await h.tearDown();
  }, 60_000);

  it('keeps each row’s last receipt, holds its command from re-sends, and announces every move of its rows', async () => {
    const [a, b, c] = codes;
    const dispatchId = await h.dispatch(THERMO_FAMILY, 'firmware', { url: 'https://files.example/fw-2.bin' }, [...ids.values()], 30);
    await waitFor(() => (codes.every((code) => commandsOf(code).length > 0) ? true : undefined), 10_000);
    const [commandA] = commandsOf(a);
    const [commandC] = commandsOf(c);
    expect(commandA).toMatchObject({ type: 'firmware', params: { url: 'https://files.example/fw-2.bin' } });

    await send(a, { id: commandA.id, receipt: { stage: 'received' } });
    await send(a, { id: commandA.id, receipt: { stage: 'downloading', received: 40, total: 100 } });
    // One that came late says less than the row knows: the row keeps the later stage.
    await send(a, { id: commandA.id, receipt: { stage: 'received' } });
    // B speaks for A's command: it is not B's, so nothing happens to A's row.
    await send(b, { id: commandA.id, receipt: { stage: 'downloading', received: 99, total: 100 } });
    await send(c, { id: commandC.id, receipt: { stage: 'downloading', received: 10, total: 100 } });
    // A receipt that is neither a receipt nor an ack is refused as malformed.
    await send(c, { id: commandC.id, receipt: { stage: 'installing' } });

    const rows = await waitFor(async () => {
      const now = await rowsOf(dispatchId);
      return now.get(a)?.receipt?.stage === 'downloading' && now.get(c)?.receipt ? now : undefined;
    }, 10_000);
    expect(rows.get(a)!.receipt).toMatchObject({ stage: 'downloading', received: 40, total: 100 });
    expect(rows.get(b)!.receipt).toBeNull();

    // Well past the ack time-out: B, silent, was sent its command again; A and C, downloading, were not.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(commandsOf(b).length).toBeGreaterThan(1);
    expect(commandsOf(a)).toHaveLength(1);
    expect(commandsOf(c)).toHaveLength(1);
    await waitFor(async () => ((await rowsOf(dispatchId)).get(a)?.receipt?.stage === 'downloading' ? true : undefined), 5000);

    await send(a, { id: commandA.id, ok: true });
    await send(b, { id: commandsOf(b).at(-1)!.id, ok: false, error: 'disk full' });
    await send(c, { id: commandC.id, ok: false, error: 'checksum mismatch' });
    const done = await waitFor(async () => {
      const now = await rowsOf(dispatchId);
      return [...now.values()].every((row) => row.state !== DispatchItemState.Sent) ? now : undefined;
    }, 10_000);
    expect([a, b, c].map((code) => [done.get(code)!.state, done.get(code)!.lastError])).toEqual([
      [DispatchItemState.Delivered, null],
      [DispatchItemState.Failed, 'disk full'],
      [DispatchItemState.Failed, 'checksum mismatch'],
    ]);

    // Every move was announced row by row, in order, as the console's receive-status views need.
    const moves = await waitFor(() => {
      const list = announced(dispatchId, ids.get(a)!);
      return list.some((r) => r.state === DispatchItemState.Delivered) ? list : undefined;
    }, 5000);
    expect(moves.map((r) => `${r.state}:${r.receipt?.stage ?? '-'}`)).toEqual(expect.arrayContaining(['sent:downloading', 'delivered:downloading']));
    expect(moves.at(-1)!.state).toBe(DispatchItemState.Delivered);
    const lastOfB = await waitFor(() => {
      const last = announced(dispatchId, ids.get(b)!).at(-1);
      return last?.state === DispatchItemState.Failed ? last : undefined;
    }, 5000);
    expect(lastOfB).toMatchObject({ lastError: 'disk full', receipt: null });
    expect(worker.counters.snapshot().rejected.malformed).toBeGreaterThanOrEqual(1);

    // Retried, the failed rows start again: what the devices had received of the old command no longer counts.
    const client = await h.pool.connect();
    try {
      expect(await commandLedger.requeueFailed(client, dispatchId)).toBe(2);
    } finally {
      client.release();
    }
    const retried = await rowsOf(dispatchId);
    expect(retried.get(c)!.receipt).toBeNull();
    expect(retried.get(a)!.receipt).toMatchObject({ stage: 'downloading' });
  }, 60_000);

  it('keeps a row open past its dispatch’s expiry while its device says how its download goes; a silent one expires', async () => {
    const [a, b] = codes;
    const before = new Map([a, b].map((code) => [code, commandsOf(code).length]));
    const newCommand = (code: string) => (commandsOf(code).length > before.get(code)! ? commandsOf(code).at(-1) : undefined);
    // Two seconds to live; the worker's receipt hold is two seconds as well (maxBackoffMs).
    const dispatchId = await h.dispatch(THERMO_FAMILY, 'firmware', { url: 'https://files.example/fw-3.bin' }, [ids.get(a)!, ids.get(b)!], 2);
    const commandA = await waitFor(() => newCommand(a), 10_000);
    await waitFor(() => newCommand(b), 10_000);
    const started = Date.now();
    // A downloads slowly, reporting every 400 ms until well past the expiry, then acks; B says it has the command and
    // then nothing more.
    await send(b, { id: newCommand(b)!.id, receipt: { stage: 'received' } });
    for (let part = 1; Date.now() - started < 5000; part++) {
      await send(a, { id: commandA.id, receipt: { stage: 'downloading', received: part, total: 100 } });
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    const middle = await rowsOf(dispatchId);
    expect(middle.get(a)!.state).toBe(DispatchItemState.Sent);
    expect(middle.get(b)!.state).toBe(DispatchItemState.Expired);
    await send(a, { id: commandA.id, ok: true });
    const done = await waitFor(async () => {
      const now = await rowsOf(dispatchId);
      return now.get(a)!.state === DispatchItemState.Delivered ? now : undefined;
    }, 10_000);
    expect(done.get(a)!.lastError).toBeNull();
    expect(done.get(b)!.lastError).toBe('expired');
  }, 30_000);

  it('announces no row of a command declared without receipts', async () => {
    const [a] = codes;
    const dispatchId = await h.dispatch(THERMO_FAMILY, 'set', { setpoint: 21 }, [ids.get(a)!], 30);
    await waitFor(() => (commandsOf(a).some((cmd) => cmd.type === 'set') ? true : undefined), 10_000);
    await send(a, { id: commandsOf(a).find((cmd) => cmd.type === 'set')!.id, ok: true });
    await waitFor(() => (h.events.DispatchProgress.some((e) => e.dispatchId === dispatchId && e.counts.delivered === 1) ? true : undefined), 10_000);
    expect(h.events.DispatchRowsChanged.filter((e) => e.dispatchId === dispatchId)).toEqual([]);
  }, 30_000);
});
