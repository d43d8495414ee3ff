import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import {
  Button,
  DeviceFamily,
  DispatchItemState,
  DispatchStatus,
  JobName,
  QUEUE_OF_JOB,
  dispatchStatusOf,
  type DispatchCounts,
  type DispatchDetail,
  type DispatchItemRow,
} from '@sc/contracts';
import { AppException } from '../common/app-exception';
import type { Caller } from '../common/request-context';
import { InjectDb } from '../infra/database';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** The job that hands a family's dispatches to its worker. */
const DISPATCH_JOB: Partial<Record<DeviceFamily, JobName>> = {
  [DeviceFamily.Lamp]: JobName.DistributeLampDispatch,
  // Strip lights share the lighting worker's queue: the job names only the dispatch, the worker reads its family.
  [DeviceFamily.Strip]: JobName.DistributeLampDispatch,
};

/** The button an action needs (spec section 6): the same for a first send and for a retry. */
export const CONTROL_BUTTONS: Partial<Record<DeviceFamily, Readonly<Record<string, Button>>>> = {
  // The spec names no dimming button: changing the light level falls under "Open and close".
  [DeviceFamily.Lamp]: {
    on: Button.OpenLamp,
    off: Button.CloseLamp,
    dim: Button.OpenAndClose,
    sync: Button.SyncData,
    // Distributing a strategy decides when lamps open and close.
    schedule: Button.OpenAndClose,
  },
  // Strip effects: -1 on and -2 off are Open lamp and Close lamp; switching and every other effect is Open and close.
  [DeviceFamily.Strip]: {
    on: Button.OpenLamp,
    off: Button.CloseLamp,
    switch: Button.OpenAndClose,
    breathing: Button.OpenAndClose,
    flash: Button.OpenAndClose,
    colour: Button.OpenAndClose,
    // A strip strategy decides when strips light, as a lamp strategy does.
    schedule: Button.OpenAndClose,
  },
};

/** Where each family records the schedule its devices should run (job_list), for the families that take schedules. */
export const SCHEDULE_HOLDERS: Partial<Record<DeviceFamily, string>> = {
  [DeviceFamily.Lamp]: 'lamp',
  [DeviceFamily.Strip]: 'strip_light',
};

/** What an item replaced by a newer schedule shows as its last error. */
export const SUPERSEDED = 'superseded';

/** The job id of one hand-over of a dispatch: adding it twice (a relay that crashed before deleting its row) is a no-op. */
export function dispatchJobId(job: JobName, dispatchId: string, round: number): string {
  return `${job}:${dispatchId}:${round}`;
}

export interface NewDispatch {
  family: DeviceFamily;
  action: string;
  params: Record<string, unknown>;
  createdBy: string;
  deviceIds: readonly number[];
  /** Per-device command parameters, in the order of deviceIds, for commands that differ by device (a lamp's schedule). */
  itemParams?: readonly unknown[];
}

export interface RetryResult {
  dispatchId: string;
  /** How many failed or expired commands were queued again. */
  retried: number;
}

function emptyCounts(): DispatchCounts {
  return Object.fromEntries(Object.values(DispatchItemState).map((s) => [s, 0])) as DispatchCounts;
}

/**
 * The command ledger as the gateway writes it: a dispatch, one queued item per target device, and the outbox row
 * that hands it to the family's worker, all in the caller's transaction so they cannot come apart. Everything after
 * (sending, acks, expiry, the devices' status) belongs to the worker.
 */
