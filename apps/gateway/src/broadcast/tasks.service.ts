import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import {
  BROADCAST_FAMILY,
  BroadcastTaskMode,
  Button,
  DispatchStatus,
  PlaybackMode,
  TaskPlayStatus,
  TaskTimeStatus,
  WEEKDAYS,
  broadcastScheduleProblems,
  dispatchStatusOf,
  immediateTimeStatus,
  taskListMs,
  taskWireId,
  terminalStatusOf,
  type DispatchCounts,
  type BroadcastSchedule,
  type BroadcastTaskDetail,
  type BroadcastTaskRow,
  type LampControlResult,
  type PageResult,
  type TaskMedium,
  type TaskTerminal,
  type TerminalTaskParams,
} from '@sc/contracts';
import { commandLedger } from '@sc/device-runtime';
import type { MessageKey } from '@sc/i18n';
import { nextWindow, scheduleTimeStatus } from '@sc/schedule';
import { AppException } from '../common/app-exception';
import type { Caller } from '../common/request-context';
import { Where, likeContains, newestFirstPage } from '../common/sql';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DeviceControlService, andRecorded, type DispatchContent, type DispatchRecorded } from '../dispatch/device-control.service';
import { InjectDb } from '../infra/database';
import { sqlOf } from '../infra/sql';
import { lampPlaces } from '../strategies/lamp-places';
import type { BroadcastTaskPageDto, ImmediateBroadcastDto, ScheduledTaskDto, TaskControlDto, TaskTerminalPageDto } from './dto/task.dto';
import { MediaService, type SentMedium } from './media.service';
import { taskPlayers } from './task-players';
import { TERMINAL_SELECTION } from './terminals.service';

/** A medium as the task sends it: what the task keeps, and where and how the terminal fetches it. */

const TASK_COLUMNS = `t.id, t.task_name AS "taskName", t.task_mode AS "taskMode", t.playback_mode AS "playbackMode", t.volume, t.priority,
  t.media, t.schedule, cardinality(t.terminal_ids) AS "terminalCount", t.dispatch_id AS "dispatchId", t.created_by AS "createdBy",
  t.created_at AS "createdAt", t.time_zones AS "timeZones", t.stopped_at AS "stoppedAt", t.stopped_by AS "stoppedBy"`;
const TASK_FROM = `broadcast_task t`;

type StoredTask = Omit<BroadcastTaskRow, 'durationMs' | 'timeStatus' | 'playStatus' | 'playingCount' | 'dispatchStatus' | 'players'> & {
  timeZones: string[];
};

/**
 * A scheduled task's time status over its terminals' clocks: theirs when they agree, else in progress (it has begun
 * somewhere and not ended everywhere).
 */
export function scheduledTimeStatus(schedule: BroadcastSchedule, timeZones: readonly string[], now: Date): TaskTimeStatus {
  const statuses = new Set(timeZones.map((zone) => scheduleTimeStatus(schedule, now, zone)));
  return statuses.size === 1 ? [...statuses][0] : TaskTimeStatus.InProgress;
}

/** The schedule as kept and sent: weekdays in order and once each (none: every day), no end date as null. */
function normalisedSchedule(s: BroadcastSchedule): BroadcastSchedule {
  return {
    weekdays: WEEKDAYS.filter((d) => s.weekdays?.includes(d)),
    periods: s.periods.map(({ start, end }) => ({ start, end })),
    startDate: s.startDate,
    endDate: s.endDate ?? null,
  };
}

/** The schedule's problems, named under `schedule.` as the request holds them; none: it can be sent. */
function assertSchedule(schedule: unknown): void {
  const problems = broadcastScheduleProblems(schedule);
  if (problems.length === 0) return;
  throw AppException.badRequest(
    'validationField',
    {},
    problems.map((p) => ({
      field: `schedule.${p.field}`,
      key: (p.key === 'periodsTooMany' ? 'taskPeriodsTooMany' : p.key) as MessageKey,
      params: p.params,
    })),
  );
}

/** A playlist or media, not both, not neither (the DTO checks each on its own). */
function assertMediaChoice(dto: ImmediateBroadcastDto): void {
  const byPlaylist = dto.playlistId !== undefined && dto.playlistId !== null;
  const byMedia = dto.mediaIds !== undefined && dto.mediaIds !== null;
  if (byPlaylist && byMedia) throw AppException.badRequest('taskMediaAmbiguous');
  if (!byPlaylist && (!byMedia || dto.mediaIds!.length === 0)) throw AppException.field('mediaIds', 'taskMediaEmpty');
}

