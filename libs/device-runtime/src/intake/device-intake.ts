import type { Logger } from 'pino';
import { MqttChannel, mqttTopics, type FamilyDeclaration, type FamilyName } from '@sc/contracts';
import { MqttIntakeConnection, type AcknowledgeMessage, type IntakeSubscription, type MqttLogin } from '@sc/messaging';
import type { ReportParser } from '../family/report-parser';
import type { Counters, RejectReason } from '../infra/counters';
import type { IntakeWriter } from './intake-writer';
import type { KnownDevices } from './known-devices';

/** Bounds the memory spent remembering what was already logged. */
const MAX_LOGGED = 10_000;
/** Stored states are read this many devices at a time: well under a broker's per-client queue (Mosquitto: 1,000). */
const CATCH_UP_CHUNK = 500;

export interface IntakeSettings {
  /** The worker's MQTT account. */
  login?: MqttLogin;
  mqttUrl: string;
  /** The worker's name, for client ids and logs. */
  name: string;
  /** MQTT shared subscription group: replicas in one group split the device traffic. */
  group: string;
  /** Connections in the group; each holds at most `window` unacknowledged messages. */
  connections: number;
  window: number;
}

/**
 * Device traffic from the broker, for every served family. Replicas (and the connections of one replica) share one
 * subscription group, so each message reaches one of them. Only well-formed messages of known devices get through
 * (KnownDevices, the families' declared schemas); the rest are counted by reason, logged once per device code,
 * acknowledged and dropped, so they disturb nothing else. Accepted messages are acknowledged once stored
 * (IntakeWriter).
 */
export class DeviceIntake {
  private readonly logged = new Set<string>();
  private connections: MqttIntakeConnection[] = [];
  private subscriptions: IntakeSubscription[] = [];
  private closed = false;
  private catchingUp: Promise<number> | null = null;
  /**
   * While stored states are read: the devices heard live meanwhile. A stored state comes from before the reading
   * began, so it must not overwrite what such a device has reported since.
   */
  private heardLive: Set<string> | null = null;

  constructor(
    private readonly families: readonly FamilyDeclaration[],
    private readonly parser: ReportParser,
    private readonly devices: KnownDevices,
    private readonly writer: IntakeWriter,
    private readonly counters: Counters,
    private readonly logger: Logger,
    private readonly settings: IntakeSettings,
  ) {}

  get connected(): boolean {
    return this.connections.length > 0 && this.connections.every((c) => c.connected);
  }

  /** Whether a connection holds its whole window: more messages than the worker has taken in wait in the broker. */
  get holdingBack(): boolean {
    return this.connections.some((c) => c.full);
  }

  async start(): Promise<void> {
    const { mqttUrl, name, group, window } = this.settings;
    for (let i = 0; i < this.settings.connections; i++) {
      this.connections.push(
        await MqttIntakeConnection.connect(mqttUrl, {
          clientIdPrefix: `${name}-intake`,
          login: this.settings.login,
          receiveMaximum: window,
          onMessage: (topic, payload, ack) => this.receive(topic, payload, ack),
          // States stored while the broker was away (a Last Will that fired as it restarted) are read again.
          onReconnect: i === 0 ? () => void this.catchUp() : undefined,
          onStateChange: (state, detail) => this.logger[state === 'connected' ? 'debug' : 'warn']({ state, detail }, 'intake connection'),
        }),
      );
    }
    // Live traffic only: stored (retained) states are read once by catchUp(), at a pace the broker's queues allow.
    this.subscriptions = this.families.flatMap((family) =>
      [MqttChannel.State, MqttChannel.Telemetry, MqttChannel.Event, MqttChannel.Ack]
        .filter((channel) => this.parser.reads(family.family, channel))
        .map((channel) => ({ topic: mqttTopics.shared(group, family.family, channel), qos: 1 as const, rh: 2 as const })),
    );
    await Promise.all(this.connections.map((c) => c.subscribe(this.subscriptions)));
    await this.catchUp();
  }

  /**
   * Reads the stored (retained) state of every known device: the last thing each reported, or its Last Will if it
   * dropped off while no worker listened. Exact topics, a chunk at a time on a connection of its own, each chunk
   * stored before the next is asked for: the broker never queues more than a chunk for it, whatever the fleet's size
   * or its queue limits, and the worker never holds more.
   */
  catchUp(): Promise<number> {
    this.catchingUp ??= this.readStoredStates().finally(() => (this.catchingUp = null));
    return this.catchingUp;
  }