@Injectable()
export class DispatchService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  assertMayControl(caller: Caller, family: DeviceFamily, action: string): void {
    const button = CONTROL_BUTTONS[family]?.[action];
    if (!button || !caller.buttons.includes(button)) throw AppException.forbidden();
  }

  async create(tx: EntityManager, dispatch: NewDispatch): Promise<string> {
    const id = randomUUID();
    await tx.query(
      `INSERT INTO dispatch (id, family, action, params, created_by, expires_at) VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [id, dispatch.family, dispatch.action, JSON.stringify(dispatch.params), dispatch.createdBy, this.config.dispatchTtlSeconds],
    );
    if (dispatch.itemParams) {
      await tx.query(
        `INSERT INTO dispatch_item (dispatch_id, device_id, command_id, params)
         SELECT $1, t.device_id, gen_random_uuid(), t.params FROM unnest($2::int[], $3::jsonb[]) AS t(device_id, params)`,
        [id, dispatch.deviceIds, dispatch.itemParams.map((p) => JSON.stringify(p))],
      );
    } else {
      await tx.query(
        `INSERT INTO dispatch_item (dispatch_id, device_id, command_id) SELECT $1, device_id, gen_random_uuid() FROM unnest($2::int[]) AS device_id`,
        [id, dispatch.deviceIds],
      );
    }
    await this.handOver(tx, dispatch.family, id, 1);
    return id;
  }

  async detail(id: string): Promise<DispatchDetail> {
    const [dispatch]: Omit<DispatchDetail, 'status' | 'counts' | 'total' | 'items'>[] = await this.db.query(
      `SELECT id, family, action, params, created_by AS "createdBy", created_at AS "createdAt", expires_at AS "expiresAt"
         FROM dispatch WHERE id = $1`,
      [id],
    );
    if (!dispatch) throw AppException.notFound();
    const items: DispatchItemRow[] = await this.db.query(
      `SELECT i.device_id AS "deviceId", d.code AS "deviceCode", d.name AS "deviceName", i.state, i.attempts,
              i.last_error AS "lastError", i.updated_at AS "updatedAt"
         FROM dispatch_item i JOIN device d ON d.id = i.device_id
        WHERE i.dispatch_id = $1
        ORDER BY i.device_id`,
      [id],
    );
    const counts = emptyCounts();
    for (const item of items) counts[item.state] += 1;
    return { ...dispatch, status: dispatchStatusOf(counts), counts, total: items.length, items };
  }

  /**
   * Before a new schedule goes to these devices, in the distributing transaction: expires the still-open (queued or
   * sent) items of the family's earlier schedule dispatches to them, so the worker neither sends nor re-sends an older
   * schedule after the newer one (it only takes queued rows, and re-sends only sent ones). Schedule distributions
   * and schedule retries of a family take turns (an advisory lock), so each sees what the one before it committed.
   * Items are locked in a fixed order before the lamps are touched, as the worker does.
   */
  async supersedeSchedules(tx: EntityManager, family: DeviceFamily, deviceIds: readonly number[]): Promise<number> {
    await this.lockSchedules(tx, family);
    const [, expired] = (await tx.query(
      `WITH open AS (
         SELECT i.dispatch_id, i.device_id FROM dispatch_item i JOIN dispatch d ON d.id = i.dispatch_id
          WHERE i.device_id = ANY($1::int[]) AND i.state IN ($3, $4) AND d.family = $2 AND d.action = 'schedule'
          ORDER BY i.dispatch_id, i.device_id FOR UPDATE OF i)
       UPDATE dispatch_item i SET state = $5, last_error = $6, next_attempt_at = NULL, updated_at = now()
         FROM open WHERE i.dispatch_id = open.dispatch_id AND i.device_id = open.device_id AND i.state IN ($3, $4)`,
      [deviceIds, family, DispatchItemState.Queued, DispatchItemState.Sent, DispatchItemState.Expired, SUPERSEDED],
    )) as [unknown, number];
    return expired;
  }

  private async lockSchedules(tx: EntityManager, family: DeviceFamily): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`sc:schedule:${family}`]);
  }

  /**
   * Queues the failed and expired commands of a dispatch again, with new command ids (a device must not take a retry
   * for the command it already answered), their attempts kept, and the batch given another expiry period.
   * A schedule is sent again only to devices whose record still holds it: one that has been given another schedule
   * since keeps that one (otherwise the device would run the old schedule while the console shows the new one).
   */
  async retryFailed(caller: Caller, id: string): Promise<RetryResult> {
    return this.db.transaction(async (tx) => {
      const [dispatch]: { family: DeviceFamily; action: string }[] = await tx.query(`SELECT family, action FROM dispatch WHERE id = $1 FOR UPDATE`, [
        id,
      ]);
      if (!dispatch) throw AppException.notFound();
      this.assertMayControl(caller, dispatch.family, dispatch.action);
      const holder = dispatch.action === 'schedule' ? SCHEDULE_HOLDERS[dispatch.family] : undefined;
      if (holder) await this.lockSchedules(tx, dispatch.family);
      const stillHeld = holder
        ? `AND EXISTS (SELECT 1 FROM ${holder} h WHERE h.device_id = dispatch_item.device_id AND h.job_list = dispatch_item.params)`
        : '';
      const [, retried] = (await tx.query(
        `UPDATE dispatch_item SET state = $2, command_id = gen_random_uuid(), next_attempt_at = NULL, updated_at = now()
          WHERE dispatch_id = $1 AND state IN ($3, $4) ${stillHeld}`,
        [id, DispatchItemState.Queued, DispatchItemState.Failed, DispatchItemState.Expired],
      )) as [unknown, number];
      if (!retried) {
        const [{ unanswered }]: { unanswered: number }[] = await tx.query(
          `SELECT count(*)::int AS unanswered FROM dispatch_item WHERE dispatch_id = $1 AND state IN ($2, $3)`,
          [id, DispatchItemState.Failed, DispatchItemState.Expired],
        );
        throw AppException.badRequest(unanswered > 0 ? 'retrySuperseded' : 'nothingToRetry');
      }
      await tx.query(
        `UPDATE dispatch SET expires_at = greatest(expires_at, now()) + make_interval(secs => $2), finished_at = NULL, status = $3 WHERE id = $1`,
        [id, this.config.dispatchTtlSeconds, DispatchStatus.ToBeSent],
      );
      // Each hand-over needs a job id of its own (the first job may still be kept as completed); the dispatch row is
      // locked, so two retries of one dispatch never share a millisecond.
      await this.handOver(tx, dispatch.family, id, Date.now());
      return { dispatchId: id, retried };
    });
  }

  private async handOver(tx: EntityManager, family: DeviceFamily, dispatchId: string, round: number): Promise<void> {
    const job = DISPATCH_JOB[family];
    if (!job) throw new Error(`No dispatch job for the device family "${family}"`);
    await tx.query(`INSERT INTO outbox (queue, job_name, job_id, payload) VALUES ($1, $2, $3, $4)`, [
      QUEUE_OF_JOB[job],
      job,
      dispatchJobId(job, dispatchId, round),
      JSON.stringify({ dispatchId }),
    ]);
  }
}
