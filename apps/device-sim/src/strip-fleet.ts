import {
  DARK_ZONE,
  DeviceFamily,
  DeviceType,
  FaultCode,
  MqttChannel,
  Zone,
  applyStripEffect,
  mqttTopics,
  stripEffectOf,
  type AckMessage,
  type DeviceEventMessage,
  type LampSchedule,
  type LampTelemetryMessage,
  type StripEffectParams,
  type StripStateMessage,
  type StripZoneState,
} from '@sc/contracts';
import { levelAt } from '@sc/schedule';
import mqtt, { type MqttClient } from 'mqtt';
import { Client } from 'pg';
import pino, { type Logger } from 'pino';
import { planFleet, type LampSeed } from './fleet-plan';
import { BAD_COMMAND, DRIVER_FAULT, EXPIRED, RecentResults, type Random } from './lamp-behaviour';

/** Which strip lights to simulate: explicit codes (with their gateway), or the registry's strip lights. */
export type StripSource = readonly (string | LampSeed)[] | { databaseUrl: string };

export interface StripFleetOptions {
  /** Default mqtt://127.0.0.1:1883. */
  mqttUrl?: string;
  strips: StripSource;
  /** Strips per generated gateway (strips whose record names a gateway stay with it). Default 20. */
  stripsPerGateway?: number;
  /** Prefix of generated gateway ids (also MQTT client ids). Default 'SGW-'. */
  gatewayPrefix?: string;
  /** Time from receiving a command to acking it, drawn uniformly. Default 50–300 ms. */
  ackLatencyMs?: { min: number; max: number };
  /** Fraction of valid, live commands answered ok:false 'driver fault'. Default 0. */
  failureRate?: number;
  /** How long a strip reports `synchronizing` after it connects. Default 1500 ms; 0 skips it. */
  syncMs?: number;
  /** Telemetry period per strip; 0 turns telemetry off. Default 10 000 ms. */
  telemetryIntervalMs?: number;
  /** The strips' clock, for the schedules they run. Default the real time. */
  clock?: () => Date;
  /** How often a strip with a schedule looks at its clock. Default 1000 ms. */
  scheduleTickMs?: number;
  random?: Random;
  logger?: Logger;
  connectTimeoutMs?: number;
}

export interface StripSnapshot {
  code: string;
  gatewayId: string;
  synchronizing: boolean;
  bri: number;
  zones: Record<Zone, StripZoneState>;
  /** The strategy it runs, if one was distributed to it. */
  strategyId: number | null;
  faults: FaultCode[];
  /** Effects applied so far (never more than once per command id). */
  applied: number;
}

export interface StripFleet {
  readonly codes: readonly string[];
  readonly gatewayIds: readonly string[];
  strip(code: string): StripSnapshot | undefined;
  raiseFault(code: string, fault: FaultCode): Promise<void>;
  clearFault(code: string, fault: FaultCode): Promise<void>;
  /** Disconnects cleanly; `clearRetained` empties the retained states first (test clean-up). */
  stop(options?: { clearRetained?: boolean }): Promise<void>;
}

const OFFLINE_PAYLOAD = JSON.stringify({ online: false });
const HARDWARE = 'RGB-STRIP-24';
const SOFTWARE = '1.3.0';

class SimStrip {
  readonly faults = new Set<FaultCode>();
  readonly recent = new RecentResults();
  zones: Record<Zone, StripZoneState> = { [Zone.Left]: DARK_ZONE, [Zone.Right]: DARK_ZONE };
  synchronizing = true;
  applied = 0;
  /** The light level of lit zones, percent: 100 unless a schedule sets it. */
  level = 100;
  schedule: LampSchedule | null = null;

  constructor(
    readonly code: string,
    readonly gateway: SimStripGateway,
    readonly ratedPower: number,
    readonly signal: number,
  ) {}

  topic(channel: MqttChannel): string {
    return mqttTopics.of(DeviceFamily.Strip, this.code, channel);
  }

  /** Brightness, percent: a lit zone gives half the strip's light, at its level. */
  get bri(): number {
    return Math.round((this.level * ((this.zones.L.on ? 1 : 0) + (this.zones.R.on ? 1 : 0))) / 2);
  }

  /** Follows its schedule at `now`: both zones lit at the level it gives, dark at 0. Answers whether anything changed. */
  runSchedule(now: Date): boolean {
    if (!this.schedule) return false;
    const level = levelAt(this.schedule, now);
    const on = level > 0;
    if (this.zones.L.on === on && this.zones.R.on === on && (!on || this.level === level)) return false;
    if (on) this.level = level;
    this.apply({ type: 1, effect: on ? -1 : -2, zones: [Zone.Left, Zone.Right] });
    return true;
  }

