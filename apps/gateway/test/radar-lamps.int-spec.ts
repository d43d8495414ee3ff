import pino from 'pino';
import type { Socket } from 'socket.io-client';
import {
  DeviceFamily,
  DispatchStatus,
  MqttService,
  RadarEventId,
  type ClientToServerEvents,
  type DispatchDetail,
  type RadarDetectedEvent,
  type ServerToClientEvents,
} from '@sc/contracts';
import type { DeviceWorker } from '@sc/device-runtime';
import { waitFor, type ApiClient } from '@sc/testing';
import { startFleet, type Fleet } from '../../device-sim/src/families/lamp.sim';
import { startRadarFleet, type RadarFleet } from '../../device-sim/src/families/radar.sim';
import { LIGHTING_FAMILIES } from '../../worker-lighting/src/lighting-worker';
import { RADAR_SENDER } from '../../worker-radar/src/lamps/lamp-raiser';
import { startRadarWorker } from '../../worker-radar/src/radar-worker';
import { startTestGateway, type TestGateway } from './harness';
import { MQTT_URL, startTestWorker, testWorkerConfig, watchFamily } from './device-worker';

const LAMPS = ['RL-00001', 'RL-00002', 'RL-00003'];
const CLOSE_SECONDS = 2;

/**
 * Detection to lamps on the real services: a simulated radar's detection raises the lamps of its group's strategy to
 * the event's brightness through the command ledger (the lighting worker sends, simulated lamps answer), and they return
 * after the close interval; a socket client sees the detection and the lamps it raised.
 */
