import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import {
  LED_FAMILY,
  LedReceiveStatus,
  ledReceiveStatusOf,
  ledTaskProblems,
  ledTaskSchedules,
  type DispatchItemState,
  type LampControlResult,
  type LedMediaRef,
  type LedPlayParams,
  type LedTaskDetail,
  type LedTaskParams,
  type LedTaskRow,
  type LedReceiveCounts,
  type LedTaskScreenRow,
  type LedTaskScreensPage,
  type PageResult,
  type ReceiptStage,
} from '@sc/contracts';
import { RECEIPT_JSON, commandLedger } from '@sc/device-runtime';
import type { MessageKey } from '@sc/i18n';
import { schedulesTimeStatus } from '@sc/schedule';
import { AppException } from '../common/app-exception';
import { devicesByIds, devicesOfRegions, regionsAndBelow } from '../common/device-selection';
import type { Caller } from '../common/request-context';
import { Where, likeContains, newestFirstPage } from '../common/sql';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DeviceControlService, type DispatchRecorded } from '../dispatch/device-control.service';
import { DispatchRenewals } from '../dispatch/dispatch-renewals';
import { InjectDb } from '../infra/database';
import { sqlOf } from '../infra/sql';
import type { LedRealTimePlayDto, LedTaskDto, LedTaskPageDto, LedTaskScreensDto } from './dto/led-tasks.dto';
import type { LedSelectionDto } from './dto/led.dto';
import { LedMediaFileLinks } from './led-media-links';
import { LED_SELECTION } from './led.service';

type LedFile = LedPlayParams['file'];
type StoredMedia = LedMediaRef & { sha256: string; fileSize: number; duration: number | null };

/**
 * The ids of every screen a task (`task`: SQL of its id) reaches now, each once: those chosen one by one and those of
 * its regions and their sub-regions (the shared region resolution).
 */
const taskScreenIds = (task: string) => `SELECT ts.device_id AS id FROM led_task_screen ts WHERE ts.task_id = ${task}
  UNION SELECT rs.id FROM device rs JOIN led_screen rl ON rl.device_id = rs.id
   WHERE rs.region_id IN (${regionsAndBelow(`ARRAY(SELECT tr.region_id FROM led_task_region tr WHERE tr.task_id = ${task})`)})`;

const TASK_COLUMNS = `t.id, t.name, t.play_mode AS "playMode", t.time_periods AS "timePeriods", t.task_periods AS "taskPeriods",
  t.dispatch_id AS "dispatchId", t.published_at AS "publishedAt", t.created_by AS "createdBy", t.updated_at AS "updatedAt",
  json_build_object('id', m.id, 'name', m.name, 'type', m.media_type, 'width', m.width, 'height', m.height) AS media,
  coalesce((SELECT array_agg(ts.device_id ORDER BY ts.device_id) FROM led_task_screen ts WHERE ts.task_id = t.id), '{}') AS "screenIds",
  coalesce((SELECT array_agg(tr.region_id ORDER BY tr.region_id) FROM led_task_region tr WHERE tr.task_id = t.id), '{}') AS "regionIds",
  (SELECT count(*)::int FROM (${taskScreenIds('t.id')}) reached) AS "screenCount",
  coalesce((SELECT array_agg(DISTINCT s.time_zone) FROM led_screen s WHERE s.device_id IN (${taskScreenIds('t.id')})), '{}') AS zones`;
const TASK_FROM = `led_task t JOIN led_media m ON m.id = t.media_id`;

type StoredTask = Omit<LedTaskRow, 'timeStatus'> & { zones: string[] };

/** The real-time play commands: a newer one supersedes the older ones still unanswered on the same screens. */
const REAL_TIME_ACTIONS = ['play', 'stopPlay'];

/**
 * LED real-time play and LED tasks (docs/led-screens.md): a medium pushed to screens now, and tasks (one file, a play
 * mode, 1 to 7 time periods, 1 to 7 task periods, their screens) published through the command ledger. Every screen
 * fetches the file from a signed link of its own command, says how far it got (receipts) and acks once it holds it.
 */
