import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a broadcast terminal reports of the tasks it was given: the ids of those it holds (it runs their schedules by
 * its own clock, as lamps run their strategies) and how far it got downloading the media of the last one.
 */
export class BroadcastTerminalTasks1732199500000 implements MigrationInterface {
  name = 'BroadcastTerminalTasks1732199500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE broadcast_terminal ADD COLUMN held_tasks jsonb NOT NULL DEFAULT '[]', ADD COLUMN download jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE broadcast_terminal DROP COLUMN held_tasks, DROP COLUMN download`);
  }
}
