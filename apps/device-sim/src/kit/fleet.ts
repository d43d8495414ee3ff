import {
  FaultCode,
  MqttChannel,
  MqttService,
  mqttUsernames,
  type DeviceFamily,
  mqttTopics,
  type AckMessage,
  type ReceiptMessage,
  type CommandMessage,
  type DeviceEventMessage,
  type OfflineStateMessage,
} from '@sc/contracts';
import { BrokerAccessDir, speaksForRules, waitForMqttLogin, type BrokerAccount } from '@sc/messaging/broker-access';
import { derivedMqttPassword, isLoginRefused, type MqttLogin } from '@sc/messaging/mqtt-login';
import mqtt, { type MqttClient } from 'mqtt';
import pino, { type Logger } from 'pino';
import { SimClock } from './clock';
import { BAD_COMMAND, CommandReader, DRIVER_FAULT, EXPIRED, RecentResults } from './commands';
import type { DownloadStats } from './downloads';
import type { DeviceContext, DeviceInfo, FamilyContext, Random, SimulatedFamily } from './family';
import { pickIndexes, planFleet, type DeviceSeed } from './plan';

/** The settings every simulated family takes. */
export interface SimulationOptions {
  /** Default mqtt://127.0.0.1:1883. */
  mqttUrl?: string;
  /**
   * Where the devices connect, when the broker has a listener of their own (MQTT_DEVICE_URL: there a client's id is
   * its username, so no device can push another off). Default `mqttUrl`. The simulator's own service connection stays
   * on `mqttUrl`.
   */
  deviceMqttUrl?: string;
  /** Time from receiving a command to acking it, drawn uniformly. Default 50–300 ms. */
  ackLatencyMs?: { min: number; max: number };
  /** Fraction of valid, live commands answered ok:false 'driver fault'. Default 0. */
  failureRate?: number;
  /** Fraction of devices that start offline (reported offline by their gateway, never answering). Default 0. */
  offlineFraction?: number;
  /** Telemetry period per device; 0 turns telemetry off. Default 10 000 ms. */
  telemetryIntervalMs?: number;
  /** Default 1, so an intake benchmark can account for every reading. */
  telemetryQos?: 0 | 1;
  /**
   * Changes the devices make by themselves, per second over the whole fleet (the family's `act`: terminals start and
   * end programmes), the online devices taking turns, spread over 20 ms slots. Default 0: none.
   */
  activityPerSecond?: number;
  /** Heartbeat period of the devices and their gateways; default each family's declared heartbeat (heartbeatSeconds). */
  heartbeatMs?: number;
  /**
   * One MQTT connection per device (a real Last Will per device) instead of one per gateway. Default: on for fleets
   * of at most 500 devices, off above, where per-device sockets would cost more than the simulation itself.
   */
  individualConnections?: boolean;
  /** Source of every random draw, so tests can make behaviour deterministic. */
  random?: Random;
  logger?: Logger;
  /** How long start-up waits for each connection. Default 10 s. */
  connectTimeoutMs?: number;
  /** How often (real milliseconds) devices look at their clock for their schedules. Default 1000. */
  scheduleTickMs?: number;
  /**
   * The installation's credential secret: each device and gateway logs in with its own account (`{family}/{code}`),
   * its password derived from it as the platform derives it. Default MQTT_CREDENTIAL_SECRET; none (anonymous) when unset.
   */
  credentialSecret?: string;
  /**
   * The broker's access directory (default MQTT_BROKER_ACCESS_DIR, with MQTT_BROKER_PID_FILE): the fleet grants there
   * the accounts it invents (its generated gateways, every device of a fleet that is not the registry's, its own
   * listener) and takes them back when it stops. The registry's devices and gateways get theirs from the platform.
   */
  brokerAccess?: { dir: string; pidFile?: string };
}

export interface RunnerOptions extends SimulationOptions {
  /** Devices per generated gateway (devices whose record names a gateway stay with it). */
  devicesPerGateway: number;
  /** Prefix of generated gateway ids, which are also MQTT client ids. */
  gatewayPrefix: string;
  /** A start time (default now) and a speed (default 1), or a clock the caller moves itself. */
  clock?: { start?: Date; speed?: number } | (() => Date);
  /** The devices are the registry's (loaded from its database): the platform made their accounts. */
  registered?: boolean;
}

export interface FleetStats {
  /** Commands that reached a live device, duplicates included. */
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
  /** Commands for devices that are offline behind a live gateway: lost, as on the street. */
  commandsLostOffline: number;
  acksSent: number;
  /** Receipts of commands that name files to fetch: received, then downloading as the files come in. */
  receiptsSent: number;
  statesSent: number;
  telemetrySent: number;
  eventsSent: number;
  /** States reported after a change of the device's own (SimulationOptions.activityPerSecond), taken by the broker. */
  changesSent: number;
  publishErrors: number;
}

