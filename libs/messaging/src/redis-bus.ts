import Redis, { type RedisOptions } from 'ioredis';
import type { BusEventName, BusEvents } from '@sc/contracts';
import { busChannel } from './naming';

export type BusHandlers = { [E in BusEventName]?: (payload: BusEvents[E]) => void };

/**
 * Typed events over Redis pub/sub (libs/contracts BusEvents). Workers publish; the gateway subscribes and forwards
 * to sockets. Pub/sub delivers to whoever listens at that moment: a client that reconnects resynchronises from the
 * database, never from the bus.
 */
export class RedisBus {
  private subscriber: Redis | null = null;

  constructor(
    private readonly publisher: Redis,
    private readonly redisPrefix: string,
  ) {}

  async publish<E extends BusEventName>(event: E, payload: BusEvents[E]): Promise<void> {
    await this.publisher.publish(busChannel(this.redisPrefix, event), JSON.stringify(payload));
  }

  /** Subscribes on a connection of its own (a subscribed connection can do nothing else). */
  async subscribe(url: string, handlers: BusHandlers, options: RedisOptions = {}): Promise<void> {
    if (this.subscriber) throw new Error('RedisBus: already subscribed');
    const subscriber = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: (n) => Math.min(n * 200, 2000), ...options });
    this.subscriber = subscriber;
    subscriber.on('error', () => undefined);
    const byChannel = new Map<string, (payload: never) => void>();
    for (const [event, handler] of Object.entries(handlers) as [BusEventName, (payload: never) => void][]) {
      byChannel.set(busChannel(this.redisPrefix, event), handler);
    }
    subscriber.on('message', (channel: string, message: string) => {
      const handler = byChannel.get(channel);
      if (!handler) return;
      let payload: unknown;
      try {
        payload = JSON.parse(message);
      } catch {
        return;
      }
      handler(payload as never);
    });
    // ioredis re-subscribes by itself after a reconnect.
    await subscriber.subscribe(...byChannel.keys());
  }

  async close(): Promise<void> {
    this.subscriber?.disconnect();
    this.subscriber = null;
  }
}
