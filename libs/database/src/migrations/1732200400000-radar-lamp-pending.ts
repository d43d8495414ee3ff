import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Radar rises that wait for their event's open interval (docs/radar.md), kept in the database so that a worker
 * stopped meanwhile loses none:
 *
 * - `radar_lamp_pending`: one row per lamp of a detection whose event has an open interval, written in the
 *   transaction that stores the detection; the radar worker's pass raises the due ones (and deletes them) in a
 *   transaction of its own, `FOR UPDATE SKIP LOCKED`, so two replicas never both raise one. A row whose hold would
 *   already have ended when it is taken (the workers were all stopped meanwhile) is dropped without a raise.
 * - `radar_lamp_raise.radar_id`: the radar of the last detection that raised or held the lamp, named when it returns.
 */
export class RadarLampPending1732200400000 implements MigrationInterface {
  name = 'RadarLampPending1732200400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE radar_lamp_pending (
        id bigserial PRIMARY KEY,
        lamp_id int NOT NULL REFERENCES device(id) ON DELETE CASCADE,
        radar_id int NOT NULL REFERENCES device(id) ON DELETE CASCADE,
        radar_code varchar(64) NOT NULL,
        level smallint NOT NULL,
        close_interval int NOT NULL,
        detected_at timestamptz NOT NULL,
        due_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX radar_lamp_pending_due_idx ON radar_lamp_pending (due_at)`);
    await q.query(`CREATE INDEX radar_lamp_pending_lamp_idx ON radar_lamp_pending (lamp_id)`);
    await q.query(`CREATE INDEX radar_lamp_pending_radar_idx ON radar_lamp_pending (radar_id)`);
    await q.query(`ALTER TABLE radar_lamp_raise ADD COLUMN radar_id int REFERENCES device(id) ON DELETE SET NULL`);
    await q.query(`CREATE INDEX radar_lamp_raise_radar_idx ON radar_lamp_raise (radar_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE radar_lamp_raise DROP COLUMN radar_id`);
    await q.query(`DROP TABLE radar_lamp_pending`);
  }
}
