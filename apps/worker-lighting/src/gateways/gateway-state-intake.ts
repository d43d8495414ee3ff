import type { Logger } from 'pino';
import type { Pool } from 'pg';
import { DeviceFamily, MqttChannel, OnlineState, mqttTopics, type LampGatewayStateMessage, type OfflineStateMessage } from '@sc/contracts';
import type { MqttConnection, RedisBus } from '@sc/messaging';

export type GatewayState = LampGatewayStateMessage | OfflineStateMessage;

const text = (value: unknown): value is string | undefined => value === undefined || (typeof value === 'string' && value.length <= 32);

/** A gateway `state` payload, or null when it is not one (an empty payload clears a retained state: ignored). */
export function parseGatewayState(payload: Buffer | string): GatewayState | null {
  let m: unknown;
  try {
    m = JSON.parse(payload.toString());
  } catch {
    return null;
  }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return null;
  const body = m as Record<string, unknown>;
  if (body.online === false) return { online: false };
  if (body.online !== true || !text(body.hardwareVersion) || !text(body.softwareVersion)) return null;
  const state: LampGatewayStateMessage = { online: true };
  if (body.hardwareVersion !== undefined) state.hardwareVersion = body.hardwareVersion;
  if (body.softwareVersion !== undefined) state.softwareVersion = body.softwareVersion;
  return state;
}

interface Updated {
  id: number;
  before_status: number;
  network_status: number;
  before_hw: string;
  hardware_version: string;
  before_sw: string;
  software_version: string;
  reported_at: Date | null;
}

/**
 * Online state of the lamp gateways from their retained `state` and Last Will. Few messages, so a plain (not shared)
 * subscription: it also brings every stored state at start, and replicas writing the same state change nothing twice
 * (only a row that changed is written and announced). Gateways without a record are ignored.
 */
export class GatewayStateIntake {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly mqtt: MqttConnection,
    private readonly pool: Pool,
    private readonly bus: RedisBus,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await this.mqtt.subscribe(mqttTopics.all(DeviceFamily.LampGateway, MqttChannel.State), (topic, payload) => this.receive(topic, payload), 1);
  }

  /** Messages are applied one after another, in arrival order. */
  receive(topic: string, payload: Buffer): void {
    const parsed = mqttTopics.parse(topic);
    if (!parsed || parsed.family !== DeviceFamily.LampGateway || parsed.channel !== MqttChannel.State) return;
    const state = parseGatewayState(payload);
    if (!state) return;
    this.queue = this.queue
      .then(() => this.apply(parsed.deviceId, state))
      .catch((err: Error) => this.logger.warn({ err: err.message, gateway: parsed.deviceId }, 'gateway state not stored'));
  }

  /** Resolves once every message received so far is stored. */
  flush(): Promise<void> {
    return this.queue;
  }

  private async apply(code: string, state: GatewayState): Promise<void> {
    const online = state.online ? OnlineState.Online : OnlineState.Offline;
    const hw = state.online ? (state.hardwareVersion ?? null) : null;
    const sw = state.online ? (state.softwareVersion ?? null) : null;
    const { rows } = await this.pool.query<Updated>(
      `WITH before AS (SELECT id, network_status, hardware_version, software_version FROM lamp_gateway WHERE code = $1 FOR UPDATE)
       UPDATE lamp_gateway g
          SET network_status = $2::smallint, hardware_version = coalesce($3::varchar, g.hardware_version), software_version = coalesce($4::varchar, g.software_version),
              reported_at = CASE WHEN $2::smallint = 1 THEN now() ELSE g.reported_at END
         FROM before
        WHERE g.id = before.id
      RETURNING g.id, before.network_status AS before_status, g.network_status, before.hardware_version AS before_hw, g.hardware_version,
                before.software_version AS before_sw, g.software_version, g.reported_at`,
      [code, online, hw, sw],
    );
    const row = rows[0];
    if (!row) return;
    const changed: Record<string, unknown> = {};
    if (row.before_status !== row.network_status) changed.networkStatus = row.network_status;
    if (row.before_hw !== row.hardware_version) changed.hardwareVersion = row.hardware_version;
    if (row.before_sw !== row.software_version) changed.softwareVersion = row.software_version;
    if (Object.keys(changed).length === 0) return;
    changed.reportedAt = row.reported_at?.toISOString() ?? null;
    await this.bus
      .publish('DeviceStateChanged', { family: DeviceFamily.LampGateway, recordId: row.id, deviceCode: code, changed, at: new Date().toISOString() })
      .catch((err: Error) => this.logger.warn({ err: err.message }, 'DeviceStateChanged not published'));
  }
}
