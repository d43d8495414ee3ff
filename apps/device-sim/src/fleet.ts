import {
  DIMMING_LEVELS,
  DeviceFamily,
  FaultCode,
  MqttChannel,
  mqttTopics,
  type AckMessage,
  type DeviceEventMessage,
  type DimmingLevel,
  type LampStateMessage,
  type OfflineStateMessage,
} from '@sc/contracts';
import { ScheduleRunner, SimClock, parseSchedule } from './lamp-schedule';
import mqtt, { type MqttClient } from 'mqtt';
import pino, { type Logger } from 'pino';
import { generateLampCodes, loadLampsFromDatabase, pickIndexes, planFleet, type LampSeed } from './fleet-plan';
import {
  BAD_COMMAND,
  DRIVER_FAULT,
  EXPIRED,
  RecentResults,
  applyLampCommand,
  drawLampProfile,
  parseLampCommand,
  readTelemetry,
  type LampProfile,
  type LampSetting,
  type Random,
} from './lamp-behaviour';

/** Which lamps to simulate: explicit codes, `count` generated codes, or the registry's single lamps. */
export type LampSource = readonly (string | LampSeed)[] | { count: number; prefix?: string } | { databaseUrl: string };

export interface FleetOptions {
  /** Default mqtt://127.0.0.1:1883. */
  mqttUrl?: string;
  lamps: LampSource;
  /** Lamps per generated gateway (lamps whose record names a gateway stay with it). Default 50. */
  lampsPerGateway?: number;
  /** Prefix of generated gateway ids, which are also MQTT client ids. Default `${prefix}GW-` for generated codes, else 'GW-'. */
  gatewayPrefix?: string;
  /** Time from receiving a command to acking it, drawn uniformly. Default 50–300 ms. */
  ackLatencyMs?: { min: number; max: number };
  /** Fraction of valid, live commands answered ok:false 'driver fault'. Default 0. */
  failureRate?: number;
  /** Fraction of lamps that start offline (reported offline by their gateway, never answering). Default 0. */
  offlineFraction?: number;
  /** Telemetry period per lamp; 0 turns telemetry off. Default 10 000 ms. */
  telemetryIntervalMs?: number;
  /** Default 1, so an intake benchmark can account for every reading. */
  telemetryQos?: 0 | 1;
  /**
   * One MQTT connection per lamp (a real Last Will per lamp) instead of one per gateway. Default: on for fleets of
   * at most 500 lamps, off above, where per-lamp sockets would cost more than the simulation itself.
   */
  individualConnections?: boolean;
  hardwareVersion?: string;
  softwareVersion?: string;
  /** Source of every random draw, so tests can make behaviour deterministic. */
  random?: Random;
  logger?: Logger;
  /** How long start-up waits for each connection. Default 10 s. */
  connectTimeoutMs?: number;
  /** The simulated clock lamps run their schedules by: a start time (default now) and a speed (default 1). */
  clock?: { start?: Date; speed?: number };
  /** How often (real milliseconds) scheduled lamps look at the clock. Default 1000. */
  scheduleTickMs?: number;
}

export interface FleetStats {
  /** Commands that reached a live lamp, duplicates included. */
  commandsReceived: number;
  commandsApplied: number;
  /** Redelivered ids: acked again with the first answer, not applied. */
  duplicatesIgnored: number;
  /** Answered 'bad command'. */
  commandsRejected: number;
  commandsExpired: number;
  /** Answered 'driver fault' (the failure rate). */
  commandsFailed: number;
  /** Payloads without a readable id: nothing to answer to. */
  commandsUnreadable: number;
  /** Commands for lamps that are offline behind a live gateway: lost, as on the street. */
  commandsLostOffline: number;
  acksSent: number;
  statesSent: number;
  telemetrySent: number;
  eventsSent: number;
  publishErrors: number;
}

export interface LampSnapshot {
  code: string;
  gatewayId: string;
  /** Whether the lamp has its own MQTT connection (and so its own Last Will). */
  individual: boolean;
  online: boolean;
  on: boolean;
  level: DimmingLevel;
  faults: FaultCode[];
  /** Commands applied so far (never more than once per id). */
  applied: number;
  totalIlluminationHours: number;
  /** The strategy of the schedule the lamp holds and runs, if any. */
  strategyId: number | null;
}

