import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An incident's responses around its column (docs/alarm-intercom.md): a line of its log names the dispatch that sent
 * it and how many devices it went to. The dispatch is kept with it (no foreign key: the log outlives pruned dispatches).
 */
export class IncidentResponses1732200800000 implements MigrationInterface {
  name = 'IncidentResponses1732200800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alarm_incident_action ADD COLUMN dispatch_id uuid, ADD COLUMN device_count int`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alarm_incident_action DROP COLUMN device_count, DROP COLUMN dispatch_id`);
  }
}