/** What every simulated fleet offers its caller, whatever the family. */
export interface DeviceFleet {
  readonly codes: readonly string[];
  readonly gatewayIds: readonly string[];
  /** A copy of the counters (with the downloads' of a family that fetches files). */
  readonly stats: FleetStats & Partial<DownloadStats>;
  raiseFault(code: string, fault: FaultCode): Promise<void>;
  clearFault(code: string, fault: FaultCode): Promise<void>;
  /** Drops the device: its own connection ends without DISCONNECT (the broker publishes its Last Will); a multiplexed one is reported offline by its gateway. */
  takeOffline(code: string): Promise<void>;
  bringOnline(code: string): Promise<void>;
  /** The simulated time now. */
  now(): Date;
  /**
   * Moves the simulated clock (and optionally its speed); every device then applies what its schedule says at that
   * time, and the returned promise waits until their new states are published.
   */
  setClock(at: Date, speed?: number): Promise<void>;
  /** Empties the retained state of every device and gateway of this fleet (test clean-up). */
  clearRetained(): Promise<void>;
  /**
   * Sets the rate of the devices' own changes (SimulationOptions.activityPerSecond; 0 stops them); throws for a family
   * whose devices change nothing by themselves.
   */
  setActivity(perSecond: number): void;
  /** Disconnects cleanly: no Last Will fires, retained states stay as they were unless `clearRetained`. */
  stop(options?: { clearRetained?: boolean }): Promise<void>;
}

/** One device as the fleet holds it; `state` is the family's, live. */
export interface DeviceView<State> extends DeviceInfo {
  /** Whether the device has its own MQTT connection (and so its own Last Will). */
  readonly individual: boolean;
  readonly online: boolean;
  /** Active faults, in code order. */
  readonly faults: FaultCode[];
  /** Commands applied so far (never more than once per id). */
  readonly applied: number;
  readonly state: Readonly<State>;
}

const INDIVIDUAL_CONNECTION_LIMIT = 500;
const OFFLINE: OfflineStateMessage = { online: false };
const OFFLINE_PAYLOAD = JSON.stringify(OFFLINE);
const FAULT_CODES = new Set<number>(Object.values(FaultCode).filter((v): v is number => typeof v === 'number'));
/** Width of one telemetry slot (see startTelemetry). */
const TELEMETRY_SLOT_MS = 20;

/**
 * Calls `each` for every item once per `periodMs`, the items spread over 20 ms slots of the period (round robin), so
 * a fleet's messages arrive evenly rather than in one burst per period.
 */
function spreadOverPeriod<T>(items: readonly T[], periodMs: number, each: (item: T, now: Date) => void): NodeJS.Timeout {
  const tick = Math.min(TELEMETRY_SLOT_MS, periodMs);
  const slots = Math.max(1, Math.round(periodMs / tick));
  const buckets: T[][] = Array.from({ length: slots }, () => []);
  items.forEach((item, i) => buckets[i % slots].push(item));
  let n = 0;
  return setInterval(() => {
    const now = new Date();
    for (const item of buckets[n++ % slots]) each(item, now);
  }, tick);
}

class SimGateway<State> {
  client!: MqttClient;
  readonly devices: SimDevice<State>[] = [];

  constructor(
    readonly id: string,
    readonly stateTopic: string,
    /** Generated by the simulator (no device record names it). */
    readonly generated: boolean,
    readonly generation: number,
  ) {}
}

class SimDevice<State> implements DeviceInfo {
  readonly faults = new Set<FaultCode>();
  readonly recent = new RecentResults();
  online = true;
  /** Commands it is fetching the files of (a family's apply answered a promise), by id: the last receipt it sent. */
  readonly fetching = new Map<string, ReceiptMessage['receipt']>();
  /** Its own connection, when `individual`. */
  client?: MqttClient;
  applied = 0;

  constructor(
    readonly code: string,
    readonly gateway: SimGateway<State>,
    readonly individual: boolean,
    readonly family: DeviceFamily,
    readonly state: State,
    readonly generation: number,
  ) {}

  get gatewayId(): string {
    return this.gateway.id;
  }

  topic(channel: MqttChannel): string {
    return mqttTopics.of(this.family, this.code, channel);
  }

  /** The connection the device speaks through, if it can speak at all. */
  get link(): MqttClient | undefined {
    if (!this.online) return undefined;
    return this.individual ? this.client : this.gateway.client;
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
    receiptsSent: 0,
    statesSent: 0,
    telemetrySent: 0,
    eventsSent: 0,
    changesSent: 0,
    publishErrors: 0,
  };
}

/**
 * Waits for the first connection. A refused login does not stop the fleet: that device (an unregistered or deleted
 * one) stays off the broker and keeps trying, as a real one would, while the others go on.
 */
function waitForConnect(client: MqttClient, timeoutMs: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      client.off('connect', onConnect);
      client.off('error', done);
      if (err && !isLoginRefused(err)) reject(err);
      else resolve();
    };
    const onConnect = () => done();
    const timer = setTimeout(() => done(new Error(`${what}: no connection to the MQTT broker within ${timeoutMs} ms`)), timeoutMs);
    client.once('connect', onConnect);
    client.once('error', done);
  });
}

