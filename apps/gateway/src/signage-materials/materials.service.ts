import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import { MATERIAL_NAME_FIELD, MATERIAL_NAME_MAX, type MaterialRow, type MediaLink, type PageResult } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { storedFile, type FileToSend } from '../common/file-response';
import type { AppRequest, Caller } from '../common/request-context';
import { Where, likeContains, newestFirstPage } from '../common/sql';
import { InjectDb } from '../infra/database';
import { UploadService, uploadedName } from '../uploads/upload.service';
import { UserSlots } from '../uploads/user-slots';
import type { MaterialPageDto, MaterialRenameDto, MaterialStatusDto, MaterialStorageAreaDto } from './dto/materials.dto';
import { MaterialCoverLinks, MaterialFileLinks } from './material-links';
import { MATERIAL_RULE, MaterialProbe } from './material-probe';
import { MATERIAL_USAGE, type MaterialUsage } from './material-usage';
import { shownList } from '../common/shown-list';

/** Where materials are kept, under UPLOAD_DIR, and their covers beside them (docs/signage-materials.md). */
export const MATERIAL_FOLDER = 'signage-materials';
export const COVER_FOLDER = join(MATERIAL_FOLDER, 'covers');

/** Uploads this process receives and checks at once (one per user in any case): a video's check runs ffprobe and ffmpeg. */
export const MATERIAL_UPLOADS_AT_ONCE = 4;
const uploading = new UserSlots({ user: 'materialUploadBusyUser', server: 'materialUploadBusyServer' });

/** Ads named in a refusal at most. */
const NAMES_SHOWN = 5;

const MATERIAL_COLUMNS = `m.id, m.name, m.type, m.file_size::float8 AS "fileSize", m.width, m.height,
  m.duration_seconds::float8 AS duration, m.mime, m.sha256, m.status, m.storage_area AS "storageArea", m.uploader,
  m.uploaded_at AS "uploadedAt", (m.cover_path IS NOT NULL) AS "hasCover"`;

type StoredRow = Omit<MaterialRow, 'coverUrl'> & { hasCover: boolean };

/**
 * Floor-screen materials: images, videos and music uploaded on the upload port, checked by content, kept under
 * UPLOAD_DIR with what was read from them and a cover; listed, renamed, made available or unavailable, given a storage
 * area, deleted unless an ad uses them (MaterialUsage), and served through signed links.
 */
