import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each broadcast terminal played or carried, and when: one row per stretch of occupancy (a task's medium, a
 * title played on its own, an intercom call), open (ended_at null) while it lasts, at most one open per terminal.
 * The terminal page shows a day of it and its occupancy hour by hour.
 */
export class BroadcastPlayHistory1732199600000 implements MigrationInterface {
  name = 'BroadcastPlayHistory1732199600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE broadcast_play_history (
        id bigserial PRIMARY KEY,
        device_id int NOT NULL REFERENCES device(id) ON DELETE CASCADE,
        occupancy varchar(16) NOT NULL CHECK (occupancy IN ('task', 'intercom')),
        title varchar(128) NOT NULL,
        task_id varchar(64),
        media varchar(128),
        started_at timestamptz NOT NULL,
        ended_at timestamptz,
        CHECK (ended_at IS NULL OR ended_at >= started_at)
      )`);
    await q.query(`CREATE INDEX broadcast_play_history_device_idx ON broadcast_play_history (device_id, started_at DESC)`);
    await q.query(`CREATE UNIQUE INDEX broadcast_play_history_open_uq ON broadcast_play_history (device_id) WHERE ended_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE broadcast_play_history`);
  }
}
