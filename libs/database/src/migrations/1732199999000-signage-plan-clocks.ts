import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The clocks a floor-screen ad plan keeps (docs/signage-plans.md): `time_zones`, the distinct time zones of the
 * screens it was published to, as they were sent them, or, before it is published, of the screens it names (NULL for a
 * screen whose regions name none: the installation's, the default place's). A plan has expired once its end date is
 * past in every one of them; none (no screens) is the installation's. Published plans take the zones their dispatch
 * carried; the others are left empty (the installation's, as before) until they are saved again.
 */
export class SignagePlanClocks1732199999000 implements MigrationInterface {
  name = 'SignagePlanClocks1732199999000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE signage_ad_plan ADD COLUMN time_zones text[] NOT NULL DEFAULT '{}'`);
    await q.query(`
      UPDATE signage_ad_plan p SET time_zones = z.zones
        FROM (SELECT p2.id, array_agg(DISTINCT coalesce(i.params, d.params) ->> 'timeZone') AS zones
                FROM signage_ad_plan p2
                JOIN dispatch d ON d.id = p2.dispatch_id
                JOIN dispatch_item i ON i.dispatch_id = d.id
               WHERE coalesce(i.params, d.params) ->> 'timeZone' IS NOT NULL
               GROUP BY p2.id) z
       WHERE z.id = p.id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE signage_ad_plan DROP COLUMN time_zones`);
  }
}