  apply(effect: StripEffectParams): void {
    this.zones = applyStripEffect(this.zones, effect);
  }
}

class SimStripGateway {
  client!: MqttClient;
  readonly strips: SimStrip[] = [];
  constructor(readonly id: string) {}

  get stateTopic(): string {
    return mqttTopics.of(DeviceFamily.LampGateway, this.id, MqttChannel.State);
  }
}

type ParsedEffect =
  | { kind: 'command'; id: string; effect: StripEffectParams; expiresAtMs: number }
  | { kind: 'schedule'; id: string; schedule: LampSchedule; expiresAtMs: number }
  | { kind: 'invalid'; id: string }
  | { kind: 'unreadable' };

function isSchedule(params: unknown): params is LampSchedule {
  const p = params as Partial<LampSchedule> | null;
  return !!p && typeof p.strategyId === 'number' && !!p.rules && Array.isArray(p.rules.periods) && !!p.place && typeof p.place.timeZone === 'string';
}

/** What a strip makes of one `cmd` payload: the contract's `effect` command, or something to refuse. */
export function parseStripCommand(payload: Buffer | string): ParsedEffect {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(payload.toString()) as Record<string, unknown>;
  } catch {
    return { kind: 'unreadable' };
  }
  if (!body || typeof body !== 'object' || typeof body.id !== 'string' || body.id.length === 0 || body.id.length > 128) return { kind: 'unreadable' };
  const expiresAtMs = typeof body.expiresAt === 'string' ? Date.parse(body.expiresAt) : NaN;
  if (!Number.isNaN(expiresAtMs) && body.type === 'schedule' && isSchedule(body.params))
    return { kind: 'schedule', id: body.id, schedule: body.params, expiresAtMs };
  const effect = body.type === 'effect' ? stripEffectOf(body.params) : null;
  if (Number.isNaN(expiresAtMs) || !effect) return { kind: 'invalid', id: body.id };
  return { kind: 'command', id: body.id, effect, expiresAtMs };
}

/** The registry's strip lights, with the gateway each record names (empty means none recorded). */
export async function loadStripsFromDatabase(databaseUrl: string): Promise<LampSeed[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ code: string; gateway_id: string | null }>(
      `SELECT d.code, nullif(s.gateway_id, '') AS gateway_id FROM device d LEFT JOIN strip_light s ON s.device_id = d.id
        WHERE d.type = $1 ORDER BY d.code`,
      [DeviceType.LightStrip],
    );
    return rows.map((r) => (r.gateway_id ? { code: r.code, gatewayId: r.gateway_id } : { code: r.code }));
  } finally {
    await client.end();
  }
}

/**
 * Simulated strip lights (family `strip`), multiplexed over the gateways they hang off: each applies light effects
 * per zone (at most once per command id), acknowledges them, and reports its retained state, its readings and its
 * faults as the device contract says.
 */
class SimStripFleet implements StripFleet {
  readonly codes: string[] = [];
  readonly gatewayIds: string[];
  private readonly strips = new Map<string, SimStrip>();
  private readonly gateways: SimStripGateway[] = [];
  private readonly pending = new Set<NodeJS.Timeout>();
  private telemetryTimer?: NodeJS.Timeout;
  private scheduleTimer?: NodeJS.Timeout;
  private stopping = false;
  private stopped?: Promise<void>;
  private readonly random: Random;
  private readonly logger: Logger;

  constructor(
    private readonly options: StripFleetOptions,
    seeds: readonly LampSeed[],
  ) {
    this.random = options.random ?? Math.random;
    this.logger = options.logger ?? pino({ level: process.env.LOG_LEVEL ?? 'info', base: { service: 'device-sim' } });
    const plan = planFleet(seeds, options.stripsPerGateway ?? 20, options.gatewayPrefix ?? 'SGW-');
    for (const [gatewayId, codes] of plan.gateways) {
      const gateway = new SimStripGateway(gatewayId);
      this.gateways.push(gateway);
      for (const code of codes) {
        const strip = new SimStrip(code, gateway, 40 + this.random() * 20, Math.round(-90 + this.random() * 25));
        gateway.strips.push(strip);
        this.strips.set(code, strip);
        this.codes.push(code);
      }
    }
    this.gatewayIds = this.gateways.map((g) => g.id);
  }

