import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ResultCode } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RedisService } from '../infra/redis.service';

/**
 * Counts failed sign-ins per user name (existing or not) and per client address in Redis,
 * so every gateway replica sees the same counts. Each counter's window starts at its first failure.
 */
@Injectable()
export class LoginThrottleService {
  constructor(
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private keys(username: string, ip: string): [string, string] {
    return [this.redis.key('login-fail', 'user', username.toLowerCase()), this.redis.key('login-fail', 'ip', ip)];
  }

  async assertAllowed(username: string, ip: string): Promise<void> {
    const [userKey, ipKey] = this.keys(username, ip);
    const [[, userCount], [, ipCount], [, userTtl], [, ipTtl]] = (await this.redis.client
      .multi()
      .get(userKey)
      .get(ipKey)
      .ttl(userKey)
      .ttl(ipKey)
      .exec()) as [unknown, string | null][] & [unknown, number][];
    const { maxFailuresPerUser, maxFailuresPerIp } = this.config.login;
    const blockedSeconds = Math.max(
      Number(userCount ?? 0) >= maxFailuresPerUser ? Number(userTtl) : 0,
      Number(ipCount ?? 0) >= maxFailuresPerIp ? Number(ipTtl) : 0,
    );
    if (blockedSeconds > 0) {
      throw new AppException(
        HttpStatus.TOO_MANY_REQUESTS,
        ResultCode.TooManyRequests,
        'tooManyLoginAttempts',
        { minutes: Math.max(1, Math.ceil(blockedSeconds / 60)) },
        [],
        { 'Retry-After': String(blockedSeconds) },
      );
    }
  }

  async recordFailure(username: string, ip: string): Promise<void> {
    const window = this.config.login.windowSeconds;
    const multi = this.redis.client.multi();
    for (const key of this.keys(username, ip)) {
      multi.incr(key);
      multi.expire(key, window, 'NX');
    }
    await multi.exec();
  }

  async recordSuccess(username: string): Promise<void> {
    await this.redis.client.del(this.keys(username, '')[0]);
  }
}