/** The media as the task keeps them: id, title, length. */
const keptMedia = (media: readonly SentMedium[]): TaskMedium[] => media.map(({ mediaId, title, durationMs }) => ({ mediaId, title, durationMs }));

const TERMINAL_COLUMNS = `d.id, d.name AS "terminalName", d.code AS "terminalId", bt.network_status AS "networkStatus", bt.occupancy, bt.playing,
  i.state AS delivery, i.last_error AS "lastError", coalesce(i.params, dp.params) ->> 'timeZone' AS "timeZone"`;

/**
 * Broadcast tasks: each is recorded with the media it sends (as they were) and delivered to its terminals as one
 * dispatch of the command ledger (to be sent, partially successful, all successful, all failures). The terminals
 * download the media from signed links, check their checksums and play them by priority (docs/broadcast-terminals.md).
 */
@Injectable()
export class BroadcastTasksService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly devices: DeviceControlService,
    private readonly media: MediaService,
  ) {}

  async page(q: BroadcastTaskPageDto): Promise<PageResult<BroadcastTaskRow>> {
    const where = new Where()
      .addIf(q.taskName, `lower(t.task_name) LIKE ?`, q.taskName && likeContains(q.taskName))
      .addIf(q.taskMode, `t.task_mode = ?`, q.taskMode);
    const page = await newestFirstPage<StoredTask>(this.db, { select: TASK_COLUMNS, from: TASK_FROM, alias: 't', where }, q);
    return { ...page, list: await this.rows(page.list) };
  }

  /**
   * List rows: their length, their dispatch's result (from its counts, as the dispatch's progress and its live events
   * give it), their time status by their terminals' clocks (ended once stopped), and the terminals playing them now.
   */
  private async rows(tasks: StoredTask[]): Promise<BroadcastTaskRow[]> {
    const now = new Date();
    const dispatchIds = tasks.flatMap((task) => (task.dispatchId ? [task.dispatchId] : []));
    const counts = dispatchIds.length ? await commandLedger.counts(sqlOf(this.db), dispatchIds) : new Map<string, DispatchCounts>();
    const playing = await taskPlayers(
      this.db,
      tasks.map((task) => task.id),
    );
    return tasks.map(({ timeZones, ...task }) => {
      const { players, count } = playing.get(task.id) ?? { players: [], count: 0 };
      const playStatus = count === 0 ? TaskPlayStatus.Idle : players.every((p) => p.paused) ? TaskPlayStatus.Paused : TaskPlayStatus.Playing;
      return {
        ...task,
        durationMs: taskListMs(task.media),
        dispatchStatus: counts.has(task.dispatchId) ? dispatchStatusOf(counts.get(task.dispatchId)!) : DispatchStatus.ToBeSent,
        timeStatus: task.stoppedAt
          ? TaskTimeStatus.Ended
          : task.schedule
            ? scheduledTimeStatus(task.schedule, timeZones.length ? timeZones : [this.config.defaultPlace.timeZone], now)
            : immediateTimeStatus(task, now, count),
        playStatus,
        players,
        playingCount: count,
      };
    });
  }

  /** One task as its list row, with its playlist, terminals and next period. */
  async detail(id: number): Promise<BroadcastTaskDetail> {
    const [task]: (StoredTask & { playlistId: number | null; terminalIds: number[] })[] = await this.db.query(
      `SELECT ${TASK_COLUMNS}, t.playlist_id AS "playlistId", t.terminal_ids AS "terminalIds" FROM ${TASK_FROM} WHERE t.id = $1`,
      [id],
    );
    if (!task) throw AppException.notFound('taskNotFound');
    const [row] = await this.rows([task]);
    const window = task.schedule ? nextWindow(task.schedule, new Date(), task.timeZones[0] ?? this.config.defaultPlace.timeZone) : null;
    return {
      ...row,
      playlistId: task.playlistId,
      terminalIds: task.terminalIds,
      nextWindow: window && { start: window.start.toISOString(), end: window.end.toISOString() },
    };
  }

  /** A page of a task's terminals (those not deleted since), each with its delivery, its time status and what it plays. */
  async terminals(q: TaskTerminalPageDto): Promise<PageResult<TaskTerminal>> {
    const [task]: {
      schedule: BroadcastSchedule | null;
      dispatchId: string | null;
      terminalIds: number[];
      createdAt: string;
      media: TaskMedium[];
      playbackMode: PlaybackMode;
      stoppedAt: string | null;
    }[] = await this.db.query(
      `SELECT schedule, dispatch_id AS "dispatchId", terminal_ids AS "terminalIds", created_at AS "createdAt", media, playback_mode AS "playbackMode",
              stopped_at AS "stoppedAt"
           FROM broadcast_task WHERE id = $1`,
      [q.id],
    );
    if (!task) throw AppException.notFound('taskNotFound');
    const existing: { id: number }[] = await this.db.query(
      `SELECT device_id AS id FROM broadcast_terminal WHERE device_id = ANY($1::int[]) ORDER BY device_id`,
      [task.terminalIds],
    );
    const pageIds = existing.slice((q.pageNum - 1) * q.pageSize, q.pageNum * q.pageSize).map((t) => t.id);
    const rows: Omit<TaskTerminal, 'status' | 'timeStatus'>[] = await this.db.query(
      `SELECT ${TERMINAL_COLUMNS}
         FROM device d JOIN broadcast_terminal bt ON bt.device_id = d.id
         LEFT JOIN dispatch dp ON dp.id = $2 LEFT JOIN dispatch_item i ON i.dispatch_id = dp.id AND i.device_id = d.id
        WHERE d.id = ANY($1::int[]) ORDER BY d.id`,
      [pageIds, task.dispatchId],
    );
    const page = { total: existing.length, list: rows };
    const now = new Date();
    return {
      total: page.total,
      list: page.list.map((terminal) => {
        const timeZone = terminal.timeZone ?? this.config.defaultPlace.timeZone;
        return {
          ...terminal,
          timeZone,
          status: terminalStatusOf(terminal.networkStatus, terminal.occupancy),
          timeStatus: task.stoppedAt
            ? TaskTimeStatus.Ended
            : task.schedule
              ? scheduleTimeStatus(task.schedule, now, timeZone)
              : immediateTimeStatus(task, now, terminal.playing?.taskId === taskWireId(q.id) ? 1 : 0),
        };
      }),
    };
  }

  /**
   * Plays a playlist or chosen media on terminals now; answers the dispatch that delivers it. `recorded` writes what
   * the broadcast is for in its transaction (an alarm incident's response), and may refuse it.
   */
  async immediate(caller: Caller, dto: ImmediateBroadcastDto, recorded?: DispatchRecorded): Promise<LampControlResult & { id: number }> {
    assertMediaChoice(dto);
    let taskId = 0;
    const result = await this.devices.dispatch(caller, BROADCAST_FAMILY, dto, 'task', TERMINAL_SELECTION, async (tx, deviceIds) => {
      const { media, playbackMode } = await this.taskMedia(tx, dto);
      const [{ id }]: { id: number }[] = await tx.query(
        `INSERT INTO broadcast_task (task_name, task_mode, playlist_id, media, playback_mode, volume, priority, schedule, terminal_ids, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8, $9) RETURNING id`,
        [
          dto.taskName,
          BroadcastTaskMode.Immediate,
          dto.playlistId ?? null,
          JSON.stringify(keptMedia(media)),
          playbackMode,
          dto.volume,
          dto.priority,
          deviceIds,
          caller.username,
        ],
      );
      taskId = id;
      const { content } = await this.taskCommand(tx, id, deviceIds, dto, media, playbackMode, null);
      return { ...content, recorded: andRecorded(content.recorded, recorded) };
    });
    return { ...result, id: taskId };
  }

  /**
   * Adds a scheduled task (Add button) or changes one (Edit), and sends it to its terminals as the `task` command (the
   * family's Open and close): they keep it and play it in its periods by their own clocks. A change replaces the task
   * on its terminals (its earlier dispatch's unanswered rows are superseded) and terminals dropped from it are sent
   * `cancelTask`, in the same transaction. A refused request records and sends nothing.
   */
  async save(caller: Caller, dto: ScheduledTaskDto): Promise<LampControlResult & { id: number }> {
    if (!caller.buttons.includes(dto.id === undefined ? Button.Add : Button.Edit)) throw AppException.forbidden();
    assertSchedule(dto.schedule);
    assertMediaChoice(dto);
    const schedule = normalisedSchedule(dto.schedule);
    let taskId = dto.id ?? 0;
    const result = await this.devices.dispatch(caller, BROADCAST_FAMILY, dto, 'task', TERMINAL_SELECTION, async (tx, deviceIds) => {
      const { media, playbackMode } = await this.taskMedia(tx, dto);
      const values = [
        dto.taskName,
        dto.playlistId ?? null,
        JSON.stringify(keptMedia(media)),
        playbackMode,
        dto.volume,
        dto.priority,
        JSON.stringify(schedule),
        deviceIds,
        caller.username,
      ];
      let dropped: number[] = [];
      if (dto.id === undefined) {
        const [{ id }]: { id: number }[] = await tx.query(
          `INSERT INTO broadcast_task (task_name, task_mode, playlist_id, media, playback_mode, volume, priority, schedule, terminal_ids, created_by)
           VALUES ($1, '${BroadcastTaskMode.Scheduled}', $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
          values,
        );
        taskId = id;
      } else {
        const [before]: { taskMode: BroadcastTaskMode; dispatchId: string | null; terminalIds: number[] }[] = await tx.query(
          `SELECT task_mode AS "taskMode", dispatch_id AS "dispatchId", terminal_ids AS "terminalIds" FROM broadcast_task WHERE id = $1 FOR UPDATE`,
          [dto.id],
        );
        if (!before) throw AppException.notFound('taskNotFound');
        if (before.taskMode !== BroadcastTaskMode.Scheduled) throw AppException.badRequest('taskNotScheduled');
        await tx.query(
          `UPDATE broadcast_task SET task_name = $1, playlist_id = $2, media = $3, playback_mode = $4, volume = $5, priority = $6, schedule = $7,
                  terminal_ids = $8, updated_by = $9, updated_at = now()
            WHERE id = $10`,
          [...values, dto.id],
        );
        if (before.dispatchId) await commandLedger.supersede(sqlOf(tx), before.dispatchId);
        const kept = new Set(deviceIds);
        dropped = await this.existingTerminals(
          tx,
          before.terminalIds.filter((id) => !kept.has(id)),
        );
      }
      const { content, timeZones } = await this.taskCommand(tx, taskId, deviceIds, dto, media, playbackMode, schedule);
      await tx.query(`UPDATE broadcast_task SET time_zones = $2 WHERE id = $1`, [taskId, timeZones]);
      if (dropped.length > 0)
        await this.devices.dispatchIn(tx, caller, BROADCAST_FAMILY, 'cancelTask', dropped, { params: { taskId: taskWireId(taskId) } });
      return content;
    });
    return { ...result, id: taskId };
  }

  /**
   * Deletes a task: its terminals (those not deleted since) are sent `cancelTask` and forget it, and its dispatch's
   * unanswered rows are superseded, in one transaction. Answers the cancelling dispatch (null: no terminal was left).
   */
  async remove(caller: Caller, id: number): Promise<{ dispatchId: string | null }> {
    return this.db.transaction(async (tx) => {
      const [task]: { dispatchId: string | null; terminalIds: number[] }[] = await tx.query(
        `SELECT dispatch_id AS "dispatchId", terminal_ids AS "terminalIds" FROM broadcast_task WHERE id = $1 FOR UPDATE`,
        [id],
      );
      if (!task) throw AppException.notFound('taskNotFound');
      if (task.dispatchId) await commandLedger.supersede(sqlOf(tx), task.dispatchId);
      const terminals = await this.existingTerminals(tx, task.terminalIds);
      const dispatchId =
        terminals.length > 0
          ? await this.devices.dispatchIn(tx, caller, BROADCAST_FAMILY, 'cancelTask', terminals, { params: { taskId: taskWireId(id) } })
          : null;
      await tx.query(`DELETE FROM broadcast_task WHERE id = $1`, [id]);
      return { dispatchId };
    });
  }

  /**
   * A play action on one task (spec: play, pause, cancel pause, stop) on its terminals, or on `ids` among them, as
   * the `taskControl` command through the ledger; their other tasks are left as they are.
   */
  async control(caller: Caller, dto: TaskControlDto): Promise<LampControlResult> {
    const [task]: { terminalIds: number[] }[] = await this.db.query(`SELECT terminal_ids AS "terminalIds" FROM broadcast_task WHERE id = $1`, [
      dto.id,
    ]);
    if (!task) throw AppException.notFound('taskNotFound');
    const held = new Set(task.terminalIds);
    const outside = (dto.ids ?? []).filter((id) => !held.has(id));
    if (outside.length > 0) throw AppException.field('ids', 'terminalsNotInTask', { ids: outside.join(', ') });
    const ids = await this.existingTerminals(this.db.manager, dto.ids ?? task.terminalIds);
    const params = { taskId: taskWireId(dto.id), action: dto.action };
    return this.devices.dispatch(caller, BROADCAST_FAMILY, { ids }, 'taskControl', TERMINAL_SELECTION, () => ({ params }));
  }

  /** Those of the ids that are still terminals, in id order, locked against deletion in a transaction. */
  private async existingTerminals(tx: EntityManager, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows: { id: number }[] = await tx.query(
      `SELECT d.id FROM device d JOIN broadcast_terminal t ON t.device_id = d.id WHERE d.id = ANY($1::int[]) ORDER BY d.id FOR KEY SHARE OF d`,
      [ids],
    );
    return rows.map((r) => r.id);
  }

  /** The media a task plays, with their links: the playlist's (in its mode) or the chosen ones (normal_mode unless told). */
  private async taskMedia(tx: EntityManager, dto: ImmediateBroadcastDto): Promise<{ media: SentMedium[]; playbackMode: PlaybackMode }> {
    if (dto.playlistId !== undefined && dto.playlistId !== null) return this.playlistMedia(tx, dto.playlistId);
    return { media: await this.media.playableMedia(tx, dto.mediaIds!), playbackMode: dto.playbackMode ?? PlaybackMode.Normal };
  }

  /**
   * The `task` command for a task's terminals, with each one's clock, and the dispatch's record of it on the task; and
   * the time zones it was sent in.
   */
  private async taskCommand(
    tx: EntityManager,
    id: number,
    deviceIds: number[],
    dto: ImmediateBroadcastDto,
    media: SentMedium[],
    mode: PlaybackMode,
    schedule: BroadcastSchedule | null,
  ) {
    const params: Omit<TerminalTaskParams, 'timeZone'> = {
      taskId: taskWireId(id),
      title: dto.taskName,
      priority: dto.priority,
      volume: dto.volume,
      mode,
      items: media.map(({ mediaId, title, url, sha256, bytes, durationMs }) => ({ mediaId, title, url, sha256, bytes, durationMs })),
      schedule,
    };
    const { zones, ...clocks } = await this.withClocks(tx, deviceIds, params);
    const content: DispatchContent = {
      ...clocks,
      recorded: (t, dispatchId) => t.query(`UPDATE broadcast_task SET dispatch_id = $2 WHERE id = $1`, [id, dispatchId]).then(() => undefined),
    };
    return { content, timeZones: [...new Set(zones)] };
  }

  /**
   * The task's params with each terminal's clock (its region's time zone): one set for all when they share a zone, as
   * most installations do, else one per terminal.
   */
  private async withClocks(tx: EntityManager, deviceIds: number[], params: Omit<TerminalTaskParams, 'timeZone'>) {
    const query = (sql: string, values?: unknown[]) => tx.query(sql, values) as Promise<unknown[]>;
    const places = await lampPlaces(query, deviceIds, this.config.defaultPlace);
    const zones = deviceIds.map((id) => places.get(id)?.place.timeZone ?? this.config.defaultPlace.timeZone);
    if (zones.every((zone) => zone === zones[0])) return { zones, params: { ...params, timeZone: zones[0] } };
    return {
      zones,
      params: { ...params, timeZone: this.config.defaultPlace.timeZone },
      itemParams: zones.map((timeZone) => ({ ...params, timeZone })),
    };
  }

  private async playlistMedia(tx: EntityManager, playlistId: number): Promise<{ media: SentMedium[]; playbackMode: PlaybackMode }> {
    const [playlist]: { playbackMode: PlaybackMode }[] = await tx.query(
      `SELECT playback_mode AS "playbackMode" FROM broadcast_playlist WHERE id = $1 FOR SHARE`,
      [playlistId],
    );
    if (!playlist) throw AppException.field('playlistId', 'notFound');
    const ids: { id: number }[] = await tx.query(`SELECT media_id AS id FROM broadcast_playlist_item WHERE playlist_id = $1 ORDER BY position`, [
      playlistId,
    ]);
    return {
      media: await this.media.playableMedia(
        tx,
        ids.map((r) => r.id),
      ),
      playbackMode: playlist.playbackMode,
    };
  }
}
