import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ResultCode } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RedisService } from '../infra/redis.service';

/**
 * Checks every counter against its limit and, when the attempt may go ahead, counts it as a failure on each, in one
 * atomic step. Answers 0 when allowed, otherwise the seconds until the blocking counter expires.
 * KEYS: the counters. ARGV: one limit per counter, then the window in seconds.
 */
const ACQUIRE = `
local window = tonumber(ARGV[#KEYS + 1])
local blocked = 0
for i = 1, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') >= tonumber(ARGV[i]) then
    local ttl = redis.call('TTL', KEYS[i])
    if ttl < 1 then ttl = window end
    if ttl > blocked then blocked = ttl end
  end
end
if blocked > 0 then return blocked end
for i = 1, #KEYS do
  if redis.call('INCR', KEYS[i]) == 1 or redis.call('TTL', KEYS[i]) < 0 then redis.call('EXPIRE', KEYS[i], window) end
end
return 0
`;

/** A correct password: forget the user name's failures and give back the attempt counted against the address. */
const RELEASE = `
redis.call('DEL', KEYS[1])
if KEYS[2] then
  local n = tonumber(redis.call('GET', KEYS[2]) or '0')
  if n > 1 then redis.call('DECR', KEYS[2]) elseif n == 1 then redis.call('DEL', KEYS[2]) end
end
return 0
`;

/**
 * Counts failed sign-ins per user name (existing or not) and per client address in Redis,
 * so every gateway replica sees the same counts. Each counter's window starts at its first failure.
 * An attempt is counted before its password is checked (and given back when it was right), so attempts
 * sent in parallel cannot all slip past the limit while the slow password hash runs.
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

  /** Refuses the attempt with 429 when a limit is reached; otherwise counts it as a failure until recordSuccess. */
  async assertAllowed(username: string, ip: string): Promise<void> {
    const { maxFailuresPerUser, maxFailuresPerIp } = this.config.login;
    await this.acquire(this.keys(username, ip), [maxFailuresPerUser, maxFailuresPerIp]);
  }

  async recordSuccess(username: string, ip: string): Promise<void> {
    await this.redis.client.eval(RELEASE, 2, ...this.keys(username, ip));
  }

  /**
   * The same limit on guesses of a signed-in user's current password (changing it), so a stolen session cannot be
   * used to find the password by trying.
   */
  async assertPasswordCheckAllowed(userId: number): Promise<void> {
    await this.acquire([this.passwordCheckKey(userId)], [this.config.login.maxFailuresPerUser]);
  }

  async passwordCheckPassed(userId: number): Promise<void> {
    await this.redis.client.eval(RELEASE, 1, this.passwordCheckKey(userId));
  }

  private passwordCheckKey(userId: number): string {
    return this.redis.key('password-check-fail', 'user', userId);
  }

  private async acquire(keys: string[], limits: number[]): Promise<void> {
    const blockedSeconds = Number(await this.redis.client.eval(ACQUIRE, keys.length, ...keys, ...limits, this.config.login.windowSeconds));
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
}
