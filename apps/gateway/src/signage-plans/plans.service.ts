import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import {
  AdAuditStatus,
  AdPlanStatus,
  AdPlayMode,
  AdPublishMode,
  PublishType,
  SIGNAGE_FAMILY,
  OnlineState,
  WEEKDAYS,
  adPlanConflicts,
  adPlanOccurrences,
  adPlanProblems,
  adReceiveStatusOf,
  emptyReceiveCounts,
  type AdPlanCalendarEntry,
  type AdPlanDetail,
  type AdPlanPage,
  type AdPlanReceiver,
  type AdPlanReceiversPage,
  type AdPlanRequest,
  type AdPlanRow,
  type AdPlanSchedule,
  type AdReceiveCounts,
  type AdZoneItem,
  type DispatchItemState,
  type DispatchRowChange,
  type LampControlResult,
  type ReceiptStage,
  type ScreenOrientation,
  type SignagePlanAd,
  type SignagePublishParams,
} from '@sc/contracts';
import { commandLedger } from '@sc/device-runtime';
import type { MessageKey } from '@sc/i18n';
import { adPlanSchedule, schedulesTimeStatus } from '@sc/schedule';
import { AppException } from '../common/app-exception';
import { devicesByIds } from '../common/device-selection';
import type { Caller } from '../common/request-context';
import { shownList } from '../common/shown-list';
import { Where, likeContains, newestFirstPage } from '../common/sql';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DeviceControlService, type DeviceSelection, type DispatchContent } from '../dispatch/device-control.service';
import { DispatchRenewals } from '../dispatch/dispatch-renewals';
import { DispatchService, type RetryResult } from '../dispatch/dispatch.service';
import { InjectDb } from '../infra/database';
import { sqlOf } from '../infra/sql';
import { SIGNAGE_SELECTION } from '../signage/devices.service';
import { lockSignageGroup } from '../signage/signage-groups';
import { MaterialFileLinks } from '../signage-materials/material-links';
import type { AdPlanAddDto, AdPlanCalendarDto, AdPlanEditDto, AdPlanPageDto, AdPlanReceiversDto } from './dto/plans.dto';

/** A plan's wire id on the players (the `publish` command's planId, and their proof of play). */
export const planWireId = (id: number): string => `plan-${id}`;

/** The calendar covers at most this many days and this many plans at a time. */
export const CALENDAR_MAX_DAYS = 62;
const CALENDAR_MAX_PLANS = 500;
const NAMES_SHOWN = 5;

/**
 * Expired once its last day is over on every clock it keeps (`time_zones`: its screens' zones, NULL or none being
 * `timeZone`, the installation's; not the database's own date), else published once sent, else unpublished.
 */
const statusSql = (timeZone: string): string => `CASE
  WHEN p.end_date < ALL (SELECT (now() AT TIME ZONE coalesce(z.zone, '${timeZone.replace(/'/g, "''")}'))::date
                           FROM unnest(CASE WHEN cardinality(p.time_zones) > 0 THEN p.time_zones ELSE '{NULL}'::text[] END) AS z(zone))
    THEN '${AdPlanStatus.Expired}'
  WHEN p.dispatch_id IS NOT NULL THEN '${AdPlanStatus.Published}' ELSE '${AdPlanStatus.Unpublished}' END`;

const planColumns = (
  timeZone: string,
): string => `p.id, p.publish_name AS "publishName", p.publish_mode AS "publishMode", p.device_ids AS "deviceIds",
  p.group_id AS "groupId", g.name AS "groupName", p.ad_ids AS "adIds", p.schedule, p.play_mode AS "playMode",
  p.play_limit_count AS "playLimitCount", p.play_interval_seconds AS "playIntervalSeconds", p.on_demand_type AS "onDemandType",
  p.publish_type AS "publishType", ${statusSql(timeZone)} AS status, cardinality(p.target_ids) AS "targetCount", p.target_ids AS "targetIds",
  p.dispatch_id AS "dispatchId", p.published_at AS "publishedAt", p.published_by AS "publishedBy", to_char(p.end_date, 'YYYY-MM-DD') AS "expiryDate",
  p.creator AS "createdBy", p.created_at AS "createdAt", p.updated_at AS "updatedAt", p.time_zones AS "timeZones",
  ARRAY(SELECT a.name FROM unnest(p.ad_ids) WITH ORDINALITY u(id, n) JOIN signage_ad a ON a.id = u.id ORDER BY u.n) AS "adNames"`;
