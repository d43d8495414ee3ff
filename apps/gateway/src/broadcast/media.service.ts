import { Injectable } from '@nestjs/common';
import { rm } from 'node:fs/promises';
import type { DataSource, EntityManager } from 'typeorm';
import {
  BroadcastContentType,
  MEDIA_NAME_FIELD,
  MEDIA_NAME_MAX,
  MediaAuditStatus,
  type MediaLink,
  type MediaRow,
  type PageResult,
  type TaskMedium,
} from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { storedFile, type FileToSend } from '../common/file-response';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import type { AppRequest, Caller } from '../common/request-context';
import { Where, likeContains, newestFirstPage } from '../common/sql';
import { InjectDb } from '../infra/database';
import { UploadService, uploadedName } from '../uploads/upload.service';
import type { MediaAuditDto, MediaPageDto, MediaRenameDto } from './dto/media.dto';
import { MediaLinks } from './media-links';
import { MP3_RULE, Mp3Probe } from './mp3-probe';
import { refuseWhileTasksName } from './task-activity';

/** Where media files are kept, under UPLOAD_DIR (docs/broadcast-media.md). */
export const MEDIA_FOLDER = 'broadcast-media';

/** A medium as a device's command names it: with its signed link and what the device checks the download against. */
export interface SentMedium extends TaskMedium {
  url: string;
  sha256: string;
  bytes: number;
}

const MEDIA_COLUMNS = `m.id, m.material_name AS "materialName", m.material_type AS "materialType",
  (m.duration_ms / 1000.0)::float8 AS duration, m.file_size::float8 AS "fileSize", m.bitrate, m.sample_rate AS "sampleRate",
  m.channels, m.sha256, m.audit_status AS "auditStatus", m.audit_remark AS "auditRemark", m.audited_by AS "auditedBy",
  m.audited_at AS "auditedAt", m.uploader, m.uploaded_at AS "uploadedAt",
  (SELECT count(*)::int FROM broadcast_playlist_item i WHERE i.media_id = m.id) AS "playlistCount"`;

/** Playlists named in a refusal at most; the rest are counted. */
const NAMES_SHOWN = 5;

/**
 * The broadcast media library (spec: materialName, materialType, duration, fileSize, auditStatus): MP3 uploads checked
 * by content, stored under UPLOAD_DIR, audited by an administrator before playlists and tasks may use them.
 */