/**
 * The fleet runner every simulated family shares: its devices over their gateways, their MQTT connections, command
 * handling, faults, telemetry and schedule ticks. A family's fleet extends it with its own snapshot (`lamp(code)`).
 */
export class FleetRunner<State, C extends CommandMessage = CommandMessage, Heard = unknown> implements DeviceFleet {
  readonly codes: string[] = [];
  readonly gatewayIds: string[];
  private readonly counters = zeroStats();
  private readonly devices = new Map<string, SimDevice<State>>();
  private readonly gateways: SimGateway<State>[] = [];
  /** Acks waiting out their latency and other delayed changes, cancelled on stop. */
  private readonly pending = new Set<NodeJS.Timeout>();
  private telemetryTimer?: NodeJS.Timeout;
  private readonly heartbeatTimers: NodeJS.Timeout[] = [];
  private scheduleTimer?: NodeJS.Timeout;
  private activityTimer?: NodeJS.Timeout;
  /** The device whose turn it is next (the turns go on across rate changes). */
  private activityNext = 0;
  private listener?: MqttClient;
  private readonly clock: SimClock;
  private readonly reader: CommandReader<C>;
  private readonly context: FamilyContext;
  private stopping = false;
  private stopped?: Promise<void>;
  private readonly random: Random;
  private readonly logger: Logger;
  private readonly mqttUrl: string;
  private readonly deviceMqttUrl: string;
  private readonly latency: { min: number; max: number };
  private readonly connectTimeoutMs: number;
  private readonly secret?: string;
  private readonly access?: BrokerAccessDir;
  private readonly fragment: string;
  private granted = false;

  constructor(
    private readonly family: SimulatedFamily<State, C, Heard>,
    private readonly options: RunnerOptions,
    seeds: readonly DeviceSeed[],
  ) {
    this.random = options.random ?? Math.random;
    this.logger = options.logger ?? pino({ level: process.env.LOG_LEVEL ?? 'info', base: { service: 'device-sim' } });
    this.mqttUrl = options.mqttUrl ?? 'mqtt://127.0.0.1:1883';
    this.deviceMqttUrl = options.deviceMqttUrl ?? this.mqttUrl;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.secret = options.credentialSecret ?? (process.env.MQTT_CREDENTIAL_SECRET || undefined);
    const access =
      options.brokerAccess ??
      (process.env.MQTT_BROKER_ACCESS_DIR ? { dir: process.env.MQTT_BROKER_ACCESS_DIR, pidFile: process.env.MQTT_BROKER_PID_FILE } : undefined);
    if (access && this.secret) this.access = new BrokerAccessDir(access.dir, { pidFile: access.pidFile });
    // `dev-…`: ahead of the platform's fragments in the merge, so the devices a simulator plays log in with the
    // passwords it derives, whatever generation the registry holds for a code it was given (a development broker only).
    this.fragment = `dev-sim-${process.pid}-${family.declaration.family}-${options.gatewayPrefix}-${Math.random().toString(36).slice(2, 8)}`;
    const { min = 50, max = 300 } = options.ackLatencyMs ?? {};
    this.latency = { min: Math.max(0, min), max: Math.max(min, max) };
    const clock = options.clock;
    this.clock = typeof clock === 'function' ? new SimClock(null, 1, clock) : new SimClock(clock?.start ?? null, clock?.speed ?? 1);
    this.reader = new CommandReader<C>(family.declaration, family.accepts?.bind(family));
    this.context = { random: this.random, clock: () => this.clock.now() };

    const plan = planFleet(seeds, options.devicesPerGateway, options.gatewayPrefix);
    if (plan.rejected.length > 0)
      this.logger.warn(
        { family: family.declaration.family, codes: plan.rejected.slice(0, 20), count: plan.rejected.length },
        'device codes left out: not usable as a topic level, or repeated',
      );
    const seedOf = new Map<string, DeviceSeed>();
    for (const seed of seeds) if (!seedOf.has(seed.code)) seedOf.set(seed.code, seed);
    const total = [...plan.gateways.values()].reduce((n, codes) => n + codes.length, 0);
    // Devices without gateways have connections of their own.
    const individual = !family.gateway || (options.individualConnections ?? total <= INDIVIDUAL_CONNECTION_LIMIT);
    const offline = pickIndexes(total, Math.round(total * (options.offlineFraction ?? 0)), this.random);
    // Gateways with a record of their own log in with the platform's account; any other (generated here, or named by
    // a light but never recorded) is the simulator's to grant.
    const named = new Map<string, number>();
    for (const seed of seeds) if (seed.gatewayId && seed.gatewayGeneration !== undefined) named.set(seed.gatewayId, seed.gatewayGeneration);
    for (const [gatewayId, codes] of plan.gateways) {
      const gateway = new SimGateway<State>(
        gatewayId,
        family.gateway ? mqttTopics.of(family.gateway.declaration.family, gatewayId, MqttChannel.State) : '',
        !named.has(gatewayId),
        named.get(gatewayId) ?? 1,
      );
      this.gateways.push(gateway);
      for (const code of codes) {
        const device = new SimDevice(
          code,
          gateway,
          individual,
          family.declaration.family,
          family.initial(this.seedFor(seedOf.get(code)!), this.context),
          seedOf.get(code)!.generation ?? 1,
        );
        device.online = !offline.has(this.codes.length);
        gateway.devices.push(device);
        this.devices.set(code, device);
        this.codes.push(code);
      }
    }
    this.gatewayIds = this.gateways.map((g) => g.id);
  }