  async start(): Promise<void> {
    await Promise.all(this.gateways.map((g) => this.connectGateway(g)));
    const interval = this.options.telemetryIntervalMs ?? 10_000;
    if (interval > 0) this.telemetryTimer = setInterval(() => this.sendTelemetry(), interval);
    this.scheduleTimer = setInterval(() => {
      const now = this.now();
      for (const strip of this.strips.values()) if (strip.runSchedule(now)) void this.publishState(strip);
    }, this.options.scheduleTickMs ?? 1000);
    this.logger.info({ strips: this.strips.size, gateways: this.gateways.length }, 'device-sim strip lights connected');
  }

  strip(code: string): StripSnapshot | undefined {
    const s = this.strips.get(code);
    if (!s) return undefined;
    return {
      code,
      gatewayId: s.gateway.id,
      synchronizing: s.synchronizing,
      bri: s.bri,
      zones: structuredClone(s.zones),
      strategyId: s.schedule?.strategyId ?? null,
      faults: [...s.faults].sort((a, b) => a - b),
      applied: s.applied,
    };
  }

  async raiseFault(code: string, fault: FaultCode): Promise<void> {
    await this.setFault(code, fault, true);
  }

  async clearFault(code: string, fault: FaultCode): Promise<void> {
    await this.setFault(code, fault, false);
  }

