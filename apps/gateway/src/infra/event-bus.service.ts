import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BusEventName, BusEvents } from '@sc/contracts';
import { RedisBus } from '@sc/messaging';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RedisService } from './redis.service';

/**
 * The gateway's side of the event bus (Redis pub/sub): what an operator changed is announced as the workers announce
 * what devices changed, so every console on every replica follows. A publish that fails is logged, never thrown: the
 * change is stored, and a console that missed the event reads it again when it reconnects.
 */
@Injectable()
export class EventBus {
  private readonly logger = new Logger(EventBus.name);
  private readonly bus: RedisBus;

  constructor(@Inject(APP_CONFIG) config: AppConfig, redis: RedisService) {
    this.bus = new RedisBus(redis.client, config.redisPrefix);
  }

  publish<E extends BusEventName>(event: E, payload: BusEvents[E]): void {
    this.bus.publish(event, payload).catch((err: Error) => this.logger.warn(`${event} not published: ${err.message}`));
  }
}
