import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Wi-Fi (docs/wifi.md): access controllers (device type 8) and access points (device type 6) beside the shared device
 * registry, which holds their name (devName), serial number (devSN: the device code, their MQTT identity), region and
 * the lamp pole they are mounted on. These tables hold the rest of the spec's Wi-Fi device fields (devMac, devModel,
 * devType) and what the Wi-Fi worker keeps from their reports (network status, CPU, memory and disk ratios, software
 * version, last report; an access point's client count). An access point belongs to one controller: a controller
 * with access points cannot be deleted.
 *
 * The Wi-Fi clients: `wifi_client` holds those associated now (one row per access point and client MAC), and
 * `wifi_session` every ended session, with the controller and the region its access point had when it ended (so the
 * history's controller and region filters read an index, and the history stays what happened when devices move). The history grows by about 100,000 sessions a day in a city: it is partitioned
 * by month of its offline date (a page is always read for a window of dates, so only one or two months are scanned,
 * and old months are dropped whole), with an index per filter. `wifi_session_ensure_month(t)` creates the month of
 * `t` (the Wi-Fi worker keeps this month and the next ready); rows of a month without its partition land in the
 * default partition rather than failing the worker's write.
 */
export class Wifi1732200100000 implements MigrationInterface {
  name = 'Wifi1732200100000';

  async up(q: QueryRunner): Promise<void> {
    const deviceColumns = `
        device_id int PRIMARY KEY REFERENCES device(id) ON DELETE CASCADE,
        dev_mac varchar(17) NOT NULL,
        dev_model varchar(32) NOT NULL DEFAULT '',
        dev_type varchar(32) NOT NULL DEFAULT '',
        network_status smallint NOT NULL DEFAULT 0,
        cpu_ratio real CHECK (cpu_ratio BETWEEN 0 AND 100),
        memory_ratio real CHECK (memory_ratio BETWEEN 0 AND 100),
        disk_ratio real CHECK (disk_ratio BETWEEN 0 AND 100),
        software_version varchar(32) NOT NULL DEFAULT '',
        reported_at timestamptz`;
    await q.query(`CREATE TABLE wifi_ac (${deviceColumns}) WITH (fillfactor = 70)`);
    await q.query(`
      CREATE TABLE wifi_ap (${deviceColumns},
        ac_id int NOT NULL REFERENCES device(id) ON DELETE RESTRICT,
        client_count int NOT NULL DEFAULT 0
      ) WITH (fillfactor = 70)`);
    await q.query(`CREATE UNIQUE INDEX wifi_ac_mac_uq ON wifi_ac (dev_mac)`);
    await q.query(`CREATE UNIQUE INDEX wifi_ap_mac_uq ON wifi_ap (dev_mac)`);
    await q.query(`CREATE INDEX wifi_ac_network_idx ON wifi_ac (network_status)`);
    await q.query(`CREATE INDEX wifi_ap_network_idx ON wifi_ap (network_status)`);
    await q.query(`CREATE INDEX wifi_ap_ac_idx ON wifi_ap (ac_id)`);

    await q.query(`
      CREATE TABLE wifi_client (
        ap_id int NOT NULL REFERENCES device(id) ON DELETE CASCADE,
        client_mac varchar(17) NOT NULL,
        client_ip varchar(45) NOT NULL DEFAULT '',
        client_ssid varchar(32) NOT NULL DEFAULT '',
        signal_strength smallint NOT NULL DEFAULT 0,
        on_line_date timestamptz NOT NULL,
        PRIMARY KEY (ap_id, client_mac)
      ) WITH (fillfactor = 80)`);
    await q.query(`CREATE INDEX wifi_client_mac_idx ON wifi_client (client_mac)`);
    await q.query(`CREATE INDEX wifi_client_online_idx ON wifi_client (on_line_date DESC)`);

    await q.query(`
      CREATE TABLE wifi_session (
        id bigint GENERATED ALWAYS AS IDENTITY,
        ap_id int NOT NULL,
        ac_id int,
        region_id int,
        client_mac varchar(17) NOT NULL,
        client_ip varchar(45) NOT NULL DEFAULT '',
        client_ssid varchar(32) NOT NULL DEFAULT '',
        signal_strength smallint NOT NULL DEFAULT 0,
        on_line_date timestamptz NOT NULL,
        off_line_date timestamptz NOT NULL,
        duration int NOT NULL,
        PRIMARY KEY (off_line_date, id)
      ) PARTITION BY RANGE (off_line_date)`);
    // Each filter of the history page with the window: the newest first within an access point, its controller, its
    // region, an SSID; a client's MAC or IP address, whole or from its start (pattern operators: a prefix is a range).
    for (const column of ['ap_id', 'ac_id', 'region_id', 'client_ssid'])
      await q.query(`CREATE INDEX wifi_session_${column}_idx ON wifi_session (${column}, off_line_date DESC)`);
    for (const column of ['client_mac', 'client_ip'])
      await q.query(`CREATE INDEX wifi_session_${column}_idx ON wifi_session (${column} varchar_pattern_ops, off_line_date DESC)`);
    await q.query(`CREATE TABLE wifi_session_default PARTITION OF wifi_session DEFAULT`);
    await q.query(`
      CREATE FUNCTION wifi_session_ensure_month(at timestamptz) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        month timestamp := date_trunc('month', at AT TIME ZONE 'UTC');
        part text := 'wifi_session_' || to_char(month, 'YYYYMM');
      BEGIN
        IF to_regclass(part) IS NOT NULL THEN RETURN; END IF;
        EXECUTE format('CREATE TABLE %I PARTITION OF wifi_session FOR VALUES FROM (%L) TO (%L)', part,
          month AT TIME ZONE 'UTC', (month + interval '1 month') AT TIME ZONE 'UTC');
      EXCEPTION
        -- Another worker made it meanwhile, or the default partition already holds rows of that month (they stay there).
        WHEN duplicate_table OR check_violation THEN RETURN;
      END $$`);
    await q.query(`SELECT wifi_session_ensure_month(now())`);
    await q.query(`SELECT wifi_session_ensure_month(now() + interval '1 month')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE wifi_session`);
    await q.query(`DROP FUNCTION wifi_session_ensure_month(timestamptz)`);
    await q.query(`DROP TABLE wifi_client`);
    await q.query(`DROP TABLE wifi_ap`);
    await q.query(`DROP TABLE wifi_ac`);
  }
}
