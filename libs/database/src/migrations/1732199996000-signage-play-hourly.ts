import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Proof-of-play reports (docs/signage-ads.md): the plays of each player and ad summed by hour, kept by a trigger as
 * plays are stored. A report over a month of a large fleet reads this table, not every play: a player looping ads of
 * 30 s stores about 2,900 plays a day and a few dozen hourly rows. Hours, not days, so a day can be read on any clock
 * whose offset is whole hours (the installation's time zone, or another later). Only the plays a statement really
 * inserted are counted: a redelivered play (ON CONFLICT DO NOTHING) is in no transition table.
 */
export class SignagePlayHourly1732199996000 implements MigrationInterface {
  name = 'SignagePlayHourly1732199996000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE signage_play_hourly (
        hour timestamptz NOT NULL,
        device_id int NOT NULL REFERENCES signage_device(id) ON DELETE CASCADE,
        ad_id int NOT NULL,
        plays int NOT NULL,
        seconds bigint NOT NULL,
        PRIMARY KEY (hour, device_id, ad_id)
      )`);
    await q.query(`CREATE INDEX signage_play_hourly_device_idx ON signage_play_hourly (device_id, hour)`);
    await q.query(`CREATE INDEX signage_play_hourly_ad_idx ON signage_play_hourly (ad_id, hour)`);
    await q.query(`
      CREATE FUNCTION sc_signage_play_hourly() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- In key order, so two intakes adding to the same hours lock them in the same order.
        INSERT INTO signage_play_hourly (hour, device_id, ad_id, plays, seconds)
        SELECT date_trunc('hour', started_at, 'UTC'), device_id, ad_id, count(*), sum(seconds)
          FROM added GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT (hour, device_id, ad_id)
          DO UPDATE SET plays = signage_play_hourly.plays + EXCLUDED.plays, seconds = signage_play_hourly.seconds + EXCLUDED.seconds;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER signage_play_hourly_added AFTER INSERT ON signage_play REFERENCING NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION sc_signage_play_hourly()`);
    await q.query(`ALTER TABLE signage_play ENABLE ALWAYS TRIGGER signage_play_hourly_added`);
    await q.query(`
      INSERT INTO signage_play_hourly (hour, device_id, ad_id, plays, seconds)
      SELECT date_trunc('hour', started_at, 'UTC'), device_id, ad_id, count(*), sum(seconds) FROM signage_play GROUP BY 1, 2, 3`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER signage_play_hourly_added ON signage_play`);
    await q.query(`DROP FUNCTION sc_signage_play_hourly()`);
    await q.query(`DROP TABLE signage_play_hourly`);
  }
}
