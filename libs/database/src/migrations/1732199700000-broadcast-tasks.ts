import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Broadcast tasks: what was sent to which terminals, and the dispatch that delivered it (its rows say, terminal by
 * terminal, whether the terminal took it). The media are copied into the task (id, title, length) as they were when
 * it was sent; the terminals keep the task and run it by their own clocks (docs/broadcast-terminals.md).
 */
export class BroadcastTasks1732199700000 implements MigrationInterface {
  name = 'BroadcastTasks1732199700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE broadcast_task (
        id serial PRIMARY KEY,
        task_name varchar(64) NOT NULL,
        task_mode varchar(16) NOT NULL CHECK (task_mode IN ('scheduled', 'immediate')),
        playlist_id int REFERENCES broadcast_playlist(id) ON DELETE SET NULL,
        media jsonb NOT NULL,
        playback_mode varchar(16) NOT NULL CHECK (playback_mode IN ('normal_mode', 'list_cycle_mode', 'random_mode')),
        volume smallint NOT NULL CHECK (volume BETWEEN 0 AND 100),
        priority smallint NOT NULL CHECK (priority BETWEEN 1 AND 10),
        schedule jsonb,
        terminal_ids int[] NOT NULL,
        dispatch_id uuid REFERENCES dispatch(id) ON DELETE SET NULL,
        created_by varchar(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((task_mode = 'immediate') = (schedule IS NULL))
      )`);
    await q.query(`CREATE INDEX broadcast_task_created_idx ON broadcast_task (created_at DESC, id DESC)`);
    // The media a task holds: a medium cannot be deleted while a task that terminals may still play names it.
    await q.query(`CREATE INDEX broadcast_task_media_idx ON broadcast_task USING gin (media jsonb_path_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE broadcast_task`);
  }
}
