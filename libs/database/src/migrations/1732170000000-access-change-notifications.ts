import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The channel on which the database announces changes to sessions, users and groups. */
export const ACCESS_CHANGES_CHANNEL = 'sc_access_changes';

/** Up to this many ids travel in one announcement; beyond it, "many changed" is announced instead. */
const MAX_IDS = 100;

/**
 * Every change to sessions, users or groups is announced with pg_notify, whoever makes it (a gateway replica, the
 * command line, an administrator with psql), once per statement, so each gateway can drop what it cached about them.
 *
 * Payloads (see parseAccessChange in the gateway):
 * - `sessions:<id>,<id>…` these sessions ended or changed; `sessions` many did
 * - `access:<userId>,…` these users' access changed (name, enabled, group, password, deleted); `access` many did
 * - `users` the user list changed without touching anyone's access (new users, last login, introduction)
 * - `groups` groups changed (permissions of everyone in them)
 * The triggers fire ALWAYS, also for replication and restores (session_replication_role = replica).
 */
export class AccessChangeNotifications1732170000000 implements MigrationInterface {
  name = 'AccessChangeNotifications1732170000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION sc_announce(kind text, ids text[]) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN; END IF;
        IF cardinality(ids) > ${MAX_IDS} THEN
          PERFORM pg_notify('${ACCESS_CHANGES_CHANNEL}', kind);
        ELSE
          PERFORM pg_notify('${ACCESS_CHANGES_CHANNEL}', kind || ':' || array_to_string(ids, ','));
        END IF;
      END $$`);

    // Sessions: a changed row that matters (ended, moved, re-keyed); a deleted row that was still live; TRUNCATE.
    await q.query(`
      CREATE FUNCTION sc_sessions_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM sc_announce('sessions', ARRAY(
          SELECT coalesce(o.id, n.id)::text FROM changed_new n FULL JOIN changed_old o ON o.id = n.id
           WHERE (o.revoked_at, o.expires_at, o.user_id, o.token_hash, o.id) IS DISTINCT FROM (n.revoked_at, n.expires_at, n.user_id, n.token_hash, n.id)));
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION sc_sessions_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM sc_announce('sessions', ARRAY(SELECT o.id::text FROM changed_old o WHERE o.revoked_at IS NULL AND o.expires_at > now()));
        RETURN NULL;
      END $$`);
    // Users: access-relevant columns, and everything else the user list shows.
    await q.query(`
      CREATE FUNCTION sc_users_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM sc_announce('access', ARRAY(
          SELECT coalesce(o.id, n.id)::text FROM changed_new n FULL JOIN changed_old o ON o.id = n.id
           WHERE (o.id, o.username, o.enabled, o.group_id, o.password_hash) IS DISTINCT FROM (n.id, n.username, n.enabled, n.group_id, n.password_hash)));
        PERFORM pg_notify('${ACCESS_CHANGES_CHANNEL}', 'users');
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION sc_users_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM sc_announce('access', ARRAY(SELECT o.id::text FROM changed_old o));
        PERFORM pg_notify('${ACCESS_CHANGES_CHANNEL}', 'users');
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION sc_announce_statement() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${ACCESS_CHANGES_CHANNEL}', TG_ARGV[0]);
        RETURN NULL;
      END $$`);

    const triggers: [table: string, name: string, definition: string][] = [
      [
        'sys_session',
        'sys_session_updated',
        'AFTER UPDATE ON sys_session REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION sc_sessions_updated()',
      ],
      [
        'sys_session',
        'sys_session_deleted',
        'AFTER DELETE ON sys_session REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION sc_sessions_deleted()',
      ],
      ['sys_session', 'sys_session_truncated', "AFTER TRUNCATE ON sys_session FOR EACH STATEMENT EXECUTE FUNCTION sc_announce_statement('sessions')"],
      ['sys_user', 'sys_user_added', "AFTER INSERT ON sys_user FOR EACH STATEMENT EXECUTE FUNCTION sc_announce_statement('users')"],
      [
        'sys_user',
        'sys_user_updated',
        'AFTER UPDATE ON sys_user REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION sc_users_updated()',
      ],
      [
        'sys_user',
        'sys_user_deleted',
        'AFTER DELETE ON sys_user REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION sc_users_deleted()',
      ],
      ['sys_user', 'sys_user_truncated', "AFTER TRUNCATE ON sys_user FOR EACH STATEMENT EXECUTE FUNCTION sc_announce_statement('access')"],
      [
        'sys_group',
        'sys_group_changed',
        "AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sys_group FOR EACH STATEMENT EXECUTE FUNCTION sc_announce_statement('groups')",
      ],
    ];
    for (const [table, name, definition] of triggers) {
      await q.query(`CREATE TRIGGER ${name} ${definition}`);
      await q.query(`ALTER TABLE ${table} ENABLE ALWAYS TRIGGER ${name}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [table, name] of [
      ['sys_group', 'sys_group_changed'],
      ['sys_user', 'sys_user_truncated'],
      ['sys_user', 'sys_user_deleted'],
      ['sys_user', 'sys_user_updated'],
      ['sys_user', 'sys_user_added'],
      ['sys_session', 'sys_session_truncated'],
      ['sys_session', 'sys_session_deleted'],
      ['sys_session', 'sys_session_updated'],
    ]) {
      await q.query(`DROP TRIGGER IF EXISTS ${name} ON ${table}`);
    }
    for (const fn of [
      'sc_announce_statement()',
      'sc_users_deleted()',
      'sc_users_updated()',
      'sc_sessions_deleted()',
      'sc_sessions_updated()',
      'sc_announce(text, text[])',
    ]) {
      await q.query(`DROP FUNCTION IF EXISTS ${fn}`);
    }
  }
}