@Injectable()
export class MediaService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly uploads: UploadService,
    private readonly probe: Mp3Probe,
    private readonly links: MediaLinks,
  ) {}

  async page(q: MediaPageDto): Promise<PageResult<MediaRow>> {
    const where = new Where()
      .addIf(q.materialName, `lower(m.material_name) LIKE ?`, q.materialName && likeContains(q.materialName))
      .addIf(q.auditStatus, `m.audit_status = ?`)
      .addIf(q.materialType, `m.material_type = ?`);
    return newestFirstPage<MediaRow>(this.db, { select: MEDIA_COLUMNS, from: 'broadcast_media m', alias: 'm', where }, q);
  }

  async detail(id: number, db: DataSource | EntityManager = this.db): Promise<MediaRow> {
    const [row]: MediaRow[] = await db.query(`SELECT ${MEDIA_COLUMNS} FROM broadcast_media m WHERE m.id = $1`, [id]);
    if (!row) throw AppException.notFound();
    return row;
  }

  /**
   * Takes an upload of the upload port: streamed to disk and cut off past 50 MB, checked by its content, then kept
   * under MEDIA_FOLDER with what was read from it, awaiting its audit. Nothing of a refused file stays, row or file.
   */
  async upload(req: AppRequest, caller: Caller): Promise<MediaRow> {
    const upload = await this.uploads.receive(req, MP3_RULE);
    let kept: string | null = null;
    try {
      const name = uploadedName(upload, MEDIA_NAME_FIELD, MEDIA_NAME_MAX);
      const facts = await this.probe.inspect(upload.path);
      await this.refuseDuplicate(upload.sha256);
      kept = await this.uploads.keep(upload, MEDIA_FOLDER);
      const [{ id }]: { id: number }[] = await this.db.query(
        `INSERT INTO broadcast_media (material_name, material_type, storage_path, original_name, file_size, sha256, duration_ms, bitrate,
                                      sample_rate, channels, uploaded_by, uploader)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
        [
          name,
          BroadcastContentType.Audio,
          kept,
          upload.originalName.slice(0, 255),
          upload.sizeBytes,
          upload.sha256,
          facts.durationMs,
          facts.bitrate,
          facts.sampleRate,
          facts.channels,
          caller.userId,
          caller.username,
        ],
      );
      return await this.detail(id);
    } catch (err) {
      if (kept) await rm(this.uploads.pathOf(kept), { force: true });
      // The same file uploaded twice at the same moment: one of them is kept.
      if (isUniqueViolation(err)) await this.refuseDuplicate(upload.sha256);
      throw err;
    } finally {
      if (!kept) await this.uploads.discard(upload);
    }
  }

  /** 'This file is already in the media library as "…"' when a medium has this content. */
  private async refuseDuplicate(sha256: string): Promise<void> {
    const [same]: { name: string }[] = await this.db.query(`SELECT material_name AS name FROM broadcast_media WHERE sha256 = $1`, [sha256]);
    if (same) throw AppException.conflict('mediaDuplicate', { name: same.name });
  }

  async rename(dto: MediaRenameDto): Promise<MediaRow> {
    const [, affected] = (await this.db.query(`UPDATE broadcast_media SET material_name = $2 WHERE id = $1`, [dto.id, dto.materialName])) as [
      unknown,
      number,
    ];
    if (!affected) throw AppException.notFound();
    return this.detail(dto.id);
  }

  /**
   * Approves or rejects a medium. A medium in a playlist stays approved: playlists hold approved media only, so it is
   * taken out of them first. Playlist changes lock the media they add (FOR SHARE), so neither change misses the other.
   */
  async audit(caller: Caller, dto: MediaAuditDto): Promise<MediaRow> {
    return this.db.transaction(async (tx) => {
      await this.lock(tx, dto.id);
      if (dto.auditStatus === MediaAuditStatus.Rejected) await refuseWhileInPlaylists(tx, dto.id);
      await tx.query(`UPDATE broadcast_media SET audit_status = $2, audit_remark = $3, audited_by = $4, audited_at = now() WHERE id = $1`, [
        dto.id,
        dto.auditStatus,
        dto.auditRemark ?? '',
        caller.username,
      ]);
      return this.detail(dto.id, tx);
    });
  }

  /** Deletes a medium no playlist holds and no broadcast task that has not ended names, and then its file. */
  async remove(id: number): Promise<void> {
    let storagePath: string;
    try {
      storagePath = await this.db.transaction(async (tx) => {
        const path = await this.lock(tx, id);
        await refuseWhileInPlaylists(tx, id);
        await refuseWhileTasksName(tx, `t.media @> $1::jsonb`, JSON.stringify([{ mediaId: id }]), 'mediaInTasks');
        await tx.query(`DELETE FROM broadcast_media WHERE id = $1`, [id]);
        return path;
      });
    } catch (err) {
      // A playlist took it between the check and the delete.
      if (isForeignKeyViolation(err)) await refuseWhileInPlaylists(this.db.manager, id);
      throw err;
    }
    await rm(this.uploads.pathOf(storagePath), { force: true });
  }

  /** A signed link for the console's player: valid long enough to play the whole medium and seek in it. */
  async previewLink(id: number): Promise<MediaLink> {
    const medium = await this.detail(id);
    return this.links.sign(medium, { ttlSeconds: this.linkTtlFor(medium.duration) });
  }

  /**
   * A signed link for a terminal (the tasks to come), under MEDIA_LINK_BASE_URL, valid for MEDIA_LINK_TTL_SECONDS, with
   * the checksum the terminal verifies its download against. Approved media only.
   */
  /**
   * The media in the given order, each with a device's signed link (a broadcast task's, an alarm announcement's):
   * unknown or unapproved ones refuse it. Locks them (FOR SHARE) for the caller's transaction.
   */
  async playableMedia(tx: EntityManager, ids: readonly number[]): Promise<SentMedium[]> {
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
        const link = await this.terminalLink(id);
        return { mediaId: id, title, durationMs, url: link.url, sha256: link.sha256, bytes: link.fileSize };
      }),
    );
  }

  async terminalLink(id: number): Promise<MediaLink> {
    const medium = await this.detail(id);
    if (medium.auditStatus !== MediaAuditStatus.Approved) throw AppException.badRequest('mediaNotAudited', { names: `"${medium.materialName}"` });
    return this.links.sign(medium, { absolute: true });
  }

  private linkTtlFor(durationSeconds: number): number {
    return Math.ceil(durationSeconds) + this.links.defaultTtlSeconds;
  }

  /** The stored file a valid signed link leads to; 403 for any other link, 404 when the medium or its file is gone. */
  async fileOf(query: Record<string, unknown>): Promise<FileToSend> {
    const id = this.links.verify(query);
    if (id === null) throw AppException.forbidden('mediaLinkInvalid');
    const [row]: { path: string; sha256: string }[] = await this.db.query(`SELECT storage_path AS path, sha256 FROM broadcast_media WHERE id = $1`, [
      id,
    ]);
    if (!row) throw AppException.notFound();
    return storedFile(this.uploads.pathOf(row.path), { contentType: 'audio/mpeg', etag: row.sha256, fileName: `media-${id}.mp3` });
  }

  /** Locks the medium's row for a change that must see the playlists holding it; answers its stored file's path. */
  private async lock(tx: EntityManager, id: number): Promise<string> {
    const [row]: { path: string }[] = await tx.query(`SELECT storage_path AS path FROM broadcast_media WHERE id = $1 FOR UPDATE`, [id]);
    if (!row) throw AppException.notFound();
    return row.path;
  }
}

/** 'This material is used by the playlists …; remove it from them first' while any playlist holds the medium. */
async function refuseWhileInPlaylists(db: EntityManager, mediaId: number): Promise<void> {
  const rows: { name: string; total: number }[] = await db.query(
    `SELECT p.name, count(*) OVER ()::int AS total FROM broadcast_playlist_item i JOIN broadcast_playlist p ON p.id = i.playlist_id
      WHERE i.media_id = $1 ORDER BY p.name LIMIT ${NAMES_SHOWN}`,
    [mediaId],
  );
  if (rows.length === 0) return;
  const more = rows[0].total - rows.length;
  const names = rows.map((r) => `"${r.name}"`).join(', ') + (more > 0 ? ` (+${more})` : '');
  throw AppException.conflict('mediaInPlaylists', { names });
}
