import { randomBytes } from 'node:crypto';
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { FIRST_CONNACK_WAIT_MS, FIRST_CONNECT_MS } from './mqtt-connection';
import type { MqttLogin } from './mqtt-login';
import mqttPacket, { type IPublishPacket, type Packet } from 'mqtt-packet';

/** Acknowledges one QoS 1 message to the broker; a no-op once the connection it came on has gone. */
export type AcknowledgeMessage = () => void;

/** `ack` is null for QoS 0 messages, which need none. */
export type IntakeMessageHandler = (topic: string, payload: Buffer, ack: AcknowledgeMessage | null) => void;

export interface IntakeSubscription {
  topic: string;
  qos: 0 | 1;
  /** MQTT 5 retain handling: 2 = send no stored messages at subscription time. */
  rh?: 0 | 1 | 2;
}

export interface IntakeConnectionOptions {
  clientIdPrefix: string;
  /** The account to log in with (else credentials in the URL, else none). */
  login?: MqttLogin;
  /**
   * MQTT 5 Receive Maximum: QoS 1 messages the broker may have in flight to this connection, unacknowledged. Since
   * messages are acknowledged only once they are stored, this bounds what the process holds; the broker keeps the
   * rest. Brokers do not all keep to it (Mosquitto 2.0 may send more), so the connection also stops reading its socket
   * while it holds this many, and reads again once half of them are acknowledged.
   */
  receiveMaximum: number;
  keepaliveSeconds?: number;
  /** How long the first connection may take. */
  connectTimeoutMs?: number;
  onMessage: IntakeMessageHandler;
  /** After each reconnect, once the subscriptions are back. */
  onReconnect?: () => void;
  onStateChange?: (state: 'connected' | 'reconnecting' | 'error', detail?: string) => void;
}

const PROTOCOL = { protocolVersion: 5 } as const;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 5000;

interface Pending {
  resolve: (packet: Packet) => void;
  reject: (err: Error) => void;
}

/**
 * An MQTT 5 subscriber that acknowledges a QoS 1 message only when told to. mqtt.js acknowledges as soon as its
 * handler returns and handles the next packet only after that, so it cannot hold an acknowledgement until a message
 * is written to the database without holding up everything behind it. This connection hands each message on with
 * its own `ack`; what the broker counts as delivered is then exactly what was stored, and a process killed with
 * messages in hand loses none that the broker had let go of.
 *
 * Reconnects by itself (clean start: unacknowledged messages of a lost connection are the broker's again, to deliver
 * as it sees fit) and subscribes again to everything it was subscribed to.
 */
export class MqttIntakeConnection {
  private socket: Socket | null = null;
  /** Moves with each connection, so acks of messages from a lost one are dropped. */
  private generation = 0;
  private nextPacketId = 1;
  private readonly waiting = new Map<number, Pending>();
  private readonly pings: Pending[] = [];
  private readonly subscriptions = new Map<string, IntakeSubscription>();
  private keepaliveTimer?: NodeJS.Timeout;
  private reconnectTimer?: NodeJS.Timeout;
  private reconnectDelay = RECONNECT_MIN_MS;
  private closed = false;
  private corked = false;
  /** QoS 1 messages handed on and not yet acknowledged, on the current connection. */
  private inHand = 0;
  private paused = false;
  private everConnected = false;
  readonly clientId: string;

  private constructor(
    private readonly url: URL,
    private readonly options: IntakeConnectionOptions,
  ) {
    this.clientId = `${options.clientIdPrefix}-${randomBytes(6).toString('hex')}`;
  }