const PLAN_FROM = `signage_ad_plan p LEFT JOIN signage_group g ON g.id = p.group_id`;

/** A plan as read: its row but its time status, with the screens it went to and the clocks it keeps (NULL: the installation's). */
type StoredPlan = Omit<AdPlanRow, 'timeStatus'> & { targetIds: number[]; timeZones: (string | null)[] };

interface StoredAd {
  id: number;
  name: string;
  orientation: ScreenOrientation;
  totalDuration: number;
  zones: AdZoneItem[][];
  music: number[];
  auditRequired: boolean;
  auditStatus: AdAuditStatus;
}

/** The plan as kept: fields its mode and play mode do not use are dropped, weekdays in order and once each. */
function normalised(dto: AdPlanAddDto): AdPlanRequest {
  const byDevices = dto.publishMode === AdPublishMode.Devices;
  const limited = dto.playMode === AdPlayMode.OnDemand || dto.playMode === AdPlayMode.LimitedLoopInterval;
  const s = dto.schedule;
  return {
    publishName: dto.publishName.trim(),
    publishMode: dto.publishMode,
    deviceIds: byDevices ? [...new Set(dto.deviceIds)] : [],
    groupId: byDevices ? null : (dto.groupId ?? null),
    adIds: dto.publishType === PublishType.Clear ? [] : dto.adIds,
    schedule: {
      startDate: s.startDate,
      endDate: s.endDate,
      allDay: s.allDay === true,
      startTime: s.allDay === true ? null : (s.startTime ?? null),
      endTime: s.allDay === true ? null : (s.endTime ?? null),
      weekdays: WEEKDAYS.filter((d) => s.weekdays?.includes(d)),
    },
    playMode: dto.playMode,
    playLimitCount: limited ? (dto.playLimitCount ?? null) : null,
    playIntervalSeconds: dto.playMode === AdPlayMode.LimitedLoopInterval ? (dto.playIntervalSeconds ?? null) : null,
    onDemandType: dto.playMode === AdPlayMode.OnDemand ? (dto.onDemandType ?? null) : null,
    publishType: dto.publishType,
  };
}

/** A refusal naming every problem of the plan under its field, in the catalogue's words. */
function assertPlan(plan: Partial<Record<keyof AdPlanRequest, unknown>>): void {
  const problems = adPlanProblems(plan);
  if (problems.length > 0)
    throw AppException.badRequest(
      'validationField',
      {},
      problems.map((p) => ({ field: p.field, key: p.key as MessageKey, params: p.params })),
    );
}

/** Every material the ads play (their zones' items and music), once each, in the order met. */
function materialIdsOf(ads: readonly Pick<StoredAd, 'zones' | 'music'>[]): number[] {
  return [...new Set(ads.flatMap((ad) => [...ad.zones.flatMap((zone) => zone.map((item) => item.materialId)), ...ad.music]))];
}

/**
 * Floor-screen ad plans (docs/signage-plans.md): kept as the editor sends them (checked with adPlanProblems, the
 * rules the editor shares), published to their screens as the `publish` command through the command ledger (each
 * screen fetches the ads' materials from signed links and says how far it got), and followed per screen in the spec's
 * receive statuses, which come from the ledger rows and their receipts (adReceiveStatusOf).
 */
