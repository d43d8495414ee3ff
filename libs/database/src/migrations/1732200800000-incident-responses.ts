import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An incident's responses around its column (docs/alarm-intercom.md): a line of its log names the dispatch that sent
 * it and how many devices it went to. The dispatch is kept with it (no foreign key: the log outlives pruned dispatches).
 * The equipment inquiry counts each endpoint's calls and finds its last one: the calls by column and by agent.
 */
export class IncidentResponses1732200800000 implements MigrationInterface {
  name = 'IncidentResponses1732200800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alarm_incident_action ADD COLUMN dispatch_id uuid, ADD COLUMN device_count int`);
    await q.query(`CREATE INDEX alarm_call_device_idx ON alarm_call (device_id, started_at DESC)`);
    await q.query(`CREATE INDEX alarm_call_agent_idx ON alarm_call (agent_user_id, started_at DESC) WHERE agent_user_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX alarm_call_agent_idx`);
    await q.query(`DROP INDEX alarm_call_device_idx`);
    await q.query(`ALTER TABLE alarm_incident_action DROP COLUMN device_count, DROP COLUMN dispatch_id`);
  }
}
