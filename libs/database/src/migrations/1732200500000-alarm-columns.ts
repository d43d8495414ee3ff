import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One-key alarm columns (device type 7, docs/alarm-columns.md) beside the shared device registry, which holds their
 * name, code (their MQTT identity), region, pole and own position.
 *
 * - `alarm_column`: their SIP account (the intercom's number for them) and what the alarm worker keeps from their
 *   reports (network status, address, versions, volume, last report) and their presses (the last one, a count).
 * - `alarm_press`: every press of a column's button, with its level, as the column stamped it and as the platform
 *   stored it. The column's code and region are kept as they were, so the record of a press outlives a column that
 *   is moved or deleted (incidents and call logs read it later).
 */
export class AlarmColumns1732200500000 implements MigrationInterface {
  name = 'AlarmColumns1732200500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE alarm_column (
        device_id int PRIMARY KEY REFERENCES device(id) ON DELETE CASCADE,
        sip_account varchar(32) NOT NULL DEFAULT '',
        network_status smallint NOT NULL DEFAULT 0,
        ip_address varchar(45) NOT NULL DEFAULT '',
        swver varchar(32) NOT NULL DEFAULT '',
        hwver varchar(32) NOT NULL DEFAULT '',
        volume smallint CHECK (volume BETWEEN 0 AND 100),
        reported_at timestamptz,
        last_press_at timestamptz,
        last_press_level smallint CHECK (last_press_level BETWEEN 0 AND 2),
        press_count int NOT NULL DEFAULT 0
      ) WITH (fillfactor = 70)`);
    await q.query(`CREATE INDEX alarm_column_network_idx ON alarm_column (network_status)`);
    // A SIP account calls one column: given twice it would ring two.
    await q.query(`CREATE UNIQUE INDEX alarm_column_sip_uq ON alarm_column (sip_account) WHERE sip_account <> ''`);
    await q.query(`
      CREATE TABLE alarm_press (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        device_id int NOT NULL,
        device_code varchar(64) NOT NULL,
        region_id int,
        level smallint NOT NULL CHECK (level BETWEEN 0 AND 2),
        pressed_at timestamptz NOT NULL,
        stored_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX alarm_press_time_idx ON alarm_press (pressed_at DESC)`);
    await q.query(`CREATE INDEX alarm_press_device_idx ON alarm_press (device_id, pressed_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE alarm_press`);
    await q.query(`DROP TABLE alarm_column`);
  }
}