@Injectable()
export class AdPlansService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly control: DeviceControlService,
    private readonly dispatches: DispatchService,
    private readonly fileLinks: MaterialFileLinks,
    renewals: DispatchRenewals,
  ) {
    renewals.register(SIGNAGE_FAMILY.family, 'publish', (params: SignagePublishParams, now) => this.renewPublish(params, now));
  }

  /** A `publish` command's params with its file links signed again from `now` (a retry, whichever route asks for it). */
  private renewPublish(params: SignagePublishParams, now: number): SignagePublishParams {
    return {
      ...params,
      files: params.files.map((f) => ({ ...f, url: this.fileLinks.forDevice({ id: f.materialId, sha256: f.sha256, fileSize: f.bytes }, now).url })),
    };
  }

  /** The installation's time zone (the default place's): the clock of screens whose regions name none. */
  private get timeZone(): string {
    return this.config.defaultPlace.timeZone;
  }

  private get columns(): string {
    return planColumns(this.timeZone);
  }

  async page(q: AdPlanPageDto): Promise<AdPlanPage> {
    const where = new Where()
      .addIf(q.publishName, `lower(p.publish_name) LIKE ?`, q.publishName && likeContains(q.publishName))
      .addIf(q.status, `${statusSql(this.timeZone)} = ?`)
      .addIf(q.date, `?::date BETWEEN p.start_date AND p.end_date`);
    const page = await newestFirstPage<StoredPlan>(this.db, { select: this.columns, from: PLAN_FROM, alias: 'p', where }, q);
    const now = new Date();
    return { ...page, list: page.list.map((row) => this.shown(row, now)), timeZone: this.timeZone };
  }

  async detail(id: number): Promise<AdPlanDetail> {
    const stored = await this.stored(this.db.manager, id);
    const targets = await this.targetsOf(this.db.manager, stored);
    return { ...this.shown(stored, new Date()), receiveCounts: await this.receiveCounts(this.db.manager, targets, stored.dispatchId) };
  }

  /** A plan as the console shows it: with its time status on the clocks it keeps (schedulesTimeStatus). */
  private shown({ targetIds: _targets, timeZones, ...plan }: StoredPlan, now: Date): AdPlanRow {
    const zones = timeZones.map((zone) => zone ?? this.timeZone);
    return { ...plan, timeStatus: schedulesTimeStatus([adPlanSchedule(plan.schedule)], now, zones, this.timeZone) };
  }

  private async stored(db: EntityManager, id: number, lock = false): Promise<StoredPlan> {
    const [row]: StoredPlan[] = await db.query(`SELECT ${this.columns} FROM ${PLAN_FROM} WHERE p.id = $1 ${lock ? 'FOR UPDATE OF p' : ''}`, [id]);
    if (!row) throw AppException.notFound('adPlanNotFound');
    return row;
  }

  async add(caller: Caller, dto: AdPlanAddDto): Promise<AdPlanDetail> {
    const id = await this.db.transaction(async (tx) => {
      const plan = await this.checked(tx, dto);
      const [{ id }]: { id: number }[] = await tx.query(
        `INSERT INTO signage_ad_plan (publish_name, publish_mode, device_ids, group_id, ad_ids, schedule, start_date, end_date, play_mode,
                                      play_limit_count, play_interval_seconds, on_demand_type, publish_type, time_zones, created_by, creator)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id`,
        [...planValues(plan), await this.namedClocks(tx, plan), caller.userId, caller.username],
      );
      return id;
    });
    return this.detail(id);
  }

  /**
   * The clocks of the screens an unpublished plan names now (its devices, or its group's players), once each; NULL for
   * those whose regions name no zone (the installation's, whatever it is when the status is read).
   */
  private async namedClocks(tx: EntityManager, plan: AdPlanRequest): Promise<(string | null)[]> {
    const ids: number[] =
      plan.publishMode === AdPublishMode.Group
        ? (await tx.query(`SELECT id FROM signage_device WHERE group_id = $1`, [plan.groupId])).map((r: { id: number }) => r.id)
        : (plan.deviceIds ?? []);
    const zones = await this.timeZones(tx, ids);
    return [...new Set(ids.map((id) => zones.get(id) ?? null))];
  }

  /**
   * Saves a plan's new content; screens it was published to keep what they were sent (and their clocks, which say when
   * it expires) until it is published again.
   */
  async edit(dto: AdPlanEditDto): Promise<AdPlanDetail> {
    await this.db.transaction(async (tx) => {
      await this.stored(tx, dto.id, true);
      const plan = await this.checked(tx, dto);
      await tx.query(
        `UPDATE signage_ad_plan SET publish_name = $1, publish_mode = $2, device_ids = $3, group_id = $4, ad_ids = $5, schedule = $6,
                start_date = $7, end_date = $8, play_mode = $9, play_limit_count = $10, play_interval_seconds = $11, on_demand_type = $12,
                publish_type = $13, time_zones = CASE WHEN dispatch_id IS NULL THEN $14 ELSE time_zones END, updated_at = now()
          WHERE id = $15`,
        [...planValues(plan), await this.namedClocks(tx, plan), dto.id],
      );
    });
    return this.detail(dto.id);
  }

  /**
   * Deletes a plan; its publication's unanswered rows are superseded. Screens that have it keep playing it to its last
   * day: a `clear` plan takes every plan off them (docs/signage-plans.md).
   */
  async remove(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const plan = await this.stored(tx, id, true);
      if (plan.dispatchId) await commandLedger.supersede(sqlOf(tx), plan.dispatchId);
      await tx.query(`DELETE FROM signage_ad_plan WHERE id = $1`, [id]);
    });
  }

  /**
   * The plan checked as a whole (adPlanProblems), then against what it names: its screens exist, its group exists, its
   * ads exist. Screens, group and ads are locked FOR SHARE (KEY SHARE for screens) until the plan is saved, so none
   * goes in between.
   */
  private async checked(tx: EntityManager, dto: AdPlanAddDto): Promise<AdPlanRequest> {
    assertPlan(dto);
    const plan = normalised(dto);
    if (plan.publishMode === AdPublishMode.Devices) await devicesByIds(tx, SIGNAGE_FAMILY, plan.deviceIds!, SIGNAGE_SELECTION.unknown);
    else await lockSignageGroup(tx, plan.groupId!);
    await this.ads(tx, plan.adIds, false);
    return plan;
  }

  /** The ads in the order given, locked FOR SHARE; unknown ones refused, and (`publishing`) ads awaiting their audit. */
  private async ads(tx: EntityManager, ids: readonly number[], publishing: boolean): Promise<StoredAd[]> {
    if (ids.length === 0) return [];
    const rows: StoredAd[] = await tx.query(
      `SELECT id, name, orientation, total_duration AS "totalDuration", zones, music, audit_required AS "auditRequired",
              audit_status AS "auditStatus"
         FROM signage_ad WHERE id = ANY($1::int[]) ORDER BY id FOR SHARE`,
      [ids],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const unknown = ids.filter((id) => !byId.has(id));
    if (unknown.length > 0) throw AppException.field('adIds', 'adPlanAdsUnknown', { ids: shownList(unknown.map(String), NAMES_SHOWN) });
    const unaudited = rows.filter((ad) => ad.auditRequired && ad.auditStatus !== AdAuditStatus.Audited);
    if (publishing && unaudited.length > 0)
      throw AppException.field('adIds', 'adPlanAdsNotAudited', {
        names: shownList(
          unaudited.map((ad) => ad.name),
          NAMES_SHOWN,
          true,
        ),
      });
    return ids.map((id) => byId.get(id)!);
  }

  /**
   * Publishes a plan (Add, the `publish` action's button): its screens (chosen, or its group's players now; an empty
   * group is refused) are sent the `publish` command through the ledger, with signed links to every material of its
   * ads. A plan published before is published again: the earlier publication's unanswered rows are superseded.
   */
  async publish(caller: Caller, id: number): Promise<LampControlResult> {
    // The plan is locked first, and its screens and content both come from that one reading of it.
    let plan: StoredPlan;
    const selection = async (tx: EntityManager): Promise<DeviceSelection> => {
      plan = await this.stored(tx, id, true);
      assertPlan(plan);
      return plan.publishMode === AdPublishMode.Group ? { groupIds: [plan.groupId!] } : { ids: plan.deviceIds ?? [] };
    };
    return this.control.dispatch(caller, SIGNAGE_FAMILY, selection, 'publish', SIGNAGE_SELECTION, async (tx, deviceIds) => {
      if (plan.dispatchId) await commandLedger.supersede(sqlOf(tx), plan.dispatchId);
      const { content, timeZones } = await this.publishContent(tx, plan, deviceIds);
      return {
        ...content,
        recorded: async (t, dispatchId) => {
          await t.query(
            `UPDATE signage_ad_plan SET dispatch_id = $2, target_ids = $3, published_at = now(), published_by = $4, time_zones = $5 WHERE id = $1`,
            [id, dispatchId, deviceIds, caller.username, timeZones],
          );
        },
      };
    });
  }

  /**
   * The `publish` command's params for the plan's screens: one set when their clocks agree, else one per screen; and
   * those clocks, once each (the plan expires by them).
   */
  private async publishContent(
    tx: EntityManager,
    plan: StoredPlan,
    deviceIds: readonly number[],
  ): Promise<{ content: DispatchContent; timeZones: string[] }> {
    const ads = await this.ads(tx, plan.adIds, true);
    const materialIds = materialIdsOf(ads);
    const materials: { id: number; sha256: string; fileSize: number }[] = materialIds.length
      ? await tx.query(`SELECT id, sha256, file_size::float8 AS "fileSize" FROM signage_material WHERE id = ANY($1::int[]) FOR SHARE`, [materialIds])
      : [];
    const now = Date.now();
    const params: Omit<SignagePublishParams, 'timeZone'> = {
      planId: planWireId(plan.id),
      name: plan.publishName,
      publishType: plan.publishType,
      playMode: plan.playMode,
      ...(plan.playLimitCount !== null && plan.playLimitCount !== undefined ? { playLimitCount: plan.playLimitCount } : {}),
      ...(plan.playIntervalSeconds !== null && plan.playIntervalSeconds !== undefined ? { playIntervalSeconds: plan.playIntervalSeconds } : {}),
      ...(plan.onDemandType !== null && plan.onDemandType !== undefined ? { onDemandType: plan.onDemandType as 2 } : {}),
      schedule: plan.schedule as SignagePublishParams['schedule'],
      ads: ads.map((ad): SignagePlanAd => ({
        adId: ad.id,
        name: ad.name,
        orientation: ad.orientation,
        totalDuration: ad.totalDuration,
        zones: ad.zones.map((zone) => zone.map(({ materialId, seconds }) => ({ materialId, seconds }))),
        music: ad.music,
      })),
      files: materials.map((m) => ({ materialId: m.id, url: this.fileLinks.forDevice(m, now).url, sha256: m.sha256, bytes: m.fileSize })),
    };
    const zones = await this.timeZones(tx, deviceIds);
    const zoneList = deviceIds.map((id) => zones.get(id) ?? this.config.defaultPlace.timeZone);
    const timeZones = [...new Set(zoneList)];
    if (timeZones.length <= 1) return { content: { params: { ...params, timeZone: timeZones[0] ?? this.timeZone } }, timeZones };
    return {
      content: {
        params: { ...params, timeZone: this.config.defaultPlace.timeZone },
        itemParams: zoneList.map((timeZone) => ({ ...params, timeZone })),
      },
      timeZones,
    };
  }

  /** Each screen's clock: its region's time zone, or its nearest ancestor region's that names one. */
  private async timeZones(tx: EntityManager, deviceIds: readonly number[]): Promise<Map<number, string>> {
    const rows: { id: number; timeZone: string | null }[] = await tx.query(
      `WITH RECURSIVE up AS (
         SELECT s.id, r.id AS region_id, r.parent_id, r.time_zone, 0 AS depth
           FROM signage_device s JOIN region r ON r.id = s.region_id WHERE s.id = ANY($1::int[])
         UNION ALL
         SELECT up.id, r.id, r.parent_id, r.time_zone, up.depth + 1 FROM up JOIN region r ON r.id = up.parent_id
          WHERE up.time_zone IS NULL AND up.depth < 32
       )
       SELECT DISTINCT ON (id) id, time_zone AS "timeZone" FROM up WHERE time_zone IS NOT NULL ORDER BY id, depth`,
      [deviceIds],
    );
    return new Map(rows.map((r) => [r.id, r.timeZone!]));
  }

  /**
   * Sends the plan again to the screens whose rows failed or expired (Retry failed only), as any dispatch is retried:
   * with fresh file links (renewPublish); screens that have it are not asked again.
   */
  async retryFailed(caller: Caller, id: number): Promise<RetryResult> {
    const plan = await this.stored(this.db.manager, id);
    if (!plan.dispatchId) throw AppException.badRequest('nothingToRetry');
    return this.dispatches.retryFailed(caller, plan.dispatchId);
  }

  /**
   * The screens of a plan: those it was last published to, or (before it is published) those it names now, its
   * group's players for a group; those deleted since are left out. In id order.
   */
  private async targetsOf(db: EntityManager, plan: Pick<StoredPlan, 'dispatchId' | 'targetIds' | 'publishMode' | 'deviceIds' | 'groupId'>) {
    const rows: { id: number }[] = plan.dispatchId
      ? await db.query(`SELECT id FROM signage_device WHERE id = ANY($1::int[]) ORDER BY id`, [plan.targetIds])
      : plan.publishMode === AdPublishMode.Group
        ? await db.query(`SELECT id FROM signage_device WHERE group_id = $1 ORDER BY id`, [plan.groupId])
        : await db.query(`SELECT id FROM signage_device WHERE id = ANY($1::int[]) ORDER BY id`, [plan.deviceIds ?? []]);
    return rows.map((r) => r.id);
  }

  /** How many of the screens are in each receive status: their rows of the dispatch grouped by state and receipt stage. */
  private async receiveCounts(db: EntityManager, targets: readonly number[], dispatchId: string | null): Promise<AdReceiveCounts> {
    const counts = emptyReceiveCounts();
    const groups: { state: DispatchItemState | null; stage: ReceiptStage | null; n: number }[] = await db.query(
      `SELECT i.state, r.stage, count(*)::int AS n
         FROM unnest($1::int[]) AS t(id)
         LEFT JOIN dispatch_item i ON i.dispatch_id = $2 AND i.device_id = t.id
         LEFT JOIN dispatch_receipt r ON r.dispatch_id = i.dispatch_id AND r.device_id = i.device_id
        GROUP BY 1, 2`,
      [targets, dispatchId],
    );
    for (const g of groups) counts[adReceiveStatusOf(g.state ? { state: g.state, receipt: g.stage ? { stage: g.stage } : null } : null)] += g.n;
    return counts;
  }

  /**
   * A page of the plan's screens, each with its receive status, and the totals; DispatchRowsChanged moves them live.
   * Read from one snapshot, so the page and the totals agree even while rows move (or expire) during the read.
   */
  receivers(q: AdPlanReceiversDto): Promise<AdPlanReceiversPage> {
    return this.db.transaction('REPEATABLE READ', (tx) => this.receiversIn(tx, q));
  }

  private async receiversIn(db: EntityManager, q: AdPlanReceiversDto): Promise<AdPlanReceiversPage> {
    const plan = await this.stored(db, q.id);
    const targets = await this.targetsOf(db, plan);
    const pageIds = targets.slice((q.pageNum - 1) * q.pageSize, q.pageNum * q.pageSize);
    const devices: { id: number; name: string; code: string; networkStatus: OnlineState }[] = await db.query(
      `SELECT id, name, code, network_status AS "networkStatus" FROM signage_device WHERE id = ANY($1::int[]) ORDER BY id`,
      [pageIds],
    );
    let rows = new Map<number, DispatchRowChange>();
    let expiresAt: string | null = null;
    if (plan.dispatchId) {
      const changes = await commandLedger.rowChanges(sqlOf(db), new Map([[plan.dispatchId, new Set(pageIds)]]));
      rows = new Map((changes.get(plan.dispatchId) ?? []).map((r) => [r.deviceId, r]));
      const [dispatch]: { expiresAt: Date }[] = await db.query(`SELECT expires_at AS "expiresAt" FROM dispatch WHERE id = $1`, [plan.dispatchId]);
      expiresAt = dispatch ? new Date(dispatch.expiresAt).toISOString() : null;
    }
    const list = devices.map((d): AdPlanReceiver => {
      const row = rows.get(d.id) ?? null;
      const open = row !== null && (row.state === 'queued' || row.state === 'sent');
      return {
        deviceId: d.id,
        deviceName: d.name,
        deviceCode: d.code,
        networkStatus: d.networkStatus,
        receiveStatus: adReceiveStatusOf(row),
        state: row?.state ?? null,
        receipt: row?.receipt ?? null,
        lastError: row?.lastError ?? null,
        updatedAt: row?.updatedAt ?? null,
        expiresAt: open ? expiresAt : null,
      };
    });
    return { total: targets.length, list, dispatchId: plan.dispatchId, receiveCounts: await this.receiveCounts(db, targets, plan.dispatchId) };
  }

  /**
   * The plans playing between two days (at most CALENDAR_MAX_DAYS apart, CALENDAR_MAX_PLANS of them), each with the
   * days it plays, its screens, and the plans it conflicts with (adPlanConflicts), newest first.
   */
  async calendar(q: AdPlanCalendarDto): Promise<AdPlanCalendarEntry[]> {
    const days = (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000;
    if (!(days >= 0)) throw AppException.field('to', 'orderWrong');
    if (days > CALENDAR_MAX_DAYS) throw AppException.field('to', 'calendarRangeTooLong', { max: CALENDAR_MAX_DAYS });
    const plans: StoredPlan[] = await this.db.query(
      `SELECT ${this.columns} FROM ${PLAN_FROM} WHERE p.start_date <= $2::date AND p.end_date >= $1::date ORDER BY p.id DESC LIMIT ${CALENDAR_MAX_PLANS}`,
      [q.from, q.to],
    );
    const members: { id: number; groupId: number }[] = await this.db.query(
      `SELECT id, group_id AS "groupId" FROM signage_device WHERE group_id = ANY($1::int[])`,
      [[...new Set(plans.filter((p) => p.groupId !== null).map((p) => p.groupId))]],
    );
    const screensOf = (p: StoredPlan): number[] =>
      p.dispatchId
        ? p.targetIds
        : p.publishMode === AdPublishMode.Group
          ? members.filter((m) => m.groupId === p.groupId).map((m) => m.id)
          : (p.deviceIds ?? []);
    const withScreens = plans.map((p) => ({ ...p, deviceIds: screensOf(p), schedule: p.schedule }));
    const conflicts = adPlanConflicts(withScreens);
    return withScreens.map((p) => ({
      id: p.id,
      publishName: p.publishName,
      publishType: p.publishType,
      status: p.status,
      deviceIds: p.deviceIds,
      occurrences: adPlanOccurrences(p.schedule, q.from, q.to),
      conflicts: conflicts.get(p.id) ?? [],
    }));
  }
}

function planValues(plan: AdPlanRequest): unknown[] {
  const schedule: AdPlanSchedule = plan.schedule;
  return [
    plan.publishName,
    plan.publishMode,
    plan.deviceIds ?? [],
    plan.groupId ?? null,
    plan.adIds,
    JSON.stringify(schedule),
    schedule.startDate,
    schedule.endDate,
    plan.playMode,
    plan.playLimitCount ?? null,
    plan.playIntervalSeconds ?? null,
    plan.onDemandType ?? null,
    plan.publishType,
  ];
}