export interface Fleet {
  readonly codes: readonly string[];
  readonly gatewayIds: readonly string[];
  /** A copy of the counters. */
  readonly stats: FleetStats;
  lamp(code: string): LampSnapshot | undefined;
  raiseFault(code: string, fault: FaultCode): Promise<void>;
  clearFault(code: string, fault: FaultCode): Promise<void>;
  /** Drops the lamp: its own connection ends without DISCONNECT (the broker publishes its Last Will); a multiplexed lamp is reported offline by its gateway. */
  takeOffline(code: string): Promise<void>;
  bringOnline(code: string): Promise<void>;
  /** The simulated time now. */
  now(): Date;
  /**
   * Moves the simulated clock (and optionally its speed); every scheduled lamp then applies what its schedule says at
   * that time, and the returned promise waits until their new states are published.
   */
  setClock(at: Date, speed?: number): Promise<void>;
  /** Empties the retained state of every lamp and gateway of this fleet (test clean-up). */
  clearRetained(): Promise<void>;
  /** Disconnects cleanly: no Last Will fires, retained states stay as they were unless `clearRetained`. */
  stop(options?: { clearRetained?: boolean }): Promise<void>;
}

const INDIVIDUAL_CONNECTION_LIMIT = 500;
const OFFLINE: OfflineStateMessage = { online: false };
const OFFLINE_PAYLOAD = JSON.stringify(OFFLINE);
const FAULT_CODES = new Set<number>(Object.values(FaultCode).filter((v): v is number => typeof v === 'number'));

class SimGateway {
  client!: MqttClient;
  readonly lamps: SimLamp[] = [];
  constructor(readonly id: string) {}

  get stateTopic(): string {
    return mqttTopics.of(DeviceFamily.LampGateway, this.id, MqttChannel.State);
  }
}

class SimLamp {
  readonly faults = new Set<FaultCode>();
  readonly recent = new RecentResults();
  online = true;
  /** Its own connection, when `individual`. */
  client?: MqttClient;
  applied = 0;
  /** The schedule it holds, once one was distributed to it. */
  runner?: ScheduleRunner;
  /** The level its schedule last gave: the lamp follows the schedule when that changes, so a manual command holds until then. */
  scheduledLevel?: DimmingLevel;
  private litMs = 0;
  private litSince?: number;

  constructor(
    readonly code: string,
    readonly gateway: SimGateway,
    readonly individual: boolean,
    readonly profile: LampProfile,
    private readonly baseHours: number,
    private current: LampSetting,
    now: number,
  ) {
    if (current.on) this.litSince = now;
  }

  topic(channel: MqttChannel): string {
    return mqttTopics.of(DeviceFamily.Lamp, this.code, channel);
  }

  /** The connection the lamp speaks through, if it can speak at all. */
  get link(): MqttClient | undefined {
    if (!this.online) return undefined;
    return this.individual ? this.client : this.gateway.client;
  }

  get setting(): LampSetting {
    return this.current;
  }

  set(next: LampSetting, now: number): void {
    if (this.litSince !== undefined) this.litMs += now - this.litSince;
    this.litSince = next.on ? now : undefined;
    this.current = next;
  }

  hours(now: number): number {
    const lit = this.litMs + (this.litSince !== undefined ? now - this.litSince : 0);
    return Math.floor(this.baseHours + lit / 3_600_000);
  }
}

function zeroStats(): FleetStats {
  return {
    commandsReceived: 0,
    commandsApplied: 0,
    duplicatesIgnored: 0,
    commandsRejected: 0,
    commandsExpired: 0,
    commandsFailed: 0,
    commandsUnreadable: 0,
    commandsLostOffline: 0,
    acksSent: 0,
    statesSent: 0,
    telemetrySent: 0,
    eventsSent: 0,
    publishErrors: 0,
  };
}

