import { DeviceType, StrategyMode, type LampSchedule } from '@sc/contracts';
import { createTestDatabase, type TestDatabase } from '@sc/testing';
import { randomBytes } from 'node:crypto';
import { loadLampsFromDatabase, loadStripsFromDatabase, startFleet } from '../src';

describe('a fleet loaded from the device registry', () => {
  const prefix = `D${randomBytes(4).toString('hex')}-`;
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('device_sim');
    // Two lamps on a recorded gateway, one without, and a device of another type that must be left out.
    const rows: [number, string][] = [
      [DeviceType.SingleLamp, `${prefix}A`],
      [DeviceType.SingleLamp, `${prefix}B`],
      [DeviceType.SingleLamp, `${prefix}C`],
      [DeviceType.LightStrip, `${prefix}S`],
    ];
    for (const [type, code] of rows) await db.query(`INSERT INTO device (type, code, name) VALUES ($1, $2, $2)`, [type, code]);
    await db.query(`INSERT INTO lamp (device_id, gateway_id) SELECT id, $1 FROM device WHERE code IN ($2, $3)`, [
      `${prefix}GW`,
      `${prefix}A`,
      `${prefix}C`,
    ]);
  });

  afterAll(() => db?.drop());

  it('loads the single lamps with their recorded gateways and credential generations', async () => {
    // A rotated credential: the simulated lamp logs in with its new password. The gateway has no record of its own,
    // so it has no generation (the simulator grants it itself).
    await db.query(`UPDATE device SET mqtt_generation = 424242 WHERE code = $1`, [`${prefix}C`]);
    expect(await loadLampsFromDatabase(db.url)).toEqual([
      { code: `${prefix}A`, generation: expect.any(Number), gatewayId: `${prefix}GW` },
      { code: `${prefix}B`, generation: expect.any(Number) },
      { code: `${prefix}C`, generation: 424242, gatewayId: `${prefix}GW` },
    ]);
  });

  it('hangs them off those gateways when the fleet starts', async () => {
    const fleet = await startFleet({ lamps: { databaseUrl: db.url }, gatewayPrefix: `${prefix}G-`, telemetryIntervalMs: 0 });
    try {
      expect(fleet.codes).toEqual([`${prefix}A`, `${prefix}C`, `${prefix}B`]);
      expect(fleet.gatewayIds).toEqual([`${prefix}GW`, `${prefix}G-0001`]);
      expect(fleet.lamp(`${prefix}B`)!.gatewayId).toBe(`${prefix}G-0001`);
    } finally {
      await fleet.stop({ clearRetained: true });
    }
  });

  it('loads the strip lights, and each lamp keeps the schedule it was last given', async () => {
    const schedule: LampSchedule = {
      strategyId: 11,
      name: 'Always',
      rules: { mode: StrategyMode.Week, modeData: { weekdays: [] }, periods: [{ start: '12:00', end: '12:00', level: 40 }] },
      place: { latitude: 22.54, longitude: 114.06, timeZone: 'Asia/Shanghai' },
    };
    await db.query(`INSERT INTO strip_light (device_id, gateway_id) SELECT id, $1 FROM device WHERE code = $2`, [`${prefix}SGW`, `${prefix}S`]);
    expect(await loadStripsFromDatabase(db.url)).toEqual([{ code: `${prefix}S`, generation: expect.any(Number), gatewayId: `${prefix}SGW` }]);

    await db.query(`UPDATE lamp SET job_list = $1 FROM device d WHERE lamp.device_id = d.id AND d.code = $2`, [
      JSON.stringify(schedule),
      `${prefix}A`,
    ]);
    // A stored schedule the lamp could not run is left out.
    await db.query(`UPDATE lamp SET job_list = '{"strategyId": 12}' FROM device d WHERE lamp.device_id = d.id AND d.code = $1`, [`${prefix}C`]);
    const fleet = await startFleet({ lamps: { databaseUrl: db.url }, gatewayPrefix: `${prefix}G-`, telemetryIntervalMs: 0 });
    try {
      expect(fleet.lamp(`${prefix}A`)).toMatchObject({ strategyId: 11, on: true, level: 40 });
      expect(fleet.lamp(`${prefix}C`)!.strategyId).toBeNull();
    } finally {
      await fleet.stop({ clearRetained: true });
    }
  });
});