  stop(options: { clearRetained?: boolean } = {}): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping = true;
      clearInterval(this.telemetryTimer);
      clearInterval(this.scheduleTimer);
      for (const timer of this.pending) clearTimeout(timer);
      if (options.clearRetained) {
        await Promise.all(
          this.gateways.flatMap((g) => [
            this.publish(g.client, g.stateTopic, '', true),
            ...g.strips.map((s) => this.publish(g.client, s.topic(MqttChannel.State), '', true)),
          ]),
        );
      }
      await Promise.all(this.gateways.map((g) => g.client?.endAsync(!g.client.connected).catch(() => undefined)));
    })();
    return this.stopped;
  }

  private async connectGateway(gateway: SimStripGateway): Promise<void> {
    const client = mqtt.connect(this.options.mqttUrl ?? 'mqtt://127.0.0.1:1883', {
      clientId: gateway.id,
      clean: true,
      keepalive: 30,
      reconnectPeriod: 1000,
      connectTimeout: this.options.connectTimeoutMs ?? 10_000,
      resubscribe: false,
      will: { topic: gateway.stateTopic, payload: Buffer.from(OFFLINE_PAYLOAD), qos: 1, retain: true },
    });
    gateway.client = client;
    client.on('error', (err) => this.logger.warn({ gateway: gateway.id, err: err.message }, 'MQTT connection error'));
    client.on('message', (topic, payload) => {
      const parsed = mqttTopics.parse(topic);
      const strip = parsed ? this.strips.get(parsed.deviceId) : undefined;
      if (strip && strip.gateway === gateway && parsed?.channel === MqttChannel.Cmd) this.handleCommand(strip, payload);
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`strip gateway ${gateway.id}: no connection to the MQTT broker`)),
        this.options.connectTimeoutMs ?? 10_000,
      );
      client.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const announce = async () => {
      if (gateway.strips.length > 0)
        await client.subscribeAsync(
          gateway.strips.map((s) => s.topic(MqttChannel.Cmd)),
          { qos: 1 },
        );
      await this.publish(client, gateway.stateTopic, JSON.stringify({ online: true, strips: gateway.strips.length }), true);
      await Promise.all(gateway.strips.map((s) => this.publishState(s)));
      // The strips synchronize their zones with the gateway for a moment, then report normally.
      const syncMs = this.options.syncMs ?? 1500;
      const finish = () => {
        for (const s of gateway.strips) s.synchronizing = false;
        void Promise.all(gateway.strips.map((s) => this.publishState(s)));
      };
      if (syncMs > 0) this.later(finish, syncMs);
      else finish();
    };
    await announce();
    client.on(
      'connect',
      () => void announce().catch((err: Error) => this.logger.warn({ gateway: gateway.id, err: err.message }, 're-announce failed')),
    );
  }

  private handleCommand(strip: SimStrip, payload: Buffer): void {
    if (this.stopping) return;
    const parsed = parseStripCommand(payload);
    if (parsed.kind === 'unreadable') return;
    const now = Date.now();
    const earlier = strip.recent.get(parsed.id);
    if (earlier) return this.answerLater(strip, earlier, false);
    let ack: AckMessage;
    let keepUntil = now + 60_000;
    if (parsed.kind === 'invalid') ack = { id: parsed.id, ok: false, error: BAD_COMMAND };
    else if (parsed.expiresAtMs <= now) ack = { id: parsed.id, ok: false, error: EXPIRED };
    else if (this.random() < (this.options.failureRate ?? 0)) {
      ack = { id: parsed.id, ok: false, error: DRIVER_FAULT };
      keepUntil = parsed.expiresAtMs;
    } else if (parsed.kind === 'schedule') {
      // Replaces any earlier schedule and applies what it says now; from then on the strip follows it by its clock.
      strip.schedule = parsed.schedule;
      strip.runSchedule(this.now());
      strip.applied++;
      ack = { id: parsed.id, ok: true };
      keepUntil = parsed.expiresAtMs;
    } else {
      strip.apply(parsed.effect);
      strip.applied++;
      ack = { id: parsed.id, ok: true };
      keepUntil = parsed.expiresAtMs;
    }
    strip.recent.remember(ack, keepUntil, now);
    this.answerLater(strip, ack, ack.ok);
  }

  private answerLater(strip: SimStrip, ack: AckMessage, stateChanged: boolean): void {
    const { min = 50, max = 300 } = this.options.ackLatencyMs ?? {};
    this.later(
      () => {
        void this.publish(strip.gateway.client, strip.topic(MqttChannel.Ack), JSON.stringify(ack), false);
        if (stateChanged) void this.publishState(strip);
      },
      min + this.random() * Math.max(0, max - min),
    );
  }

  private now(): Date {
    return this.options.clock?.() ?? new Date();
  }

  private later(run: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      if (!this.stopping) run();
    }, ms);
    this.pending.add(timer);
  }

  private publishState(strip: SimStrip): Promise<void> {
    const state: StripStateMessage = {
      online: true,
      bri: strip.bri,
      zones: strip.zones,
      synchronizing: strip.synchronizing,
      gatewayId: strip.gateway.id,
      hardwareVersion: HARDWARE,
      softwareVersion: SOFTWARE,
    };
    return this.publish(strip.gateway.client, strip.topic(MqttChannel.State), JSON.stringify(state), true);
  }

  private async setFault(code: string, fault: FaultCode, active: boolean): Promise<void> {
    const strip = this.strips.get(code);
    if (!strip) throw new Error(`device-sim: no simulated strip light ${code}`);
    if (active) strip.faults.add(fault);
    else strip.faults.delete(fault);
    const event: DeviceEventMessage = { ts: new Date().toISOString(), code: fault, active };
    await this.publish(strip.gateway.client, strip.topic(MqttChannel.Event), JSON.stringify(event), false);
  }

  /** Power follows the lit zones (breathing and flashing average about half of steady light). */
  private sendTelemetry(): void {
    const ts = new Date().toISOString();
    for (const strip of this.strips.values()) {
      const load = [strip.zones.L, strip.zones.R].reduce((sum, z) => sum + (!z.on ? 0 : z.type === 2 || z.type === 3 ? 0.25 : 0.5), 0);
      const voltage =
        220 + (this.random() - 0.5) * 4 + (strip.faults.has(FaultCode.VoltageLow) ? -40 : strip.faults.has(FaultCode.VoltageHigh) ? 30 : 0);
      const power = Math.max(0.4, strip.ratedPower * load * (1 + (this.random() - 0.5) * 0.04));
      const powerFactor = 0.92 + this.random() * 0.05;
      const reading: LampTelemetryMessage = {
        ts,
        voltage: Number(voltage.toFixed(1)),
        current: Number((power / (voltage * powerFactor)).toFixed(3)),
        power: Number(power.toFixed(1)),
        powerFactor: Number(powerFactor.toFixed(2)),
        signal: strip.signal,
      };
      void this.publish(strip.gateway.client, strip.topic(MqttChannel.Telemetry), JSON.stringify(reading), false, 0);
    }
  }

  private publish(client: MqttClient | undefined, topic: string, body: string, retain: boolean, qos: 0 | 1 = 1): Promise<void> {
    if (!client) return Promise.resolve();
    return client.publishAsync(topic, body, { qos, retain }).then(
      () => undefined,
      (err: Error) => this.logger.debug({ topic, err: err.message }, 'publish failed'),
    );
  }
}

/** Connects every strip gateway, publishes the strips' retained states, and starts telemetry. */
export async function startStripFleet(options: StripFleetOptions): Promise<StripFleet> {
  const source = options.strips;
  const seeds =
    'databaseUrl' in source ? await loadStripsFromDatabase(source.databaseUrl) : source.map((s) => (typeof s === 'string' ? { code: s } : s));
  const fleet = new SimStripFleet(options, seeds);
  try {
    await fleet.start();
  } catch (err) {
    await fleet.stop();
    throw err;
  }
  return fleet;
}
