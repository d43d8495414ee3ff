import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Strip lights (device type 2) beside the shared device registry: what the strip reports (brightness, what each of
 * its zones L and R shows, readings, faults), its status as the lighting worker keeps it, and the strip strategy it
 * was given (strategyId, mode, modeData and jobList, as for lamps). A new strip is synchronizing (-1) until it first
 * reports.
 */
export class StripLights1732194000000 implements MigrationInterface {
  name = 'StripLights1732194000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE strip_light (
        device_id int PRIMARY KEY REFERENCES device(id) ON DELETE CASCADE,
        gateway_id varchar(64) NOT NULL DEFAULT '',
        addr varchar(255) NOT NULL DEFAULT '',
        mac varchar(32) NOT NULL DEFAULT '',
        bri smallint NOT NULL DEFAULT 0,
        zones jsonb,
        status smallint NOT NULL DEFAULT -1,
        network_status smallint NOT NULL DEFAULT 0,
        telemetry jsonb,
        faults smallint[] NOT NULL DEFAULT '{}',
        hardware_version varchar(32) NOT NULL DEFAULT '',
        software_version varchar(32) NOT NULL DEFAULT '',
        reported_at timestamptz,
        strategy_id int REFERENCES strategy(id) ON DELETE RESTRICT,
        mode smallint,
        mode_data jsonb,
        job_list jsonb
      )`);
    await q.query(`CREATE INDEX strip_light_status_idx ON strip_light (status)`);
    await q.query(`CREATE INDEX strip_light_strategy_idx ON strip_light (strategy_id) WHERE strategy_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE strip_light`);
  }
}
