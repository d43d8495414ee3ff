import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The families whose devices are records of their own (no `device` row), with their tables, as of this migration. */
const OWN_RECORD_TABLES = [
  ['lamp-gateway', 'lamp_gateway'],
  ['signage', 'signage_device'],
] as const;

/**
 * Alarms of devices that are records of their own (lamp gateways, floor-standing screens): such an alarm names its
 * family and the record's id (`record_id`) instead of a registry device (`device_id`), one or the other. One open
 * alarm per record and condition, as for registry devices; a record's alarms go with it when it is deleted (a
 * trigger, as the registry's foreign key does for devices).
 */
export class OwnRecordAlarms1732200900000 implements MigrationInterface {
  name = 'OwnRecordAlarms1732200900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE device_alarm ALTER COLUMN device_id DROP NOT NULL, ADD COLUMN record_id int`);
    await q.query(`ALTER TABLE device_alarm ADD CONSTRAINT device_alarm_one_subject CHECK ((device_id IS NULL) <> (record_id IS NULL))`);
    await q.query(
      `CREATE UNIQUE INDEX device_alarm_record_open_uq ON device_alarm (family, record_id, kind, code) WHERE state <> 'cleared' AND record_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX device_alarm_record_idx ON device_alarm (family, record_id, raised_at DESC) WHERE record_id IS NOT NULL`);
    await q.query(`
      CREATE FUNCTION device_alarm_record_gone() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM device_alarm WHERE family = TG_ARGV[0] AND record_id = OLD.id;
        RETURN NULL;
      END $$`);
    for (const [family, table] of OWN_RECORD_TABLES) {
      await q.query(
        `CREATE TRIGGER ${table}_alarms_gone AFTER DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION device_alarm_record_gone('${family}')`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [, table] of OWN_RECORD_TABLES) await q.query(`DROP TRIGGER ${table}_alarms_gone ON ${table}`);
    await q.query(`DROP FUNCTION device_alarm_record_gone()`);
    await q.query(`DELETE FROM device_alarm WHERE record_id IS NOT NULL`);
    await q.query(`DROP INDEX device_alarm_record_idx`);
    await q.query(`DROP INDEX device_alarm_record_open_uq`);
    await q.query(`ALTER TABLE device_alarm DROP CONSTRAINT device_alarm_one_subject`);
    await q.query(`ALTER TABLE device_alarm DROP COLUMN record_id, ALTER COLUMN device_id SET NOT NULL`);
  }
}
