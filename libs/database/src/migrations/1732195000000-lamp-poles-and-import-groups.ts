import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lamp poles: a pole is a device of type 0 in the registry (code, name, region, group, position); this table holds
 * what only poles have. Devices say which pole they are mounted on (device.pole_id, migration 1732190000000).
 * Gateways and loops are not in the device registry, so they get the device group their import put them in (a group
 * of single lamps: the lamps they serve), as every import names one (spec section 5).
 */
export class LampPolesAndImportGroups1732195000000 implements MigrationInterface {
  name = 'LampPolesAndImportGroups1732195000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE lamp_pole (
        device_id int PRIMARY KEY REFERENCES device(id) ON DELETE CASCADE,
        address varchar(255) NOT NULL DEFAULT '',
        remark varchar(255) NOT NULL DEFAULT ''
      )`);
    await q.query(`ALTER TABLE lamp_gateway ADD COLUMN group_id int REFERENCES device_group(id) ON DELETE SET NULL`);
    await q.query(`ALTER TABLE lamp_loop ADD COLUMN group_id int REFERENCES device_group(id) ON DELETE SET NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE lamp_loop DROP COLUMN group_id`);
    await q.query(`ALTER TABLE lamp_gateway DROP COLUMN group_id`);
    await q.query(`DROP TABLE lamp_pole`);
  }
}
