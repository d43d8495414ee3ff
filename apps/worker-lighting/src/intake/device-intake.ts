import type { Logger } from 'pino';
import { DeviceFamily, MqttChannel, mqttTopics } from '@sc/contracts';
import { parseAck, parseDeviceEvent, parseLampState, parseLampTelemetry, type MqttConnection } from '@sc/messaging';
import type { Counters, RejectReason } from '../infra/counters';
import type { LampEvent } from '../lamps/lamp-state';
import type { IntakeWriter } from './intake-writer';
import type { KnownDevices } from './known-devices';

const CHANNELS = [MqttChannel.State, MqttChannel.Telemetry, MqttChannel.Event, MqttChannel.Ack] as const;
/** Bounds the memory spent remembering what was already logged. */
const MAX_LOGGED = 10_000;

type Accepted = { channel: MqttChannel.Ack; ack: NonNullable<ReturnType<typeof parseAck>> } | { channel: MqttChannel; event: LampEvent };

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
  ) {}

  async start(): Promise<void> {
    this.filters = CHANNELS.map((channel) => mqttTopics.shared(this.group, DeviceFamily.Lamp, channel));
    await Promise.all(this.connections.map((mqtt) => mqtt.subscribe(this.filters, (topic, payload) => this.receive(topic, payload), 1)));
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
    if (!parsed || parsed.family !== DeviceFamily.Lamp) return this.reject('bad-topic', topic);
    const code = parsed.deviceId;
    const message = this.parse(parsed.channel, payload, new Date().toISOString());
    if (!message) return this.reject('malformed', code);
    const id = this.devices.get(code);
    if (id !== undefined) return this.accept(id, message);
    void this.devices.lookup(code).then((found) => (found === undefined ? this.reject('unknown-device', code) : this.accept(found, message)));
  }

  private parse(channel: MqttChannel, payload: Buffer, at: string): Accepted | null {
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
