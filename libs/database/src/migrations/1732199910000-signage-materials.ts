import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Floor-screen materials (docs/signage-materials.md): images, videos and music uploaded on the upload port and kept
 * under UPLOAD_DIR (`file_path`, and the JPEG thumbnail `cover_path`, both relative to it), with what was read from the
 * content: MIME type, size, resolution (images and videos), duration (videos and music) and SHA-256.
 */
export class SignageMaterials1732199910000 implements MigrationInterface {
  name = 'SignageMaterials1732199910000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE signage_material (
        id serial PRIMARY KEY,
        name varchar(100) NOT NULL,
        cover_path varchar(255),
        type varchar(8) NOT NULL CHECK (type IN ('image', 'video', 'music')),
        file_size bigint NOT NULL CHECK (file_size > 0),
        width int CHECK (width > 0),
        height int CHECK (height > 0),
        duration_seconds numeric(10, 3) CHECK (duration_seconds > 0),
        uploaded_at timestamptz NOT NULL DEFAULT now(),
        status varchar(12) NOT NULL DEFAULT 'available' CHECK (status IN ('available', 'unavailable')),
        storage_area int CHECK (storage_area BETWEEN 0 AND 9999),
        file_path varchar(255) NOT NULL UNIQUE,
        original_name varchar(255) NOT NULL DEFAULT '',
        sha256 char(64) NOT NULL,
        mime varchar(64) NOT NULL,
        uploaded_by int REFERENCES sys_user(id) ON DELETE SET NULL,
        uploader varchar(64) NOT NULL,
        CHECK ((type = 'music') = (width IS NULL AND height IS NULL AND cover_path IS NULL)),
        CHECK ((type = 'image') = (duration_seconds IS NULL))
      )`);
    await q.query(`CREATE INDEX signage_material_type_idx ON signage_material (type, id)`);
    await q.query(`CREATE INDEX signage_material_status_idx ON signage_material (status, id)`);
    await q.query(`CREATE INDEX signage_material_sha256_idx ON signage_material (sha256)`);
    await q.query(`CREATE INDEX signage_material_name_trgm ON signage_material USING gin (lower(name) gin_trgm_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE signage_material`);
  }
}
