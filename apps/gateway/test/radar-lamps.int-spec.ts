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
  type RadarLampsChangedEvent,
  type ServerToClientEvents,
} from '@sc/contracts';
import { createPool, type DeviceWorker } from '@sc/device-runtime';
import { waitFor, type ApiClient } from '@sc/testing';
import { startFleet, type Fleet } from '../../device-sim/src/families/lamp.sim';
import { startRadarFleet, type RadarFleet } from '../../device-sim/src/families/radar.sim';
import { LIGHTING_FAMILIES } from '../../worker-lighting/src/lighting-worker';
import { RADAR_SENDER, lampRaiser } from '../../worker-radar/src/lamps/lamp-raiser';
import { startRadarWorker } from '../../worker-radar/src/radar-worker';
import { startTestGateway, type TestGateway } from './harness';
import { MQTT_URL, startTestWorker, testWorkerConfig, watchFamily } from './device-worker';

const LAMPS = ['RL-00001', 'RL-00002', 'RL-00003'];
const CLOSE_SECONDS = 2;
/** Non-motor vehicles raise the lamps this long after the detection (long enough to stop the worker meanwhile). */
const OPEN_SECONDS = 2;

/**
 * Detection to lamps on the real services: a simulated radar's detection raises the lamps of its group's strategy to
 * the event's brightness through the command ledger (the lighting worker sends, simulated lamps answer), and they return
 * after the close interval; a socket client sees the detection, the lamps it raised and their return. A rise that waits
 * for its open interval is stored with the detection and raised by a worker started after the one that stored it.
 */
