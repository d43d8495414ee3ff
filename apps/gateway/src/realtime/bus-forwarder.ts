import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { FAMILY_EVENT_ROLES, Role, type BusEventName, type BusEvents, type ServerToClientEvents } from '@sc/contracts';
import { RedisBus } from '@sc/messaging';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RedisService } from '../infra/redis.service';
import { RealtimeGateway } from './realtime.gateway';

/**
 * Forwards the workers' bus events (Redis pub/sub) to the sockets allowed to see them: under the same name, to the
 * role rooms of the event's device family (FAMILY_EVENT_ROLES; administrators always). Sockets join their role rooms
 * at the handshake, so nobody has to ask for anything. Every gateway process forwards to its own sockets.
 */
@Injectable()
export class BusForwarder implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(BusForwarder.name);
  private readonly bus: RedisBus;
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
    // ioredis re-subscribes after a reconnect; a Redis that is down at start only delays the subscription.
    this.ready = this.bus
      .subscribe(this.config.redisUrl, {
        DeviceStateChanged: (payload) => this.forward('DeviceStateChanged', payload),
        DispatchProgress: (payload) => this.forward('DispatchProgress', payload),
        AlarmChanged: (payload) => this.forward('AlarmChanged', payload),
      })
      .catch((err: unknown) => this.logger.warn(`Could not subscribe to the event bus: ${(err as Error).message}`));
  }

  private forward<E extends BusEventName>(event: E, payload: BusEvents[E]): void {
    // Only our own workers publish, but a payload without a family cannot be addressed to anyone.
    if (typeof payload?.family !== 'string') return;
    const roles = new Set<string>([Role.Admin, ...(FAMILY_EVENT_ROLES[payload.family] ?? [])]);
    const args = [payload] as Parameters<ServerToClientEvents[E]>;
    this.realtime.sendToRoles([...roles], event, ...args);
  }

  async onModuleDestroy(): Promise<void> {
    await this.bus.close();
  }
}
