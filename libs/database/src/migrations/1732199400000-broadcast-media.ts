import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The broadcast media library and its playlists (docs/broadcast-media.md).
 *
 * A medium is an MP3 file stored under UPLOAD_DIR (`storage_path`, relative to it) with what was read from its content
 * when it was uploaded: duration, bitrate, sample rate, channels, size and SHA-256 (unique: the same file is in the
 * library once). An administrator's audit approves or rejects it; only approved media go into playlists.
 *
 * A playlist is an ordered list of media (`position` from 0) with one of the spec's playback modes. A medium appears
 * at most once in a playlist, and cannot be deleted while a playlist holds it (ON DELETE RESTRICT).
 */
export class BroadcastMedia1732199400000 implements MigrationInterface {
  name = 'BroadcastMedia1732199400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE broadcast_media (
        id serial PRIMARY KEY,
        material_name varchar(100) NOT NULL,
        material_type smallint NOT NULL DEFAULT 1 CHECK (material_type IN (1, 2)),
        storage_path varchar(255) NOT NULL UNIQUE,
        original_name varchar(255) NOT NULL DEFAULT '',
        file_size bigint NOT NULL CHECK (file_size > 0),
        sha256 char(64) NOT NULL,
        duration_ms int NOT NULL CHECK (duration_ms > 0),
        bitrate int NOT NULL CHECK (bitrate > 0),
        sample_rate int NOT NULL CHECK (sample_rate > 0),
        channels smallint NOT NULL CHECK (channels > 0),
        audit_status varchar(16) NOT NULL DEFAULT 'pending' CHECK (audit_status IN ('pending', 'approved', 'rejected')),
        audit_remark varchar(255) NOT NULL DEFAULT '',
        audited_by varchar(64),
        audited_at timestamptz,
        uploaded_by int REFERENCES sys_user(id) ON DELETE SET NULL,
        uploader varchar(64) NOT NULL,
        uploaded_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX broadcast_media_sha256_uq ON broadcast_media (sha256)`);
    await q.query(`CREATE INDEX broadcast_media_audit_idx ON broadcast_media (audit_status, id)`);
    await q.query(`CREATE INDEX broadcast_media_name_trgm ON broadcast_media USING gin (lower(material_name) gin_trgm_ops)`);

    await q.query(`
      CREATE TABLE broadcast_playlist (
        id serial PRIMARY KEY,
        name varchar(64) NOT NULL,
        playback_mode varchar(16) NOT NULL CHECK (playback_mode IN ('normal_mode', 'list_cycle_mode', 'random_mode')),
        updated_by varchar(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX broadcast_playlist_name_uq ON broadcast_playlist (lower(name))`);
    await q.query(`
      CREATE TABLE broadcast_playlist_item (
        playlist_id int NOT NULL REFERENCES broadcast_playlist(id) ON DELETE CASCADE,
        position smallint NOT NULL CHECK (position >= 0),
        media_id int NOT NULL REFERENCES broadcast_media(id) ON DELETE RESTRICT,
        PRIMARY KEY (playlist_id, position),
        UNIQUE (playlist_id, media_id)
      )`);
    await q.query(`CREATE INDEX broadcast_playlist_item_media_idx ON broadcast_playlist_item (media_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE broadcast_playlist_item`);
    await q.query(`DROP TABLE broadcast_playlist`);
    await q.query(`DROP TABLE broadcast_media`);
  }
}
