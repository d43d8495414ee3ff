import { randomBytes } from 'node:crypto';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';

export type MqttQoS = 0 | 1 | 2;

/** `retained`: the broker sent a stored (retained) message because of a new subscription, not a live one. */
export type MqttMessageHandler = (topic: string, payload: Buffer, retained: boolean) => void;

export interface MqttConnectionOptions {
  /** Prefix of the generated client id; each connection gets a unique id so replicas never kick each other off. */
  clientIdPrefix?: string;
  /** Milliseconds between reconnect attempts. */
  reconnectPeriod?: number;
  /** Receives connection state changes; the connection itself never throws after the first connect. */
  onStateChange?: (state: 'connected' | 'reconnecting' | 'offline' | 'error', detail?: string) => void;
  /** Anything else mqtt.js accepts (a Last Will, credentials, MQTT 5). */
  client?: IClientOptions;
}

export interface PublishOptions {
  qos?: MqttQoS;
  retain?: boolean;
}

interface Subscription {
  filter: string;
  /** The filter without a `$share/<group>/` prefix: the broker delivers messages under their real topic. */
  match: string[];
  handler: MqttMessageHandler;
}

/** Whether a topic matches a subscription filter (`+` one level, `#` the rest). */
export function topicMatches(filterLevels: string[], topic: string): boolean {
  const levels = topic.split('/');
  for (let i = 0; i < filterLevels.length; i++) {
    const f = filterLevels[i];
    if (f === '#') return true;
    if (i >= levels.length) return false;
    if (f !== '+' && f !== levels[i]) return false;
  }
  return filterLevels.length === levels.length;
}

function withoutSharePrefix(filter: string): string {
  return filter.startsWith('$share/') ? filter.split('/').slice(2).join('/') : filter;
}

/**
 * A service's first connection to the broker (this class's and the intake's): it keeps trying for FIRST_CONNECT_MS,
 * each attempt waiting at most FIRST_CONNACK_WAIT_MS for the broker's CONNACK before the next.
 */
export const FIRST_CONNECT_MS = 30_000;
export const FIRST_CONNACK_WAIT_MS = 5_000;
/** How long a reconnect waits for the CONNACK, once connected the first time. */
const RECONNECT_CONNACK_WAIT_MS = 30_000;

/**
 * The one MQTT client of a process. mqtt.js reconnects by itself and re-subscribes the filters it was given, and
 * QoS 1 publishes made while offline wait in its outgoing store until the broker is back; this class adds typed
 * JSON publishing and routes incoming messages to the handler of the filter they match.
 */
export class MqttConnection {
  private readonly subscriptions: Subscription[] = [];

  private constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload, packet) => this.route(topic, payload, packet.retain === true));
  }

  /**
   * Connects, failing after `timeoutMs` when the broker cannot be reached, so a misconfigured service stops with a
   * clear error. Each attempt waits at most FIRST_CONNACK_WAIT_MS for the broker's answer and the next follows: a CONNECT
   * the broker never answered (it was reloading, or too busy to read it) is sent again instead of using up the time.
   */
  static async connect(url: string, options: MqttConnectionOptions = {}, timeoutMs = FIRST_CONNECT_MS): Promise<MqttConnection> {
    const clientId = `${options.clientIdPrefix ?? 'sc'}-${randomBytes(6).toString('hex')}`;
    const client = mqtt.connect(url, {
      clientId,
      clean: true,
      reconnectPeriod: options.reconnectPeriod ?? 1000,
      connectTimeout: Math.min(timeoutMs, FIRST_CONNACK_WAIT_MS),
      resubscribe: true,
      // A refused login is tried again, like a lost connection: the account may not be made yet (a worker started
      // beside the gateway that writes the broker's accounts) or may come back.
      reconnectOnConnackError: true,
      ...options.client,
    });
    const notify = options.onStateChange;
    client.on('connect', () => notify?.('connected'));
    client.on('reconnect', () => notify?.('reconnecting'));
    client.on('offline', () => notify?.('offline'));
    client.on('error', (err) => notify?.('error', err.message));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        client.end(true);
        reject(new Error(`MQTT broker ${url} not reachable within ${timeoutMs} ms`));
      }, timeoutMs);
      client.once('connect', () => {
        clearTimeout(timer);
        // Later reconnects (a broker back after a restart, busy with every client at once) wait as long as it takes.
        client.options.connectTimeout = RECONNECT_CONNACK_WAIT_MS;
        resolve();
      });
    });
    return new MqttConnection(client);
  }

  get connected(): boolean {
    return this.client.connected;
  }

  /**
   * Publishes one message. The promise settles when the broker acknowledged it (QoS 1) or it was written (QoS 0);
   * callers publishing many at once start them all and wait for them together.
   */
  publish(topic: string, payload: string | Buffer, options: PublishOptions = {}): Promise<void> {
    return new Promise((resolve, reject) => {
      this.client.publish(topic, payload, { qos: options.qos ?? 1, retain: options.retain ?? false }, (err) => (err ? reject(err) : resolve()));
    });
  }

  publishJson<T extends object>(topic: string, message: T, options: PublishOptions = {}): Promise<void> {
    return this.publish(topic, JSON.stringify(message), options);
  }

  /**
   * Subscribes filters (shared ones included) and routes their messages to `handler`. `retainHandling` (MQTT 5
   * connections only) 2 asks the broker not to send stored messages at subscription time.
   */
  async subscribe(
    filters: string | string[],
    handler: MqttMessageHandler,
    qos: MqttQoS = 1,
    options: { retainHandling?: 0 | 1 | 2 } = {},
  ): Promise<void> {
    const list = Array.isArray(filters) ? filters : [filters];
    for (const filter of list) this.subscriptions.push({ filter, match: withoutSharePrefix(filter).split('/'), handler });
    const rh = options.retainHandling;
    const grants = await this.client.subscribeAsync(Object.fromEntries(list.map((filter) => [filter, rh === undefined ? { qos } : { qos, rh }])));
    const refused = grants.filter((g) => g.qos === 128);
    if (refused.length > 0) throw new Error(`MQTT broker refused subscriptions: ${refused.map((g) => g.topic).join(', ')}`);
  }

  async unsubscribe(filters: string | string[]): Promise<void> {
    const list = Array.isArray(filters) ? filters : [filters];
    await this.client.unsubscribeAsync(list);
    for (const filter of list) {
      const at = this.subscriptions.findIndex((s) => s.filter === filter);
      if (at >= 0) this.subscriptions.splice(at, 1);
    }
  }

  /** Disconnects; `force` skips waiting for publishes in flight. */
  async close(force = false): Promise<void> {
    await this.client.endAsync(force);
  }

  private route(topic: string, payload: Buffer, retained: boolean): void {
    for (const subscription of this.subscriptions) {
      if (topicMatches(subscription.match, topic)) {
        subscription.handler(topic, payload, retained);
        return;
      }
    }
  }
}