function waitForConnect(client: MqttClient, timeoutMs: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      client.off('connect', onConnect);
      client.off('error', done);
      if (err) reject(err);
      else resolve();
    };
    const onConnect = () => done();
    const timer = setTimeout(() => done(new Error(`${what}: no connection to the MQTT broker within ${timeoutMs} ms`)), timeoutMs);
    client.once('connect', onConnect);
    client.once('error', done);
  });
}

/** Width of one telemetry slot (see startTelemetry). */
const TELEMETRY_SLOT_MS = 20;

class SimFleet implements Fleet {
  readonly codes: string[] = [];
  readonly gatewayIds: string[];
  private readonly counters = zeroStats();
  private readonly lamps = new Map<string, SimLamp>();
  private readonly gateways: SimGateway[] = [];
  /** Acks waiting out their latency, cancelled on stop. */
  private readonly pending = new Set<NodeJS.Timeout>();
  private telemetryTimer?: NodeJS.Timeout;
  private scheduleTimer?: NodeJS.Timeout;
  private radarClient?: MqttClient;
  private readonly clock: SimClock;
  private stopping = false;
  private stopped?: Promise<void>;
  private readonly random: Random;
  private readonly logger: Logger;
  private readonly mqttUrl: string;
  private readonly latency: { min: number; max: number };
  private readonly versions: { hardwareVersion: string; softwareVersion: string };

  constructor(
    private readonly options: FleetOptions,
    seeds: readonly LampSeed[],
    defaultGatewayPrefix: string,
  ) {
    this.random = options.random ?? Math.random;
    this.logger = options.logger ?? pino({ level: process.env.LOG_LEVEL ?? 'info', base: { service: 'device-sim' } });
    this.mqttUrl = options.mqttUrl ?? 'mqtt://127.0.0.1:1883';
    const { min = 50, max = 300 } = options.ackLatencyMs ?? {};
    this.latency = { min: Math.max(0, min), max: Math.max(min, max) };
    this.clock = new SimClock(options.clock?.start ?? null, options.clock?.speed ?? 1);
    this.versions = { hardwareVersion: options.hardwareVersion ?? 'SL-100W-B2', softwareVersion: options.softwareVersion ?? '2.4.1' };

    const plan = planFleet(seeds, options.lampsPerGateway ?? 50, options.gatewayPrefix ?? defaultGatewayPrefix);
    if (plan.rejected.length > 0)
      this.logger.warn(
        { codes: plan.rejected.slice(0, 20), count: plan.rejected.length },
        'lamp codes left out: not usable as a topic level, or repeated',
      );
    const total = [...plan.gateways.values()].reduce((n, codes) => n + codes.length, 0);
    const individual = options.individualConnections ?? total <= INDIVIDUAL_CONNECTION_LIMIT;
    const offline = pickIndexes(total, Math.round(total * (options.offlineFraction ?? 0)), this.random);
    const now = Date.now();
    const schedules = new Map(
      seeds.filter((s) => s.schedule && parseSchedule(s.schedule as unknown as Record<string, unknown>)).map((s) => [s.code, s.schedule!]),
    );
    for (const [gatewayId, codes] of plan.gateways) {
      const gateway = new SimGateway(gatewayId);
      this.gateways.push(gateway);
      for (const code of codes) {
        const lamp = new SimLamp(
          code,
          gateway,
          individual,
          drawLampProfile(this.random),
          Math.floor(this.random() * 20_000),
          this.initialSetting(),
          now,
        );
        lamp.online = !offline.has(this.codes.length);
        const schedule = schedules.get(code);
        if (schedule) {
          lamp.runner = new ScheduleRunner(schedule);
          lamp.scheduledLevel = lamp.runner.levelAt(this.clock.now());
          this.applyLevel(lamp, lamp.scheduledLevel);
        }
        gateway.lamps.push(lamp);
        this.lamps.set(code, lamp);
        this.codes.push(code);
      }
    }
    this.gatewayIds = this.gateways.map((g) => g.id);
  }

  get stats(): FleetStats {
    return { ...this.counters };
  }

