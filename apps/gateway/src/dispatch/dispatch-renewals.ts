import { Injectable } from '@nestjs/common';

/** What a family's action carries, made fresh for a retry (its file links signed again, say). */
export type RenewParams<P> = (params: P, now: number) => P;

/**
 * What each family's action renews before its failed rows are sent again (DispatchService.retryFailed, whichever
 * route asks): the services whose commands carry signed file links register how to sign them again, so a retry
 * never sends a link that has expired in the meantime.
 */
@Injectable()
export class DispatchRenewals {
  private readonly renewals = new Map<string, RenewParams<unknown>>();

  register<P>(family: string, action: string, renew: RenewParams<P>): void {
    this.renewals.set(`${family}/${action}`, renew as RenewParams<unknown>);
  }

  of(family: string, action: string): RenewParams<unknown> | undefined {
    return this.renewals.get(`${family}/${action}`);
  }
}
