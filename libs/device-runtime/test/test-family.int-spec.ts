import type { MqttClient } from 'mqtt';
import { DispatchStatus } from '@sc/contracts';
import type { DeviceWorker } from '@sc/device-runtime';
import { waitFor } from '@sc/testing';
import { connectMqtt, PlayedDevices, RuntimeHarness, Thermo, THERMO_FAMILY, THERMO_JOB } from './runtime-harness';

const topic = (code: string, channel: string) => `city/v1/radar/${code}/${channel}`;

/**
 * A device family declared only in this test (thermostats, on the radar topics and registry type, which nothing
 * else here serves) runs on the device runtime with nothing but its declaration, its table and its handler: its
 * devices' reports are stored and announced, its commands go out, are re-sent, acknowledged or expire.
 */
describe('device runtime: a family declared outside libs/contracts', () => {
  const h = new RuntimeHarness();
  let worker: DeviceWorker;
  let ids: Map<string, number>;
  let codes: string[];
  let device: MqttClient;
  let played: PlayedDevices;

  const row = async (id: number) =>
    (
      await h.db.query<Record<string, unknown>>(
        `SELECT status, network_status, setpoint, mode, temperature, readings, reported_at FROM test_thermo WHERE device_id = $1`,
        [id],
      )
    )[0];
  const publish = (code: string, channel: string, payload: unknown) =>
    device.publishAsync(topic(code, channel), typeof payload === 'string' ? payload : JSON.stringify(payload), { qos: 1 });

  beforeAll(async () => {
    await h.setUp('rt_family');
    ids = await h.addDevices(THERMO_FAMILY, 10, 'T');
    codes = [...ids.keys()];
    // A burst of messages lands in one write (one transaction), so its changes travel in one DeviceStateChanged; acks
    // are stored as late, so the first re-send waits longer than that.
    worker = await h.startWorker(undefined, { intakeFlushMs: 400, ackTimeoutMs: 1000, silenceSweepMs: 200 });
    device = await connectMqtt();
    played = await PlayedDevices.start('radar');
  }, 60_000);

  afterAll(async () => {
    await device?.endAsync();
    await played?.stop();
    await h.tearDown();
  });

  it('stores its devices’ states and telemetry and announces one DeviceStateChanged per write, with only the changed fields', async () => {
    const [a, b, c] = codes;
    const [idA, idB, idC] = [a, b, c].map((code) => ids.get(code)!);
    await Promise.all([
      publish(a, 'state', { online: true, setpoint: 21, mode: 'heat', extra: 'dropped' }),
      publish(b, 'state', { online: true, setpoint: 19.5, mode: 'cool' }),
      publish(c, 'state', { online: true, setpoint: 23, mode: 'off' }),
    ]);
    const first = await waitFor(() => {
      const seen = h.changesOf([idA, idB, idC]);
      return seen.flatMap((e) => e.changes).length >= 3 ? seen : undefined;
    });
    // One event for the one write of the burst, every device in it once.
    expect(first).toHaveLength(1);
    expect(first[0].family).toBe('radar');
    const byId = new Map(first[0].changes.map((change) => [change.recordId, change]));
    expect(byId.get(idA)).toEqual({
      recordId: idA,
      deviceCode: a,
      // status stays 0 and comfort stays unknown: not announced.
      changed: { networkStatus: 1, setpoint: 21, mode: 'heat', reportedAt: expect.any(String) },
    });
    expect(byId.get(idB)!.changed).toEqual({ networkStatus: 1, setpoint: 19.5, mode: 'cool', reportedAt: expect.any(String) });
    expect(await row(idA)).toMatchObject({ status: Thermo.Normal, network_status: 1, setpoint: 21, mode: 'heat', temperature: null });

    // A state that changes only the mode, and telemetry that brings a derived field along.
    const before = h.events.DeviceStateChanged.length;
    const reading = { ts: '2026-01-01T10:00:00.000Z', temperature: 17.5, humidity: 40 };
    await Promise.all([publish(a, 'state', { online: true, setpoint: 21, mode: 'cool' }), publish(b, 'telemetry', reading)]);
    const second = await waitFor(() => {
      const seen = h.changesOf([idA, idB], before);
      return seen.flatMap((e) => e.changes).length >= 2 ? seen : undefined;
    });
    expect(second).toHaveLength(1);
    const next = new Map(second[0].changes.map((change) => [change.recordId, change.changed]));
    expect(next.get(idA)).toEqual({ mode: 'cool', reportedAt: expect.any(String) });
    expect(next.get(idB)).toEqual({ temperature: 17.5, readings: reading, comfort: 'cold', reportedAt: expect.any(String) });
    expect(await row(idB)).toMatchObject({ temperature: 17.5, readings: reading, setpoint: 19.5 });

    // The same reading again, in the device's key order (PostgreSQL keeps jsonb keys in its own): only the time it
    // was reported changes.
    const since = h.events.DeviceStateChanged.length;
    await publish(b, 'telemetry', reading);
    const [third] = await waitFor(() => (h.changesOf([idB], since).length > 0 ? h.changesOf([idB], since) : undefined));
    expect(third.changes).toEqual([{ recordId: idB, deviceCode: b, changed: { reportedAt: expect.any(String) } }]);
    expect(worker.counters.snapshot().writeErrors).toBe(0);
  });

  it('a Last Will makes a device offline, and its next state brings it back', async () => {
    const code = codes[3];
    const id = ids.get(code)!;
    await publish(code, 'state', { online: true, setpoint: 20, mode: 'heat' });
    await waitFor(async () => ((await row(id)).network_status === 1 ? true : undefined));
    await publish(code, 'state', { online: false });
    const offline = await waitFor(() => h.changesOf([id]).find((e) => e.changes[0].changed.status === Thermo.Offline));
    expect(offline.changes[0].changed).toEqual({ status: Thermo.Offline, networkStatus: 0 });
    await publish(code, 'state', { online: true, setpoint: 20, mode: 'heat' });
    const back = await waitFor(() => h.changesOf([id]).find((e) => e.changes[0].changed.status === Thermo.Normal));
    expect(back.changes[0].changed).toEqual({ status: Thermo.Normal, networkStatus: 1, reportedAt: expect.any(String) });
  });

  it('a device silent for three heartbeats is taken offline as if its Last Will had come; one heard within them stays online', async () => {
    const [silent, heard] = [codes[8], codes[9]].map((code) => ids.get(code)!);
    // Stored online, as a retained state can say long after its device went quiet: last heard 4 and 2 minutes ago,
    // against a heartbeat of 60 s.
    await h.db.query(
      `UPDATE test_thermo SET network_status = 1, status = $3, reported_at = now() - (CASE WHEN device_id = $1 THEN 240 ELSE 120 END) * interval '1 second'
        WHERE device_id = ANY(ARRAY[$1, $2]::int[])`,
      [silent, heard, Thermo.Normal],
    );
    const offline = await waitFor(() => h.changesOf([silent]).find((e) => e.changes[0].changed.networkStatus === 0));
    // The family's own rule for a Last Will, announced like any other change; when it last reported stays.
    expect(offline.changes[0].changed).toEqual({ status: Thermo.Offline, networkStatus: 0 });
    expect(await row(silent)).toMatchObject({ network_status: 0, status: Thermo.Offline });
    expect(worker.counters.snapshot().silentOffline).toBeGreaterThanOrEqual(1);
    // The other is within its three heartbeats: several sweeps later it is still online.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await row(heard)).toMatchObject({ network_status: 1, status: Thermo.Normal });
    expect(h.changesOf([heard])).toEqual([]);
    // The silent one's next report brings it back.
    await publish(codes[8], 'state', { online: true, setpoint: 20, mode: 'heat' });
    await waitFor(async () => ((await row(silent)).network_status === 1 ? true : undefined));
  });

  it('refuses malformed payloads and unknown devices without touching any row', async () => {
    const code = codes[4];
    const id = ids.get(code)!;
    const stored = await row(id);
    const before = worker.counters.snapshot();
    const eventsBefore = h.changesOf([id]).length;
    await publish(code, 'state', { online: true, setpoint: 99, mode: 'heat' });
    await publish(code, 'state', { online: true, setpoint: 20, mode: 'fan' });
    await publish(code, 'telemetry', '{"ts":');
    await publish(code, 'telemetry', { ts: 'yesterday', temperature: 20 });
    await publish(`${h.codePrefix}NOBODY`, 'state', { online: true, setpoint: 20, mode: 'heat' });
    const after = await waitFor(() => {
      const s = worker.counters.snapshot();
      return s.rejected.malformed - before.rejected.malformed >= 4 && s.rejected['unknown-device'] - before.rejected['unknown-device'] >= 1
        ? s
        : undefined;
    });
    expect(after.rejected.malformed - before.rejected.malformed).toBe(4);
    expect(after.rejected['unknown-device'] - before.rejected['unknown-device']).toBe(1);
    expect(after.accepted).toBe(before.accepted);
    expect(await row(id)).toEqual(stored);
    expect(h.changesOf([id])).toHaveLength(eventsBefore);
  });

  it('sends a dispatch written through the command ledger on city/v1/<family>/<code>/cmd; acks deliver its rows and finish it', async () => {
    const targets = codes.slice(5, 7);
    const targetIds = targets.map((code) => ids.get(code)!);
    for (const code of targets) played.behaviour.set(code, 'ok');
    const dispatchId = await h.dispatch(THERMO_FAMILY, 'set', { setpoint: 22.5 }, targetIds);

    const done = await waitFor(() => h.events.DispatchProgress.find((e) => e.dispatchId === dispatchId && e.status === DispatchStatus.AllSuccessful));
    expect(done).toMatchObject({ family: 'radar', counts: { queued: 0, sent: 0, delivered: 2, failed: 0, expired: 0 }, total: 2 });
    const items = await h.db.query<{ device_id: number; command_id: string; state: string; attempts: number }>(
      `SELECT device_id, command_id, state, attempts FROM dispatch_item WHERE dispatch_id = $1 ORDER BY device_id`,
      [dispatchId],
    );
    expect(items.map((i) => [i.state, i.attempts])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ]);
    for (const item of items) {
      const code = targets[targetIds.indexOf(item.device_id)];
      expect(played.received.get(code)).toEqual([{ id: item.command_id, type: 'set', params: { setpoint: 22.5 }, expiresAt: expect.any(String) }]);
    }
    const [dispatch] = await h.db.query<{ status: string; finished_at: Date | null; family: string }>(
      `SELECT status, finished_at, family FROM dispatch WHERE id = $1`,
      [dispatchId],
    );
    expect(dispatch).toMatchObject({ status: DispatchStatus.AllSuccessful, family: 'radar' });
    expect(dispatch.finished_at).not.toBeNull();
    for (const id of targetIds) expect(await row(id)).toMatchObject({ status: Thermo.Succeeded, setpoint: 22.5 });
    const changes = h
      .changesOf([targetIds[0]])
      .flatMap((e) => e.changes)
      .map((c) => c.changed);
    expect(changes).toEqual([{ status: Thermo.Distributing }, { status: Thermo.Succeeded, setpoint: 22.5 }]);
    expect(worker.counters.snapshot().commandsPublished).toBeGreaterThanOrEqual(2);
  });

  it('re-sends an unanswered command under the same id until its dispatch expires; the row expires and the dispatch ends failed', async () => {
    const code = codes[7];
    const id = ids.get(code)!;
    played.behaviour.set(code, 'silent');
    const dispatchId = await h.dispatch(THERMO_FAMILY, 'set', { setpoint: 18 }, [id], 4);

    const done = await waitFor(
      () => h.events.DispatchProgress.find((e) => e.dispatchId === dispatchId && e.status !== DispatchStatus.ToBeSent),
      10_000,
    );
    expect(done).toMatchObject({ status: DispatchStatus.AllFailures, counts: { queued: 0, sent: 0, delivered: 0, failed: 0, expired: 1 } });
    const [item] = await h.db.query<{ command_id: string; state: string; attempts: number; last_error: string }>(
      `SELECT command_id, state, attempts, last_error FROM dispatch_item WHERE dispatch_id = $1`,
      [dispatchId],
    );
    expect(item).toMatchObject({ state: 'expired', last_error: 'expired' });
    // Acks are awaited 1 s, then 2 s, then 4 s (past the 4 s expiry): re-sent at least once, always under the one
    // command id, each send the ledger counts (the last may still be on its way to the device).
    await waitFor(() => (played.received.get(code)?.length === item.attempts ? true : undefined), 3000).catch(() => undefined);
    const sends = played.received.get(code)!;
    expect(sends.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sends.map((c) => c.id))).toEqual(new Set([item.command_id]));
    expect(item.attempts).toBe(sends.length);
    expect(await row(id)).toMatchObject({ status: Thermo.Failed, setpoint: null });
    expect(worker.counters.snapshot().commandsResent).toBeGreaterThanOrEqual(1);
    expect(worker.counters.snapshot().expired).toBeGreaterThanOrEqual(1);
  }, 20_000);

  it('answers its queue’s job of its own name (no declared family has it)', async () => {
    const [job] = await h.producer.queue(THERMO_FAMILY.queue).getJobs(['completed'], 0, 0);
    expect(job?.name).toBe(THERMO_JOB);
  });
});