  async start(): Promise<void> {
    const started = Date.now();
    // Gateways first: they report the lamps that start offline.
    await Promise.all(this.gateways.map((g) => this.connectGateway(g)));
    await Promise.all([...this.lamps.values()].filter((l) => l.individual && l.online).map((l) => this.connectLamp(l)));
    const interval = this.options.telemetryIntervalMs ?? 10_000;
    if (interval > 0) this.startTelemetry(interval);
    await this.listenToRadars();
    this.scheduleTimer = setInterval(() => void this.followSchedules(), this.options.scheduleTickMs ?? 1000);
    this.logger.info(
      {
        lamps: this.lamps.size,
        gateways: this.gateways.length,
        individual: this.codes.length > 0 && this.lamps.get(this.codes[0])!.individual,
        ms: Date.now() - started,
      },
      'device-sim fleet connected',
    );
  }

  lamp(code: string): LampSnapshot | undefined {
    const lamp = this.lamps.get(code);
    if (!lamp) return undefined;
    return {
      code,
      gatewayId: lamp.gateway.id,
      individual: lamp.individual,
      online: lamp.online,
      on: lamp.setting.on,
      level: lamp.setting.level,
      faults: [...lamp.faults].sort((a, b) => a - b),
      applied: lamp.applied,
      totalIlluminationHours: lamp.hours(Date.now()),
      strategyId: lamp.runner?.schedule.strategyId ?? null,
    };
  }

  now(): Date {
    return new Date(this.clock.now());
  }

  async setClock(at: Date, speed?: number): Promise<void> {
    this.clock.set(at, speed);
    await this.followSchedules();
  }

  /** Each scheduled lamp whose schedule now gives another level than last time takes it and reports it. */
  private followSchedules(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    const now = this.clock.now();
    const reports: Promise<void>[] = [];
    for (const lamp of this.lamps.values()) {
      if (!lamp.runner || !lamp.online) continue;
      const level = lamp.runner.levelAt(now);
      if (level === lamp.scheduledLevel) continue;
      lamp.scheduledLevel = level;
      if (this.applyLevel(lamp, level)) reports.push(this.publishState(lamp));
    }
    return Promise.all(reports).then(() => undefined);
  }

  /** Drives the lamp at a level; whether that changed anything. */
  private applyLevel(lamp: SimLamp, level: DimmingLevel): boolean {
    if (lamp.setting.level === level && lamp.setting.on === level > 0) return false;
    lamp.set(level === 0 ? { ...lamp.setting, on: false, level: 0 } : { on: true, level, resumeLevel: level }, Date.now());
    return true;
  }

  /**
   * Radars publish to the broker and lamps listen directly (no platform in between): an event from a radar named in
   * a lamp's sensing schedule raises the lamp at once; the schedule tick lowers it again after the hold time.
   */
  private async listenToRadars(): Promise<void> {
    const client = mqtt.connect(this.mqttUrl, {
      clientId: `${this.gatewayIds[0] ?? 'sim'}-radar-${Math.floor(Math.random() * 1e9).toString(36)}`,
      clean: true,
      reconnectPeriod: 1000,
      connectTimeout: this.options.connectTimeoutMs ?? 10_000,
    });
    client.on('error', (err) => this.logger.warn({ err: err.message }, 'radar listener connection error'));
    client.on('message', (topic) => {
      const parsed = mqttTopics.parse(topic);
      if (parsed) this.onRadarEvent(parsed.deviceId);
    });
    this.radarClient = client;
    await waitForConnect(client, this.options.connectTimeoutMs ?? 10_000, 'radar listener');
    await client.subscribeAsync(mqttTopics.all(DeviceFamily.Radar, MqttChannel.Event), { qos: 0 });
  }

  private onRadarEvent(radarCode: string): void {
    if (this.stopping) return;
    const now = this.clock.now();
    for (const lamp of this.lamps.values()) {
      if (!lamp.runner?.listensTo(radarCode) || !lamp.online) continue;
      lamp.runner.lastRadarAt = now;
      const level = lamp.runner.levelAt(now);
      lamp.scheduledLevel = level;
      if (this.applyLevel(lamp, level)) void this.publishState(lamp);
    }
  }

  async raiseFault(code: string, fault: FaultCode): Promise<void> {
    await this.setFault(code, fault, true);
  }

  async clearFault(code: string, fault: FaultCode): Promise<void> {
    await this.setFault(code, fault, false);
  }

