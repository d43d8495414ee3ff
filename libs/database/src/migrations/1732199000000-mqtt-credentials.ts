import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The channel on which the database announces that the broker's accounts may have changed (no payload). */
export const BROKER_ACCESS_CHANNEL = 'sc_broker_access';

/**
 * MQTT credentials (docs/security.md). A device's password is derived from the installation's credential secret, its
 * MQTT username (`{family}/{code}`) and its credential generation: raising the generation rotates the password, and
 * deleting the device revokes it. Lamp gateways (concentrators) have their own generation, and may speak for the
 * lamps and strip lights bound to them (`gateway_id`).
 *
 * Every statement that adds, deletes, re-codes or re-types a device, rotates a credential or moves a light to another
 * gateway announces it on BROKER_ACCESS_CHANNEL, whoever runs it, so the broker's access files are made again. (A
 * light added with its gateway comes with its device row, which announces it.)
 */
export class MqttCredentials1732199000000 implements MigrationInterface {
  name = 'MqttCredentials1732199000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE device ADD COLUMN mqtt_generation int NOT NULL DEFAULT 1 CHECK (mqtt_generation > 0)`);
    await q.query(`ALTER TABLE lamp_gateway ADD COLUMN mqtt_generation int NOT NULL DEFAULT 1 CHECK (mqtt_generation > 0)`);
    await q.query(`
      CREATE FUNCTION sc_broker_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${BROKER_ACCESS_CHANNEL}', '');
        RETURN NULL;
      END $$`);
    for (const [name, table, definition] of TRIGGERS) {
      await q.query(`CREATE TRIGGER ${name} ${definition.replace('%', table)} EXECUTE FUNCTION sc_broker_access_changed()`);
      await q.query(`ALTER TABLE ${table} ENABLE ALWAYS TRIGGER ${name}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name, table] of TRIGGERS) await q.query(`DROP TRIGGER ${name} ON ${table}`);
    await q.query(`DROP FUNCTION sc_broker_access_changed()`);
    await q.query(`ALTER TABLE lamp_gateway DROP COLUMN mqtt_generation`);
    await q.query(`ALTER TABLE device DROP COLUMN mqtt_generation`);
  }
}

/**
 * Row triggers for updates fire only when a column that names an account changes (the intake rewrites lamp rows all
 * the time, gateway_id included, mostly unchanged); PostgreSQL sends one notification per transaction however many
 * rows fire (identical payloads are folded).
 */
const changed = (...columns: string[]) => columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ');
const TRIGGERS: [name: string, table: string, definition: string][] = [
  ['device_broker_access_rows', 'device', 'AFTER INSERT OR DELETE OR TRUNCATE ON % FOR EACH STATEMENT'],
  [
    'device_broker_access_update',
    'device',
    `AFTER UPDATE OF code, type, mqtt_generation ON % FOR EACH ROW WHEN (${changed('code', 'type', 'mqtt_generation')})`,
  ],
  ['lamp_gateway_broker_access_rows', 'lamp_gateway', 'AFTER INSERT OR DELETE OR TRUNCATE ON % FOR EACH STATEMENT'],
  [
    'lamp_gateway_broker_access_update',
    'lamp_gateway',
    `AFTER UPDATE OF code, mqtt_generation ON % FOR EACH ROW WHEN (${changed('code', 'mqtt_generation')})`,
  ],
  ['lamp_broker_access_update', 'lamp', `AFTER UPDATE OF gateway_id ON % FOR EACH ROW WHEN (${changed('gateway_id')})`],
  ['strip_light_broker_access_update', 'strip_light', `AFTER UPDATE OF gateway_id ON % FOR EACH ROW WHEN (${changed('gateway_id')})`],
];
