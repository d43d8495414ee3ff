import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the exact totals of the user page (POST /api/user/userPage), which counts every matching user.
 * - Disabled accounts are few: a small partial index answers "enabled = false" (with a group or last-login filter
 *   too) by an index-only scan instead of reading the whole table.
 * - Group, state and last login together: counts by group, by group and state, and by group and last login are
 *   index-only scans instead of heap visits.
 */
export class UserPageIndexes1732160000000 implements MigrationInterface {
  name = 'UserPageIndexes1732160000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX sys_user_disabled_idx ON sys_user (id) INCLUDE (group_id, last_login_at) WHERE NOT enabled`);
    await q.query(`CREATE INDEX sys_user_group_state_idx ON sys_user (group_id, enabled, last_login_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS sys_user_group_state_idx`);
    await q.query(`DROP INDEX IF EXISTS sys_user_disabled_idx`);
  }
}