@Injectable()
export class MaterialsService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly uploads: UploadService,
    private readonly probe: MaterialProbe,
    private readonly fileLinks: MaterialFileLinks,
    private readonly coverLinks: MaterialCoverLinks,
    @Inject(MATERIAL_USAGE) private readonly usage: MaterialUsage,
  ) {}

  async page(q: MaterialPageDto): Promise<PageResult<MaterialRow>> {
    const where = new Where()
      .addIf(q.name, `lower(m.name) LIKE ?`, q.name && likeContains(q.name))
      .addIf(q.type, `m.type = ?`)
      .addIf(q.status, `m.status = ?`);
    const page = await newestFirstPage<StoredRow>(this.db, { select: MATERIAL_COLUMNS, from: 'signage_material m', alias: 'm', where }, q);
    const now = Date.now();
    return { ...page, list: page.list.map((row) => this.shown(row, now)) };
  }

  async detail(id: number, db: DataSource | EntityManager = this.db): Promise<MaterialRow> {
    const [row]: StoredRow[] = await db.query(`SELECT ${MATERIAL_COLUMNS} FROM signage_material m WHERE m.id = $1`, [id]);
    if (!row) throw AppException.notFound();
    return this.shown(row, Date.now());
  }

  private shown({ hasCover, ...row }: StoredRow, now: number): MaterialRow {
    return { ...row, coverUrl: hasCover ? this.coverLinks.stable(row, now) : null };
  }

  /**
   * Takes an upload of the upload port: one per user at a time, streamed to disk and cut off past its type's size,
   * checked by its content, given a cover, then kept under MATERIAL_FOLDER. Nothing of a refused file stays, row or file.
   */
  async upload(req: AppRequest, caller: Caller): Promise<MaterialRow> {
    const release = uploading.take(caller.userId, MATERIAL_UPLOADS_AT_ONCE);
    try {
      return await this.receive(req, caller);
    } finally {
      release();
    }
  }

  private async receive(req: AppRequest, caller: Caller): Promise<MaterialRow> {
    const upload = await this.uploads.receive(req, MATERIAL_RULE);
    let kept: string | null = null;
    let cover: string | null = null;
    try {
      const name = uploadedName(upload, MATERIAL_NAME_FIELD, MATERIAL_NAME_MAX);
      const facts = await this.probe.inspect(upload.path, upload.originalName);
      const coverPath = join(COVER_FOLDER, `${randomUUID()}.jpg`);
      await mkdir(dirname(this.uploads.pathOf(coverPath)), { recursive: true, mode: 0o750 });
      if (await this.probe.cover(upload.path, facts, this.uploads.pathOf(coverPath))) cover = coverPath;
      kept = await this.uploads.keep(upload, MATERIAL_FOLDER);
      const [{ id }]: { id: number }[] = await this.db.query(
        `INSERT INTO signage_material (name, cover_path, type, file_size, width, height, duration_seconds, file_path, original_name,
                                       sha256, mime, uploaded_by, uploader)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
        [
          name,
          cover,
          facts.type,
          upload.sizeBytes,
          facts.width,
          facts.height,
          facts.duration,
          kept,
          upload.originalName.slice(0, 255),
          upload.sha256,
          facts.mime,
          caller.userId,
          caller.username,
        ],
      );
      return await this.detail(id);
    } catch (err) {
      if (kept) await rm(this.uploads.pathOf(kept), { force: true });
      if (cover) await rm(this.uploads.pathOf(cover), { force: true });
      throw err;
    } finally {
      if (!kept) await this.uploads.discard(upload);
    }
  }

  async rename(dto: MaterialRenameDto): Promise<MaterialRow> {
    return this.update(dto.id, `name = $2`, dto.name);
  }

  async setStatus(dto: MaterialStatusDto): Promise<MaterialRow> {
    return this.update(dto.id, `status = $2`, dto.status);
  }

  async setStorageArea(dto: MaterialStorageAreaDto): Promise<MaterialRow> {
    return this.update(dto.id, `storage_area = $2`, dto.storageArea ?? null);
  }

  private async update(id: number, set: string, value: unknown): Promise<MaterialRow> {
    const [, affected] = (await this.db.query(`UPDATE signage_material SET ${set} WHERE id = $1`, [id, value])) as [unknown, number];
    if (!affected) throw AppException.notFound();
    return this.detail(id);
  }

  /** Deletes a material no ad uses (MaterialUsage, asked with its row locked), then its file and cover. */
  async remove(id: number): Promise<void> {
    const paths = await this.db.transaction(async (tx) => {
      const [row]: { file: string; cover: string | null }[] = await tx.query(
        `SELECT file_path AS file, cover_path AS cover FROM signage_material WHERE id = $1 FOR UPDATE`,
        [id],
      );
      if (!row) throw AppException.notFound();
      const ads = await this.usage.adsUsing(tx, id);
      if (ads.length > 0) {
        throw AppException.conflict('materialInUse', { names: shownList(ads, NAMES_SHOWN, true) });
      }
      await tx.query(`DELETE FROM signage_material WHERE id = $1`, [id]);
      return [row.file, row.cover];
    });
    await Promise.all(paths.filter((p): p is string => p !== null).map((p) => rm(this.uploads.pathOf(p), { force: true })));
  }

  /** A signed link for the console's player: valid long enough to play the whole material and seek in it. */
  async previewLink(id: number): Promise<MediaLink> {
    const material = await this.detail(id);
    return this.fileLinks.sign(material, { ttlSeconds: Math.ceil(material.duration ?? 0) + this.fileLinks.defaultTtlSeconds });
  }

  /** The material's file for a valid signed link; 403 for any other link, 404 when the material or its file is gone. */
  async fileOf(query: Record<string, unknown>): Promise<FileToSend> {
    const id = this.fileLinks.verify(query);
    if (id === null) throw AppException.forbidden('mediaLinkInvalid');
    const [row]: { path: string; sha256: string; mime: string }[] = await this.db.query(
      `SELECT file_path AS path, sha256, mime FROM signage_material WHERE id = $1`,
      [id],
    );
    if (!row) throw AppException.notFound();
    return this.stored(row.path, { contentType: row.mime, etag: row.sha256, fileName: `material-${id}${extname(row.path)}` });
  }

  /** The material's cover for a valid signed link. */
  async coverOf(query: Record<string, unknown>): Promise<FileToSend> {
    const id = this.coverLinks.verify(query);
    if (id === null) throw AppException.forbidden('mediaLinkInvalid');
    const [row]: { path: string | null }[] = await this.db.query(`SELECT cover_path AS path FROM signage_material WHERE id = $1`, [id]);
    if (!row?.path) throw AppException.notFound();
    return this.stored(row.path, { contentType: 'image/jpeg', etag: `cover-${id}-${row.path.slice(-40, -4)}`, fileName: `cover-${id}.jpg` });
  }

  private async stored(relative: string, file: Omit<FileToSend, 'path' | 'size'>): Promise<FileToSend> {
    return storedFile(this.uploads.pathOf(relative), file);
  }
}
