import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Broadcast terminals (device type 3) beside the shared device registry, which holds their code (terminalId, their
 * MQTT identity), name, region and the lamp pole they are mounted on (device.pole_id). This table holds the spec's
 * terminal fields (terminalIP, callCode, default, interphone and broadcast volume, priority, relayServer,
 * terminalType) and what the broadcast worker keeps from their reports: network status, occupancy (idle, a task, an
 * intercom call) with what they play, versions and the time of the last report. At most one terminal is the default.
 */
export class BroadcastTerminals1732199200000 implements MigrationInterface {
  name = 'BroadcastTerminals1732199200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE broadcast_terminal (
        device_id int PRIMARY KEY REFERENCES device(id) ON DELETE CASCADE,
        terminal_ip varchar(15) NOT NULL,
        call_code varchar(16) NOT NULL DEFAULT '',
        is_default boolean NOT NULL DEFAULT false,
        interphone_volume smallint NOT NULL DEFAULT 50 CHECK (interphone_volume BETWEEN 0 AND 100),
        broadcast_volume smallint NOT NULL DEFAULT 50 CHECK (broadcast_volume BETWEEN 0 AND 100),
        priority smallint NOT NULL DEFAULT 5 CHECK (priority BETWEEN 1 AND 10),
        relay_server varchar(255) NOT NULL DEFAULT '',
        terminal_type varchar(32) NOT NULL DEFAULT '',
        network_status smallint NOT NULL DEFAULT 0,
        occupancy varchar(16) NOT NULL DEFAULT 'idle' CHECK (occupancy IN ('idle', 'task', 'intercom')),
        playing jsonb,
        hardware_version varchar(32) NOT NULL DEFAULT '',
        software_version varchar(32) NOT NULL DEFAULT '',
        reported_at timestamptz
      ) WITH (fillfactor = 70)`);
    await q.query(`CREATE UNIQUE INDEX broadcast_terminal_default_uq ON broadcast_terminal (is_default) WHERE is_default`);
    await q.query(`CREATE INDEX broadcast_terminal_state_idx ON broadcast_terminal (network_status, occupancy)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE broadcast_terminal`);
  }
}