describe('Radar detections drive lamps through the ledger', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let lighting: DeviceWorker;
  let radarWorker: DeviceWorker;
  let lamps: Fleet;
  let radars: RadarFleet;
  let socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  const lampId = new Map<string, number>();
  let radarId: number;

  beforeAll(async () => {
    gw = await startTestGateway();
    admin = await gw.signedIn('admin');
    for (const code of LAMPS) {
      const [{ id }] = await gw.db.query<{ id: number }>(`INSERT INTO device (type, code, name) VALUES (1, $1, $1) RETURNING id`, [code]);
      await gw.db.query(`INSERT INTO lamp (device_id) VALUES ($1)`, [id]);
      lampId.set(code, id);
    }
    // The second lamp runs a sensing schedule naming the radar: it rises by itself, and is sent nothing.
    await gw.db.query(`UPDATE lamp SET mode = 3, mode_data = $2 WHERE device_id = $1`, [
      lampId.get(LAMPS[1]),
      JSON.stringify({ radarCodes: ['RL-R1'], brightness: 100, holdSeconds: 30 }),
    ]);
    radarId = (await admin.post<{ id: number }>('/api/radar/radarAddOrEdit', { radarName: 'Street radar', code: 'RL-R1' })).body.data.id;
    const group = (
      await admin.post<{ id: number }>('/api/radar/groupAddOrEdit', {
        name: 'Street',
        radarIds: [radarId],
        lampIds: [lampId.get(LAMPS[0]), lampId.get(LAMPS[1])],
      })
    ).body.data.id;
    const strategy = await admin.post('/api/radar/strategyAddOrEdit', {
      name: 'Walkers',
      groupId: group,
      radarEventInfos: [{ event: RadarEventId.Pedestrian, brightness: 100, openInterval: 0, closeInterval: CLOSE_SECONDS }],
    });
    expect(strategy.body).toMatchObject({ code: 200 });

    lighting = await startTestWorker(gw, { name: 'lighting', families: LIGHTING_FAMILIES, service: MqttService.WorkerLighting }, 'radar-lamps', {
      ackTimeoutMs: 500,
    });
    radarWorker = await startRadarWorker(
      testWorkerConfig(gw, { name: 'radar', service: MqttService.WorkerRadar }, 'radar-lamps'),
      pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
    );
    // Every lamp starts off (the draws that decide a simulated lamp's first state say so).
    lamps = await startFleet({ mqttUrl: MQTT_URL, lamps: LAMPS, ackLatencyMs: { min: 5, max: 20 }, telemetryIntervalMs: 0, random: () => 0.9 });
    radars = await startRadarFleet({ mqttUrl: MQTT_URL, radars: ['RL-R1'], logger: pino({ level: 'silent' }) });
    socket = await watchFamily(gw, admin.token!, DeviceFamily.Radar, 'RadarDetected');
    await waitFor(async () => {
      const [{ n }] = await gw.db.query<{ n: number }>(
        `SELECT (SELECT count(*)::int FROM lamp WHERE network_status = 1) + (SELECT count(*)::int FROM radar_terminal WHERE network_status = 1) AS n`,
      );
      return n === 4 ? true : undefined;
    }, 15_000);
  });
  afterAll(async () => {
    socket?.close();
    await radars?.stop({ clearRetained: true });
    await lamps?.stop({ clearRetained: true });
    await radarWorker?.stop();
    await lighting?.stop();
    await gw?.close();
  });

  it('raises the lamps of its group to the brightness of the event, seen live, and returns them after the close interval', async () => {
    const seen = new Promise<RadarDetectedEvent>((resolve) => socket.once('RadarDetected', resolve));
    const detectedAt = Date.now();
    await radars.detect('RL-R1', RadarEventId.Pedestrian);
    const event = await seen;
    expect(event).toMatchObject({
      family: 'radar',
      radarId,
      code: 'RL-R1',
      event: RadarEventId.Pedestrian,
      count: 1,
      dispatchId: expect.any(String),
    });
    expect(event.lamps.map((l) => [l.code, l.level, l.byItself])).toEqual([
      [LAMPS[0], 100, false],
      [LAMPS[1], 100, true],
    ]);
    // Through the ledger: one command to the first lamp only (the second rises by itself; the third is in no group).
    const raised = await waitFor(async () => {
      const d = (await admin.get<DispatchDetail>(`/api/dispatch/detail?id=${event.dispatchId}`)).body.data;
      return d.status === DispatchStatus.AllSuccessful ? d : undefined;
    }, 10_000);
    expect(raised).toMatchObject({ family: 'lamp', action: 'dim', params: { level: 100 }, createdBy: RADAR_SENDER, total: 1 });
    expect(raised.items.map((i) => i.deviceCode)).toEqual([LAMPS[0]]);
    expect(lamps.lamp(LAMPS[0])).toMatchObject({ on: true, level: 100 });
    expect(lamps.lamp(LAMPS[2])).toMatchObject({ on: false, level: 0 });

    // A second detection during the hold moves its end later and sends nothing more.
    await radars.detect('RL-R1', RadarEventId.Pedestrian);
    // Other events of the radar raise nothing (the strategy names pedestrians only).
    await radars.detect('RL-R1', RadarEventId.MotorVehicle);

    // Back to where it was, after the close interval, through the ledger again.
    await waitFor(async () => (lamps.lamp(LAMPS[0])?.level === 0 ? true : undefined), 15_000);
    expect(Date.now() - detectedAt).toBeGreaterThanOrEqual(CLOSE_SECONDS * 1000);
    const sent = await gw.db.query<{ action: string; params: unknown; n: number }>(
      `SELECT d.action, d.params, (SELECT count(*)::int FROM dispatch_item i WHERE i.dispatch_id = d.id) AS n
         FROM dispatch d WHERE d.created_by = $1 ORDER BY d.created_at`,
      [RADAR_SENDER],
    );
    expect(sent).toEqual([
      { action: 'dim', params: { level: 100 }, n: 1 },
      { action: 'dim', params: { level: 0 }, n: 1 },
    ]);
    expect(await gw.db.query(`SELECT * FROM radar_lamp_raise`)).toEqual([]);
    const [radar] = await gw.db.query<{ count: number }>(`SELECT count FROM radar_terminal WHERE device_id = $1`, [radarId]);
    expect(radar.count).toBe(3);
  });
});
