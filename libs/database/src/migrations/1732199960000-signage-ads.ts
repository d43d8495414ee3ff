import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Floor-screen ads (docs/signage-ads.md): a cover image, an orientation, a total duration and a screen split into 1 to 9
 * zones, each with its list of materials (`zones`, as the editor saves it), and background music (`music`). Every
 * material an ad names (cover, zones, music) is also a row of `signage_ad_material`, so "which ads use this material"
 * is one indexed lookup, and a material an ad uses cannot be deleted under it (ON DELETE RESTRICT).
 */
export class SignageAds1732199960000 implements MigrationInterface {
  name = 'SignageAds1732199960000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE signage_ad (
        id serial PRIMARY KEY,
        name varchar(64) NOT NULL,
        cover_material_id int NOT NULL REFERENCES signage_material(id) ON DELETE RESTRICT,
        orientation varchar(5) NOT NULL CHECK (orientation IN ('9:16', '16:9')),
        total_duration int NOT NULL CHECK (total_duration BETWEEN 5 AND 600),
        split_count smallint NOT NULL CHECK (split_count BETWEEN 1 AND 9),
        zones jsonb NOT NULL CHECK (jsonb_typeof(zones) = 'array' AND jsonb_array_length(zones) = split_count),
        music jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(music) = 'array'),
        audit_required boolean NOT NULL DEFAULT false,
        audit_status varchar(12) NOT NULL DEFAULT 'not_audited' CHECK (audit_status IN ('audited', 'not_audited')),
        created_by int REFERENCES sys_user(id) ON DELETE SET NULL,
        creator varchar(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX signage_ad_orientation_idx ON signage_ad (orientation, id)`);
    await q.query(`CREATE INDEX signage_ad_audit_idx ON signage_ad (audit_status, id)`);
    await q.query(`CREATE INDEX signage_ad_cover_idx ON signage_ad (cover_material_id)`);
    await q.query(`CREATE INDEX signage_ad_name_trgm ON signage_ad USING gin (lower(name) gin_trgm_ops)`);
    await q.query(`
      CREATE TABLE signage_ad_material (
        ad_id int NOT NULL REFERENCES signage_ad(id) ON DELETE CASCADE,
        material_id int NOT NULL REFERENCES signage_material(id) ON DELETE RESTRICT,
        PRIMARY KEY (ad_id, material_id)
      )`);
    await q.query(`CREATE INDEX signage_ad_material_material_idx ON signage_ad_material (material_id, ad_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE signage_ad_material`);
    await q.query(`DROP TABLE signage_ad`);
  }
}
