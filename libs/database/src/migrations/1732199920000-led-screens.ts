import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * LED screens (device type 4) beside the shared device registry, which holds their serial number (sn: the device
 * code, their MQTT identity and the username of their login, `led/{sn}`, docs/security.md), name, region and the
 * lamp pole they are mounted on (device.pole_id). Adding or deleting one announces it on sc_broker_access through the
 * device table's triggers, so its login is granted or revoked like every registry device's.
 *
 * This table holds the spec's LED fields (IPAddress, width, height, timeZone; volume, brightness and heartbeatTime,
 * which is `reported_at`), what the LED worker keeps from their reports (network status, screen bright or black,
 * the zone their clock runs in, versions) and the optional daylight brightness rule: a day and a night brightness,
 * the place whose sunrise and sunset switch between them, and the phase last applied.
 */
export class LedScreens1732199920000 implements MigrationInterface {
  name = 'LedScreens1732199920000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE led_screen (
        device_id int PRIMARY KEY REFERENCES device(id) ON DELETE CASCADE,
        ip_address varchar(15) NOT NULL,
        width int NOT NULL CHECK (width BETWEEN 1 AND 16384),
        height int NOT NULL CHECK (height BETWEEN 1 AND 16384),
        time_zone varchar(64) NOT NULL,
        volume smallint NOT NULL DEFAULT 50 CHECK (volume BETWEEN 0 AND 100),
        brightness smallint NOT NULL DEFAULT 100 CHECK (brightness BETWEEN 0 AND 100),
        screen_state smallint NOT NULL DEFAULT 1 CHECK (screen_state IN (1, 2)),
        network_status smallint NOT NULL DEFAULT 0,
        clock_zone varchar(64) NOT NULL DEFAULT '',
        hardware_version varchar(32) NOT NULL DEFAULT '',
        software_version varchar(32) NOT NULL DEFAULT '',
        reported_at timestamptz,
        daylight_day smallint CHECK (daylight_day BETWEEN 0 AND 100),
        daylight_night smallint CHECK (daylight_night BETWEEN 0 AND 100),
        daylight_place jsonb,
        daylight_phase varchar(8) CHECK (daylight_phase IN ('day', 'night')),
        CHECK ((daylight_day IS NULL) = (daylight_night IS NULL) AND (daylight_day IS NULL) = (daylight_place IS NULL))
      ) WITH (fillfactor = 70)`);
    await q.query(`CREATE INDEX led_screen_network_idx ON led_screen (network_status)`);
    await q.query(`CREATE INDEX led_screen_daylight_idx ON led_screen (device_id) WHERE daylight_day IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE led_screen`);
  }
}
