import { DeviceFamily, DispatchStatus, LampStatus, MqttChannel, OnlineState, mqttTopics } from '@sc/contracts';
import { waitFor } from '@sc/testing';
import { startFleet, type Fleet } from '../../device-sim/src';
import { connectMqtt, MQTT_URL, WorkerHarness } from './worker-harness';

/** Sync Data and gateway state end to end below the gateway: the worker's ledger, the MQTT contract, and the simulated lamps. */
describe('lighting worker: sync and gateway state with the simulator', () => {
  const h = new WorkerHarness();
  let fleet: Fleet;
  let ids: Map<string, number>;
  const gatewayCode = () => `${h.codePrefix}GW-0001`;
  const status = async (id: number) =>
    (await h.db.query<{ status: number; network_status: number }>(`SELECT status, network_status FROM lamp WHERE device_id = $1`, [id]))[0];

  beforeAll(async () => {
    await h.setUp('wl_sync');
    ids = await h.addLamps(3, 'S');
    await h.db.query(`INSERT INTO lamp_gateway (code, name) VALUES ($1, 'Simulated concentrator')`, [gatewayCode()]);
    await h.startWorker();
    fleet = await startFleet({
      mqttUrl: MQTT_URL,
      lamps: [...ids.keys()],
      gatewayPrefix: `${h.codePrefix}GW-`,
      ackLatencyMs: { min: 20, max: 80 },
      telemetryIntervalMs: 0,
    });
    // Every lamp has reported itself once.
    await waitFor(async () => {
      const rows = await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM lamp WHERE reported_at IS NOT NULL`);
      return rows[0].n === 3 ? true : undefined;
    });
  });
  afterAll(async () => {
    await fleet?.stop({ clearRetained: true });
    await h.tearDown();
  });

  it('shows synchronizing (-1) while the command is out, then normal once the lamp has published its state', async () => {
    const [code, id] = [...ids][0];
    const { on, level } = fleet.lamp(code)!;
    const dispatchId = await h.dispatch([id], 'sync');
    await waitFor(() => h.events.DispatchProgress.find((e) => e.dispatchId === dispatchId && e.status === DispatchStatus.AllSuccessful));
    await waitFor(() => (h.events.DeviceStateChanged.some((e) => e.recordId === id && e.changed.status === LampStatus.Normal) ? true : undefined));
    const statuses = h.events.DeviceStateChanged.filter((e) => e.recordId === id && 'status' in e.changed).map((e) => e.changed.status);
    expect(statuses).toEqual([LampStatus.Synchronizing, LampStatus.Normal]);
    expect(await status(id)).toEqual({ status: LampStatus.Normal, network_status: OnlineState.Online });
    // A sync reads the lamp; it changes nothing on it.
    expect(fleet.lamp(code)).toMatchObject({ on, level });
  });

  it('a sync the lamp never answers ends in its real status when it expires, not in a distribution failure', async () => {
    const [code, id] = [...ids][1];
    await fleet.takeOffline(code);
    await waitFor(async () => ((await status(id)).status === LampStatus.Offline ? true : undefined));
    const dispatchId = await h.dispatch([id], 'sync', {}, 1_500);
    await waitFor(() =>
      h.events.DeviceStateChanged.some((e) => e.recordId === id && e.changed.status === LampStatus.Synchronizing) ? true : undefined,
    );
    await waitFor(() => h.events.DispatchProgress.find((e) => e.dispatchId === dispatchId && e.status === DispatchStatus.AllFailures), 10_000);
    expect(await status(id)).toEqual({ status: LampStatus.Offline, network_status: OnlineState.Offline });
  });

  it("stores a gateway's online state and versions from its MQTT state, and its Last Will as offline, announcing each change", async () => {
    const gateway = async () =>
      (
        await h.db.query<{ id: number; network_status: number; hardware_version: string }>(
          `SELECT id, network_status, hardware_version FROM lamp_gateway WHERE code = $1`,
          [gatewayCode()],
        )
      )[0];
    await waitFor(async () => ((await gateway()).network_status === OnlineState.Online ? true : undefined));
    const { id } = await gateway();
    expect(await gateway()).toMatchObject({ network_status: OnlineState.Online, hardware_version: 'SL-100W-B2' });
    // What the broker publishes when the gateway's connection dies.
    const broker = await connectMqtt();
    await broker.publishAsync(mqttTopics.of(DeviceFamily.LampGateway, gatewayCode(), MqttChannel.State), JSON.stringify({ online: false }), {
      qos: 1,
    });
    await broker.endAsync();
    await waitFor(async () => ((await gateway()).network_status === OnlineState.Offline ? true : undefined));
    // The event follows the write.
    // (Its heartbeats announce only their report time.)
    const statuses = () =>
      h.events.DeviceStateChanged.filter((e) => e.family === DeviceFamily.LampGateway && e.recordId === id && 'networkStatus' in e.changed).map(
        (e) => e.changed.networkStatus,
      );
    await waitFor(() => (statuses().includes(OnlineState.Offline) ? true : undefined));
    expect(statuses()).toEqual([OnlineState.Online, OnlineState.Offline]);

    // The runtime's offline alarm, named by the gateway's own record (gateways are not registry devices), announced
    // with the gateway's code and name; its next state clears it.
    const alarms = () =>
      h.db.query(`SELECT kind, state, device_id, record_id FROM device_alarm WHERE family = 'lamp-gateway' AND record_id = $1 ORDER BY id`, [id]);
    await waitFor(async () => ((await alarms()).length === 1 ? true : undefined));
    expect(await alarms()).toEqual([{ kind: 'offline', state: 'active', device_id: null, record_id: id }]);
    const raised = await waitFor(() => h.events.AlarmChanged.find((e) => e.family === DeviceFamily.LampGateway && e.change === 'raised'));
    expect(raised.alarm).toMatchObject({ deviceId: id, deviceCode: gatewayCode(), deviceName: 'Simulated concentrator', kind: 'offline' });
    const again = await connectMqtt();
    await again.publishAsync(
      mqttTopics.of(DeviceFamily.LampGateway, gatewayCode(), MqttChannel.State),
      JSON.stringify({ online: true, hardwareVersion: 'SL-100W-B2' }),
      { qos: 1 },
    );
    await again.endAsync();
    await waitFor(async () => ((await alarms())[0].state === 'cleared' ? true : undefined));
    // Deleting the gateway takes its alarms with it.
    await h.db.query(`DELETE FROM lamp_gateway WHERE id = $1`, [id]);
    expect(await alarms()).toEqual([]);
  });
});
