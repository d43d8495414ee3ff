import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Floor-screen screenshots (docs/signage-devices.md): `signage_device.last_screenshot_at`, when the player's latest
 * screenshot came in, written with the upload in one transaction and announced live (the console's viewer waits for
 * it to move); and an index for a player's latest received screenshot.
 */
export class SignageScreenshots1732199985000 implements MigrationInterface {
  name = 'SignageScreenshots1732199985000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE signage_device ADD COLUMN last_screenshot_at timestamptz`);
    await q.query(`CREATE INDEX signage_screenshot_received_idx ON signage_screenshot (device_id, received_at DESC) WHERE status = 'received'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX signage_screenshot_received_idx`);
    await q.query(`ALTER TABLE signage_device DROP COLUMN last_screenshot_at`);
  }
}
