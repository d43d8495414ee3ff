import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Scheduled broadcast tasks: the time zones their terminals were sent (each terminal runs the task by the clock it was
 * given), so the task list tells a task's time status without reading its dispatch; and who changed a task last.
 */
export class BroadcastTaskClocks1732199800000 implements MigrationInterface {
  name = 'BroadcastTaskClocks1732199800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE broadcast_task ADD COLUMN time_zones text[] NOT NULL DEFAULT '{}'`);
    await q.query(`ALTER TABLE broadcast_task ADD COLUMN updated_by varchar(64)`);
    await q.query(`ALTER TABLE broadcast_task ADD COLUMN updated_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE broadcast_task DROP COLUMN time_zones, DROP COLUMN updated_by, DROP COLUMN updated_at`);
  }
}
