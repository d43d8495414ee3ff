// Lighting strategies end to end: a week strategy distributed through the ledger to simulated lamps that run it by
// their own (simulated) clock, checked through a whole night; a sensing strategy raised by a radar event on the broker.
import { DateTime } from 'luxon';
import mqtt from 'mqtt';
import { DispatchStatus, LampStatus, RadarEventId, StrategyMode, type ImportResult, type LampSchedule, type RadarEventMessage } from '@sc/contracts';
import { levelAt } from '@sc/schedule';
import { ApiClient, waitFor, workbookBuffer, testMqttLogin } from '@sc/testing';
import type { Fleet } from '../apps/device-sim/src';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';
import {
  MQTT_URL,
  fleetFor,
  signIn,
  startWorkerProcess,
  uniqueCodePrefix,
  waitForDispatchDone,
  type InsertedLamps,
  type RunningWorker,
} from './support/pipeline';

/** 5,000 as the issue asks (about 50 s on two cores); STRATEGY_E2E_LAMPS changes it. The bench distributes to 10,000. */
const LAMPS = Number(process.env.STRATEGY_E2E_LAMPS ?? 5000);
const ZONE = 'Europe/Berlin';
const berlin = (iso: string) => DateTime.fromISO(iso, { zone: ZONE }).toJSDate();

