import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A call's recording (docs/alarm-intercom.md, Voice): the alarm worker's voice bridge mixes both sides of a call into
 * one MP3 when the call ends and notes it on the call. `recording_file` is the file's name under the recordings
 * directory (VOICE_RECORDING_DIR), shared by the alarm workers and the gateway that plays it.
 */
export class CallRecordings1732201100000 implements MigrationInterface {
  name = 'CallRecordings1732201100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE alarm_call
        ADD COLUMN recording_file varchar(128),
        ADD COLUMN recording_seconds real,
        ADD COLUMN recording_size bigint,
        ADD CONSTRAINT alarm_call_recording_ck CHECK ((recording_file IS NULL) = (recording_seconds IS NULL) AND (recording_file IS NULL) = (recording_size IS NULL))`);
    await q.query(`CREATE INDEX alarm_call_recorded_idx ON alarm_call (started_at DESC) WHERE recording_file IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX alarm_call_recorded_idx`);
    await q.query(
      `ALTER TABLE alarm_call DROP CONSTRAINT alarm_call_recording_ck, DROP COLUMN recording_file, DROP COLUMN recording_seconds, DROP COLUMN recording_size`,
    );
  }
}
