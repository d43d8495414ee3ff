import { AlarmKind, AlarmState, FaultCode, StrategyMode, type LampSchedule } from '@sc/contracts';
import { waitFor } from '@sc/testing';
import { connectMqtt, WorkerHarness } from './worker-harness';

const topic = (code: string, channel: string) => `city/v1/lamp/${code}/${channel}`;
const fault = (code: number, active: boolean) => JSON.stringify({ ts: new Date().toISOString(), code, active });

interface AlarmDbRow {
  id: number;
  kind: string;
  code: number;
  state: string;
  cleared_at: Date | null;
  cleared_by: string | null;
}

/** A longitude where it is about local solar noon now, so the sun is high over a lamp on the equator. */
function noonLongitude(now = new Date()): number {
  const utcHours = now.getUTCHours() + now.getUTCMinutes() / 60;
  const lon = (12 - utcHours) * 15;
  return lon < -180 ? lon + 360 : lon > 180 ? lon - 360 : lon;
}

/** A fixed-offset zone where it is now between 00:00 and 01:00, so an evening-to-morning period is running. */
function midnightZone(now = new Date()): string {
  const offset = now.getUTCHours() <= 12 ? -now.getUTCHours() : 24 - now.getUTCHours();
  // Etc/GMT names count the other way: Etc/GMT-8 is UTC+8.
  return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

describe('lighting worker: alarms and energy', () => {
  const h = new WorkerHarness();
  let ids: Map<string, number>;
  let codes: string[];

  beforeAll(async () => {
    await h.setUp('wl_alarms');
    ids = await h.addLamps(5, 'al');
    codes = [...ids.keys()];
    // The periodic check is off: these tests see what the intake's state changes trigger.
    await h.startWorker({ lightCheckIntervalMs: 0, lightCheckGraceMs: 0 });
  });
  afterAll(() => h.tearDown());

  const alarmsOf = (deviceId: number) =>
    h.db.query<AlarmDbRow>(`SELECT id, kind, code, state, cleared_at, cleared_by FROM device_alarm WHERE device_id = $1 ORDER BY id`, [deviceId]);

  it('a fault event raises an alarm in the same write as the lamp, and a cleared event clears it', async () => {
    const code = codes[0];
    const id = ids.get(code)!;
    const device = await connectMqtt();
    await device.publishAsync(topic(code, 'event'), fault(FaultCode.ALedFailure, true), { qos: 1 });
    const raised = await waitFor(async () => {
      const rows = await alarmsOf(id);
      return rows.length === 1 ? rows : undefined;
    });
    expect(raised[0]).toMatchObject({ kind: AlarmKind.Fault, code: FaultCode.ALedFailure, state: AlarmState.Active, cleared_at: null });
    const [lamp] = await h.db.query<{ faults: number[] }>(`SELECT faults FROM lamp WHERE device_id = $1`, [id]);
    expect(lamp.faults).toEqual([FaultCode.ALedFailure]);
    const event = await waitFor(() => h.events.AlarmChanged.find((e) => e.alarm.deviceId === id && e.change === 'raised'));
    expect(event).toMatchObject({ family: 'lamp', alarm: { deviceCode: code, kind: 'fault', code: FaultCode.ALedFailure, state: 'active' } });

    // The same fault again is no new alarm; clearing it closes the one there is.
    await device.publishAsync(topic(code, 'event'), fault(FaultCode.ALedFailure, true), { qos: 1 });
    await device.publishAsync(topic(code, 'event'), fault(FaultCode.ALedFailure, false), { qos: 1 });
    const cleared = await waitFor(async () => {
      const rows = await alarmsOf(id);
      return rows[0]?.state === AlarmState.Cleared ? rows : undefined;
    });
    expect(cleared).toHaveLength(1);
    expect(cleared[0].cleared_at).not.toBeNull();
    expect(cleared[0].cleared_by).toBeNull();
    await waitFor(() => h.events.AlarmChanged.find((e) => e.alarm.id === cleared[0].id && e.change === 'cleared'));

    // Raised again later: a new alarm, the old one stays in the history.
    await device.publishAsync(topic(code, 'event'), fault(FaultCode.ALedFailure, true), { qos: 1 });
    await waitFor(async () => ((await alarmsOf(id)).length === 2 ? true : undefined));
    await device.endAsync();
  });

  it('malformed events and unknown codes raise nothing', async () => {
    const code = codes[1];
    const id = ids.get(code)!;
    const before = h.worker!.snapshot();
    const device = await connectMqtt();
    await device.publishAsync(topic(code, 'event'), fault(9, true), { qos: 1 });
    await device.publishAsync(topic(code, 'event'), JSON.stringify({ ts: 'yesterday', code: 1, active: true }), { qos: 1 });
    await device.publishAsync(topic(code, 'event'), '{"code":', { qos: 1 });
    await device.publishAsync(topic(`${h.codePrefix}ghost`, 'event'), fault(FaultCode.VoltageLow, true), { qos: 1 });
    // A good message after them, so the test knows the bad ones were handled.
    await device.publishAsync(topic(code, 'state'), JSON.stringify({ online: true, on: false, level: 0 }), { qos: 1 });
    await device.endAsync();
    await waitFor(() => {
      const s = h.worker!.snapshot();
      return s.rejected.malformed - before.rejected.malformed >= 3 && s.rejected['unknown-device'] > before.rejected['unknown-device']
        ? true
        : undefined;
    });
    await waitFor(() => (h.events.DeviceStateChanged.some((e) => e.recordId === id) ? true : undefined));
    expect(await alarmsOf(id)).toEqual([]);
    const [{ n }] = await h.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM device_alarm a JOIN device d ON d.id = a.device_id WHERE d.code LIKE $1`,
      [`${h.codePrefix}ghost%`],
    );
    expect(n).toBe(0);
  });

  it('a lamp lit at noon is day-burning, and the alarm clears when it goes off', async () => {
    const code = codes[2];
    const id = ids.get(code)!;
    await h.db.query(`UPDATE device SET latitude = 0, longitude = $2 WHERE id = $1`, [id, noonLongitude()]);
    const device = await connectMqtt();
    await device.publishAsync(topic(code, 'state'), JSON.stringify({ online: true, on: true, level: 100 }), { qos: 1 });
    const raised = await waitFor(async () => {
      const rows = await alarmsOf(id);
      return rows.length === 1 ? rows[0] : undefined;
    });
    expect(raised).toMatchObject({ kind: AlarmKind.DayBurning, code: 0, state: AlarmState.Active });
    await waitFor(() => h.events.AlarmChanged.find((e) => e.alarm.id === raised.id && e.change === 'raised'));
    await device.publishAsync(topic(code, 'state'), JSON.stringify({ online: true, on: false, level: 0 }), { qos: 1 });
    await waitFor(async () => ((await alarmsOf(id))[0]?.state === AlarmState.Cleared ? true : undefined));
    await device.endAsync();
  });

  it('a lamp dark while its schedule says lit is a dark lamp, until it lights up', async () => {
    const code = codes[4];
    const id = ids.get(code)!;
    const schedule: LampSchedule = {
      strategyId: 1,
      name: 'All night',
      rules: { mode: StrategyMode.Week, modeData: { weekdays: [] }, periods: [{ start: '18:00', end: '06:00', level: 80 }] },
      place: { latitude: 0, longitude: 0, timeZone: midnightZone() },
    };
    await h.db.query(`UPDATE lamp SET job_list = $2 WHERE device_id = $1`, [id, JSON.stringify(schedule)]);
    const device = await connectMqtt();
    await device.publishAsync(topic(code, 'state'), JSON.stringify({ online: true, on: false, level: 0 }), { qos: 1 });
    const raised = await waitFor(async () => {
      const rows = await alarmsOf(id);
      return rows.length === 1 ? rows[0] : undefined;
    });
    expect(raised).toMatchObject({ kind: AlarmKind.DarkLamp, state: AlarmState.Active });
    // Lit as scheduled: no dark lamp, and no day-burning either (it is night there).
    await device.publishAsync(topic(code, 'state'), JSON.stringify({ online: true, on: true, level: 80 }), { qos: 1 });
    await waitFor(async () => ((await alarmsOf(id))[0]?.state === AlarmState.Cleared ? true : undefined));
    expect(await alarmsOf(id)).toHaveLength(1);
    await device.endAsync();
  });

  it('integrates power readings into hourly energy, once per reading', async () => {
    const code = codes[3];
    const id = ids.get(code)!;
    const start = Date.now() - 10 * 60_000;
    const device = await connectMqtt();
    // 80 W for 5 minutes, then 40 W for 5 minutes (readings every minute), sent twice: the repeats count nothing.
    const readings = Array.from({ length: 11 }, (_, i) => ({
      ts: new Date(start + i * 60_000).toISOString(),
      voltage: 230,
      current: 0.3,
      power: i <= 5 ? 80 : 40,
      powerFactor: 0.95,
      signal: -70,
    }));
    for (const reading of readings) await device.publishAsync(topic(code, 'telemetry'), JSON.stringify(reading), { qos: 1 });
    for (const reading of readings.slice(3)) await device.publishAsync(topic(code, 'telemetry'), JSON.stringify(reading), { qos: 1 });
    await device.endAsync();
    const sums = await waitFor(async () => {
      const [row] = await h.db.query<{ wh: number; lit: number; covered: number }>(
        `SELECT sum(energy_wh) AS wh, sum(lit_seconds) AS lit, sum(covered_seconds) AS covered FROM lamp_energy_hourly WHERE device_id = $1`,
        [id],
      );
      return row.covered >= 600 ? row : undefined;
    });
    // 5 min at 80 W, one minute ramping 80→40, 4 min at 40 W.
    const expected = (5 * 80 + 60 + 4 * 40) / 60;
    expect(sums.covered).toBe(600);
    expect(sums.lit).toBe(600);
    expect(sums.wh).toBeCloseTo(expected, 6);
  });
});
