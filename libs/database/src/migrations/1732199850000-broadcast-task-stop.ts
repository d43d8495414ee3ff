import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A broadcast task stopped on its terminals (the `cancelTask` command): when, by whom, and the dispatch that carried
 * it. A stopped task has ended, so it no longer keeps its media and playlist from deletion. The terminals playing a
 * task are found by the task id they report (`playing.taskId`): indexed for the task list's "playing now".
 */
export class BroadcastTaskStop1732199850000 implements MigrationInterface {
  name = 'BroadcastTaskStop1732199850000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE broadcast_task
        ADD COLUMN stopped_at timestamptz,
        ADD COLUMN stopped_by varchar(64),
        ADD COLUMN stop_dispatch_id uuid REFERENCES dispatch(id) ON DELETE SET NULL`);
    await q.query(`CREATE INDEX broadcast_task_playlist_idx ON broadcast_task (playlist_id) WHERE playlist_id IS NOT NULL`);
    await q.query(`CREATE INDEX broadcast_terminal_playing_task_idx ON broadcast_terminal ((playing->>'taskId')) WHERE playing IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX broadcast_terminal_playing_task_idx`);
    await q.query(`DROP INDEX broadcast_task_playlist_idx`);
    await q.query(`ALTER TABLE broadcast_task DROP COLUMN stop_dispatch_id, DROP COLUMN stopped_by, DROP COLUMN stopped_at`);
  }
}
