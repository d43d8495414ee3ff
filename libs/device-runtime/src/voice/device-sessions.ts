import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { MqttChannel, mqttTopics, type FamilyName } from '@sc/contracts';
import type { MqttConnection } from '@sc/messaging';
import type { ReportParser } from '../family/report-parser';

/** What a device says on its `event` topic during a session, as its family's schema accepted it. */
export type SessionEventListener = (event: Record<string, unknown>) => void;

/**
 * A conversation with one device beside the command ledger (a call's voice: offer, answer, hang-up). Its messages
 * are part of something the platform records elsewhere (the call log) and make sense only while it lasts, so they
 * are not dispatches: `send` publishes a command at once, without re-sends, and the device's events reach `onEvent`
 * on this process directly (the shared intake, which may run on another replica, stores them as for any event).
 */
export interface DeviceSession {
  readonly family: FamilyName;
  readonly code: string;
  /** Publishes one command (QoS 1) that the device drops after `ttlMs`. */
  send(type: string, params: object, ttlMs: number): Promise<void>;
  /** Stops listening to the device. */
  close(): Promise<void>;
}

/**
 * The sessions of one worker on its command connection: one subscription to each device's `event` topic while any
 * session with it is open (the worker's account may read its families' events).
 */
export class DeviceSessions {
  private readonly listeners = new Map<string, Set<SessionEventListener>>();

  constructor(
    private readonly mqtt: MqttConnection,
    private readonly parser: ReportParser,
    private readonly logger: Logger,
  ) {}

  /** Opens a session with `code` of `family`; its events go to `onEvent` until it is closed. */
  async open(family: FamilyName, code: string, onEvent: SessionEventListener): Promise<DeviceSession> {
    const topic = mqttTopics.of(family, code, MqttChannel.Event);
    let listeners = this.listeners.get(topic);
    if (!listeners) {
      listeners = new Set();
      this.listeners.set(topic, listeners);
      const heard = listeners;
      const subscribed = this.mqtt.subscribe(topic, (_topic, payload) => {
        const message = this.parser.parse(family, MqttChannel.Event, payload);
        if (message?.kind !== 'report') return;
        for (const listener of heard) {
          try {
            listener(message.report as Record<string, unknown>);
          } catch (err) {
            this.logger.warn({ err: (err as Error).message, family, code }, 'session listener failed');
          }
        }
      });
      try {
        await subscribed;
      } catch (err) {
        this.listeners.delete(topic);
        await this.mqtt.unsubscribe(topic).catch(() => undefined);
        throw err;
      }
    }
    listeners.add(onEvent);
    let closed = false;
    return {
      family,
      code,
      send: (type, params, ttlMs) =>
        this.mqtt.publishJson(
          mqttTopics.of(family, code, MqttChannel.Cmd),
          { id: randomUUID(), type, params, expiresAt: new Date(Date.now() + ttlMs).toISOString() },
          { qos: 1 },
        ),
      close: async () => {
        if (closed) return;
        closed = true;
        listeners.delete(onEvent);
        if (listeners.size > 0 || this.listeners.get(topic) !== listeners) return;
        this.listeners.delete(topic);
        await this.mqtt.unsubscribe(topic).catch((err: Error) => this.logger.debug({ err: err.message, topic }, 'session unsubscribe failed'));
      },
    };
  }
}
