import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Video equipment (device type 9, docs/video.md) beside the shared device registry, which holds its name, code,
 * region, pole and own position.
 *
 * `camera`: its vendor and the spec's video device category and sub-type, where its stream is (address, RTSP port,
 * channel, or an RTSP address of its own), its RTSP login (the password encrypted with the installation's key,
 * AES-256-GCM, never sent back to a browser), and what the video worker keeps from its probe (network status,
 * whether the stored login was taken, last answer).
 */
export class VideoEquipment1732201000000 implements MigrationInterface {
  name = 'VideoEquipment1732201000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE camera (
        device_id int PRIMARY KEY REFERENCES device(id) ON DELETE CASCADE,
        vendor smallint NOT NULL CHECK (vendor IN (1, 2, 3)),
        category smallint NOT NULL,
        sub_type smallint,
        ip varchar(255) NOT NULL DEFAULT '',
        rtsp_port int NOT NULL DEFAULT 554 CHECK (rtsp_port BETWEEN 1 AND 65535),
        channel smallint NOT NULL DEFAULT 1 CHECK (channel BETWEEN 1 AND 256),
        rtsp_url varchar(512) NOT NULL DEFAULT '',
        username varchar(64) NOT NULL DEFAULT '',
        password_enc text,
        network_status smallint NOT NULL DEFAULT 0,
        access varchar(16),
        reported_at timestamptz
      ) WITH (fillfactor = 70)`);
    await q.query(`CREATE INDEX camera_category_idx ON camera (category, sub_type)`);
    await q.query(`CREATE INDEX camera_network_idx ON camera (network_status)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE camera`);
  }
}
