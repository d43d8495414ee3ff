import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Announced (pg_notify) whenever what a detection raises changes: groups' radars or lamps, strategies. */
export const RADAR_RULES_CHANNEL = 'sc_radar_rules';

/**
 * Radars (device type 5) beside the shared device registry (their code, name, region and pole), their groups and the
 * strategies bound to the groups (docs/radar.md).
 *
 * - `radar_terminal`: what the radar worker keeps from their reports (network status, versions, MAC, RSSI) and their
 *   detections (count, rate in detections a minute, the last one).
 * - `radar_group` with its radars and its lamps: a radar's detection counts for every group it is in; the group's
 *   strategy lights the group's lamps.
 * - `radar_strategy`: at most one per group, its events (the spec's radarEventInfos) as one jsonb array.
 * - `radar_lamp_raise`: lamps a detection raised and not yet returned, with the level to return them to and when;
 *   the radar worker returns them from here (a restarted worker still does).
 */
export class Radar1732200200000 implements MigrationInterface {
  name = 'Radar1732200200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE radar_terminal (
        device_id int PRIMARY KEY REFERENCES device(id) ON DELETE CASCADE,
        network_status smallint NOT NULL DEFAULT 0,
        count int NOT NULL DEFAULT 0,
        radar_rate float8 NOT NULL DEFAULT 0,
        swver varchar(32) NOT NULL DEFAULT '',
        hwver varchar(32) NOT NULL DEFAULT '',
        mac varchar(17) NOT NULL DEFAULT '',
        rssi smallint,
        reported_at timestamptz,
        last_detection_at timestamptz
      ) WITH (fillfactor = 70)`);
    await q.query(`CREATE INDEX radar_terminal_network_idx ON radar_terminal (network_status)`);
    await q.query(`
      CREATE TABLE radar_group (
        id serial PRIMARY KEY,
        name varchar(64) NOT NULL,
        remark varchar(255) NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX radar_group_name_uq ON radar_group (lower(name))`);
    await q.query(`
      CREATE TABLE radar_group_radar (
        group_id int NOT NULL REFERENCES radar_group(id) ON DELETE CASCADE,
        device_id int NOT NULL REFERENCES device(id) ON DELETE CASCADE,
        PRIMARY KEY (group_id, device_id)
      )`);
    await q.query(`CREATE INDEX radar_group_radar_device_idx ON radar_group_radar (device_id)`);
    await q.query(`
      CREATE TABLE radar_group_lamp (
        group_id int NOT NULL REFERENCES radar_group(id) ON DELETE CASCADE,
        device_id int NOT NULL REFERENCES device(id) ON DELETE CASCADE,
        PRIMARY KEY (group_id, device_id)
      )`);
    await q.query(`CREATE INDEX radar_group_lamp_device_idx ON radar_group_lamp (device_id)`);
    await q.query(`
      CREATE TABLE radar_strategy (
        id serial PRIMARY KEY,
        name varchar(64) NOT NULL,
        group_id int NOT NULL UNIQUE REFERENCES radar_group(id) ON DELETE RESTRICT,
        event_infos jsonb NOT NULL CHECK (jsonb_typeof(event_infos) = 'array'),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX radar_strategy_name_uq ON radar_strategy (lower(name))`);
    await q.query(`
      CREATE TABLE radar_lamp_raise (
        lamp_id int PRIMARY KEY REFERENCES device(id) ON DELETE CASCADE,
        level smallint NOT NULL,
        restore_level smallint NOT NULL,
        until timestamptz NOT NULL,
        by_itself boolean NOT NULL DEFAULT false
      )`);
    await q.query(`CREATE INDEX radar_lamp_raise_until_idx ON radar_lamp_raise (until)`);
    await q.query(`
      CREATE FUNCTION radar_rules_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${RADAR_RULES_CHANNEL}', '');
        RETURN NULL;
      END $$`);
    for (const table of ['radar_group_radar', 'radar_group_lamp', 'radar_strategy']) {
      await q.query(`CREATE TRIGGER ${table}_rules AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION radar_rules_changed()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE radar_lamp_raise, radar_strategy, radar_group_lamp, radar_group_radar, radar_group, radar_terminal`);
    await q.query(`DROP FUNCTION radar_rules_changed()`);
  }
}
