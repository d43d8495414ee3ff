import { FaultCode, LampStatus, OnlineState } from '@sc/contracts';
import { waitFor } from '@sc/testing';
import { connectMqtt, WorkerHarness } from './worker-harness';

const topic = (code: string, channel: string) => `city/v1/lamp/${code}/${channel}`;
const telemetry = (voltage: number) => ({ ts: new Date().toISOString(), voltage, current: 0.4, power: 92, powerFactor: 0.95, signal: -70 });

describe('lighting worker: device intake', () => {
  const h = new WorkerHarness();
  let ids: Map<string, number>;

  beforeAll(async () => {
    await h.setUp('wl_intake');
    ids = await h.addLamps(3, 'in');
    await h.startWorker();
  });
  afterAll(() => h.tearDown());

  it('stores state, telemetry and faults, and publishes only the changed fields', async () => {
    const [code] = [...ids.keys()];
    const id = ids.get(code)!;
    const device = await connectMqtt();
    await device.publishAsync(
      topic(code, 'state'),
      JSON.stringify({ online: true, on: true, level: 80, gatewayId: 'GW-9', softwareVersion: '2.1' }),
      { qos: 1 },
    );
    await device.publishAsync(topic(code, 'telemetry'), JSON.stringify(telemetry(229)), { qos: 1 });
    await device.publishAsync(topic(code, 'event'), JSON.stringify({ ts: new Date().toISOString(), code: FaultCode.TemperatureHigh, active: true }), {
      qos: 1,
    });
    await device.publishAsync(topic(code, 'event'), JSON.stringify({ ts: new Date().toISOString(), code: FaultCode.VoltageLow, active: true }), {
      qos: 1,
    });
    await device.publishAsync(topic(code, 'event'), JSON.stringify({ ts: new Date().toISOString(), code: FaultCode.VoltageLow, active: false }), {
      qos: 1,
    });
    await device.endAsync();

    const lamp = await waitFor(async () => {
      const [row] = await h.db.query<Record<string, unknown>>(`SELECT * FROM lamp WHERE device_id = $1`, [id]);
      return (row.faults as number[]).length === 1 && row.telemetry ? row : undefined;
    });
    expect(lamp).toMatchObject({
      status: LampStatus.Normal,
      network_status: OnlineState.Online,
      switch_state: 1,
      bri: 80,
      gateway_id: 'GW-9',
      software_version: '2.1',
      faults: [FaultCode.TemperatureHigh],
      telemetry: expect.objectContaining({ voltage: 229 }),
    });
    expect(lamp.reported_at).not.toBeNull();
    await waitFor(() => (h.events.DeviceStateChanged.some((e) => e.recordId === id && 'faults' in e.changed) ? true : undefined));
    const merged = Object.assign({}, ...h.events.DeviceStateChanged.filter((e) => e.recordId === id).map((e) => e.changed));
    expect(merged).toMatchObject({ switchState: 1, bri: 80, gatewayId: 'GW-9', softwareVersion: '2.1', faults: [FaultCode.TemperatureHigh] });
    for (const event of h.events.DeviceStateChanged.filter((e) => e.recordId === id)) {
      expect(event).toMatchObject({ family: 'lamp', deviceCode: code });
      expect(event.changed).not.toHaveProperty('hardwareVersion');
    }
  });

  it("a lamp's Last Will makes it offline (-5) and is pushed as {status: -5, networkStatus: 0}", async () => {
    const code = [...ids.keys()][1];
    const id = ids.get(code)!;
    const device = await connectMqtt({
      will: { topic: topic(code, 'state'), payload: Buffer.from('{"online":false}'), qos: 1, retain: true },
      keepalive: 1,
    });
    await device.publishAsync(topic(code, 'state'), JSON.stringify({ online: true, on: false, level: 0 }), { qos: 1, retain: true });
    await waitFor(() => (h.events.DeviceStateChanged.some((e) => e.recordId === id) ? true : undefined));
    // Drop the connection without DISCONNECT, as a lamp losing power does: the broker publishes the will.
    device.stream.destroy();
    const offline = await waitFor(() => h.events.DeviceStateChanged.find((e) => e.recordId === id && e.changed.status === LampStatus.Offline), 8000);
    expect(offline.changed).toEqual({ status: LampStatus.Offline, networkStatus: OnlineState.Offline });
    const [row] = await h.db.query<{ status: number; network_status: number }>(`SELECT status, network_status FROM lamp WHERE device_id = $1`, [id]);
    expect(row).toEqual({ status: LampStatus.Offline, network_status: OnlineState.Offline });
    device.end(true);
    // Leave no retained message behind on the shared broker.
    const cleaner = await connectMqtt();
    await cleaner.publishAsync(topic(code, 'state'), '', { qos: 1, retain: true });
    await cleaner.endAsync();
  });

  it('counts malformed payloads and unknown codes without disturbing a good lamp', async () => {
    const code = [...ids.keys()][2];
    const id = ids.get(code)!;
    const before = h.worker!.snapshot();
    const device = await connectMqtt();
    const unknown = `${h.codePrefix}nobody`;
    for (let i = 0; i < 20; i++) {
      await Promise.all([
        device.publishAsync(topic(code, 'telemetry'), '{not json', { qos: 1 }),
        device.publishAsync(topic(code, 'state'), JSON.stringify({ online: true, on: true, level: 55 }), { qos: 1 }),
        device.publishAsync(topic(unknown, 'telemetry'), JSON.stringify(telemetry(1)), { qos: 1 }),
        device.publishAsync(topic(code, 'telemetry'), JSON.stringify(telemetry(200 + i)), { qos: 1 }),
      ]);
    }
    await device.endAsync();
    const after = await waitFor(() => {
      const s = h.worker!.snapshot();
      return s.rejected.malformed - before.rejected.malformed >= 40 && s.rejected['unknown-device'] - before.rejected['unknown-device'] >= 20
        ? s
        : undefined;
    });
    expect(after.accepted - before.accepted).toBeGreaterThanOrEqual(20);
    const row = await waitFor(async () => {
      const [r] = await h.db.query<{ telemetry: { voltage: number }; bri: number }>(`SELECT telemetry, bri FROM lamp WHERE device_id = $1`, [id]);
      return r.telemetry?.voltage === 219 ? r : undefined;
    });
    expect(row.bri).toBe(0);
    const [unknownRow] = await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM device WHERE code = $1`, [unknown]);
    expect(unknownRow.n).toBe(0);
  });

  it('finds a lamp registered after start on its next message', async () => {
    const late = await h.addLamps(1, 'late');
    const [code, id] = [...late][0];
    const device = await connectMqtt();
    await device.publishAsync(topic(code, 'telemetry'), JSON.stringify(telemetry(231)), { qos: 1 });
    await device.endAsync();
    await waitFor(async () => {
      const [r] = await h.db.query<{ telemetry: { voltage: number } | null }>(`SELECT telemetry FROM lamp WHERE device_id = $1`, [id]);
      return r.telemetry?.voltage === 231 ? true : undefined;
    });
  });
});