  get stats(): FleetStats & Partial<DownloadStats> {
    return { ...this.counters, ...this.family.downloads?.() };
  }

  /** Connects every gateway and device, publishes their retained states, and starts telemetry and ticks. */
  async run(): Promise<this> {
    try {
      await this.start();
    } catch (err) {
      await this.stop();
      throw err;
    }
    return this;
  }

  private async start(): Promise<void> {
    const started = Date.now();
    await this.grantAccounts();
    // Gateways first: they report the devices that start offline.
    if (this.family.gateway) await Promise.all(this.gateways.map((g) => this.connectGateway(g)));
    await Promise.all([...this.devices.values()].filter((d) => d.individual && d.online).map((d) => this.connectDevice(d)));
    const interval = this.options.telemetryIntervalMs ?? 10_000;
    const telemetry = this.family.telemetry ? interval : 0;
    if (telemetry > 0) this.startTelemetry(telemetry);
    this.startHeartbeats(telemetry);
    if (this.options.activityPerSecond) this.setActivity(this.options.activityPerSecond);
    await this.listen();
    if (this.family.tick) this.scheduleTimer = setInterval(() => void this.tick(), this.options.scheduleTickMs ?? 1000);
    this.logger.info(
      {
        family: this.family.declaration.family,
        devices: this.devices.size,
        gateways: this.gateways.length,
        individual: this.codes.length > 0 && this.devices.get(this.codes[0])!.individual,
        ms: Date.now() - started,
      },
      'device-sim fleet connected',
    );
  }

  device(code: string): DeviceView<State> | undefined {
    const d = this.devices.get(code);
    if (!d) return undefined;
    return {
      code,
      gatewayId: d.gateway.id,
      individual: d.individual,
      online: d.online,
      faults: [...d.faults].sort((a, b) => a - b),
      applied: d.applied,
      state: d.state,
    };
  }

  now(): Date {
    return new Date(this.clock.now());
  }

  async setClock(at: Date, speed?: number): Promise<void> {
    this.clock.set(at, speed);
    await this.tick();
  }

  async raiseFault(code: string, fault: FaultCode): Promise<void> {
    await this.setFault(code, fault, true);
  }

  async clearFault(code: string, fault: FaultCode): Promise<void> {
    await this.setFault(code, fault, false);
  }

  async takeOffline(code: string): Promise<void> {
    const device = this.mustGet(code);
    if (!device.online) return;
    device.online = false;
    if (device.individual) {
      const client = device.client;
      device.client = undefined;
      // Forced end: the socket closes without DISCONNECT, so the broker publishes the device's Last Will.
      if (client) await client.endAsync(true);
    } else {
      // A connection shared by many devices has one Will only: the gateway reports its device gone instead.
      await this.publish(device.gateway.client, device.topic(MqttChannel.State), OFFLINE_PAYLOAD, 1, true, 'statesSent');
    }
  }

  async bringOnline(code: string): Promise<void> {
    const device = this.mustGet(code);
    if (device.online) return;
    device.online = true;
    if (device.individual) await this.connectDevice(device);
    else await this.announce(device);
  }

  /**
   * The devices' own changes (the family's `act`), `perSecond` over the fleet: every 20 ms slot asks as many online
   * devices as the time since the last slot owes, in turn, so each device changes at most once per round of the fleet
   * and a late timer catches up (at most one second's worth at once).
   */
  setActivity(perSecond: number): void {
    const act = this.family.act?.bind(this.family);
    if (!act) throw new Error(`device-sim: ${this.family.declaration.family} devices change nothing by themselves`);
    if (!(perSecond >= 0)) throw new Error(`device-sim: an activity rate is a number from 0, not ${perSecond}`);
    clearInterval(this.activityTimer);
    this.activityTimer = undefined;
    if (perSecond === 0 || this.stopping) return;
    const devices = [...this.devices.values()];
    let owed = 0;
    let last = performance.now();
    this.activityTimer = setInterval(() => {
      const now = performance.now();
      owed = Math.min(owed + (perSecond * (now - last)) / 1000, Math.max(1, perSecond));
      last = now;
      for (let asked = 0; owed >= 1 && asked < devices.length; asked++) {
        const device = devices[this.activityNext];
        this.activityNext = (this.activityNext + 1) % devices.length;
        if (!device.online) continue;
        owed--;
        if (act(device.state, this.context)) void this.publishState(device, 'changesSent');
        // What the change gathered for the `event` topic (an alarm column's press) goes out now, not at a tick that a
        // family without a schedule never has.
        void this.publishEvents(device);
      }
    }, TELEMETRY_SLOT_MS);
  }

