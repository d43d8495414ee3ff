import type { Logger } from 'pino';
import { DeviceFamily, DeviceType, MqttChannel, mqttTopics } from '@sc/contracts';
import { parseAck, parseDeviceEvent, parseLampState, parseLampTelemetry, type MqttConnection } from '@sc/messaging';
import type { Counters, RejectReason } from '../infra/counters';
import type { CommonDeviceEvent, FamilyStore } from './family-store';
import type { LampEvent } from '../lamps/lamp-state';
import type { IntakeWriter } from './intake-writer';
import type { KnownDevices } from './known-devices';

const CHANNELS = [MqttChannel.State, MqttChannel.Telemetry, MqttChannel.Event, MqttChannel.Ack] as const;
/** Bounds the memory spent remembering what was already logged. */
const MAX_LOGGED = 10_000;
/** The stored states have all arrived once the broker has been quiet this long (or after CATCH_UP_MAX_MS). */
const CATCH_UP_QUIET_MS = 1_500;
const CATCH_UP_MAX_MS = 60_000;

type Accepted =
  | { channel: MqttChannel.Ack; ack: NonNullable<ReturnType<typeof parseAck>> }
  | { channel: MqttChannel; event: LampEvent }
  /** An event of another family (FamilyStore). */
  | { channel: MqttChannel; family: FamilyStore; familyEvent: { kind: string } };

/**
 * Lamp traffic from the broker. Replicas (and the connections of one replica) share one subscription group, so each
 * message reaches one of them. Only
 * well-formed messages of registered lamps get through; the rest are counted by reason, logged once per device
 * code, and dropped on their own without touching the batch of anyone else.
 */
export class DeviceIntake {
  private readonly logged = new Set<string>();
  private filters: string[] = [];
  private closed = false;

  constructor(
    private readonly connections: readonly MqttConnection[],
    private readonly devices: KnownDevices,
    private readonly writer: IntakeWriter,
    private readonly counters: Counters,
    private readonly logger: Logger,
    private readonly group: string,
    /** Opens a short-lived connection of its own for reading the stored lamp states (see catchUp). */
    private readonly openCatchUpConnection?: () => Promise<MqttConnection>,
    /** The families served beside single lamps, by topic family. */
    private readonly families: readonly FamilyStore[] = [],
  ) {}

  private get served(): DeviceFamily[] {
    return [DeviceFamily.Lamp, ...this.families.map((f) => f.family)];
  }

  async start(): Promise<void> {
    this.filters = this.served.flatMap((family) => CHANNELS.map((channel) => mqttTopics.shared(this.group, family, channel)));
    // Live traffic only: a broker would otherwise send every stored lamp state to every connection of the group
    // at once, more than its per-client queue holds (Mosquitto drops beyond max_queued_messages). Stored states
    // are read once by catchUp() instead.
    await Promise.all(
      this.connections.map((mqtt) => mqtt.subscribe(this.filters, (topic, payload) => this.receive(topic, payload), 1, { retainHandling: 2 })),
    );
    await this.catchUp();
    // Any later 'connect' is a reconnect: states stored meanwhile (a Last Will that fired while the broker was
    // restarting) are read again.
    this.connections[0]?.client.on('connect', () => void this.catchUp());
  }