  async takeOffline(code: string): Promise<void> {
    const lamp = this.mustGet(code);
    if (!lamp.online) return;
    lamp.online = false;
    if (lamp.individual) {
      const client = lamp.client;
      lamp.client = undefined;
      // Forced end: the socket closes without DISCONNECT, so the broker publishes the lamp's Last Will.
      if (client) await client.endAsync(true);
    } else {
      // A connection shared by many lamps has one Will only: the gateway reports its lamp gone instead.
      await this.publish(lamp.gateway.client, lamp.topic(MqttChannel.State), OFFLINE_PAYLOAD, 1, true, 'statesSent');
    }
  }

  async bringOnline(code: string): Promise<void> {
    const lamp = this.mustGet(code);
    if (lamp.online) return;
    lamp.online = true;
    if (lamp.individual) await this.connectLamp(lamp);
    else await this.publishState(lamp);
  }

  async clearRetained(): Promise<void> {
    const writes: Promise<void>[] = [];
    for (const gateway of this.gateways) {
      writes.push(this.publish(gateway.client, gateway.stateTopic, '', 1, true));
      for (const lamp of gateway.lamps) writes.push(this.publish(gateway.client, lamp.topic(MqttChannel.State), '', 1, true));
    }
    await Promise.all(writes);
  }

  stop(options: { clearRetained?: boolean } = {}): Promise<void> {
    this.stopped ??= this.shutdown(options.clearRetained ?? false);
    return this.stopped;
  }

  private async shutdown(clearRetained: boolean): Promise<void> {
    this.stopping = true;
    clearInterval(this.telemetryTimer);
    clearInterval(this.scheduleTimer);
    await this.radarClient?.endAsync().catch(() => undefined);
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
    if (clearRetained) await this.clearRetained();
    const clients = [...this.gateways.map((g) => g.client), ...[...this.lamps.values()].map((l) => l.client)].filter((c): c is MqttClient => !!c);
    // A clean DISCONNECT: the broker discards the Wills, so the retained states say what the devices last reported.
    await Promise.all(clients.map((c) => c.endAsync(!c.connected).catch(() => undefined)));
    this.logger.info({ ...this.counters }, 'device-sim fleet stopped');
  }

  private initialSetting(): LampSetting {
    const levels = DIMMING_LEVELS.filter((l) => l > 0) as Exclude<DimmingLevel, 0>[];
    const resumeLevel = levels[Math.floor(this.random() * levels.length)];
    return this.random() < 0.5 ? { on: true, level: resumeLevel, resumeLevel } : { on: false, level: 0, resumeLevel };
  }

  private mustGet(code: string): SimLamp {
    const lamp = this.lamps.get(code);
    if (!lamp) throw new Error(`device-sim: no simulated lamp ${code}`);
    return lamp;
  }

  private createClient(clientId: string, willTopic: string): MqttClient {
    const client = mqtt.connect(this.mqttUrl, {
      clientId,
      clean: true,
      keepalive: 30,
      reconnectPeriod: 1000,
      connectTimeout: this.options.connectTimeoutMs ?? 10_000,
      // Subscriptions are renewed by our own reconnect handlers, together with the state announcement.
      resubscribe: false,
      will: { topic: willTopic, payload: Buffer.from(OFFLINE_PAYLOAD), qos: 1, retain: true },
    });
    client.on('error', (err) => this.logger.warn({ clientId, err: err.message }, 'MQTT connection error'));
    return client;
  }

  private async connectGateway(gateway: SimGateway): Promise<void> {
    const client = this.createClient(gateway.id, gateway.stateTopic);
    gateway.client = client;
    client.on('message', (topic, payload) => {
      const parsed = mqttTopics.parse(topic);
      const lamp = parsed ? this.lamps.get(parsed.deviceId) : undefined;
      if (lamp && lamp.gateway === gateway && !lamp.individual) this.handleCommand(lamp, payload);
    });
    await waitForConnect(client, this.options.connectTimeoutMs ?? 10_000, `gateway ${gateway.id}`);
    await this.announceGateway(gateway);
    client.on(
      'connect',
      () =>
        void this.announceGateway(gateway).catch((err: Error) =>
          this.logger.warn({ gateway: gateway.id, err: err.message }, 'gateway re-announce failed'),
        ),
    );
  }

