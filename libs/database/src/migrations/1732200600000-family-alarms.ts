import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alarms of every device family: each alarm names its device's family (the alarms API filters by it and answers only
 * the families a role may see), and the runtime's kinds join the lamps' own: offline, and overload (a declared load
 * threshold).
 */
export class FamilyAlarms1732200600000 implements MigrationInterface {
  name = 'FamilyAlarms1732200600000';

  async up(q: QueryRunner): Promise<void> {
    // Every alarm so far is a lamp's.
    await q.query(`ALTER TABLE device_alarm ADD COLUMN family varchar(32) NOT NULL DEFAULT 'lamp'`);
    await q.query(`ALTER TABLE device_alarm ALTER COLUMN family DROP DEFAULT`);
    await q.query(`ALTER TABLE device_alarm DROP CONSTRAINT device_alarm_kind_check`);
    await q.query(
      `ALTER TABLE device_alarm ADD CONSTRAINT device_alarm_kind_check CHECK (kind IN ('fault', 'dayBurning', 'darkLamp', 'offline', 'overload'))`,
    );
    await q.query(`CREATE INDEX device_alarm_family_idx ON device_alarm (family, raised_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX device_alarm_family_idx`);
    await q.query(`DELETE FROM device_alarm WHERE kind IN ('offline', 'overload')`);
    await q.query(`ALTER TABLE device_alarm DROP CONSTRAINT device_alarm_kind_check`);
    await q.query(`ALTER TABLE device_alarm ADD CONSTRAINT device_alarm_kind_check CHECK (kind IN ('fault', 'dayBurning', 'darkLamp'))`);
    await q.query(`ALTER TABLE device_alarm DROP COLUMN family`);
  }
}