  private async readStoredStates(): Promise<number> {
    if (this.closed) return 0;
    let read = 0;
    let connection: MqttIntakeConnection | undefined;
    const started = Date.now();
    this.heardLive = new Set();
    try {
      connection = await MqttIntakeConnection.connect(this.settings.mqttUrl, {
        clientIdPrefix: `${this.settings.name}-catch-up`,
        login: this.settings.login,
        receiveMaximum: CATCH_UP_CHUNK * 2,
        onMessage: (topic, payload, ack) => {
          read++;
          this.receive(topic, payload, ack, true);
        },
      });
      for (const family of this.families) {
        if (!this.parser.reads(family.family, MqttChannel.State)) continue;
        const codes = await this.devices.codes(family.family);
        for (let i = 0; i < codes.length && !this.closed; i += CATCH_UP_CHUNK) {
          const chunk = codes
            .slice(i, i + CATCH_UP_CHUNK)
            .map((code) => ({ topic: mqttTopics.of(family.family, code, MqttChannel.State), qos: 0 as const }));
          await connection.subscribe(chunk);
          // The broker answers the ping after the stored messages it queued for the subscription.
          await connection.ping();
          await this.writer.whenWritten();
          await connection.unsubscribe(chunk.map((s) => s.topic));
        }
      }
      this.logger.info({ states: read, ms: Date.now() - started }, 'stored device states read');
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, states: read }, 'could not read every stored device state');
    } finally {
      this.heardLive = null;
      await connection?.close().catch(() => undefined);
    }
    return read;
  }

  /** Leaves the group, so the broker hands new messages to the other replicas, and stores (and acknowledges) what came. */
  async stop(): Promise<void> {
    this.closed = true;
    const topics = this.subscriptions.map((s) => s.topic);
    await Promise.all(this.connections.filter((c) => c.connected).map((c) => c.unsubscribe(topics).catch(() => undefined)));
    await this.catchingUp;
    await this.writer.whenWritten();
    await Promise.all(this.connections.map((c) => c.close().catch(() => undefined)));
  }

  /** One message from the broker; `stored`: a retained state read by catchUp(), not live traffic. */
  receive(topic: string, payload: Buffer, ack: AcknowledgeMessage | null, stored = false): void {
    this.counters.add('received');
    const parsed = mqttTopics.parse(topic);
    const family = parsed && this.families.some((f) => f.family === parsed.family) ? (parsed.family as FamilyName) : null;
    if (!parsed || !family || parsed.channel === MqttChannel.Cmd) return this.reject('bad-topic', topic, ack);
    // An empty retained state is how MQTT removes one (a device taken out of service): it says nothing of the device.
    if (payload.length === 0 && parsed.channel === MqttChannel.State) {
      ack?.();
      this.counters.add('statesCleared');
      return;
    }
    const message = this.parser.parse(family, parsed.channel, payload);
    if (!message) return this.reject('malformed', parsed.deviceId, ack);
    if (this.heardLive) {
      const device = `${family}/${parsed.deviceId}`;
      if (!stored) this.heardLive.add(device);
      else if (this.heardLive.has(device)) {
        ack?.();
        this.counters.add('storedSuperseded');
        return;
      }
    }
    const at = new Date().toISOString();
    const accept = (recordId: number) => {
      this.counters.add('accepted');
      if (message.kind === 'ack') this.writer.addAck(family, recordId, message.ack, ack);
      else if (message.kind === 'receipt') this.writer.addReceipt(family, recordId, message.receipt, ack);
      else if (message.kind === 'offline') this.writer.addEvent(family, recordId, { kind: 'offline', at }, ack);
      else this.writer.addEvent(family, recordId, { kind: 'report', channel: message.channel, report: message.report, at } as never, ack);
    };
    const id = this.devices.get(family, parsed.deviceId);
    if (id !== undefined) return accept(id);
    void this.devices
      .lookup(family, parsed.deviceId)
      .then((found) => (found === undefined ? this.reject('unknown-device', parsed.deviceId, ack) : accept(found)));
  }

  private reject(reason: RejectReason, code: string, ack: AcknowledgeMessage | null): void {
    ack?.();
    this.counters.reject(reason);
    const key = `${reason}:${code}`;
    if (this.logged.has(key)) return;
    if (this.logged.size >= MAX_LOGGED) this.logged.clear();
    this.logged.add(key);
    this.logger.warn({ reason, device: code.slice(0, 200) }, 'device message dropped (logged once per device)');
  }
}
