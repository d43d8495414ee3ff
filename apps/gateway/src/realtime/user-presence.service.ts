import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RedisService } from '../infra/redis.service';

/** A socket's entry counts this long after its gateway last renewed it (a gateway that died stops renewing). */
const ENTRY_TTL_MS = 90_000;
const RENEW_EVERY_MS = 30_000;

/**
 * Who has a console open, across every gateway replica: each replica keeps its users' sockets in Redis (a sorted set
 * per user, scored by when it last renewed them). When a user's last socket closes and no other opens within the
 * grace (a reload, a network blip), the listeners hear that the user left (the alarm intercom takes its agent
 * offline). A replica that dies stops renewing its entries, which then no longer count.
 */
@Injectable()
export class UserPresence implements OnApplicationShutdown {
  private readonly logger = new Logger(UserPresence.name);
  private readonly local = new Map<number, Set<string>>();
  private readonly listeners: ((userId: number) => void)[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly renewer: NodeJS.Timeout;

  constructor(
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.renewer = setInterval(() => void this.renew(), RENEW_EVERY_MS).unref();
  }

  private key(userId: number): string {
    return this.redis.key('presence', userId);
  }

  onLeft(listener: (userId: number) => void): void {
    this.listeners.push(listener);
  }

  connected(userId: number, socketId: string): void {
    let sockets = this.local.get(userId);
    if (!sockets) this.local.set(userId, (sockets = new Set()));
    sockets.add(socketId);
    this.redis.client.zadd(this.key(userId), Date.now(), socketId).catch((err: Error) => this.logger.warn(`presence not written: ${err.message}`));
  }

  disconnected(userId: number, socketId: string): void {
    const sockets = this.local.get(userId);
    sockets?.delete(socketId);
    if (sockets?.size === 0) this.local.delete(userId);
    this.redis.client.zrem(this.key(userId), socketId).catch((err: Error) => this.logger.warn(`presence not written: ${err.message}`));
    if (this.listeners.length === 0) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.present(userId).then(
        (present) => {
          if (!present) for (const listener of this.listeners) listener(userId);
        },
        (err: Error) => this.logger.warn(`presence not read: ${err.message}`),
      );
    }, this.config.presenceGraceMs).unref();
    this.timers.add(timer);
  }

  /** Whether the user has a console open on any replica. */
  async present(userId: number): Promise<boolean> {
    if (this.local.has(userId)) return true;
    const key = this.key(userId);
    await this.redis.client.zremrangebyscore(key, '-inf', Date.now() - ENTRY_TTL_MS);
    return (await this.redis.client.zcard(key)) > 0;
  }

  private async renew(): Promise<void> {
    const now = Date.now();
    for (const [userId, sockets] of this.local) {
      await this.redis.client.zadd(this.key(userId), ...[...sockets].flatMap((id) => [now, id])).catch(() => undefined);
      await this.redis.client.pexpire(this.key(userId), ENTRY_TTL_MS * 2).catch(() => undefined);
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.renewer);
    for (const timer of this.timers) clearTimeout(timer);
  }
}
