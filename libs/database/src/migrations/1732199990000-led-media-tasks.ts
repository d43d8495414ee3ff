import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The LED screens' media library (docs/led-screens.md): pictures (type 1) and videos (type 2) uploaded on the upload
 * port and kept under UPLOAD_DIR (`file_path` and the JPEG thumbnail `cover_path`, both relative to it), with what was
 * read from the content: MIME type, size, resolution, duration (videos) and SHA-256. LED tasks: one medium each, a play
 * mode (1 synchronous, 2 asynchronous), 1 to 7 time periods of the day and 1 to 7 task periods (date ranges), the
 * screens they are for, and their latest publication (a dispatch of the command ledger).
 */
export class LedMediaTasks1732199990000 implements MigrationInterface {
  name = 'LedMediaTasks1732199990000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE led_media (
        id serial PRIMARY KEY,
        name varchar(100) NOT NULL,
        media_type smallint NOT NULL CHECK (media_type IN (1, 2)),
        file_size bigint NOT NULL CHECK (file_size > 0),
        width int NOT NULL CHECK (width > 0),
        height int NOT NULL CHECK (height > 0),
        duration_seconds numeric(10, 3) CHECK (duration_seconds > 0),
        file_path varchar(255) NOT NULL UNIQUE,
        cover_path varchar(255) NOT NULL,
        original_name varchar(255) NOT NULL DEFAULT '',
        sha256 char(64) NOT NULL,
        mime varchar(64) NOT NULL,
        uploaded_by int REFERENCES sys_user(id) ON DELETE SET NULL,
        uploader varchar(64) NOT NULL,
        uploaded_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((media_type = 1) = (duration_seconds IS NULL))
      )`);
    await q.query(`CREATE INDEX led_media_type_idx ON led_media (media_type, id)`);
    await q.query(`CREATE INDEX led_media_name_trgm ON led_media USING gin (lower(name) gin_trgm_ops)`);
    await q.query(`
      CREATE TABLE led_task (
        id serial PRIMARY KEY,
        name varchar(64) NOT NULL,
        media_id int NOT NULL REFERENCES led_media(id) ON DELETE RESTRICT,
        play_mode smallint NOT NULL CHECK (play_mode IN (1, 2)),
        time_periods jsonb NOT NULL,
        task_periods jsonb NOT NULL,
        dispatch_id uuid REFERENCES dispatch(id) ON DELETE SET NULL,
        published_at timestamptz,
        created_by varchar(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX led_task_media_idx ON led_task (media_id)`);
    await q.query(`CREATE INDEX led_task_name_trgm ON led_task USING gin (lower(name) gin_trgm_ops)`);
    await q.query(`
      CREATE TABLE led_task_screen (
        task_id int NOT NULL REFERENCES led_task(id) ON DELETE CASCADE,
        device_id int NOT NULL REFERENCES device(id) ON DELETE CASCADE,
        PRIMARY KEY (task_id, device_id)
      )`);
    await q.query(`CREATE INDEX led_task_screen_device_idx ON led_task_screen (device_id)`);
    await q.query(`ALTER TABLE led_screen ADD COLUMN playing jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE led_screen DROP COLUMN playing`);
    await q.query(`DROP TABLE led_task_screen`);
    await q.query(`DROP TABLE led_task`);
    await q.query(`DROP TABLE led_media`);
  }
}