  /** Subscribes to its multiplexed lamps' commands and reports itself and every lamp it speaks for. */
  private async announceGateway(gateway: SimGateway): Promise<void> {
    const client = gateway.client;
    const multiplexed = gateway.lamps.filter((l) => !l.individual);
    if (multiplexed.length > 0)
      await client.subscribeAsync(
        multiplexed.map((l) => l.topic(MqttChannel.Cmd)),
        { qos: 1 },
      );
    const gatewayState = { online: true, lamps: gateway.lamps.length, ...this.versions };
    const writes = [this.publish(client, gateway.stateTopic, JSON.stringify(gatewayState), 1, true)];
    for (const lamp of gateway.lamps) {
      if (!lamp.online) writes.push(this.publish(client, lamp.topic(MqttChannel.State), OFFLINE_PAYLOAD, 1, true, 'statesSent'));
      else if (!lamp.individual) writes.push(this.publishState(lamp));
    }
    await Promise.all(writes);
  }

  private async connectLamp(lamp: SimLamp): Promise<void> {
    const client = this.createClient(lamp.code, lamp.topic(MqttChannel.State));
    lamp.client = client;
    client.on('message', (_topic, payload) => this.handleCommand(lamp, payload));
    await waitForConnect(client, this.options.connectTimeoutMs ?? 10_000, `lamp ${lamp.code}`);
    const announce = async () => {
      await client.subscribeAsync(lamp.topic(MqttChannel.Cmd), { qos: 1 });
      await this.publishState(lamp);
    };
    await announce();
    // After a broker restart the Will has fired: say the lamp is back.
    client.on(
      'connect',
      () => void announce().catch((err: Error) => this.logger.warn({ lamp: lamp.code, err: err.message }, 'lamp re-announce failed')),
    );
  }

  private handleCommand(lamp: SimLamp, payload: Buffer): void {
    if (this.stopping) return;
    if (!lamp.online) {
      this.counters.commandsLostOffline++;
      return;
    }
    this.counters.commandsReceived++;
    const parsed = parseLampCommand(payload);
    if (parsed.kind === 'unreadable') {
      this.counters.commandsUnreadable++;
      this.logger.debug({ lamp: lamp.code }, 'command without a readable id dropped');
      return;
    }
    const id = parsed.kind === 'command' ? parsed.command.id : parsed.id;
    const now = Date.now();
    const earlier = lamp.recent.get(id);
    if (earlier) {
      this.counters.duplicatesIgnored++;
      this.answerLater(lamp, earlier, false);
      return;
    }
    let ack: AckMessage;
    let keepUntil = now + 60_000;
    if (parsed.kind === 'invalid') {
      this.counters.commandsRejected++;
      ack = { id, ok: false, error: BAD_COMMAND };
    } else if (parsed.expiresAtMs <= now) {
      this.counters.commandsExpired++;
      ack = { id, ok: false, error: EXPIRED };
    } else if (this.random() < (this.options.failureRate ?? 0)) {
      this.counters.commandsFailed++;
      ack = { id, ok: false, error: DRIVER_FAULT };
      keepUntil = parsed.expiresAtMs;
    } else {
      if (parsed.command.type === 'schedule') {
        // The lamp keeps the schedule and runs it by its own clock from now on.
        lamp.runner = new ScheduleRunner(parsed.command.params);
        lamp.scheduledLevel = lamp.runner.levelAt(this.clock.now());
        this.applyLevel(lamp, lamp.scheduledLevel);
      } else lamp.set(applyLampCommand(lamp.setting, parsed.command), now);
      lamp.applied++;
      this.counters.commandsApplied++;
      ack = { id, ok: true };
      keepUntil = parsed.expiresAtMs;
    }
    lamp.recent.remember(ack, keepUntil, now);
    this.answerLater(lamp, ack, ack.ok);
  }

