import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The channel on which the database announces changes to sessions, users and groups. */
export const ACCESS_CHANGES_CHANNEL = 'sc_access_changes';

/**
 * Every change to sessions, users or groups is announced with pg_notify, whoever makes it (a gateway replica,
 * the command line, an administrator with psql), so each gateway can drop what it cached about them.
 * Payloads: `session:<id>`, `user:<id>`, `sessions` (many sessions went), `users` (users were added), `groups`.
 */
export class AccessChangeNotifications1732170000000 implements MigrationInterface {
  name = 'AccessChangeNotifications1732170000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION sc_notify_access_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_LEVEL = 'STATEMENT' THEN
          PERFORM pg_notify('${ACCESS_CHANGES_CHANNEL}', TG_ARGV[0]);
          RETURN NULL;
        END IF;
        IF TG_OP = 'DELETE' THEN
          PERFORM pg_notify('${ACCESS_CHANGES_CHANNEL}', TG_ARGV[0] || ':' || OLD.id);
        ELSE
          PERFORM pg_notify('${ACCESS_CHANGES_CHANNEL}', TG_ARGV[0] || ':' || NEW.id);
        END IF;
        RETURN NULL;
      END $$`);
    // A session that ends (revoked, shortened). New sessions need no announcement: nothing cached them.
    await q.query(`
      CREATE TRIGGER sys_session_changed AFTER UPDATE ON sys_session FOR EACH ROW
      WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.user_id IS DISTINCT FROM NEW.user_id)
      EXECUTE FUNCTION sc_notify_access_change('session')`);
    // Deletes come in bulk (the purge of old sessions): one announcement per statement.
    await q.query(
      `CREATE TRIGGER sys_session_deleted AFTER DELETE ON sys_session FOR EACH STATEMENT EXECUTE FUNCTION sc_notify_access_change('sessions')`,
    );
    await q.query(`CREATE TRIGGER sys_user_changed AFTER UPDATE OR DELETE ON sys_user FOR EACH ROW EXECUTE FUNCTION sc_notify_access_change('user')`);
    await q.query(`CREATE TRIGGER sys_user_added AFTER INSERT ON sys_user FOR EACH STATEMENT EXECUTE FUNCTION sc_notify_access_change('users')`);
    await q.query(
      `CREATE TRIGGER sys_group_changed AFTER INSERT OR UPDATE OR DELETE ON sys_group FOR EACH STATEMENT EXECUTE FUNCTION sc_notify_access_change('groups')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS sys_group_changed ON sys_group`);
    await q.query(`DROP TRIGGER IF EXISTS sys_user_added ON sys_user`);
    await q.query(`DROP TRIGGER IF EXISTS sys_user_changed ON sys_user`);
    await q.query(`DROP TRIGGER IF EXISTS sys_session_deleted ON sys_session`);
    await q.query(`DROP TRIGGER IF EXISTS sys_session_changed ON sys_session`);
    await q.query(`DROP FUNCTION IF EXISTS sc_notify_access_change()`);
  }
}
