import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Wi-Fi load over time (docs/wifi.md): one sample per device and minute of what it last reported in that minute (its
 * CPU, memory and disk ratios; an access point's client count), for the charts of the last day and the client counts
 * per access point and per region over time. The Wi-Fi worker writes them beside the devices' rows and keeps a week.
 */
export class WifiLoadSamples1732200110000 implements MigrationInterface {
  name = 'WifiLoadSamples1732200110000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE wifi_load_sample (
        device_id int NOT NULL REFERENCES device(id) ON DELETE CASCADE,
        minute timestamptz NOT NULL,
        cpu_ratio real,
        memory_ratio real,
        disk_ratio real,
        client_count int,
        PRIMARY KEY (device_id, minute)
      )`);
    await q.query(`CREATE INDEX wifi_load_sample_minute_idx ON wifi_load_sample (minute)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE wifi_load_sample`);
  }
}