  /** The ack after the configured latency, then (when something changed) the new retained state. */
  private answerLater(lamp: SimLamp, ack: AckMessage, stateChanged: boolean): void {
    const delay = this.latency.min + this.random() * (this.latency.max - this.latency.min);
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      const link = lamp.link;
      if (this.stopping || !link) return;
      void this.publish(link, lamp.topic(MqttChannel.Ack), JSON.stringify(ack), 1, false, 'acksSent');
      if (stateChanged) void this.publishState(lamp);
    }, delay);
    this.pending.add(timer);
  }

  private publishState(lamp: SimLamp): Promise<void> {
    const state: LampStateMessage = {
      online: true,
      on: lamp.setting.on,
      level: lamp.setting.level,
      gatewayId: lamp.gateway.id,
      ...this.versions,
      totalIlluminationHours: lamp.hours(Date.now()),
    };
    return this.publish(lamp.link, lamp.topic(MqttChannel.State), JSON.stringify(state), 1, true, 'statesSent');
  }

  private async setFault(code: string, fault: FaultCode, active: boolean): Promise<void> {
    if (!FAULT_CODES.has(fault)) throw new Error(`device-sim: ${fault} is not a fault code`);
    const lamp = this.mustGet(code);
    if (active) lamp.faults.add(fault);
    else lamp.faults.delete(fault);
    const event: DeviceEventMessage = { ts: new Date().toISOString(), code: fault, active };
    await this.publish(lamp.link, lamp.topic(MqttChannel.Event), JSON.stringify(event), 1, false, 'eventsSent');
  }

  /**
   * Lamps are spread over 20 ms slots of one period, so readings arrive evenly, as from real lamps whose clocks are
   * not in step, instead of in a few bursts per period.
   */
  private startTelemetry(intervalMs: number): void {
    const tick = Math.min(TELEMETRY_SLOT_MS, intervalMs);
    const slots = Math.max(1, Math.round(intervalMs / tick));
    const buckets: SimLamp[][] = Array.from({ length: slots }, () => []);
    [...this.lamps.values()].forEach((lamp, i) => buckets[i % slots].push(lamp));
    const qos = this.options.telemetryQos ?? 1;
    let n = 0;
    this.telemetryTimer = setInterval(() => {
      const now = new Date();
      for (const lamp of buckets[n++ % slots]) {
        const link = lamp.link;
        if (!link) continue;
        const reading = readTelemetry(lamp.profile, lamp.setting, lamp.faults, now, this.random);
        void this.publish(link, lamp.topic(MqttChannel.Telemetry), JSON.stringify(reading), qos, false, 'telemetrySent');
      }
    }, tick);
  }

  /** Never rejects: a failed publish is counted and logged, and the simulation goes on. */
  private publish(
    client: MqttClient | undefined,
    topic: string,
    body: string,
    qos: 0 | 1,
    retain: boolean,
    counter?: keyof FleetStats,
  ): Promise<void> {
    if (!client) return Promise.resolve();
    return client.publishAsync(topic, body, { qos, retain }).then(
      () => {
        if (counter) this.counters[counter]++;
      },
      (err: Error) => {
        this.counters.publishErrors++;
        this.logger.debug({ topic, err: err.message }, 'publish failed');
      },
    );
  }
}

async function resolveSeeds(source: LampSource): Promise<{ seeds: LampSeed[]; gatewayPrefix: string }> {
  if ('databaseUrl' in source) return { seeds: await loadLampsFromDatabase(source.databaseUrl), gatewayPrefix: 'GW-' };
  if ('count' in source) {
    const prefix = source.prefix ?? 'LAMP-';
    return { seeds: generateLampCodes(source.count, prefix).map((code) => ({ code })), gatewayPrefix: `${prefix}GW-` };
  }
  return { seeds: source.map((s) => (typeof s === 'string' ? { code: s } : s)), gatewayPrefix: 'GW-' };
}

/** Connects every gateway and lamp, publishes their retained states, and starts telemetry. */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const { seeds, gatewayPrefix } = await resolveSeeds(options.lamps);
  const fleet = new SimFleet(options, seeds, gatewayPrefix);
  try {
    await fleet.start();
  } catch (err) {
    await fleet.stop();
    throw err;
  }
  return fleet;
}
