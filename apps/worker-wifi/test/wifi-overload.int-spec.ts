import type { MqttClient } from 'mqtt';
import { AC_FAMILY, DeviceFamily, MqttChannel, mqttTopics } from '@sc/contracts';
import { waitFor } from '@sc/testing';
import { connectMqtt, RuntimeHarness } from '../../../libs/device-runtime/test/runtime-harness';
import { acHandler } from '../src/families/ac.handler';
import { apHandler } from '../src/families/ap.handler';

/**
 * Wi-Fi overload from the device runtime, with the real broker, PostgreSQL and Redis: an access controller whose CPU,
 * memory or disk reaches 90 % raises one overload alarm, which stays open while any of them is at 80 % or more, and
 * clears once all are below; each move is announced as AlarmChanged of the family.
 */
describe('wifi worker: overload alarms from the device runtime', () => {
  const h = new RuntimeHarness();
  const seen = h.events.AlarmChanged;
  let device: MqttClient;
  let id: number;
  const code = `${h.codePrefix}AC1`;

  const alarms = () =>
    h.db.query<{ kind: string; state: string }>(`SELECT kind, state FROM device_alarm WHERE device_id = $1 AND family = 'ac' ORDER BY id`, [id]);
  const ratios = async () => (await h.db.query<{ cpu: number }>(`SELECT cpu_ratio AS cpu FROM wifi_ac WHERE device_id = $1`, [id]))[0].cpu;
  let sent = 0;
  /** One load reading, and the wait until it is stored (the worker writes in batches). */
  const load = async (cpuRatio: number, memoryRatio: number, diskRatio: number) => {
    sent += 1;
    const ts = new Date(Date.now() + sent).toISOString();
    await device.publishAsync(
      mqttTopics.of(DeviceFamily.AccessController, code, MqttChannel.Telemetry),
      JSON.stringify({ ts, cpuRatio, memoryRatio, diskRatio }),
      {
        qos: 1,
      },
    );
    await waitFor(async () => ((await ratios()) === cpuRatio ? true : undefined));
  };

  beforeAll(async () => {
    await h.setUp('wifi_overload', []);
    [{ id }] = await h.db.query<{ id: number }>(`INSERT INTO device (type, code, name) VALUES ($1, $2, 'Plaza controller') RETURNING id`, [
      AC_FAMILY.deviceType,
      code,
    ]);
    await h.db.query(`INSERT INTO wifi_ac (device_id, dev_mac) VALUES ($1, '02:00:00:00:0a:01')`, [id]);
    // Both families of the queue, as the Wi-Fi worker serves them.
    await h.startWorker([acHandler, apHandler], { intakeFlushMs: 50 });
    device = await connectMqtt();
    await device.publishAsync(
      mqttTopics.of(DeviceFamily.AccessController, code, MqttChannel.State),
      JSON.stringify({ online: true, cpuRatio: 20, memoryRatio: 30, diskRatio: 40 }),
      { qos: 1 },
    );
    await waitFor(async () => ((await ratios()) === 20 ? true : undefined));
  }, 60_000);

  afterAll(async () => {
    await device?.endAsync();
    await h.tearDown();
  });

  it('raises overload once at 90 %, keeps it between the levels, and clears it when every load is below 80 %', async () => {
    await load(89.9, 30, 40);
    expect(await alarms()).toEqual([]);

    await load(20, 30, 90);
    expect(await alarms()).toEqual([{ kind: 'overload', state: 'active' }]);
    const raised = await waitFor(() => seen.find((e) => e.change === 'raised'));
    expect(raised).toMatchObject({
      family: 'ac',
      alarm: { family: 'ac', kind: 'overload', deviceId: id, deviceCode: code, deviceName: 'Plaza controller' },
    });

    // Another load over the limit, then all between the levels: still the one alarm, open.
    await load(95, 30, 92);
    await load(85, 30, 81);
    expect(await alarms()).toEqual([{ kind: 'overload', state: 'active' }]);
    // One still at 80: open.
    await load(10, 80, 10);
    expect(await alarms()).toEqual([{ kind: 'overload', state: 'active' }]);

    await load(11, 79.9, 10);
    await waitFor(async () => ((await alarms())[0].state === 'cleared' ? true : undefined));
    // Over again later: a new alarm, the cleared one kept as history.
    await load(99, 10, 10);
    expect(await alarms()).toEqual([
      { kind: 'overload', state: 'cleared' },
      { kind: 'overload', state: 'active' },
    ]);
    await waitFor(() => (seen.filter((e) => e.alarm.deviceId === id).length === 3 ? true : undefined));
    expect(seen.filter((e) => e.alarm.deviceId === id).map((e) => e.change)).toEqual(['raised', 'cleared', 'raised']);
  });
});
