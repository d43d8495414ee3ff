import { Inject, Injectable } from '@nestjs/common';
import { join } from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import { MATERIAL_NAME_FIELD, MATERIAL_NAME_MAX, type MaterialRow, type MediaLink, type PageResult } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import type { FileToSend } from '../common/file-response';
import type { AppRequest, Caller } from '../common/request-context';
import { Where, likeContains, newestFirstPage } from '../common/sql';
import { SIGNAGE_MATERIAL_SENT, stillBeingSent } from '../dispatch/open-sends';
import { InjectDb } from '../infra/database';
import { MEDIA_UPLOADS_AT_ONCE, mediaUploading, takeMediaUpload } from '../uploads/media-intake';
import { StoredMediaTable } from '../uploads/stored-media';
import { UploadService } from '../uploads/upload.service';
import type { MaterialPageDto, MaterialRenameDto, MaterialStatusDto, MaterialStorageAreaDto } from './dto/materials.dto';
import { MaterialCoverLinks, MaterialFileLinks } from './material-links';
import { MATERIAL_RULE, MaterialProbe } from '../uploads/material-probe';
import { MATERIAL_USAGE, type MaterialUsage } from './material-usage';
import { shownList } from '../common/shown-list';

/** Where materials are kept, under UPLOAD_DIR, and their covers beside them (docs/signage-materials.md). */
export const MATERIAL_FOLDER = 'signage-materials';
export const COVER_FOLDER = join(MATERIAL_FOLDER, 'covers');

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
  ) {
    this.stored = new StoredMediaTable(db, uploads, 'signage_material', 'material');
  }

  private readonly stored: StoredMediaTable;

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
    const release = mediaUploading.take(caller.userId, MEDIA_UPLOADS_AT_ONCE);
    try {
      return await this.receive(req, caller);
    } finally {
      release();
    }
  }

  private receive(req: AppRequest, caller: Caller): Promise<MaterialRow> {
    const place = { rule: MATERIAL_RULE, folder: MATERIAL_FOLDER, nameField: MATERIAL_NAME_FIELD, nameMax: MATERIAL_NAME_MAX };
    return takeMediaUpload(this.uploads, this.probe, req, place, async ({ upload, name, facts, filePath, coverPath }) => {
      const [{ id }]: { id: number }[] = await this.db.query(
        `INSERT INTO signage_material (name, cover_path, type, file_size, width, height, duration_seconds, file_path, original_name,
                                       sha256, mime, uploaded_by, uploader)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
        [
          name,
          coverPath,
          facts.type,
          upload.sizeBytes,
          facts.width,
          facts.height,
          facts.duration,
          filePath,
          upload.originalName.slice(0, 255),
          upload.sha256,
          facts.mime,
          caller.userId,
          caller.username,
        ],
      );
      return this.detail(id);
    });
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

  /**
   * Deletes a material no ad uses (MaterialUsage, asked with its row locked) and no open ad plan publication names,
   * then its file and cover.
   */
  async remove(id: number): Promise<void> {
    await this.stored.remove(id, async (tx) => {
      const ads = await this.usage.adsUsing(tx, id);
      if (ads.length > 0) return AppException.conflict('materialInUse', { names: shownList(ads, NAMES_SHOWN, true) });
      return stillBeingSent(tx, SIGNAGE_MATERIAL_SENT, [id]);
    });
  }

  /** A signed link for the console's player: valid long enough to play the whole material and seek in it. */
  async previewLink(id: number): Promise<MediaLink> {
    return this.fileLinks.forPreview(await this.detail(id));
  }

  /** The material's file for a valid signed link; 403 for any other link, 404 when the material or its file is gone. */
  fileOf(query: Record<string, unknown>): Promise<FileToSend> {
    return this.stored.file(this.fileLinks, query);
  }

  /** The material's cover for a valid signed link. */
  coverOf(query: Record<string, unknown>): Promise<FileToSend> {
    return this.stored.cover(this.coverLinks, query);
  }
}
