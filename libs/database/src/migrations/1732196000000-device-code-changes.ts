import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The channel on which the database announces device codes that were added, changed or removed. */
export const DEVICE_CODES_CHANNEL = 'sc_device_codes';

/** Up to this many codes travel in one announcement (well under pg_notify's 8000 bytes); beyond it, `*` is announced. */
const MAX_CODES = 100;

/**
 * Every statement that adds, re-codes, re-types or removes devices announces the codes concerned with pg_notify,
 * whoever runs it (a gateway replica, an import, psql), so the workers' code → device caches can drop them.
 *
 * Payload: a JSON array of `<type>/<code>` keys (for a change both the old and the new one), or `*` when more than
 * MAX_CODES changed at once or the table was truncated (drop everything). Added codes are announced too: a worker
 * that recently looked a code up in vain then finds the new device at once.
 * The triggers fire ALWAYS, also for replication and restores (session_replication_role = replica).
 */
export class DeviceCodeChanges1732196000000 implements MigrationInterface {
  name = 'DeviceCodeChanges1732196000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION sc_announce_device_codes(keys text[]) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        IF keys IS NULL OR cardinality(keys) = 0 THEN RETURN; END IF;
        IF cardinality(keys) > ${MAX_CODES} THEN
          PERFORM pg_notify('${DEVICE_CODES_CHANNEL}', '*');
        ELSE
          PERFORM pg_notify('${DEVICE_CODES_CHANNEL}', array_to_json(keys)::text);
        END IF;
      END $$`);
    await q.query(`
      CREATE FUNCTION sc_device_codes_added() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM sc_announce_device_codes(ARRAY(SELECT DISTINCT n.type || '/' || n.code FROM changed_new n));
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION sc_device_codes_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM sc_announce_device_codes(ARRAY(
          SELECT DISTINCT k FROM changed_new n JOIN changed_old o ON o.id = n.id,
                 LATERAL (VALUES (o.type || '/' || o.code), (n.type || '/' || n.code)) AS keys(k)
           WHERE (o.type, o.code) IS DISTINCT FROM (n.type, n.code)));
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION sc_device_codes_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM sc_announce_device_codes(ARRAY(SELECT DISTINCT o.type || '/' || o.code FROM changed_old o));
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION sc_device_codes_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${DEVICE_CODES_CHANNEL}', '*');
        RETURN NULL;
      END $$`);
    for (const [name, definition] of TRIGGERS) {
      await q.query(`CREATE TRIGGER ${name} ${definition}`);
      await q.query(`ALTER TABLE device ENABLE ALWAYS TRIGGER ${name}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name] of [...TRIGGERS].reverse()) await q.query(`DROP TRIGGER IF EXISTS ${name} ON device`);
    for (const fn of [
      'sc_device_codes_truncated()',
      'sc_device_codes_deleted()',
      'sc_device_codes_updated()',
      'sc_device_codes_added()',
      'sc_announce_device_codes(text[])',
    ]) {
      await q.query(`DROP FUNCTION IF EXISTS ${fn}`);
    }
  }
}

const TRIGGERS: [name: string, definition: string][] = [
  ['device_codes_added', 'AFTER INSERT ON device REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION sc_device_codes_added()'],
  [
    'device_codes_updated',
    'AFTER UPDATE ON device REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION sc_device_codes_updated()',
  ],
  [
    'device_codes_deleted',
    'AFTER DELETE ON device REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION sc_device_codes_deleted()',
  ],
  ['device_codes_truncated', 'AFTER TRUNCATE ON device FOR EACH STATEMENT EXECUTE FUNCTION sc_device_codes_truncated()'],
];