describe(`lighting strategies on simulated lamps (${LAMPS} lamps)`, () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let fleet: Fleet;
  let lamps: InsertedLamps;
  let admin: ApiClient;
  const prefix = uniqueCodePrefix('S');
  const radarCode = `${prefix}RADAR`;
  let platformDown = false;

  /** How many of these lamps the database says are at `level` (0 = off), by what they reported. */
  async function reportedAt(level: number, codes: readonly string[] = lamps.codes): Promise<number> {
    const [{ n }] = await gw.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM lamp l JOIN device d ON d.id = l.device_id
        WHERE d.code = ANY($1::text[]) AND (CASE WHEN l.switch_state = 1 THEN l.bri ELSE 0 END) = $2`,
      [codes, level],
    );
    return n;
  }

  /** Every lamp drives `level` (the simulator) and has reported it (the database, through the worker). */
  async function expectAllAt(level: number, codes: readonly string[] = lamps.codes): Promise<void> {
    await waitFor(
      async () => {
        const driven = codes.filter((code) => fleet.lamp(code)?.level === level).length;
        if (driven !== codes.length) throw new Error(`${driven} of ${codes.length} simulated lamps are at level ${level}`);
        const n = await reportedAt(level, codes);
        if (n !== codes.length) throw new Error(`${n} of ${codes.length} lamps report level ${level}`);
        return true;
      },
      20_000,
      200,
    );
  }

  async function saveStrategy(body: Record<string, unknown>): Promise<number> {
    const answer = await admin.post<{ id: number }>('/api/light/strategyAddOrEdit', body);
    if (answer.status !== 200) throw new Error(`strategyAddOrEdit: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.data.id;
  }

  async function distribute(body: Record<string, unknown>): Promise<string> {
    const answer = await admin.post<{ dispatchId: string }>('/api/light/strategyDistribute', body);
    if (answer.status !== 200) throw new Error(`strategyDistribute: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.data.dispatchId;
  }

  /**
   * The lamps come in as an operator brings them: a workbook made here, imported through the upload port into a lamp
   * group, in a region of their own (whose place and time zone then apply).
   */
  async function importLamps(count: number, region: string): Promise<InsertedLamps> {
    const [{ id: regionId }] = await gw.db.query<{ id: number }>(`INSERT INTO region (region_name, parent_id) VALUES ($1, NULL) RETURNING id`, [
      region,
    ]);
    const [{ id: groupId }] = await gw.db.query<{ id: number }>(`INSERT INTO device_group (type, name) VALUES (1, $1) RETURNING id`, [region]);
    const codes = Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(5, '0')}`);
    const book = workbookBuffer([['Lamp name', 'Client ID', 'Region'], ...codes.map((code, i) => [`${prefix}lamp ${i + 1}`, code, region])]);
    const form = new FormData();
    form.append('groupId', String(groupId));
    form.append('file', new Blob([book]), 'lamps.xlsx');
    const answer = await new ApiClient(gw.uploadUrl).as(admin.token).post<ImportResult>('/api/light/lightImport', form);
    if (answer.status !== 200) throw new Error(`lightImport: ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`);
    expect(answer.body.data).toMatchObject({ total: count, added: count });
    const rows = await gw.db.query<{ id: number; code: string }>(`SELECT id, code FROM device WHERE code = ANY($1::text[]) ORDER BY code`, [codes]);
    return { ids: rows.map((r) => r.id), codes: rows.map((r) => r.code), idByCode: new Map(rows.map((r) => [r.code, r.id])), regionId };
  }

  beforeAll(async () => {
    gw = await startGatewayProcess();
    admin = await signIn(gw);
    lamps = await importLamps(LAMPS, `Strategy test ${prefix}`);
    // The lamps have no position of their own: their region's place and zone (one with clock changes) apply.
    await gw.db.query(`UPDATE region SET latitude = 52.52, longitude = 13.405, time_zone = $2 WHERE id = $1`, [lamps.regionId, ZONE]);
    worker = await startWorkerProcess(gw);
    // A frozen clock (speed 0): the test moves it.
    fleet = await fleetFor(lamps.codes, { clock: { start: berlin('2026-10-24T17:00'), speed: 0 }, scheduleTickMs: 200 });
    await waitFor(async () => {
      const [{ n }] = await gw.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM lamp l JOIN device d ON d.id = l.device_id WHERE d.code LIKE $1 AND l.network_status = 1`,
        [`${prefix}%`],
      );
      if (n !== LAMPS) throw new Error(`${n} of ${LAMPS} lamps online`);
      return true;
    }, 30_000);
  }, 120_000);

  afterAll(async () => {
    await fleet?.stop({ clearRetained: true });
    await worker?.stop();
    if (!platformDown) await gw?.stop();
  });

  it('distributes a week strategy through the ledger and every lamp follows it through a night, clock change included', async () => {
    const rules = {
      mode: StrategyMode.Week,
      // Friday and Saturday evenings.
      modeData: { weekdays: ['5', '6'] },
      periods: [
        { start: '18:00', end: '22:00', level: 100 },
        { start: '22:00', end: '01:00', level: 60 },
        { start: '01:00', end: '06:00', level: 20 },
      ],
    };
    const id = await saveStrategy({ name: `Weekend ${prefix}`, ...rules });
    const dispatchId = await distribute({ id, regionId: lamps.regionId });
    const detail = await waitForDispatchDone(admin, dispatchId, 60_000);
    expect(detail).toMatchObject({ action: 'schedule', status: DispatchStatus.AllSuccessful, total: LAMPS });
    const [{ n: succeeded }] = await gw.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM lamp l JOIN device d ON d.id = l.device_id WHERE d.code LIKE $1 AND l.status = $2 AND l.strategy_id = $3`,
      [`${prefix}%`, LampStatus.DistributionSucceeded, id],
    );
    expect(succeeded).toBe(LAMPS);
    for (const code of lamps.codes.slice(0, 5)) expect(fleet.lamp(code)?.strategyId).toBe(id);

    // What the lamp was given, for the library's own answer beside the hand-written one.
    const [{ job_list: schedule }] = await gw.db.query<{ job_list: LampSchedule }>(`SELECT job_list FROM lamp WHERE device_id = $1`, [lamps.ids[0]]);
    expect(schedule.place).toEqual({ latitude: 52.52, longitude: 13.405, timeZone: ZONE });
    const firstHalfPastTwo = berlin('2026-10-25T02:30'); // 25 October: 03:00 CEST becomes 02:00 CET
    const walk: [Date, number][] = [
      [berlin('2026-10-24T17:00'), 0],
      [berlin('2026-10-24T18:30'), 100],
      [berlin('2026-10-24T23:00'), 60],
      [berlin('2026-10-25T00:59'), 60],
      [firstHalfPastTwo, 20],
      [new Date(firstHalfPastTwo.getTime() + 3_600_000), 20], // the second 02:30
      [berlin('2026-10-25T07:00'), 0],
      [berlin('2026-10-25T19:00'), 0], // Sunday evening is not selected
      [berlin('2026-10-23T19:00'), 100], // Friday evening is
    ];
    for (const [at, level] of walk) {
      expect({ at: at.toISOString(), level: levelAt(schedule, at) }).toEqual({ at: at.toISOString(), level });
      await fleet.setClock(at, 0);
      await expectAllAt(level);
    }
  }, 360_000);

  it('raises the lamps of a sensing strategy on an event of their radar, then returns them after the hold time', async () => {
    const sensing = lamps.codes.slice(0, 20);
    const others = lamps.codes.slice(20, 40);
    const id = await saveStrategy({
      name: `Sensing ${prefix}`,
      mode: StrategyMode.Sensing,
      modeData: { radarCodes: [radarCode], brightness: 100, holdSeconds: 30 },
      periods: [{ start: '18:00', end: '06:00', level: 20 }],
    });
    const detail = await waitForDispatchDone(admin, await distribute({ id, ids: sensing.map((c) => lamps.idByCode.get(c)) }), 30_000);
    expect(detail.status).toBe(DispatchStatus.AllSuccessful);
    const evening = berlin('2026-10-24T21:00');
    await fleet.setClock(evening, 0);
    await expectAllAt(20, sensing);
    await expectAllAt(100, others);

    const radar = await mqtt.connectAsync(MQTT_URL, { clientId: `${radarCode}-test`, ...testMqttLogin() });
    try {
      const event: RadarEventMessage = { ts: evening.toISOString(), event: RadarEventId.Pedestrian };
      await radar.publishAsync(`city/v1/radar/${radarCode}/event`, JSON.stringify(event), { qos: 1 });
      await expectAllAt(100, sensing);
      // A radar nobody listens to changes nothing.
      await radar.publishAsync(`city/v1/radar/${prefix}OTHER/event`, JSON.stringify(event), { qos: 1 });
    } finally {
      await radar.endAsync();
    }
    await fleet.setClock(new Date(evening.getTime() + 29_000), 0);
    await expectAllAt(100, sensing);
    await fleet.setClock(new Date(evening.getTime() + 31_000), 0);
    await expectAllAt(20, sensing);
  }, 120_000);

  it('keeps lighting by the schedule the lamps hold while the platform is down', async () => {
    await worker.stop();
    await gw.stop();
    platformDown = true;
    await fleet.setClock(berlin('2026-10-24T23:30'), 0);
    for (const code of lamps.codes.slice(40, 60)) expect(fleet.lamp(code)?.level).toBe(60);
    await fleet.setClock(berlin('2026-10-25T08:00'), 0);
    for (const code of lamps.codes.slice(40, 60)) expect(fleet.lamp(code)?.level).toBe(0);
  });
});
