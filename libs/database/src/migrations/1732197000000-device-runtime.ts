import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Tally stripes per dispatch: concurrent writers (a worker's sender, intake and tracker, other replicas) rarely share one. */
export const TALLY_STRIPES = 16;

const STATES = ['queued', 'sent', 'delivered', 'failed', 'expired'] as const;
const sums = STATES.map((s) => `sum(n) FILTER (WHERE state = '${s}')::int AS ${s}`).join(', ');
const columns = STATES.join(', ');

/**
 * What the device runtime needs of the database:
 *
 * - `dispatch_tally`: each dispatch's rows counted by state, kept by statement-level triggers on `dispatch_item`, so
 *   progress of a 50,000-device dispatch is read from a few rows instead of counting its items ten times a second.
 *   Each transaction adds its deltas to one of TALLY_STRIPES rows (by transaction id), so writers to one dispatch do not
 *   queue on a single row; a dispatch's counts are the sum of its stripes.
 * - Announcements of lamp gateway codes (`lamp-gateway/<code>`) on the device codes channel, as the registry's are,
 *   so the workers' code caches follow gateways too.
 * - Room for in-place (HOT) updates of the rows devices update all the time: lamps and strip lights report every few
 *   seconds, and a page with free space lets PostgreSQL rewrite a row without touching its indexes.
 * - Indexes that follow the ledger's work: the queued rows of a dispatch (its job takes them a chunk at a time; walking
 *   the dispatch's rows from the start for each chunk made a 50,000-row dispatch quadratic), and the sent rows by their
 *   next attempt (the re-sends). Queued rows have no next attempt, so the latter no longer holds them.
 */
export class DeviceRuntime1732197000000 implements MigrationInterface {
  name = 'DeviceRuntime1732197000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dispatch_tally (
        dispatch_id uuid NOT NULL REFERENCES dispatch(id) ON DELETE CASCADE,
        stripe smallint NOT NULL,
        queued int NOT NULL DEFAULT 0,
        sent int NOT NULL DEFAULT 0,
        delivered int NOT NULL DEFAULT 0,
        failed int NOT NULL DEFAULT 0,
        expired int NOT NULL DEFAULT 0,
        PRIMARY KEY (dispatch_id, stripe)
      )`);
    await q.query(`
      INSERT INTO dispatch_tally (dispatch_id, stripe, ${columns})
      SELECT dispatch_id, 0, ${sums} FROM (SELECT dispatch_id, state, count(*) AS n FROM dispatch_item GROUP BY 1, 2) c GROUP BY dispatch_id`);
    // One function for the three statements: a statement's deltas are its new rows' states counted up and its old
    // rows' counted down. Items deleted with their dispatch (ON DELETE CASCADE) leave its tally alone: it goes too.
    const tally = (changes: string) => `
          WITH changes AS (${changes}),
               deltas AS (SELECT dispatch_id, ${sums} FROM changes GROUP BY dispatch_id ORDER BY dispatch_id)
          INSERT INTO dispatch_tally AS t (dispatch_id, stripe, ${columns})
          SELECT dispatch_id, (txid_current() % ${TALLY_STRIPES})::smallint, ${STATES.map((s) => `coalesce(${s}, 0)`).join(', ')} FROM deltas
           WHERE EXISTS (SELECT 1 FROM dispatch WHERE id = deltas.dispatch_id)
          ON CONFLICT (dispatch_id, stripe) DO UPDATE SET ${STATES.map((s) => `${s} = t.${s} + excluded.${s}`).join(', ')};`;
    const added = 'SELECT dispatch_id, state, count(*) AS n FROM changed_new GROUP BY 1, 2';
    const removed = 'SELECT dispatch_id, state, -count(*) AS n FROM changed_old GROUP BY 1, 2';
    await q.query(`
      CREATE FUNCTION sc_dispatch_tally() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN ${tally(added)}
        ELSIF TG_OP = 'DELETE' THEN ${tally(removed)}
        ELSE ${tally(`${added} UNION ALL ${removed}`)}
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER dispatch_tally_insert AFTER INSERT ON dispatch_item REFERENCING NEW TABLE AS changed_new
         FOR EACH STATEMENT EXECUTE FUNCTION sc_dispatch_tally()`,
    );
    await q.query(
      `CREATE TRIGGER dispatch_tally_update AFTER UPDATE ON dispatch_item REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new
         FOR EACH STATEMENT EXECUTE FUNCTION sc_dispatch_tally()`,
    );
    await q.query(
      `CREATE TRIGGER dispatch_tally_delete AFTER DELETE ON dispatch_item REFERENCING OLD TABLE AS changed_old
         FOR EACH STATEMENT EXECUTE FUNCTION sc_dispatch_tally()`,
    );
    for (const trigger of ['dispatch_tally_insert', 'dispatch_tally_update', 'dispatch_tally_delete']) {
      await q.query(`ALTER TABLE dispatch_item ENABLE ALWAYS TRIGGER ${trigger}`);
    }

    await q.query(`
      CREATE FUNCTION sc_family_codes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE family text := TG_ARGV[0];
      BEGIN
        IF TG_OP = 'INSERT' THEN
          PERFORM sc_announce_device_codes(ARRAY(SELECT DISTINCT family || '/' || n.code FROM changed_new n));
        ELSIF TG_OP = 'DELETE' THEN
          PERFORM sc_announce_device_codes(ARRAY(SELECT DISTINCT family || '/' || o.code FROM changed_old o));
        ELSE
          PERFORM sc_announce_device_codes(ARRAY(
            SELECT DISTINCT k FROM changed_new n JOIN changed_old o ON o.id = n.id,
                   LATERAL (VALUES (family || '/' || o.code), (family || '/' || n.code)) AS keys(k)
             WHERE o.code IS DISTINCT FROM n.code));
        END IF;
        RETURN NULL;
      END $$`);
    for (const [name, definition] of GATEWAY_TRIGGERS) {
      await q.query(`CREATE TRIGGER ${name} ${definition}`);
      await q.query(`ALTER TABLE lamp_gateway ENABLE ALWAYS TRIGGER ${name}`);
    }

    for (const table of ['lamp', 'strip_light', 'lamp_gateway']) await q.query(`ALTER TABLE ${table} SET (fillfactor = 70)`);

    await q.query(`CREATE INDEX dispatch_item_queued_idx ON dispatch_item (dispatch_id, device_id) WHERE state = 'queued'`);
    await q.query(`DROP INDEX dispatch_item_open_idx`);
    await q.query(`CREATE INDEX dispatch_item_resend_idx ON dispatch_item (next_attempt_at) WHERE state = 'sent'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX dispatch_item_resend_idx`);
    await q.query(`CREATE INDEX dispatch_item_open_idx ON dispatch_item (next_attempt_at) WHERE state IN ('queued', 'sent')`);
    await q.query(`DROP INDEX dispatch_item_queued_idx`);
    for (const table of ['lamp', 'strip_light', 'lamp_gateway']) await q.query(`ALTER TABLE ${table} RESET (fillfactor)`);
    for (const [name] of GATEWAY_TRIGGERS) await q.query(`DROP TRIGGER IF EXISTS ${name} ON lamp_gateway`);
    await q.query(`DROP FUNCTION IF EXISTS sc_family_codes_changed()`);
    for (const trigger of ['dispatch_tally_insert', 'dispatch_tally_update', 'dispatch_tally_delete']) {
      await q.query(`DROP TRIGGER IF EXISTS ${trigger} ON dispatch_item`);
    }
    await q.query(`DROP FUNCTION IF EXISTS sc_dispatch_tally()`);
    await q.query(`DROP TABLE dispatch_tally`);
  }
}

const GATEWAY_TRIGGERS: [name: string, definition: string][] = [
  [
    'lamp_gateway_codes_added',
    `AFTER INSERT ON lamp_gateway REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION sc_family_codes_changed('lamp-gateway')`,
  ],
  [
    'lamp_gateway_codes_updated',
    `AFTER UPDATE ON lamp_gateway REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION sc_family_codes_changed('lamp-gateway')`,
  ],
  [
    'lamp_gateway_codes_deleted',
    `AFTER DELETE ON lamp_gateway REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION sc_family_codes_changed('lamp-gateway')`,
  ],
];
