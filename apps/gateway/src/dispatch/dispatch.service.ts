import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { controlButton, familyDeclaration, familyEventRoles, type DispatchDetail, type DispatchDetailQuery } from '@sc/contracts';
import { commandLedger } from '@sc/device-runtime';
import { AppException } from '../common/app-exception';
import type { Caller } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { InjectDb } from '../infra/database';
import { sqlOf } from '../infra/sql';
import { DispatchRenewals } from './dispatch-renewals';

export interface RetryResult {
  dispatchId: string;
  /** How many failed or expired commands were queued again. */
  retried: number;
}

/** The button check of a control action (spec section 6): the family declares the button each action needs. */
export function assertMayControl(caller: Caller, family: string, action: string): void {
  const button = controlButton(family, action);
  if (!button || !caller.buttons.includes(button) || !maySeeFamily(caller, family)) throw AppException.forbidden();
}

/** Whether the caller's roles open the family's pages (the roles that receive its live events). */
export function maySeeFamily(caller: Caller, family: string): boolean {
  return familyEventRoles(family).some((role) => caller.roles.includes(role));
}

/** A dispatch's progress, and sending its failed commands again: the gateway's reads and retries of the command ledger. */
@Injectable()
export class DispatchService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly renewals: DispatchRenewals,
  ) {}

  async detail(caller: Caller, query: DispatchDetailQuery): Promise<DispatchDetail> {
    // One snapshot: the counts and the rows of a page agree, however fast the rows move.
    const detail = await this.db.transaction('REPEATABLE READ', (tx) => commandLedger.detail(sqlOf(tx), query));
    if (!detail) throw AppException.notFound();
    if (!maySeeFamily(caller, detail.family)) throw AppException.forbidden();
    return detail;
  }

  /**
   * Queues the failed and expired commands of a dispatch again, with new command ids, and gives the batch another
   * expiry period; the same button as the original action is needed. A schedule is sent again only to devices whose
   * record still holds it: one that has been given another schedule since keeps that one (otherwise the device would
   * run the old schedule while the console shows the new one). What the rows carry is renewed first when the family's
   * action registered how (DispatchRenewals: fresh file links), in the same transaction.
   */
  async retryFailed(caller: Caller, id: string): Promise<RetryResult> {
    return this.db.transaction(async (tx) => {
      const sql = sqlOf(tx);
      const dispatch = await commandLedger.lock(sql, id);
      if (!dispatch) throw AppException.notFound();
      assertMayControl(caller, dispatch.family, dispatch.action);
      const declaration = familyDeclaration(dispatch.family);
      if (!declaration) throw AppException.notFound();
      const holder = dispatch.action === 'schedule' ? declaration.table : undefined;
      if (holder) await commandLedger.lockSchedules(sql, dispatch.family);
      const renew = this.renewals.of(dispatch.family, dispatch.action);
      if (renew) {
        const now = Date.now();
        await commandLedger.renewParams(sql, id, (params) => renew(params, now));
      }
      const retried = await commandLedger.requeueFailed(sql, id, holder);
      if (!retried) throw AppException.badRequest((await commandLedger.unanswered(sql, id)) > 0 ? 'retrySuperseded' : 'nothingToRetry');
      await commandLedger.reopen(sql, id, this.config.dispatchTtlSeconds);
      // Each hand-over needs a job id of its own (the first job may still be kept as completed); the dispatch row is
      // locked, so two retries of one dispatch never share a millisecond.
      await commandLedger.handOver(sql, declaration, id, Date.now());
      return { dispatchId: id, retried };
    });
  }
}