  /**
   * Connects, trying again (each attempt waiting at most FIRST_CONNACK_WAIT_MS for the broker's answer) until
   * `connectTimeoutMs` has passed: a CONNECT a busy or reloading broker did not answer, or a login not written yet,
   * does not stop the service at once.
   */
  static async connect(url: string, options: IntakeConnectionOptions): Promise<MqttIntakeConnection> {
    const connection = new MqttIntakeConnection(new URL(url), options);
    const deadline = Date.now() + (options.connectTimeoutMs ?? FIRST_CONNECT_MS);
    for (;;) {
      try {
        await connection.open(Math.max(1, Math.min(FIRST_CONNACK_WAIT_MS, deadline - Date.now())));
        return connection;
      } catch (err) {
        if (Date.now() + RECONNECT_MIN_MS >= deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_MIN_MS));
      }
    }
  }

  get connected(): boolean {
    return this.socket !== null;
  }

  /** Messages handed on and not acknowledged yet. */
  get unacknowledged(): number {
    return this.inHand;
  }

  /** Whether it holds its whole window and has stopped reading: the broker keeps what comes next. */
  get full(): boolean {
    return this.paused;
  }

  /** Subscribes (and keeps the subscriptions across reconnects); throws when the broker refuses any. */
  async subscribe(subscriptions: readonly IntakeSubscription[]): Promise<void> {
    for (const s of subscriptions) this.subscriptions.set(s.topic, s);
    if (this.socket) await this.sendSubscribe(subscriptions);
  }

  async unsubscribe(topics: readonly string[]): Promise<void> {
    for (const topic of topics) this.subscriptions.delete(topic);
    if (!this.socket || topics.length === 0) return;
    const messageId = this.packetId();
    await this.request(messageId, { cmd: 'unsubscribe', messageId, unsubscriptions: [...topics] });
  }

  /**
   * Round trip to the broker. Messages the broker queued for this connection before answering (the stored messages
   * of a subscription just made) arrive before the answer.
   */
  ping(timeoutMs = 10_000): Promise<void> {
    if (!this.socket) return Promise.reject(new Error('MQTT connection is down'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('MQTT broker did not answer a ping')), timeoutMs);
      this.pings.push({
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      });
      this.write({ cmd: 'pingreq' });
    });
  }

  /** Disconnects; messages in hand and not yet acknowledged go back to the broker. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const socket = this.socket;
    if (!socket) return;
    this.write({ cmd: 'disconnect', reasonCode: 0 });
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.end();
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 1000).unref();
    });
  }

  private open(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const port = Number(this.url.port) || (this.url.protocol === 'mqtts:' ? 8883 : 1883);
      const host = this.url.hostname.replace(/^\[|\]$/g, '');
      const socket = this.url.protocol === 'mqtts:' ? tlsConnect({ host, port, servername: host }) : tcpConnect({ host, port });
      socket.setNoDelay(true);
      const parser = mqttPacket.parser(PROTOCOL);
      let settled = false;
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        reject(err);
      };
      const timer = setTimeout(() => fail(new Error(`MQTT broker ${this.url.host} did not accept a connection within ${timeoutMs} ms`)), timeoutMs);
      parser.on('packet', (packet: Packet) => {
        if (!settled) {
          if (packet.cmd !== 'connack') return fail(new Error(`MQTT broker answered ${packet.cmd} to CONNECT`));
          if (packet.reasonCode) return fail(new Error(`MQTT broker refused the connection (reason ${packet.reasonCode})`));
          settled = true;
          clearTimeout(timer);
          this.attach(socket);
          resolve();
          return;
        }
        this.handle(packet);
      });
      parser.on('error', (err: Error) => {
        if (!settled) fail(err);
        else socket.destroy(err);
      });
      socket.on('data', (chunk: Buffer) => parser.parse(chunk));
      socket.on('error', (err) => fail(err));
      socket.on('close', () => {
        if (!settled) fail(new Error(`MQTT broker ${this.url.host} closed the connection`));
        else this.detach(socket);
      });
      socket.once(this.url.protocol === 'mqtts:' ? 'secureConnect' : 'connect', () => {
        socket.write(
          mqttPacket.generate(
            {
              cmd: 'connect',
              protocolId: 'MQTT',
              protocolVersion: 5,
              clientId: this.clientId,
              clean: true,
              keepalive: this.options.keepaliveSeconds ?? 30,
              ...this.credentials(),
              properties: { receiveMaximum: this.options.receiveMaximum, sessionExpiryInterval: 0 },
            },
            PROTOCOL,
          ),
        );
      });
    });
  }

  private credentials(): { username?: string; password?: Buffer } {
    const login = this.options.login;
    if (login) return { username: login.username, password: Buffer.from(login.password) };
    return {
      ...(this.url.username ? { username: decodeURIComponent(this.url.username) } : {}),
      ...(this.url.password ? { password: Buffer.from(decodeURIComponent(this.url.password)) } : {}),
    };
  }

  private attach(socket: Socket): void {
    this.socket = socket;
    this.generation++;
    this.reconnectDelay = RECONNECT_MIN_MS;
    const keepaliveMs = (this.options.keepaliveSeconds ?? 30) * 1000;
    let answered = true;
    this.keepaliveTimer = setInterval(() => {
      // Not reading (the process holds its window of messages), the connection cannot see the answer to a ping.
      if (this.paused) return;
      // A broker that has not answered the last ping within a keep-alive period is gone, however the socket looks.
      if (!answered) return socket.destroy(new Error('MQTT keep-alive timed out'));
      answered = false;
      this.ping(keepaliveMs).then(
        () => (answered = true),
        () => undefined,
      );
    }, keepaliveMs / 2).unref();
    this.options.onStateChange?.('connected');
    const reconnected = this.everConnected;
    this.everConnected = true;
    if (reconnected) {
      void this.sendSubscribe([...this.subscriptions.values()])
        .then(() => this.options.onReconnect?.())
        .catch((err: Error) => this.options.onStateChange?.('error', err.message));
    }
  }

  private detach(socket: Socket): void {
    if (this.socket !== socket) return;
    this.socket = null;
    // What the lost connection had in hand is the broker's again.
    this.inHand = 0;
    this.paused = false;
    clearInterval(this.keepaliveTimer);
    const lost = new Error('MQTT connection lost');
    for (const pending of this.waiting.values()) pending.reject(lost);
    this.waiting.clear();
    for (const ping of this.pings.splice(0)) ping.reject(lost);
    if (this.closed) return;
    this.options.onStateChange?.('reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.reconnectTimer = setTimeout(() => {
      if (this.closed) return;
      this.open(10_000).catch((err: Error) => {
        this.options.onStateChange?.('error', err.message);
        this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
        this.scheduleReconnect();
      });
    }, this.reconnectDelay);
  }

  private handle(packet: Packet): void {
    switch (packet.cmd) {
      case 'publish':
        return this.deliver(packet);
      case 'suback':
      case 'unsuback': {
        const pending = packet.messageId === undefined ? undefined : this.waiting.get(packet.messageId);
        if (!pending || packet.messageId === undefined) return;
        this.waiting.delete(packet.messageId);
        pending.resolve(packet);
        return;
      }
      case 'pingresp':
        this.pings.shift()?.resolve(packet);
        return;
      case 'disconnect':
        this.socket?.destroy(new Error(`MQTT broker disconnected (reason ${packet.reasonCode ?? 0})`));
        return;
      default:
        return;
    }
  }

  private deliver(packet: IPublishPacket): void {
    const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
    if (packet.qos === 0 || packet.messageId === undefined) return this.options.onMessage(packet.topic, payload, null);
    const generation = this.generation;
    const messageId = packet.messageId;
    let acked = false;
    if (++this.inHand >= this.options.receiveMaximum && !this.paused) {
      this.paused = true;
      this.socket?.pause();
    }
    this.options.onMessage(packet.topic, payload, () => {
      if (acked || generation !== this.generation) return;
      acked = true;
      this.write({ cmd: 'puback', messageId, reasonCode: 0 });
      if (--this.inHand <= this.options.receiveMaximum / 2 && this.paused) {
        this.paused = false;
        this.socket?.resume();
      }
    });
  }

  private async sendSubscribe(subscriptions: readonly IntakeSubscription[]): Promise<void> {
    if (subscriptions.length === 0) return;
    const messageId = this.packetId();
    const answer = await this.request(messageId, {
      cmd: 'subscribe',
      messageId,
      subscriptions: subscriptions.map((s) => ({ topic: s.topic, qos: s.qos, rh: s.rh ?? 0, nl: false, rap: false })),
    });
    const refused = answer.cmd === 'suback' ? answer.granted.filter((code) => typeof code === 'number' && code >= 0x80) : [];
    if (refused.length > 0) throw new Error(`MQTT broker refused subscriptions (reason ${refused.join(', ')})`);
  }

  private request(messageId: number, packet: Packet): Promise<Packet> {
    return new Promise((resolve, reject) => {
      this.waiting.set(messageId, { resolve, reject });
      if (!this.write(packet)) {
        this.waiting.delete(messageId);
        reject(new Error('MQTT connection is down'));
      }
    });
  }

  /** Packets written in one turn of the event loop (a batch's acks) leave together. */
  private write(packet: Packet): boolean {
    const socket = this.socket;
    if (!socket) return false;
    if (!this.corked) {
      this.corked = true;
      socket.cork();
      process.nextTick(() => {
        this.corked = false;
        socket.uncork();
      });
    }
    socket.write(mqttPacket.generate(packet, PROTOCOL));
    return true;
  }

  private packetId(): number {
    const id = this.nextPacketId;
    this.nextPacketId = id >= 65535 ? 1 : id + 1;
    return id;
  }
}
