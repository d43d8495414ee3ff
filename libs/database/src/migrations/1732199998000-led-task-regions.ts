import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * LED tasks aimed at regions (docs/led-screens.md): a task reaches its chosen screens and every screen of its regions
 * and of their sub-regions, read when it is published. A region deleted (it holds no devices then) leaves its tasks.
 */
export class LedTaskRegions1732199998000 implements MigrationInterface {
  name = 'LedTaskRegions1732199998000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE led_task_region (
        task_id int NOT NULL REFERENCES led_task(id) ON DELETE CASCADE,
        region_id int NOT NULL REFERENCES region(id) ON DELETE CASCADE,
        PRIMARY KEY (task_id, region_id)
      )`);
    await q.query(`CREATE INDEX led_task_region_region_idx ON led_task_region (region_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE led_task_region`);
  }
}
