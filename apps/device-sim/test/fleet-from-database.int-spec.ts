import { DeviceType } from '@sc/contracts';
import { createTestDatabase, type TestDatabase } from '@sc/testing';
import { randomBytes } from 'node:crypto';
import { loadLampsFromDatabase, startFleet } from '../src';

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

  it('loads the single lamps with their recorded gateways', async () => {
    expect(await loadLampsFromDatabase(db.url)).toEqual([
      { code: `${prefix}A`, gatewayId: `${prefix}GW` },
      { code: `${prefix}B` },
      { code: `${prefix}C`, gatewayId: `${prefix}GW` },
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
});
