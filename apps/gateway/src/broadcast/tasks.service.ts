import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import {
  BROADCAST_FAMILY,
  BroadcastTaskMode,
  DispatchStatus,
  MediaAuditStatus,
  PlaybackMode,
  immediateTimeStatus,
  taskListMs,
  taskWireId,
  type BroadcastTaskRow,
  type LampControlResult,
  type PageResult,
  type TaskMedium,
  type TerminalTaskParams,
} from '@sc/contracts';
import { AppException } from '../common/app-exception';
import type { Caller } from '../common/request-context';
import { Where, likeContains, newestFirstPage } from '../common/sql';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DeviceControlService } from '../dispatch/device-control.service';
import { InjectDb } from '../infra/database';
import { lampPlaces } from '../strategies/lamp-places';
import type { BroadcastTaskPageDto, ImmediateBroadcastDto } from './dto/task.dto';
import { MediaService } from './media.service';
import { taskPlayers } from './task-players';
import { TERMINAL_SELECTION } from './terminals.service';

/** A medium as the task sends it: what the task keeps, and where and how the terminal fetches it. */
interface SentMedium extends TaskMedium {
  url: string;
  sha256: string;
  bytes: number;
}

const TASK_COLUMNS = `t.id, t.task_name AS "taskName", t.task_mode AS "taskMode", t.playback_mode AS "playbackMode", t.volume, t.priority,
  t.media, t.schedule, cardinality(t.terminal_ids) AS "terminalCount", t.dispatch_id AS "dispatchId",
  coalesce(d.status, '${DispatchStatus.ToBeSent}') AS "dispatchStatus", t.created_by AS "createdBy", t.created_at AS "createdAt",
  t.stopped_at AS "stoppedAt", t.stopped_by AS "stoppedBy"`;
const TASK_FROM = `broadcast_task t LEFT JOIN dispatch d ON d.id = t.dispatch_id`;

type StoredTask = Omit<BroadcastTaskRow, 'durationMs' | 'timeStatus' | 'players' | 'playingCount'>;

/** The wire id of a task on the terminals (the device contract's taskId). */
export const terminalTaskId = taskWireId;

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
    const playing = await taskPlayers(
      this.db,
      page.list.map((task) => task.id),
    );
    const now = new Date();
    return {
      ...page,
      list: page.list.map((task) => {
        const { players, count } = playing.get(task.id) ?? { players: [], count: 0 };
        return { ...task, durationMs: taskListMs(task.media), timeStatus: immediateTimeStatus(task, now, count), players, playingCount: count };
      }),
    };
  }

  /** Plays a playlist or chosen media on terminals now; answers the dispatch that delivers it. */
  async immediate(caller: Caller, dto: ImmediateBroadcastDto): Promise<LampControlResult & { id: number }> {
    const byPlaylist = dto.playlistId !== undefined && dto.playlistId !== null;
    const byMedia = dto.mediaIds !== undefined && dto.mediaIds !== null;
    if (byPlaylist && byMedia) throw AppException.badRequest('taskMediaAmbiguous');
    if (!byPlaylist && (!byMedia || dto.mediaIds!.length === 0)) throw AppException.field('mediaIds', 'taskMediaEmpty');
    let taskId = 0;
    const result = await this.devices.dispatch(caller, BROADCAST_FAMILY, dto, 'task', TERMINAL_SELECTION, async (tx, deviceIds) => {
      const { media, playbackMode } = byPlaylist
        ? await this.playlistMedia(tx, dto.playlistId!)
        : { media: await this.chosenMedia(tx, dto.mediaIds!), playbackMode: dto.playbackMode ?? PlaybackMode.Normal };
      const kept: TaskMedium[] = media.map(({ mediaId, title, durationMs }) => ({ mediaId, title, durationMs }));
      const [{ id }]: { id: number }[] = await tx.query(
        `INSERT INTO broadcast_task (task_name, task_mode, playlist_id, media, playback_mode, volume, priority, schedule, terminal_ids, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8, $9) RETURNING id`,
        [
          dto.taskName,
          BroadcastTaskMode.Immediate,
          byPlaylist ? dto.playlistId : null,
          JSON.stringify(kept),
          playbackMode,
          dto.volume,
          dto.priority,
          deviceIds,
          caller.username,
        ],
      );
      taskId = id;
      const params: Omit<TerminalTaskParams, 'timeZone'> = {
        taskId: terminalTaskId(id),
        title: dto.taskName,
        priority: dto.priority,
        volume: dto.volume,
        mode: playbackMode,
        items: media.map(({ mediaId, title, url, sha256, bytes, durationMs }) => ({ mediaId, title, url, sha256, bytes, durationMs })),
        schedule: null,
      };
      return {
        ...(await this.withClocks(tx, deviceIds, params)),
        recorded: (t, dispatchId) => t.query(`UPDATE broadcast_task SET dispatch_id = $2 WHERE id = $1`, [id, dispatchId]).then(() => undefined),
      };
    });
    return { ...result, id: taskId };
  }

  /**
   * The task's params with each terminal's clock (its region's time zone): one set for all when they share a zone, as
   * most installations do, else one per terminal.
   */
  private async withClocks(tx: EntityManager, deviceIds: number[], params: Omit<TerminalTaskParams, 'timeZone'>) {
    const query = (sql: string, values?: unknown[]) => tx.query(sql, values) as Promise<unknown[]>;
    const places = await lampPlaces(query, deviceIds, this.config.defaultPlace);
    const zones = deviceIds.map((id) => places.get(id)?.place.timeZone ?? this.config.defaultPlace.timeZone);
    if (zones.every((zone) => zone === zones[0])) return { params: { ...params, timeZone: zones[0] } };
    return { params: { ...params, timeZone: this.config.defaultPlace.timeZone }, itemParams: zones.map((timeZone) => ({ ...params, timeZone })) };
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
      media: await this.chosenMedia(
        tx,
        ids.map((r) => r.id),
      ),
      playbackMode: playlist.playbackMode,
    };
  }

  /** The media in the given order, each with a terminal's signed link; unknown or unapproved ones refuse the task. */
  private async chosenMedia(tx: EntityManager, ids: readonly number[]): Promise<SentMedium[]> {
    if (ids.length === 0) throw AppException.field('mediaIds', 'taskMediaEmpty');
    const rows: { id: number; title: string; durationMs: number; auditStatus: MediaAuditStatus }[] = await tx.query(
      `SELECT id, material_name AS title, duration_ms AS "durationMs", audit_status AS "auditStatus" FROM broadcast_media WHERE id = ANY($1::int[]) FOR SHARE`,
      [ids],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const unknown = ids.filter((id) => !byId.has(id));
    if (unknown.length > 0) throw AppException.field('mediaIds', 'unknownMedia', { ids: unknown.join(', ') });
    const unapproved = rows.filter((r) => r.auditStatus !== MediaAuditStatus.Approved).map((r) => `"${r.title}"`);
    if (unapproved.length > 0) throw AppException.field('mediaIds', 'taskMediaNotPlayable', { names: unapproved.join(', ') });
    return Promise.all(
      ids.map(async (id) => {
        const { title, durationMs } = byId.get(id)!;
        const link = await this.media.terminalLink(id);
        return { mediaId: id, title, durationMs, url: link.url, sha256: link.sha256, bytes: link.fileSize };
      }),
    );
  }
}
