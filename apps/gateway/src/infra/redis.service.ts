import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** The gateway's one Redis connection. Keys go through `key()` so every one carries the installation prefix. */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  private readonly logger = new Logger(RedisService.name);
  readonly client: Redis;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.client = new Redis(config.redisUrl, {
      lazyConnect: false,
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.client.on('error', (err: Error) => this.logger.warn(`Redis: ${err.message}`));
  }

  key(...parts: (string | number)[]): string {
    return this.config.redisPrefix + parts.join(':');
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  /** After the HTTP server has closed, so requests still in flight can finish. */
  async onApplicationShutdown(): Promise<void> {
    // quit() waits for the server; when it is not connected, nothing is pending that needs it.
    if (this.client.status === 'ready') await this.client.quit().catch(() => this.client.disconnect());
    else this.client.disconnect();
  }
}
