import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The lamp list (POST /api/light/lampPage) searches lamps by a fragment of their name: a trigram index answers a
 * fragment of three characters or more without reading every device's name. Device rows change rarely (names,
 * regions, groups), so the index costs nothing when lamps report; their state lives in `lamp`.
 */
export class LampListIndexes1732198000000 implements MigrationInterface {
  name = 'LampListIndexes1732198000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX device_name_trgm ON device USING gin (lower(name) gin_trgm_ops) WITH (fastupdate = off)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS device_name_trgm`);
  }
}
