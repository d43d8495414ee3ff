import { startStripFleet, type StripFleet } from '../../device-sim/src';
import { DispatchStatus, FaultCode, JobName, LampStatus, StrategyMode, type LampSchedule, type StripAction } from '@sc/contracts';
import pino from 'pino';
import { waitFor } from '@sc/testing';
import { MQTT_URL, WorkerHarness } from './worker-harness';

describe('lighting worker and simulator: strip lights', () => {
  const h = new WorkerHarness();
  let fleet: StripFleet;
  const ids = new Map<string, number>();
  let jobs = 0;
  /** The simulated strips' clock, moved by the schedule test. */
  let clock = new Date();

  const strip = async (code: string) =>
    (
      await h.db.query<{ status: number; network_status: number; bri: number; zones: Record<string, unknown> | null; faults: number[] }>(
        `SELECT status, network_status, bri, zones, faults FROM strip_light WHERE device_id = $1`,
        [ids.get(code)],
      )
    )[0];

  /** Writes a strip dispatch as the gateway does (family strip, optional per-strip params) and hands it to the lighting queue. */
  const effect = async (codes: string[], action: StripAction | 'schedule', params: object, itemParams?: object) => {
    const [{ id }] = await h.db.query<{ id: string }>(
      `INSERT INTO dispatch (id, family, action, params, created_by, expires_at)
       VALUES (gen_random_uuid(), 'strip', $1, $2, 'test', now() + interval '60 seconds') RETURNING id`,
      [action, JSON.stringify(params)],
    );
    await h.db.query(
      `INSERT INTO dispatch_item (dispatch_id, device_id, command_id, params) SELECT $1, unnest($2::int[]), gen_random_uuid(), $3::jsonb`,
      [id, codes.map((c) => ids.get(c)), itemParams ? JSON.stringify(itemParams) : null],
    );
    await h.producer.enqueue(JobName.DistributeLampDispatch, { dispatchId: id }, { jobId: `${JobName.DistributeLampDispatch}:${id}:${++jobs}` });
    return id;
  };

  beforeAll(async () => {
    await h.setUp('wl_strips');
    const rows = await h.db.query<{ id: number; code: string }>(
      `WITH d AS (INSERT INTO device (type, code, name) SELECT 2, $1 || g, 'strip ' || g FROM generate_series(1, 3) g RETURNING id, code)
       , s AS (INSERT INTO strip_light (device_id) SELECT id FROM d)
       SELECT id, code FROM d ORDER BY id`,
      [`${h.codePrefix}S`],
    );
    for (const row of rows) ids.set(row.code, row.id);
    // A lamp with the same code as a strip: codes are unique per type only, and the families must not mix.
    await h.db.query(`INSERT INTO device (type, code, name) VALUES (1, $1, 'lamp twin')`, [rows[0].code]);
    await h.startWorker();
    fleet = await startStripFleet({
      mqttUrl: MQTT_URL,
      strips: [...ids.keys()],
      gatewayPrefix: `${h.codePrefix}SGW-`,
      ackLatencyMs: { min: 10, max: 30 },
      syncMs: 400,
      telemetryIntervalMs: 300,
      clock: () => clock,
      scheduleTickMs: 100,
      logger: pino({ level: 'silent' }),
    });
  });
  afterAll(async () => {
    await fleet?.stop({ clearRetained: true });
    await h.tearDown();
  });

  it('takes the strips in: synchronizing, then normal and online with their zones and readings', async () => {
    const [first] = ids.keys();
    await waitFor(async () => {
      const s = await strip(first);
      return s.network_status === 1 && s.status === LampStatus.Normal && s.zones !== null ? s : undefined;
    }, 10_000);
    const mine = h.events.DeviceStateChanged.filter((e) => e.family === 'strip' && e.deviceCode === first).map((e) => e.changed);
    // First heard while synchronizing: online, zones reported, the status still -1 ...
    expect(mine[0]).toMatchObject({ networkStatus: 1, zones: { L: { on: false }, R: { on: false } } });
    expect(mine[0]).not.toHaveProperty('status');
    // ... then normal, with the recomputed labels.
    expect(mine).toContainEqual(expect.objectContaining({ status: LampStatus.Normal, statusLabels: ['normal'] }));
    await waitFor(async () => {
      const [row] = await h.db.query<{ telemetry: { power: number } | null }>(`SELECT telemetry FROM strip_light WHERE device_id = $1`, [
        ids.get(first),
      ]);
      return row.telemetry ?? undefined;
    }, 5000);
    // The lamp twin heard nothing.
    expect(await h.db.query(`SELECT count(*)::int AS n FROM lamp`)).toEqual([{ n: 0 }]);
  });

  it('runs an effect through the ledger: the strips apply it on their zone and their reported state comes back', async () => {
    const codes = [...ids.keys()].slice(0, 2);
    const dispatchId = await effect(codes, 'breathing', { type: 2, effect: 5, zones: ['L'] as never });
    await waitFor(() => h.events.DispatchProgress.find((e) => e.dispatchId === dispatchId && e.status === DispatchStatus.AllSuccessful), 10_000);
    for (const code of codes) {
      expect(fleet.strip(code)?.zones.L).toEqual({ on: true, type: 2, effect: 5, color: '#ffffff' });
      expect(fleet.strip(code)?.zones.R).toMatchObject({ on: false });
      const stored = await waitFor(async () => {
        const s = await strip(code);
        return s.bri === 50 ? s : undefined;
      }, 5000);
      expect(stored).toMatchObject({ status: LampStatus.DistributionSucceeded, zones: { L: { on: true, type: 2, effect: 5 }, R: { on: false } } });
    }
    const untouched = [...ids.keys()][2];
    expect(fleet.strip(untouched)?.applied).toBe(0);

    const colour = await effect([codes[0]], 'colour', { type: 6, color: '#ff8800', zones: ['L', 'R'] as never });
    await waitFor(() => h.events.DispatchProgress.find((e) => e.dispatchId === colour && e.status === DispatchStatus.AllSuccessful), 10_000);
    await waitFor(async () => ((await strip(codes[0])).bri === 100 ? true : undefined), 5000);
    expect((await strip(codes[0])).zones).toEqual({
      L: { on: true, type: 6, effect: null, color: '#ff8800' },
      R: { on: true, type: 6, effect: null, color: '#ff8800' },
    });
    const live = h.events.DeviceStateChanged.filter((e) => e.family === 'strip' && e.deviceCode === codes[0] && e.changed.color === '#ff8800');
    expect(live.length).toBeGreaterThan(0);

    const off = await effect([codes[0]], 'off', { type: 1, effect: -2, zones: ['R'] as never });
    await waitFor(() => h.events.DispatchProgress.find((e) => e.dispatchId === off && e.status === DispatchStatus.AllSuccessful), 10_000);
    await waitFor(async () => ((await strip(codes[0])).bri === 50 ? true : undefined), 5000);
    expect(fleet.strip(codes[0])?.zones.R).toEqual({ on: false, type: 1, effect: -2, color: '#ff8800' });
  });

  it('records faults as the strip reports them, with their status labels live', async () => {
    const code = [...ids.keys()][2];
    await fleet.raiseFault(code, FaultCode.TemperatureHigh);
    await fleet.raiseFault(code, FaultCode.NotGrounded);
    await waitFor(async () => ((await strip(code)).faults.length === 2 ? true : undefined), 5000);
    expect((await strip(code)).faults).toEqual([5, 8]);
    await waitFor(() =>
      h.events.DeviceStateChanged.find(
        (e) => e.deviceCode === code && JSON.stringify(e.changed.statusLabels) === JSON.stringify(['notGrounded', 'temperatureTooHigh']),
      ),
    );
    await fleet.clearFault(code, FaultCode.TemperatureHigh);
    await waitFor(async () => ((await strip(code)).faults.length === 1 ? true : undefined), 5000);
  });

  it('runs a strip strategy: the schedule reaches the strip, which follows it by its own clock and reports its level', async () => {
    const code = [...ids.keys()][1];
    const schedule: LampSchedule = {
      strategyId: 1,
      name: 'Evenings',
      rules: { mode: StrategyMode.Week, modeData: { weekdays: [] }, periods: [{ start: '18:00', end: '23:00', level: 80 }] },
      place: { latitude: 22.54, longitude: 114.06, timeZone: 'UTC' },
    };
    clock = new Date('2026-11-20T19:00:00Z');
    const dispatchId = await effect([code], 'schedule', { strategyId: 1, name: 'Evenings' }, schedule);
    await waitFor(() => h.events.DispatchProgress.find((e) => e.dispatchId === dispatchId && e.status === DispatchStatus.AllSuccessful), 10_000);
    expect(fleet.strip(code)).toMatchObject({ strategyId: 1, bri: 80, zones: { L: { on: true }, R: { on: true } } });
    await waitFor(async () => ((await strip(code)).bri === 80 ? true : undefined), 5000);
    expect((await strip(code)).status).toBe(LampStatus.DistributionSucceeded);

    // Past the period's end the strip goes dark by itself, and says so.
    clock = new Date('2026-11-20T23:30:00Z');
    await waitFor(async () => ((await strip(code)).bri === 0 ? true : undefined), 5000);
    expect((await strip(code)).zones).toMatchObject({ L: { on: false }, R: { on: false } });
  });
});