  /**
   * Reads every lamp's stored (retained) state once: the last thing each lamp reported, or its Last Will if it
   * dropped off while no worker listened. QoS 0, on a connection of its own, so the broker streams them without
   * its QoS 1 queue limit; the connection closes once they have all arrived.
   */
  async catchUp(): Promise<number> {
    if (!this.openCatchUpConnection || this.closed) return 0;
    let read = 0;
    let connection: MqttConnection | undefined;
    try {
      connection = await this.openCatchUpConnection();
      const open = connection;
      await new Promise<void>((resolve) => {
        let quiet = setTimeout(resolve, CATCH_UP_QUIET_MS);
        const deadline = setTimeout(resolve, CATCH_UP_MAX_MS);
        const done = () => {
          clearTimeout(quiet);
          clearTimeout(deadline);
          resolve();
        };
        void open
          .subscribe(
            this.served.map((family) => mqttTopics.all(family, MqttChannel.State)),
            (topic, payload, retained) => {
              if (!retained) return;
              read += 1;
              this.receive(topic, payload);
              clearTimeout(quiet);
              quiet = setTimeout(done, CATCH_UP_QUIET_MS);
            },
            0,
          )
          .catch(done);
      });
      this.logger.info({ states: read }, 'stored lamp states read');
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'could not read the stored lamp states');
    } finally {
      await connection?.close(true).catch(() => undefined);
    }
    return read;
  }

  /** Leaves the group, so the broker hands new messages to the other replicas, and writes what was accepted. */
  async stop(): Promise<void> {
    this.closed = true;
    await Promise.all(this.connections.filter((mqtt) => mqtt.connected).map((mqtt) => mqtt.unsubscribe(this.filters).catch(() => undefined)));
    await this.writer.flush();
  }

  receive(topic: string, payload: Buffer): void {
    if (this.closed) return;
    this.counters.add('received');
    const parsed = mqttTopics.parse(topic);
    const family = parsed && parsed.family !== DeviceFamily.Lamp ? this.families.find((f) => f.family === parsed.family) : undefined;
    if (!parsed || (parsed.family !== DeviceFamily.Lamp && !family)) return this.reject('bad-topic', topic);
    const code = parsed.deviceId;
    const message = this.parse(parsed.channel, payload, new Date().toISOString(), family);
    if (!message) return this.reject('malformed', code);
    const type = family?.deviceType ?? DeviceType.SingleLamp;
    const id = this.devices.get(code, type);
    if (id !== undefined) return this.accept(id, message);
    void this.devices.lookup(code, type).then((found) => (found === undefined ? this.reject('unknown-device', code) : this.accept(found, message)));
  }

  private parse(channel: MqttChannel, payload: Buffer, at: string, family?: FamilyStore): Accepted | null {
    if (family && (channel === MqttChannel.State || channel === MqttChannel.Telemetry)) {
      const familyEvent = family.parse(channel, payload, at);
      return familyEvent && { channel, family, familyEvent };
    }
    if (family && channel === MqttChannel.Event) {
      const fault = parseDeviceEvent(payload);
      const familyEvent: CommonDeviceEvent | null = fault && { kind: 'fault', code: fault.code, active: fault.active, at };
      return familyEvent && { channel, family, familyEvent };
    }
    switch (channel) {
      case MqttChannel.Ack: {
        const ack = parseAck(payload);
        return ack && { channel, ack };
      }
      case MqttChannel.State: {
        const state = parseLampState(payload);
        return state && { channel, event: { kind: 'state', state, at } };
      }
      case MqttChannel.Telemetry: {
        const telemetry = parseLampTelemetry(payload);
        return telemetry && { channel, event: { kind: 'telemetry', telemetry, at } };
      }
      case MqttChannel.Event: {
        const fault = parseDeviceEvent(payload);
        return fault && { channel, event: { kind: 'fault', code: fault.code, active: fault.active, at } };
      }
      default:
        return null;
    }
  }

  private accept(deviceId: number, message: Accepted): void {
    this.counters.add('accepted');
    if ('ack' in message) this.writer.addAck(deviceId, message.ack);
    else if ('familyEvent' in message) this.writer.addFamilyEvent(message.family, deviceId, message.familyEvent);
    else this.writer.addEvent(deviceId, message.event);
  }

  private reject(reason: RejectReason, code: string): void {
    this.counters.reject(reason);
    const key = `${reason}:${code}`;
    if (this.logged.has(key)) return;
    if (this.logged.size >= MAX_LOGGED) this.logged.clear();
    this.logged.add(key);
    this.logger.warn({ reason, device: code.slice(0, 200) }, 'device message dropped (logged once per device)');
  }
}