  async clearRetained(): Promise<void> {
    const writes: Promise<void>[] = [];
    for (const gateway of this.gateways) {
      if (gateway.client) writes.push(this.publish(gateway.client, gateway.stateTopic, '', 1, true));
      // Without a gateway, a device clears its own (an offline one has no connection to do it with).
      for (const device of gateway.devices) writes.push(this.publish(gateway.client ?? device.client, device.topic(MqttChannel.State), '', 1, true));
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
    for (const timer of this.heartbeatTimers) clearInterval(timer);
    clearInterval(this.scheduleTimer);
    clearInterval(this.activityTimer);
    await this.listener?.endAsync().catch(() => undefined);
    await this.family.stopped?.().catch(() => undefined);
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
    if (clearRetained) await this.clearRetained();
    const clients = [...this.gateways.map((g) => g.client), ...[...this.devices.values()].map((d) => d.client)].filter((c): c is MqttClient => !!c);
    // A clean DISCONNECT: the broker discards the Wills, so the retained states say what the devices last reported.
    await Promise.all(clients.map((c) => c.endAsync(!c.connected).catch(() => undefined)));
    if (this.granted) await this.access?.remove(this.fragment).catch(() => undefined);
    // How many devices applied how many commands: a benchmark checks that each applied each command once.
    const appliedPerDevice: Record<number, number> = {};
    for (const device of this.devices.values()) appliedPerDevice[device.applied] = (appliedPerDevice[device.applied] ?? 0) + 1;
    this.logger.info({ family: this.family.declaration.family, ...this.stats, appliedPerDevice }, 'device-sim fleet stopped');
  }

  /** The seed as the family gets it: a stored schedule only if the device would take it as a `schedule` command. */
  private seedFor(seed: DeviceSeed): DeviceSeed {
    if (!seed.schedule || this.reader.takes('schedule', seed.schedule)) return seed;
    const { schedule: _refused, ...rest } = seed;
    return rest;
  }

  private mustGet(code: string): SimDevice<State> {
    const device = this.devices.get(code);
    if (!device) throw new Error(`device-sim: no simulated ${this.family.declaration.family} ${code}`);
    return device;
  }

  /** The login of a device or gateway account (none for an anonymous broker). */
  private login(username: string, generation: number): MqttLogin | undefined {
    return this.secret ? { username, password: derivedMqttPassword(this.secret, username, generation) } : undefined;
  }

  private gatewayLogin(gateway: SimGateway<State>): MqttLogin | undefined {
    return this.family.gateway && this.login(mqttUsernames.device(this.family.gateway.declaration.family, gateway.id), gateway.generation);
  }

  private deviceLogin(device: SimDevice<State>): MqttLogin | undefined {
    return this.login(mqttUsernames.device(device.family, device.code), device.generation);
  }

  /**
   * Grants the accounts the simulator invents (see SimulationOptions.brokerAccess) and waits until the broker takes
   * them; for the registry's devices, waits until the platform has made their accounts.
   */
  private async grantAccounts(): Promise<void> {
    if (!this.secret) return;
    const accounts: BrokerAccount[] = [];
    const rules = new Map<string, string[]>();
    const registered = this.options.registered === true;
    for (const gateway of this.gateways) {
      const login = this.gatewayLogin(gateway);
      if (login && !(registered && !gateway.generated)) {
        accounts.push(login);
        rules.set(
          login.username,
          gateway.devices.flatMap((d) => speaksForRules(d.family, d.code)),
        );
      }
      if (!registered) for (const device of gateway.devices) accounts.push(this.deviceLogin(device)!);
    }
    if (this.family.listens) accounts.push(this.login(mqttUsernames.service(MqttService.Simulator), 1)!);
    if (this.access && accounts.length > 0) {
      await this.access.write(this.fragment, { accounts, rules });
      this.granted = true;
      const access = this.access;
      // As long as for the registry's accounts below: a broker reloading a large access list answers nobody meanwhile.
      await waitForMqttLogin(this.deviceMqttUrl, accounts[0], Math.max(this.connectTimeoutMs, 60_000), () => access.reload());
    }
    // The registry's accounts are the platform's to make: wait for them (a simulator started beside the gateway).
    const first = registered ? [...this.devices.values()].find((d) => d.online && (d.individual || !d.gateway.generated)) : undefined;
    if (first) {
      const login = first.individual ? this.deviceLogin(first)! : this.gatewayLogin(first.gateway)!;
      await waitForMqttLogin(this.deviceMqttUrl, login, Math.max(this.connectTimeoutMs, 60_000));
    }
  }

  private createClient(clientId: string, willTopic: string, login: MqttLogin | undefined): MqttClient {
    const client = mqtt.connect(this.deviceMqttUrl, {
      ...login,
      clientId,
      clean: true,
      keepalive: 30,
      reconnectPeriod: 1000,
      connectTimeout: this.connectTimeoutMs,
      // Subscriptions are renewed by our own reconnect handlers, together with the state announcement.
      resubscribe: false,
      // A device whose login is refused (deleted, or its credentials rotated) keeps trying, as one on the street would.
      reconnectOnConnackError: true,
      will: { topic: willTopic, payload: Buffer.from(OFFLINE_PAYLOAD), qos: 1, retain: true },
    });
    // One line per kind of failure, not one a second while a device stays refused.
    let reported = '';
    client.on('connect', () => (reported = ''));
    client.on('error', (err) => {
      if (err.message === reported) return;
      reported = err.message;
      this.logger.warn({ clientId, err: err.message }, 'MQTT connection error');
    });
    return client;
  }

  private async connectGateway(gateway: SimGateway<State>): Promise<void> {
    const client = this.createClient(gateway.id, gateway.stateTopic, this.gatewayLogin(gateway));
    gateway.client = client;
    client.on('message', (topic, payload) => {
      const parsed = mqttTopics.parse(topic);
      const device =
        parsed?.family === this.family.declaration.family && parsed.channel === MqttChannel.Cmd ? this.devices.get(parsed.deviceId) : undefined;
      if (device && device.gateway === gateway && !device.individual) this.handleCommand(device, payload);
    });
    await waitForConnect(client, this.connectTimeoutMs, `gateway ${gateway.id}`);
    await this.announceGateway(gateway);
    client.on(
      'connect',
      () =>
        void this.announceGateway(gateway).catch((err: Error) =>
          this.logger.warn({ gateway: gateway.id, err: err.message }, 'gateway re-announce failed'),
        ),
    );
  }

  /** Subscribes to its multiplexed devices' commands and reports itself and every device it speaks for. */
  private async announceGateway(gateway: SimGateway<State>): Promise<void> {
    const client = gateway.client;
    // Its own devices' topics only: `+/cmd` would hand every gateway every command.
    const multiplexed = gateway.devices.filter((d) => !d.individual);
    if (multiplexed.length > 0)
      await client.subscribeAsync(
        multiplexed.map((d) => d.topic(MqttChannel.Cmd)),
        { qos: 1 },
      );
    const writes = [this.publish(client, gateway.stateTopic, JSON.stringify(this.family.gateway!.state(gateway.devices.length)), 1, true)];
    for (const device of gateway.devices) {
      if (!device.online) writes.push(this.publish(client, device.topic(MqttChannel.State), OFFLINE_PAYLOAD, 1, true, 'statesSent'));
      else if (!device.individual) writes.push(this.announce(device));
    }
    await Promise.all(writes);
  }

  private async connectDevice(device: SimDevice<State>): Promise<void> {
    const client = this.createClient(device.code, device.topic(MqttChannel.State), this.deviceLogin(device));
    device.client = client;
    client.on('message', (_topic, payload) => this.handleCommand(device, payload));
    await waitForConnect(client, this.connectTimeoutMs, `${this.family.declaration.family} ${device.code}`);
    const announce = async () => {
      await client.subscribeAsync(device.topic(MqttChannel.Cmd), { qos: 1 });
      await this.announce(device);
    };
    await announce();
    // After a broker restart the Will has fired: say the device is back.
    client.on(
      'connect',
      () => void announce().catch((err: Error) => this.logger.warn({ device: device.code, err: err.message }, 'device re-announce failed')),
    );
  }

  /** The device is online: the family may react (a strip synchronizes), then its state is reported. */
  private announce(device: SimDevice<State>): Promise<void> {
    this.family.connected?.(device.state, this.deviceContext(device));
    return this.publishState(device);
  }

  /** The family's context for one device: what it schedules runs on that device's state, reported when it changes. */
  private deviceContext(device: SimDevice<State>, commandId?: string): DeviceContext<State> {
    return {
      ...this.context,
      receipt: (received, total) => {
        if (!commandId || !device.fetching.has(commandId)) return;
        const receipt: ReceiptMessage['receipt'] = { stage: 'downloading', received, total };
        device.fetching.set(commandId, receipt);
        this.sendReceipt(device, commandId, receipt);
      },
      after: (ms, change) =>
        this.later(() => {
          if (device.online && change(device.state)) void this.publishState(device);
        }, ms),
      report: () => {
        if (device.online && !this.stopping) void this.publishState(device);
      },
      events: () => {
        if (device.online && !this.stopping) void this.publishEvents(device);
      },
      // After the ack (sent within the latency's maximum).
      restart: (downMs, restarted) =>
        this.later(() => {
          void this.takeOffline(device.code).then(() =>
            this.later(() => {
              restarted?.(device.state);
              void this.bringOnline(device.code);
            }, downMs),
          );
        }, this.latency.max + 50),
    };
  }

  /**
   * Changes a device's state from the street (a call picked up, a local programme started), not through a command;
   * the new state is reported at once when `change` answers true.
   */
  protected async update(code: string, change: (state: State, ctx: FamilyContext) => boolean): Promise<void> {
    const device = this.mustGet(code);
    if (device.online && change(device.state, this.context)) await this.publishState(device);
  }

  /**
   * Publishes now what a device has gathered for its `event` topic (SimulatedFamily.takeEvents) after `gather` adds to
   * it, instead of at the next tick (a radar's detection, made on demand).
   */
  protected async emit(code: string, gather: (state: State) => void): Promise<void> {
    const device = this.mustGet(code);
    if (!device.online) return;
    gather(device.state);
    await this.publishEvents(device);
  }

  /**
   * Extra topics a family listens to (a lamp's radars): the devices hear them directly, with no platform in between,
   * on one connection per fleet.
   */
  private async listen(): Promise<void> {
    const listens = this.family.listens;
    if (!listens) return;
    const client = mqtt.connect(this.mqttUrl, {
      ...this.login(mqttUsernames.service(MqttService.Simulator), 1),
      clientId: `${this.gatewayIds[0] ?? 'sim'}-listener-${Math.floor(Math.random() * 1e9).toString(36)}`,
      clean: true,
      reconnectPeriod: 1000,
      connectTimeout: this.connectTimeoutMs,
    });
    client.on('error', (err) => this.logger.warn({ err: err.message }, 'listener connection error'));
    client.on('message', (topic, payload) => {
      if (this.stopping) return;
      const heard = listens.read(topic, payload);
      if (heard === null) return;
      for (const device of this.devices.values()) {
        if (device.online && listens.hear(device.state, heard, this.context)) void this.publishState(device);
      }
    });
    this.listener = client;
    await waitForConnect(client, this.connectTimeoutMs, 'listener');
    await client.subscribeAsync([...listens.topics], { qos: 0 });
  }

  /** Each online device whose schedule now says something else takes it and reports it. */
  private tick(): Promise<void> {
    if (this.stopping || !this.family.tick) return Promise.resolve();
    const reports: Promise<void>[] = [];
    for (const device of this.devices.values()) {
      if (!device.online) continue;
      if (this.family.tick(device.state, this.context)) reports.push(this.publishState(device));
      reports.push(this.publishEvents(device));
    }
    return Promise.all(reports).then(() => undefined);
  }

  /** Publishes the events the family's device has gathered (SimulatedFamily.takeEvents), in order, on its `event` topic. */
  private async publishEvents(device: SimDevice<State>): Promise<void> {
    const events = this.family.takeEvents?.(device.state) ?? [];
    for (const event of events) await this.publish(device.link, device.topic(MqttChannel.Event), JSON.stringify(event), 1, false, 'eventsSent');
  }

  private handleCommand(device: SimDevice<State>, payload: Buffer): void {
    if (this.stopping) return;
    if (!device.online) {
      this.counters.commandsLostOffline++;
      return;
    }
    this.counters.commandsReceived++;
    const read = this.reader.read(payload);
    if (read.kind === 'unreadable') {
      this.counters.commandsUnreadable++;
      this.logger.debug({ device: device.code }, 'command without a readable id dropped');
      return;
    }
    const id = read.kind === 'command' ? read.command.id : read.id;
    const now = Date.now();
    // A command sent again while its files come in: the device holds it, and says how far it has got.
    const fetching = device.fetching.get(id);
    if (fetching) {
      this.counters.duplicatesIgnored++;
      this.sendReceipt(device, id, fetching);
      return;
    }
    const earlier = device.recent.get(id);
    if (earlier) {
      this.counters.duplicatesIgnored++;
      this.answerLater(device, earlier, false);
      return;
    }
    let ack: AckMessage;
    let keepUntil = now + 60_000;
    if (read.kind === 'invalid') {
      this.counters.commandsRejected++;
      ack = { id, ok: false, error: BAD_COMMAND };
    } else if (read.expiresAtMs <= now) {
      this.counters.commandsExpired++;
      ack = { id, ok: false, error: EXPIRED };
    } else if (this.random() < (this.options.failureRate ?? 0)) {
      this.counters.commandsFailed++;
      ack = { id, ok: false, error: DRIVER_FAULT };
      keepUntil = read.expiresAtMs;
    } else {
      const refused = this.family.apply(device.state, read.command, this.deviceContext(device, id));
      if (refused instanceof Promise) {
        device.applied++;
        this.counters.commandsApplied++;
        return this.fetchThenAnswer(device, id, refused, read.expiresAtMs);
      }
      if (typeof refused === 'string') {
        this.counters.commandsRejected++;
        ack = { id, ok: false, error: refused };
      } else {
        device.applied++;
        this.counters.commandsApplied++;
        ack = { id, ok: true };
      }
      keepUntil = read.expiresAtMs;
    }
    device.recent.remember(ack, keepUntil, now);
    this.answerLater(device, ack, ack.ok);
  }

  /**
   * A command whose files the device fetches: `received` at once (after the latency), the family's receipts as its
   * files come in (DeviceContext.receipt), and the ack once the fetch settles: ok, or the reason it gave up.
   */
  private fetchThenAnswer(device: SimDevice<State>, id: string, fetch: Promise<void | string>, expiresAtMs: number): void {
    device.fetching.set(id, { stage: 'received' });
    this.later(() => this.sendReceipt(device, id, device.fetching.get(id)), this.latency.min + this.random() * (this.latency.max - this.latency.min));
    const settle = (refused: void | string) => {
      if (!device.fetching.delete(id)) return;
      const ack: AckMessage = typeof refused === 'string' ? { id, ok: false, error: refused.slice(0, 255) } : { id, ok: true };
      device.recent.remember(ack, expiresAtMs, Date.now());
      this.answerLater(device, ack, ack.ok);
    };
    fetch.then(settle, (err: unknown) => settle(err instanceof Error ? err.message : String(err)));
  }

  private sendReceipt(device: SimDevice<State>, id: string, receipt: ReceiptMessage['receipt'] | undefined): void {
    if (!receipt || this.stopping) return;
    const body: ReceiptMessage = { id, receipt };
    void this.publish(device.link, device.topic(MqttChannel.Ack), JSON.stringify(body), 1, false, 'receiptsSent');
  }

  /** The ack after the configured latency, then (after an applied command) the new retained state. */
  private answerLater(device: SimDevice<State>, ack: AckMessage, applied: boolean): void {
    this.later(
      () => {
        const link = device.link;
        if (!link) return;
        void this.publish(link, device.topic(MqttChannel.Ack), JSON.stringify(ack), 1, false, 'acksSent');
        if (applied) void this.publishState(device);
      },
      this.latency.min + this.random() * (this.latency.max - this.latency.min),
    );
  }

  private later(run: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      if (!this.stopping) run();
    }, ms);
    this.pending.add(timer);
  }

  /** Publishes the device's retained state; `why` also counts it (a change of its own). */
  private publishState(device: SimDevice<State>, why?: 'changesSent'): Promise<void> {
    const state = this.family.report(device.state, device);
    return this.publish(device.link, device.topic(MqttChannel.State), JSON.stringify(state), 1, true, 'statesSent', why);
  }

  private async setFault(code: string, fault: FaultCode, active: boolean): Promise<void> {
    if (!FAULT_CODES.has(fault)) throw new Error(`device-sim: ${fault} is not a fault code`);
    const device = this.mustGet(code);
    if (active) device.faults.add(fault);
    else device.faults.delete(fault);
    const event: DeviceEventMessage = { ts: new Date().toISOString(), code: fault, active };
    await this.publish(device.link, device.topic(MqttChannel.Event), JSON.stringify(event), 1, false, 'eventsSent');
  }

  /**
   * Devices are spread over 20 ms slots of one period, so readings arrive evenly, as from real devices whose clocks
   * are not in step, instead of in a few bursts per period.
   */
  private startTelemetry(intervalMs: number): void {
    const qos = this.options.telemetryQos ?? 1;
    this.telemetryTimer = spreadOverPeriod([...this.devices.values()], intervalMs, (device, now) => {
      const link = device.link;
      if (!link) return;
      const reading = this.family.telemetry!(device.state, device.faults, now, this.random);
      void this.publish(link, device.topic(MqttChannel.Telemetry), JSON.stringify(reading), qos, false, 'telemetrySent');
    });
  }

  /**
   * Heartbeats (FamilyDeclaration.heartbeatSeconds): every gateway states again that it is connected once per its
   * family's heartbeat, and so does every online device unless its readings already come more often.
   */
  private startHeartbeats(telemetryMs: number): void {
    const gateways = this.family.gateway;
    if (gateways)
      this.heartbeatTimers.push(
        spreadOverPeriod(this.gateways, this.options.heartbeatMs ?? gateways.declaration.heartbeatSeconds * 1000, (gateway) => {
          void this.publish(gateway.client, gateway.stateTopic, JSON.stringify(gateways.state(gateway.devices.length)), 1, true);
        }),
      );
    const deviceMs = this.options.heartbeatMs ?? this.family.declaration.heartbeatSeconds * 1000;
    if (telemetryMs > 0 && telemetryMs <= deviceMs) return;
    this.heartbeatTimers.push(
      spreadOverPeriod([...this.devices.values()], deviceMs, (device) => {
        if (device.online) void this.publishState(device);
      }),
    );
  }

  /** Never rejects: a failed publish is counted and logged, and the simulation goes on. */
  private publish(
    client: MqttClient | undefined,
    topic: string,
    body: string,
    qos: 0 | 1,
    retain: boolean,
    counter?: keyof FleetStats,
    also?: keyof FleetStats,
  ): Promise<void> {
    if (!client) return Promise.resolve();
    return client.publishAsync(topic, body, { qos, retain }).then(
      () => {
        if (counter) this.counters[counter]++;
        if (also) this.counters[also]++;
      },
      (err: Error) => {
        this.counters.publishErrors++;
        this.logger.debug({ topic, err: err.message }, 'publish failed');
      },
    );
  }
}
