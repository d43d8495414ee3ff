import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { Button, MediaAuditStatus, type PageResult, type PlaylistDetail, type PlaylistItem, type PlaylistRow } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { isUniqueViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { Where, likeContains, newestFirstPage } from '../common/sql';
import { InjectDb } from '../infra/database';
import type { PlaylistAddOrEditDto, PlaylistPageDto } from './dto/playlist.dto';
import { refuseWhileTasksName } from './task-activity';

const PLAYLIST_COLUMNS = `p.id, p.name, p.playback_mode AS "playbackMode", p.updated_by AS "updatedBy", p.updated_at AS "updatedAt",
  (SELECT count(*)::int FROM broadcast_playlist_item i WHERE i.playlist_id = p.id) AS "itemCount",
  (SELECT coalesce(sum(m.duration_ms), 0) / 1000.0 FROM broadcast_playlist_item i JOIN broadcast_media m ON m.id = i.media_id
    WHERE i.playlist_id = p.id)::float8 AS "totalDuration"`;

/** Names shown in a refusal at most. */
const NAMES_SHOWN = 5;
const quoted = (names: string[]) =>
  names
    .slice(0, NAMES_SHOWN)
    .map((n) => `"${n}"`)
    .join(', ') + (names.length > NAMES_SHOWN ? ' …' : '');

/**
 * Broadcast playlists (spec: playback modes normal_mode, list_cycle_mode, random_mode): ordered approved media, each at
 * most once ('A material already in the playlist cannot be added twice'), with their total duration.
 */
@Injectable()
export class PlaylistsService {
  constructor(@InjectDb() private readonly db: DataSource) {}

  page(q: PlaylistPageDto): Promise<PageResult<PlaylistRow>> {
    const where = new Where().addIf(q.name, `lower(p.name) LIKE ?`, q.name && likeContains(q.name));
    return newestFirstPage<PlaylistRow>(this.db, { select: PLAYLIST_COLUMNS, from: 'broadcast_playlist p', alias: 'p', where }, q);
  }

  async detail(id: number, db: DataSource | EntityManager = this.db): Promise<PlaylistDetail> {
    const [row]: PlaylistRow[] = await db.query(`SELECT ${PLAYLIST_COLUMNS} FROM broadcast_playlist p WHERE p.id = $1`, [id]);
    if (!row) throw AppException.notFound();
    const items: PlaylistItem[] = await db.query(
      `SELECT m.id AS "mediaId", m.material_name AS "materialName", (m.duration_ms / 1000.0)::float8 AS duration,
              m.file_size::float8 AS "fileSize", m.audit_status AS "auditStatus"
         FROM broadcast_playlist_item i JOIN broadcast_media m ON m.id = i.media_id
        WHERE i.playlist_id = $1 ORDER BY i.position`,
      [id],
    );
    return { ...row, items };
  }

  /**
   * Adds a playlist (no id; Add button) or replaces one's name, mode and media (Edit button): the list is the new
   * order. The media are locked while the playlist is written (FOR SHARE), so none is rejected or deleted meanwhile.
   */
  async save(caller: Caller, dto: PlaylistAddOrEditDto): Promise<{ id: number }> {
    if (!caller.buttons.includes(dto.id === undefined ? Button.Add : Button.Edit)) throw AppException.forbidden();
    try {
      return await this.db.transaction(async (tx) => {
        await assertPlayableMedia(tx, dto.mediaIds);
        let id = dto.id;
        if (id === undefined) {
          [{ id }] = (await tx.query(`INSERT INTO broadcast_playlist (name, playback_mode, updated_by) VALUES ($1, $2, $3) RETURNING id`, [
            dto.name,
            dto.playbackMode,
            caller.username,
          ])) as { id: number }[];
        } else {
          const [, affected] = (await tx.query(
            `UPDATE broadcast_playlist SET name = $2, playback_mode = $3, updated_by = $4, updated_at = now() WHERE id = $1`,
            [id, dto.name, dto.playbackMode, caller.username],
          )) as [unknown, number];
          if (!affected) throw AppException.notFound();
          await tx.query(`DELETE FROM broadcast_playlist_item WHERE playlist_id = $1`, [id]);
        }
        await tx.query(
          `INSERT INTO broadcast_playlist_item (playlist_id, position, media_id)
           SELECT $1, ord - 1, media_id FROM unnest($2::int[]) WITH ORDINALITY AS list(media_id, ord)`,
          [id, dto.mediaIds],
        );
        return { id: id! };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('name', 'playlistNameTaken', { name: dto.name });
      throw err;
    }
  }

  /** Deletes a playlist no broadcast task that has not ended was sent from (tasks lock the playlist they read). */
  async remove(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const found: unknown[] = await tx.query(`SELECT 1 FROM broadcast_playlist WHERE id = $1 FOR UPDATE`, [id]);
      if (found.length === 0) throw AppException.notFound();
      await refuseWhileTasksName(tx, `t.playlist_id = $1`, id, 'playlistInTasks');
      await tx.query(`DELETE FROM broadcast_playlist WHERE id = $1`, [id]);
    });
  }
}

/** Every medium exists and is approved; each is locked against a rejection or deletion until the transaction ends. */
async function assertPlayableMedia(tx: EntityManager, ids: number[]): Promise<void> {
  const rows: { id: number; name: string; status: MediaAuditStatus }[] = await tx.query(
    `SELECT id, material_name AS name, audit_status AS status FROM broadcast_media WHERE id = ANY($1::int[]) ORDER BY id FOR SHARE`,
    [ids],
  );
  const found = new Set(rows.map((r) => r.id));
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length) throw AppException.field('mediaIds', 'unknownMedia', { ids: unknown.slice(0, 20).join(', ') });
  const unaudited = rows.filter((r) => r.status !== MediaAuditStatus.Approved).map((r) => r.name);
  if (unaudited.length) throw AppException.field('mediaIds', 'mediaNotAudited', { names: quoted(unaudited) });
}
