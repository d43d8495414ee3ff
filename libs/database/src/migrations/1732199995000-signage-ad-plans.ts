import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Floor-screen ad plans (docs/signage-plans.md): a publication as the spec names it (publish name, mode by devices or by
 * group, target devices, dates, times, play mode, limit count, interval, publish type, weekdays, on-demand type) and
 * its last publication: the screens it went to (`target_ids`) and the ledger dispatch that carries it, whose rows and
 * receipts give each screen's receive status. `ad_ids` is indexed so "which plans use this ad" is one lookup.
 */
export class SignageAdPlans1732199995000 implements MigrationInterface {
  name = 'SignageAdPlans1732199995000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE signage_ad_plan (
        id serial PRIMARY KEY,
        publish_name varchar(64) NOT NULL,
        publish_mode varchar(8) NOT NULL CHECK (publish_mode IN ('devices', 'group')),
        device_ids int[] NOT NULL DEFAULT '{}',
        group_id int REFERENCES signage_group(id) ON DELETE SET NULL,
        ad_ids int[] NOT NULL DEFAULT '{}',
        schedule jsonb NOT NULL,
        start_date date NOT NULL,
        end_date date NOT NULL,
        play_mode varchar(24) NOT NULL,
        play_limit_count int,
        play_interval_seconds int,
        on_demand_type smallint,
        publish_type varchar(24) NOT NULL,
        target_ids int[] NOT NULL DEFAULT '{}',
        dispatch_id uuid REFERENCES dispatch(id) ON DELETE SET NULL,
        published_at timestamptz,
        published_by varchar(64),
        created_by int REFERENCES sys_user(id) ON DELETE SET NULL,
        creator varchar(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX signage_ad_plan_ads_idx ON signage_ad_plan USING gin (ad_ids)`);
    await q.query(`CREATE INDEX signage_ad_plan_dates_idx ON signage_ad_plan (start_date, end_date)`);
    await q.query(`CREATE INDEX signage_ad_plan_name_trgm ON signage_ad_plan USING gin (lower(publish_name) gin_trgm_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE signage_ad_plan`);
  }
}
