import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Receipts of commands that name files to fetch (a command declared with `receipts`): each ledger row's last receipt
 * (received, or downloading with bytes so far of the total), beside the row rather than in it, so the many receipts
 * of a large download neither rewrite the ledger row nor run its tally triggers. Gone with its row.
 */
export class DispatchReceipts1732199950000 implements MigrationInterface {
  name = 'DispatchReceipts1732199950000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dispatch_receipt (
        dispatch_id uuid NOT NULL,
        device_id int NOT NULL,
        stage varchar(16) NOT NULL,
        received bigint,
        total bigint,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (dispatch_id, device_id),
        FOREIGN KEY (dispatch_id, device_id) REFERENCES dispatch_item (dispatch_id, device_id) ON DELETE CASCADE
      ) WITH (fillfactor = 70)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE dispatch_receipt`);
  }
}
