import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Proof of play of the floor screens: one row per run of an ad a player reports (its `event`), by player, plan and
 * ad. A player that sends a report again (a redelivery) adds nothing: a run is one player's ad from one start.
 * Indexed for what operators ask: plays of an ad by day, and of a player by day.
 */
export class SignagePlays1732199970000 implements MigrationInterface {
  name = 'SignagePlays1732199970000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE signage_play (
        id bigserial PRIMARY KEY,
        device_id int NOT NULL REFERENCES signage_device(id) ON DELETE CASCADE,
        plan_id varchar(64) NOT NULL,
        ad_id int NOT NULL,
        started_at timestamptz NOT NULL,
        seconds int NOT NULL,
        UNIQUE (device_id, started_at, ad_id)
      )`);
    await q.query(`CREATE INDEX signage_play_ad_idx ON signage_play (ad_id, started_at)`);
    await q.query(`CREATE INDEX signage_play_started_idx ON signage_play (started_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE signage_play`);
  }
}
