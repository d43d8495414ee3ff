import { HttpStatus } from '@nestjs/common';
import { ResultCode } from '@sc/contracts';
import type { MessageKey } from '@sc/i18n';
import { AppException } from '../common/app-exception';

/**
 * One slot per user for a costly piece of work on an upload (reading a workbook, probing a video), and at most `max`
 * users at once in the process: a second request of the same user, or one past the process's bound, is refused at once
 * with a translated 429, so nothing queues up in memory. Keep one instance per kind of work, at module level: every
 * Nest instance of a service then shares the same slots.
 */
export class UserSlots {
  private readonly busy = new Set<number>();

  constructor(private readonly keys: { user: MessageKey; server: MessageKey }) {}

  /** Takes the user's slot (refused when taken, or when `max` users hold one); answers its release. */
  take(userId: number, max: number): () => void {
    if (this.busy.has(userId)) throw this.refusal(this.keys.user);
    if (this.busy.size >= max) throw this.refusal(this.keys.server);
    this.busy.add(userId);
    return () => this.busy.delete(userId);
  }

  private refusal(key: MessageKey): AppException {
    return new AppException(HttpStatus.TOO_MANY_REQUESTS, ResultCode.TooManyRequests, key);
  }
}
