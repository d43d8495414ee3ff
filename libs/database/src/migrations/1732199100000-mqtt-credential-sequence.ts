import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Credential generations are drawn from one sequence, for every device and lamp gateway: a generation is never used
 * twice, so a device deleted and added again under the same code, or a code freed by a change and taken by another
 * device, gets a password nobody had before (the password is derived from the username and the generation). Light
 * rows added or removed on their own also announce a change of the broker's accounts (the gateway they name).
 */
export class MqttCredentialSequence1732199100000 implements MigrationInterface {
  name = 'MqttCredentialSequence1732199100000';

  async up(q: QueryRunner): Promise<void> {
    // Two thousand million rotations and additions before it runs out.
    await q.query(`CREATE SEQUENCE mqtt_credential_seq AS int START 1000`);
    for (const table of ['device', 'lamp_gateway']) {
      await q.query(`ALTER TABLE ${table} ALTER COLUMN mqtt_generation SET DEFAULT nextval('mqtt_credential_seq')`);
      await q.query(`UPDATE ${table} SET mqtt_generation = nextval('mqtt_credential_seq')`);
    }
    for (const table of ['lamp', 'strip_light']) {
      await q.query(
        `CREATE TRIGGER ${table}_broker_access_rows AFTER INSERT OR DELETE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION sc_broker_access_changed()`,
      );
      await q.query(`ALTER TABLE ${table} ENABLE ALWAYS TRIGGER ${table}_broker_access_rows`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['lamp', 'strip_light']) await q.query(`DROP TRIGGER ${table}_broker_access_rows ON ${table}`);
    for (const table of ['device', 'lamp_gateway']) {
      await q.query(`ALTER TABLE ${table} ALTER COLUMN mqtt_generation SET DEFAULT 1`);
    }
    await q.query(`DROP SEQUENCE mqtt_credential_seq`);
  }
}
