import type { MqttClient } from 'mqtt';
import { RADAR_FAMILY } from '@sc/contracts';
import { waitFor } from '@sc/testing';
import { connectMqtt, RuntimeHarness } from '../../../libs/device-runtime/test/runtime-harness';
import { radarHandler } from '../src/families/radar.handler';

/**
 * Radars get the runtime's offline alarm with nothing of their own: a Last Will raises it (once, however often the
 * will comes), their next report clears it, and each move is announced as AlarmChanged of the radar family.
 */
describe('radar worker: offline alarms from the device runtime', () => {
  const h = new RuntimeHarness();
  const seen = h.events.AlarmChanged;
  let device: MqttClient;
  let id: number;
  let code: string;

  const alarms = () =>
    h.db.query<{ family: string; kind: string; state: string }>(`SELECT family, kind, state FROM device_alarm WHERE device_id = $1 ORDER BY id`, [
      id,
    ]);
  const publish = (payload: unknown) => device.publishAsync(`city/v1/radar/${code}/state`, JSON.stringify(payload), { qos: 1 });

  beforeAll(async () => {
    await h.setUp('radar_alarms', []);
    [[code, id]] = [...(await h.addDevices(RADAR_FAMILY, 1, 'A'))];
    await h.startWorker([radarHandler], { intakeFlushMs: 50 });
    device = await connectMqtt();
  }, 60_000);

  afterAll(async () => {
    await device?.endAsync();
    await h.tearDown();
  });

  it('raises offline on the Last Will, once, and clears it when the radar reports again', async () => {
    await publish({ online: true, swver: '1.0' });
    await waitFor(async () =>
      (await h.db.query<{ n: number }>(`SELECT network_status AS n FROM radar_terminal WHERE device_id = $1`, [id]))[0].n === 1 ? true : undefined,
    );
    expect(await alarms()).toEqual([]);

    await publish({ online: false });
    await waitFor(async () => ((await alarms()).length === 1 ? true : undefined));
    expect(await alarms()).toEqual([{ family: 'radar', kind: 'offline', state: 'active' }]);
    const raised = await waitFor(() => seen.find((e) => e.alarm.deviceId === id && e.change === 'raised'));
    expect(raised).toMatchObject({ family: 'radar', alarm: { family: 'radar', kind: 'offline', deviceCode: code, state: 'active' } });

    // The will again (a retained one delivered twice): still one open alarm.
    await publish({ online: false });
    await publish({ online: true, swver: '1.0' });
    const cleared = await waitFor(() => seen.find((e) => e.alarm.deviceId === id && e.change === 'cleared'));
    expect(cleared).toMatchObject({ family: 'radar', alarm: { kind: 'offline', state: 'cleared', clearedBy: null } });
    expect(await alarms()).toEqual([{ family: 'radar', kind: 'offline', state: 'cleared' }]);
    expect(seen.filter((e) => e.alarm.deviceId === id).map((e) => e.change)).toEqual(['raised', 'cleared']);
  });
});