describe('Radar detections drive lamps through the ledger', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let lighting: DeviceWorker;
  let radarWorker: DeviceWorker;
  let lamps: Fleet;
  let radars: RadarFleet;
  let socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  let moveSocket: Socket<ServerToClientEvents, ClientToServerEvents>;
  /** Every RadarLampsChanged the socket received, with when it came. */
  const moves: { event: RadarLampsChangedEvent; received: number }[] = [];
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
      radarEventInfos: [
        { event: RadarEventId.Pedestrian, brightness: 100, openInterval: 0, closeInterval: CLOSE_SECONDS },
        { event: RadarEventId.NonMotorVehicle, brightness: 80, openInterval: OPEN_SECONDS, closeInterval: CLOSE_SECONDS },
      ],
    });
    expect(strategy.body).toMatchObject({ code: 200 });

    lighting = await startTestWorker(gw, { name: 'lighting', families: LIGHTING_FAMILIES, service: MqttService.WorkerLighting }, 'radar-lamps', {
      ackTimeoutMs: 500,
    });
    radarWorker = await startRadar();
    // Every lamp starts off (the draws that decide a simulated lamp's first state say so).
    lamps = await startFleet({ mqttUrl: MQTT_URL, lamps: LAMPS, ackLatencyMs: { min: 5, max: 20 }, telemetryIntervalMs: 0, random: () => 0.9 });
    radars = await startRadarFleet({ mqttUrl: MQTT_URL, radars: ['RL-R1'], logger: pino({ level: 'silent' }) });
    socket = await watchFamily(gw, admin.token!, DeviceFamily.Radar, 'RadarDetected');
    moveSocket = await watchFamily(gw, admin.token!, DeviceFamily.Radar, 'RadarLampsChanged');
    moveSocket.on('RadarLampsChanged', (event) => moves.push({ event, received: Date.now() }));
    await waitFor(async () => {
      const [{ n }] = await gw.db.query<{ n: number }>(
        `SELECT (SELECT count(*)::int FROM lamp WHERE network_status = 1) + (SELECT count(*)::int FROM radar_terminal WHERE network_status = 1) AS n`,
      );
      return n === 4 ? true : undefined;
    }, 15_000);
  });
  afterAll(async () => {
    socket?.close();
    moveSocket?.close();
    await radars?.stop({ clearRetained: true });
    await lamps?.stop({ clearRetained: true });
    await radarWorker?.stop();
    await lighting?.stop();
    await gw?.close();
  });

  const startRadar = () =>
    startRadarWorker(
      testWorkerConfig(gw, { name: 'radar', service: MqttService.WorkerRadar }, 'radar-lamps'),
      pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
    );

  /** The first RadarLampsChanged of this change moving this lamp, received after `since`. */
  const moveOf = (change: RadarLampsChangedEvent['change'], lamp: string, since: number) =>
    waitFor(() => {
      const seen = moves.find((m) => m.received >= since && m.event.change === change && m.event.lamps.some((l) => l.code === lamp));
      return seen && { ...seen, lamp: seen.event.lamps.find((l) => l.code === lamp)! };
    }, 15_000);

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
    // The return is announced live, after the close interval, with the level each lamp went back to.
    const returned = await moveOf('returned', LAMPS[0], detectedAt);
    expect(returned.received - detectedAt).toBeGreaterThanOrEqual(CLOSE_SECONDS * 1000);
    expect(returned.event.family).toBe('radar');
    expect(returned.lamp).toMatchObject({ id: lampId.get(LAMPS[0]), level: 0, byItself: false, radarId, radarCode: 'RL-R1', until: null });
  });

  it('keeps a rise waiting for its open interval with the detection: a worker started after the one that stored it raises the lamps when due', async () => {
    const seen = new Promise<RadarDetectedEvent>((resolve) => socket.once('RadarDetected', resolve));
    const detectedAt = Date.now();
    await radars.detect('RL-R1', RadarEventId.NonMotorVehicle);
    const event = await seen;
    expect(event.dispatchId).toBeNull();
    expect(event.lamps.map((l) => [l.code, l.level, l.byItself, l.after])).toEqual([
      [LAMPS[0], 80, false, OPEN_SECONDS],
      [LAMPS[1], 80, true, OPEN_SECONDS],
    ]);
    // Stored with the detection; the worker that stored it stops before it is due (the rows are still there: it raised
    // nothing).
    await radarWorker.stop();
    const pending = await gw.db.query<{ lamp: string; level: number }>(
      `SELECT d.code AS lamp, p.level FROM radar_lamp_pending p JOIN device d ON d.id = p.lamp_id ORDER BY d.code`,
    );
    expect(pending.map((p) => [p.lamp, p.level])).toEqual([
      [LAMPS[0], 80],
      [LAMPS[1], 80],
    ]);
    expect(lamps.lamp(LAMPS[0])).toMatchObject({ level: 0 });

    // A new worker (nothing of the first in its memory) raises them once the open interval has passed.
    radarWorker = await startRadar();
    const raised = await moveOf('raised', LAMPS[0], detectedAt);
    expect(raised.received - detectedAt).toBeGreaterThanOrEqual(OPEN_SECONDS * 1000);
    expect(raised.lamp).toMatchObject({ level: 80, byItself: false, radarId, radarCode: 'RL-R1', until: expect.any(String) });
    expect(Date.parse(raised.lamp.detectedAt!)).toBe(Date.parse(event.at));
    expect(raised.event.lamps.find((l) => l.code === LAMPS[1])).toMatchObject({ byItself: true });
    await waitFor(async () => (lamps.lamp(LAMPS[0])?.level === 80 ? true : undefined), 10_000);
    expect(await gw.db.query(`SELECT * FROM radar_lamp_pending`)).toEqual([]);

    // And returns them after the close interval, announced live.
    const returned = await moveOf('returned', LAMPS[0], raised.received);
    expect(returned.received - detectedAt).toBeGreaterThanOrEqual((OPEN_SECONDS + CLOSE_SECONDS) * 1000);
    expect(returned.lamp).toMatchObject({ level: 0, radarId });
    await waitFor(async () => (lamps.lamp(LAMPS[0])?.level === 0 ? true : undefined), 10_000);
    const sent = await gw.db.query<{ params: unknown }>(
      `SELECT d.params FROM dispatch d WHERE d.created_by = $1 AND d.created_at >= to_timestamp($2 / 1000.0) ORDER BY d.created_at`,
      [RADAR_SENDER, detectedAt],
    );
    expect(sent.map((d) => d.params)).toEqual([{ level: 80 }, { level: 0 }]);
    expect(await gw.db.query(`SELECT * FROM radar_lamp_raise`)).toEqual([]);
  });

  it('shares the due rises among replicas: a pass that finds them taken skips them; a rise whose hold has already ended is dropped', async () => {
    // The worker's own pass stays out of the way: two passes of this test stand for two replicas.
    await radarWorker.stop();
    // The lamp's return of the test before is stored (a rise is recorded only over the level the lamp has now).
    const stored = async (code: string) =>
      (
        await gw.db.query<{ current: number }>(
          `SELECT CASE WHEN l.switch_state = 1 THEN l.bri ELSE 0 END AS current FROM lamp l JOIN device d ON d.id = l.device_id WHERE d.code = $1`,
          [code],
        )
      )[0].current;
    await waitFor(async () => ((await stored(LAMPS[0])) === 0 ? true : undefined), 10_000);
    await gw.db.query(
      `INSERT INTO radar_lamp_pending (lamp_id, radar_id, radar_code, level, close_interval, detected_at, due_at)
       VALUES ($1, $3, 'RL-R1', 60, 30, now() - interval '1 second', now() - interval '100 milliseconds'),
              ($2, $3, 'RL-R1', 60, 1, now() - interval '20 seconds', now() - interval '10 seconds')`,
      [lampId.get(LAMPS[0]), lampId.get(LAMPS[2]), radarId],
    );
    const pool = createPool(gw.db.url, 2);
    const [first, second] = [await pool.connect(), await pool.connect()];
    try {
      await first.query('BEGIN');
      await second.query('BEGIN');
      const taken = await lampRaiser.raiseDue(first);
      // The second pass neither waits for the first nor takes what it holds.
      expect(await lampRaiser.raiseDue(second)).toEqual([]);
      await second.query('COMMIT');
      await first.query('COMMIT');
      expect(taken).toEqual([
        {
          id: lampId.get(LAMPS[0]),
          code: LAMPS[0],
          level: 60,
          byItself: false,
          radarId,
          radarCode: 'RL-R1',
          detectedAt: expect.any(String),
          until: expect.any(String),
        },
      ]);
    } finally {
      first.release();
      second.release();
      await pool.end();
    }
    expect(await gw.db.query(`SELECT * FROM radar_lamp_pending`)).toEqual([]);
    expect(
      await gw.db.query<{ code: string; level: number }>(`SELECT d.code, r.level FROM radar_lamp_raise r JOIN device d ON d.id = r.lamp_id`),
    ).toEqual([{ code: LAMPS[0], level: 60 }]);
    await waitFor(async () => (lamps.lamp(LAMPS[0])?.level === 60 ? true : undefined), 10_000);
    expect(lamps.lamp(LAMPS[2])).toMatchObject({ on: false, level: 0 });
  });
});