@Injectable()
export class LedTasksService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly devices: DeviceControlService,
    private readonly fileLinks: LedMediaFileLinks,
    renewals: DispatchRenewals,
  ) {
    // A retry of real-time play or of a task sends its file with a fresh link (whichever route asks for it).
    const renew = <P extends { file: LedFile }>(params: P, now: number): P => ({
      ...params,
      file: {
        ...params.file,
        url: this.fileLinks.forDevice({ id: params.file.mediaId, sha256: params.file.sha256, fileSize: params.file.bytes }, now).url,
      },
    });
    renewals.register<LedPlayParams>(LED_FAMILY.family, 'play', renew);
    renewals.register<LedTaskParams>(LED_FAMILY.family, 'task', renew);
  }

  /** The medium as a screen fetches it: a signed link valid while the ledger may send the command, and a download's time. */
  private fileOf(media: StoredMedia): LedFile {
    const link = this.fileLinks.forDevice(media);
    return {
      mediaId: media.id,
      name: media.name,
      type: media.type,
      url: link.url,
      sha256: media.sha256,
      bytes: media.fileSize,
      width: media.width,
      height: media.height,
      ...(media.duration === null ? {} : { duration: media.duration }),
    };
  }

  /** A medium of the library, locked against deletion until the transaction ends; refused under `field` when gone. */
  private async media(tx: EntityManager, id: number, field: string): Promise<StoredMedia> {
    const [row]: StoredMedia[] = await tx.query(
      `SELECT id, name, media_type AS type, width, height, sha256, file_size::float8 AS "fileSize", duration_seconds::float8 AS duration
         FROM led_media WHERE id = $1 FOR SHARE`,
      [id],
    );
    if (!row) throw AppException.field(field, 'ledMediaNotFound');
    return row;
  }

  /**
   * Shows one medium on the selected screens now (real-time play), through the ledger with receipts. Earlier play and
   * stop commands to them still unanswered are superseded, so a late retry of an older one cannot undo this one.
   * `recorded` writes what the play is for in its transaction (an alarm incident's response), and may refuse it.
   */
  realTimePlay(caller: Caller, dto: LedRealTimePlayDto, recorded?: DispatchRecorded): Promise<LampControlResult> {
    return this.devices.dispatch(caller, LED_FAMILY, dto, 'play', LED_SELECTION, async (tx, deviceIds) => {
      const file = this.fileOf(await this.media(tx, dto.mediaId, 'mediaId'));
      await commandLedger.supersedeActions(sqlOf(tx), LED_FAMILY.family, REAL_TIME_ACTIONS, deviceIds);
      return { params: { file }, recorded };
    });
  }

  /** Ends real-time play on the selected screens: they go back to their tasks. Supersedes as realTimePlay does. */
  stopPlay(caller: Caller, dto: LedSelectionDto): Promise<LampControlResult> {
    return this.devices.dispatch(caller, LED_FAMILY, dto, 'stopPlay', LED_SELECTION, async (tx, deviceIds) => {
      await commandLedger.supersedeActions(sqlOf(tx), LED_FAMILY.family, REAL_TIME_ACTIONS, deviceIds);
      return { params: {} };
    });
  }

  async page(q: LedTaskPageDto): Promise<PageResult<LedTaskRow>> {
    const where = new Where().addIf(q.name, `lower(t.name) LIKE ?`, q.name && likeContains(q.name));
    const page = await newestFirstPage<StoredTask>(this.db, { select: TASK_COLUMNS, from: TASK_FROM, alias: 't', where }, q);
    const now = new Date();
    return { ...page, list: page.list.map((row) => shown(row, now, this.config.defaultPlace.timeZone)) };
  }

  async detail(id: number, db: DataSource | EntityManager = this.db): Promise<LedTaskRow> {
    const [row]: StoredTask[] = await db.query(`SELECT ${TASK_COLUMNS} FROM ${TASK_FROM} WHERE t.id = $1`, [id]);
    if (!row) throw AppException.notFound();
    return shown(row, new Date(), this.config.defaultPlace.timeZone);
  }

  /** A task for its form: with the names of the screens chosen one by one. */
  async detailWithScreens(id: number): Promise<LedTaskDetail> {
    const task = await this.detail(id);
    const screens: LedTaskDetail['screens'] = await this.db.query(
      `SELECT d.id, d.name, d.code AS sn FROM led_task_screen ts JOIN device d ON d.id = ts.device_id WHERE ts.task_id = $1 ORDER BY d.id`,
      [id],
    );
    return { ...task, screens };
  }

  /**
   * Adds (no id, Add) or changes (Edit) a task, checked with the rules the console applies: a changed task reaches its
   * screens when it is published again. Its screens are chosen one by one, or by region (every screen of the region and
   * of its sub-regions, read again at each publication), or both; an unknown region or one without screens is refused.
   */
  async save(caller: Caller, dto: LedTaskDto): Promise<{ id: number }> {
    const problems = ledTaskProblems(dto);
    if (problems.length > 0)
      throw AppException.badRequest(
        'validationField',
        {},
        problems.map((p) => ({ field: p.field, key: p.key as MessageKey, params: p.params })),
      );
    return this.db.transaction(async (tx) => {
      await this.media(tx, dto.mediaIds[0], 'mediaIds');
      const screens = await devicesByIds(tx, LED_FAMILY, dto.screenIds ?? [], LED_SELECTION.unknown);
      const regionIds = [...new Set(dto.regionIds ?? [])];
      if (regionIds.length > 0)
        await devicesOfRegions(tx, LED_FAMILY, regionIds, {
          field: 'regionIds',
          empty: () => AppException.field('regionIds', 'regionHasNoLedScreens'),
        });
      // Only the fields the command carries are kept (LED_TASK_SCHEMA takes no other).
      const timePeriods = dto.timePeriods.map(({ start, end }) => ({ start, end }));
      const taskPeriods = dto.taskPeriods.map(({ startDate, endDate }) => ({ startDate, endDate }));
      const values = [dto.name.trim(), dto.mediaIds[0], dto.playMode, JSON.stringify(timePeriods), JSON.stringify(taskPeriods)];
      let id = dto.id;
      if (id === undefined) {
        [{ id }] = await tx.query(
          `INSERT INTO led_task (name, media_id, play_mode, time_periods, task_periods, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
          [...values, caller.username],
        );
      } else {
        const [, affected] = (await tx.query(
          `UPDATE led_task SET name = $2, media_id = $3, play_mode = $4, time_periods = $5, task_periods = $6, updated_at = now() WHERE id = $1`,
          [id, ...values],
        )) as [unknown, number];
        if (!affected) throw AppException.notFound();
        await tx.query(`DELETE FROM led_task_screen WHERE task_id = $1`, [id]);
        await tx.query(`DELETE FROM led_task_region WHERE task_id = $1`, [id]);
      }
      await tx.query(`INSERT INTO led_task_screen (task_id, device_id) SELECT $1, unnest($2::int[])`, [id, screens]);
      await tx.query(`INSERT INTO led_task_region (task_id, region_id) SELECT $1, unnest($2::int[])`, [id, regionIds]);
      return { id: id as number };
    });
  }

  /**
   * Deletes a task: its publication's unanswered rows are superseded and every screen it was sent to (those not
   * deleted since) is told to drop it (`forgetTask`), in one transaction.
   */
  async remove(caller: Caller, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const task = await this.locked(tx, id);
      const sentTo = await this.supersedeSend(tx, task);
      if (sentTo.length > 0) await this.forget(tx, caller, id, sentTo);
      await tx.query(`DELETE FROM led_task WHERE id = $1`, [id]);
    });
  }

  /**
   * Publishes a task to its screens (those chosen and those of its regions now): one ledger row each, with its own
   * time zone (its record's) in its command; the task remembers this publication, whose rows are its screens' receive
   * status. The task is locked and read in the
   * transaction; its earlier publication's unanswered rows are superseded and the screens it went to that are no
   * longer the task's are told to drop it (`forgetTask`).
   */
  async publish(caller: Caller, id: number): Promise<LampControlResult> {
    return this.db.transaction(async (tx) => {
      const task = await this.locked(tx, id);
      const deviceIds: number[] = (
        await tx.query(`SELECT d.id FROM device d WHERE d.id IN (${taskScreenIds('$1')}) ORDER BY d.id FOR KEY SHARE OF d`, [id])
      ).map((r: { id: number }) => r.id);
      if (deviceIds.length === 0) throw AppException.badRequest(LED_SELECTION.empty);
      const file = this.fileOf(await this.media(tx, task.media.id, 'mediaIds'));
      const zones: { id: number; zone: string }[] = await tx.query(
        `SELECT device_id AS id, time_zone AS zone FROM led_screen WHERE device_id = ANY($1::int[])`,
        [deviceIds],
      );
      const zoneOf = new Map(zones.map((z) => [z.id, z.zone]));
      const base: Omit<LedTaskParams, 'timeZone'> = {
        taskId: id,
        name: task.name,
        playMode: task.playMode,
        timePeriods: task.timePeriods,
        taskPeriods: task.taskPeriods,
        file,
      };
      const kept = new Set(deviceIds);
      const dropped = (await this.supersedeSend(tx, task)).filter((device) => !kept.has(device));
      if (dropped.length > 0) await this.forget(tx, caller, id, dropped);
      const dispatchId = await this.devices.dispatchIn(tx, caller, LED_FAMILY, 'task', deviceIds, {
        params: { ...base, timeZone: 'UTC' },
        itemParams: deviceIds.map((device) => ({ ...base, timeZone: zoneOf.get(device) ?? 'UTC' })),
      });
      await tx.query(`UPDATE led_task SET dispatch_id = $2, published_at = now() WHERE id = $1`, [id, dispatchId]);
      return { dispatchId };
    });
  }

  /** A task locked for a change of what its screens hold (publish, delete), read in the same transaction. */
  private async locked(tx: EntityManager, id: number): Promise<StoredTask> {
    const [row]: unknown[] = await tx.query(`SELECT id FROM led_task WHERE id = $1 FOR UPDATE`, [id]);
    if (!row) throw AppException.notFound();
    const [task]: StoredTask[] = await tx.query(`SELECT ${TASK_COLUMNS} FROM ${TASK_FROM} WHERE t.id = $1`, [id]);
    return task;
  }

  /**
   * Supersedes the unanswered rows of a task's latest publication; answers the screens that publication went to
   * which still exist (locked against deletion), in id order.
   */
  private async supersedeSend(tx: EntityManager, task: StoredTask): Promise<number[]> {
    if (!task.dispatchId) return [];
    await commandLedger.supersede(sqlOf(tx), task.dispatchId);
    const rows: { id: number }[] = await tx.query(
      `SELECT d.id FROM dispatch_item i JOIN device d ON d.id = i.device_id WHERE i.dispatch_id = $1 ORDER BY d.id FOR KEY SHARE OF d`,
      [task.dispatchId],
    );
    return rows.map((r) => r.id);
  }

  /** Tells screens to drop a task (`forgetTask`), in the caller's transaction. */
  private forget(tx: EntityManager, caller: Caller, taskId: number, deviceIds: readonly number[]): Promise<string> {
    return this.devices.dispatchIn(tx, caller, LED_FAMILY, 'forgetTask', deviceIds, { params: { taskId } });
  }

  /** Each screen of a task: its ledger row of the latest publication with its receipt, what it plays, its time status. */
  /** Read from one snapshot, so the page and the totals agree even while rows move during the read. */
  screens(q: LedTaskScreensDto): Promise<LedTaskScreensPage> {
    return this.db.transaction('REPEATABLE READ', (tx) => this.screensIn(tx, q));
  }

  private async screensIn(db: EntityManager, q: LedTaskScreensDto): Promise<LedTaskScreensPage> {
    const task = await this.detail(q.id, db);
    const rows: (Omit<LedTaskScreenRow, 'timeStatus'> & { total: number })[] = await db.query(
      `SELECT d.id AS "deviceId", d.name, d.code AS sn, s.time_zone AS "timeZone", s.network_status AS "networkStatus",
              i.state, ${RECEIPT_JSON} AS receipt, i.last_error AS "lastError", (s.playing->>'taskId')::int AS "playingTaskId",
              count(*) OVER ()::int AS total
         FROM (${taskScreenIds('$1')}) ts
         JOIN device d ON d.id = ts.id
         JOIN led_screen s ON s.device_id = d.id
         LEFT JOIN dispatch_item i ON i.dispatch_id = $2::uuid AND i.device_id = d.id
         LEFT JOIN dispatch_receipt r ON r.dispatch_id = i.dispatch_id AND r.device_id = i.device_id
        ORDER BY d.id LIMIT $3 OFFSET $4`,
      [q.id, task.dispatchId, q.pageSize, (q.pageNum - 1) * q.pageSize],
    );
    const schedules = ledTaskSchedules(task);
    const now = new Date();
    const list = rows.map(({ total: _total, ...row }) => ({
      ...row,
      timeStatus: schedulesTimeStatus(schedules, now, [row.timeZone], this.config.defaultPlace.timeZone),
    }));
    const total = rows[0]?.total ?? task.screenCount;
    return { total, list, dispatchId: task.dispatchId, receiveCounts: await this.receiveCounts(db, q.id, task.dispatchId) };
  }

  /** How many of a task's screens are in each receive status, over all of them (ledReceiveStatusOf). */
  private async receiveCounts(db: EntityManager, id: number, dispatchId: string | null): Promise<LedReceiveCounts> {
    const counts = Object.fromEntries(Object.values(LedReceiveStatus).map((s) => [s, 0])) as LedReceiveCounts;
    const groups: { state: DispatchItemState | null; stage: ReceiptStage | null; playing: boolean; n: number }[] = await db.query(
      `SELECT i.state, r.stage, coalesce((s.playing->>'taskId')::int = $1, false) AS playing, count(*)::int AS n
         FROM (${taskScreenIds('$1')}) ts
         JOIN led_screen s ON s.device_id = ts.id
         LEFT JOIN dispatch_item i ON i.dispatch_id = $2::uuid AND i.device_id = ts.id
         LEFT JOIN dispatch_receipt r ON r.dispatch_id = i.dispatch_id AND r.device_id = i.device_id
        GROUP BY 1, 2, 3`,
      [id, dispatchId],
    );
    for (const g of groups)
      counts[ledReceiveStatusOf(g.state ? { state: g.state, receipt: g.stage ? { stage: g.stage } : null } : null, g.playing)] += g.n;
    return counts;
  }
}

/** A task row with its time status over its screens, each in its own time zone (without screens, the default place's). */
function shown({ zones, ...row }: StoredTask, now: Date, fallbackZone: string): LedTaskRow {
  return { ...row, timeStatus: schedulesTimeStatus(ledTaskSchedules(row), now, zones, fallbackZone) };
}
