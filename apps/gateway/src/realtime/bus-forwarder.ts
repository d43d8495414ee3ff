import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import {
  BUS_EVENT_NAMES,
  isFamilyName,
  type BusEventName,
  type BusEvents,
  type DeviceChange,
  type DeviceStateChangedEvent,
  type FamilyName,
  type ServerToClientEvents,
} from '@sc/contracts';
import { RedisBus, type BusHandlers } from '@sc/messaging';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RedisService } from '../infra/redis.service';
import { RealtimeGateway } from './realtime.gateway';

/**
 * Forwards the workers' bus events (Redis pub/sub) to the sockets watching them: under the same name, to the room of
 * the event's feed (the event and its device family), which a socket joins only for families its roles may see.
 * Every gateway process forwards to its own sockets.
 *
 * Device states are coalesced: a family's changes are gathered for one push frame (PUSH_FRAME_MS) and sent as one
 * event holding the latest fields of each device that changed, so a browser gets at most one message per family per
 * frame however fast devices report. A family nobody watches here is not gathered at all.
 */
@Injectable()
export class BusForwarder implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(BusForwarder.name);
  private readonly bus: RedisBus;
  private readonly frames = new Map<FamilyName, Map<number, DeviceChange>>();
  private frameTimer: NodeJS.Timeout | null = null;
  /** Settles once the subscription is in place (or failed); start-up does not wait for it. */
  ready: Promise<void> = Promise.resolve();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    redis: RedisService,
    private readonly realtime: RealtimeGateway,
  ) {
    this.bus = new RedisBus(redis.client, config.redisPrefix);
  }

  onApplicationBootstrap(): void {
    const handlers = Object.fromEntries(BUS_EVENT_NAMES.map((event) => [event, (payload: never) => this.receive(event, payload)])) as BusHandlers;
    // ioredis re-subscribes after a reconnect; a Redis that is down at start only delays the subscription.
    this.ready = this.bus
      .subscribe(this.config.redisUrl, handlers)
      .catch((err: unknown) => this.logger.warn(`Could not subscribe to the event bus: ${(err as Error).message}`));
  }

  private receive<E extends BusEventName>(event: E, payload: BusEvents[E]): void {
    // Only our own workers publish, but a payload without a known family cannot be addressed to anyone.
    const family = (payload as { family?: unknown } | null)?.family;
    if (!isFamilyName(family) || !this.realtime.isWatched({ event, family })) return;
    if (event === 'DeviceStateChanged') return this.gather(payload as DeviceStateChangedEvent);
    this.realtime.sendToWatchers(event, family, ...([payload] as never as Parameters<ServerToClientEvents[E]>));
  }

  private gather(event: DeviceStateChangedEvent): void {
    if (!Array.isArray(event.changes)) return;
    let frame = this.frames.get(event.family);
    if (!frame) this.frames.set(event.family, (frame = new Map()));
    for (const change of event.changes as DeviceChange[]) {
      const held = frame.get(change.recordId);
      if (held) Object.assign(held.changed, change.changed);
      else frame.set(change.recordId, { recordId: change.recordId, deviceCode: change.deviceCode, changed: { ...change.changed } });
    }
    this.frameTimer ??= setTimeout(() => this.push(), this.config.pushFrameMs);
  }

  /** Sends each family's gathered changes as one event. */
  private push(): void {
    this.frameTimer = null;
    const at = new Date().toISOString();
    for (const [family, frame] of this.frames) {
      this.frames.delete(family);
      if (frame.size === 0) continue;
      this.realtime.sendToWatchers('DeviceStateChanged', family, { family, changes: [...frame.values()], at } as DeviceStateChangedEvent);
    }
  }

  async onModuleDestroy(): Promise<void> {
    if (this.frameTimer) clearTimeout(this.frameTimer);
    await this.bus.close();
  }
}
