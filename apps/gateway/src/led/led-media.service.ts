import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import {
  LED_MEDIA_MATERIAL,
  LED_MEDIA_NAME_FIELD,
  LED_MEDIA_NAME_MAX,
  LED_MEDIA_TYPES,
  MaterialType,
  MediaType,
  type LedMediaRow,
  type MediaLink,
  type PageResult,
} from '@sc/contracts';
import { AppException } from '../common/app-exception';
import type { FileToSend } from '../common/file-response';
import type { AppRequest, Caller } from '../common/request-context';
import { shownList } from '../common/shown-list';
import { Where, likeContains, newestFirstPage } from '../common/sql';
import { LED_MEDIUM_SENT, stillBeingSent } from '../dispatch/open-sends';
import { InjectDb } from '../infra/database';
import { MEDIA_UPLOADS_AT_ONCE, mediaUploading, takeMediaUpload } from '../uploads/media-intake';
import { StoredMediaTable } from '../uploads/stored-media';
import { MaterialProbe, materialRule } from '../uploads/material-probe';
import { UploadService } from '../uploads/upload.service';
import type { LedMediaPageDto } from './dto/led-media.dto';
import { LedMediaCoverLinks, LedMediaFileLinks } from './led-media-links';

/** Where LED media are kept, under UPLOAD_DIR (their covers in `covers` beside them). */
export const LED_MEDIA_FOLDER = 'led-media';
const LED_MEDIA_RULE = materialRule(
  LED_MEDIA_TYPES.map((type) => LED_MEDIA_MATERIAL[type]),
  'ledMediaWrongType',
);
const NAMES_SHOWN = 5;

const COLUMNS = `m.id, m.name, m.media_type AS type, m.file_size::float8 AS "fileSize", m.width, m.height,
  m.duration_seconds::float8 AS duration, m.mime, m.sha256, m.uploader, m.uploaded_at AS "uploadedAt"`;

type StoredRow = Omit<LedMediaRow, 'coverUrl'>;

/**
 * The LED screens' media library (/ledManage/ledMediaLib): pictures and videos uploaded on the upload port, checked
 * by content with the floor-screen materials' probe, kept under UPLOAD_DIR with their resolution, duration and cover;
 * listed, deleted unless a task plays them, and served through signed links (to the console and to the screens).
 */
@Injectable()
export class LedMediaService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly uploads: UploadService,
    private readonly probe: MaterialProbe,
    readonly fileLinks: LedMediaFileLinks,
    private readonly coverLinks: LedMediaCoverLinks,
  ) {
    this.stored = new StoredMediaTable(db, uploads, 'led_media', 'led-media');
  }

  private readonly stored: StoredMediaTable;

  async page(q: LedMediaPageDto): Promise<PageResult<LedMediaRow>> {
    const where = new Where().addIf(q.name, `lower(m.name) LIKE ?`, q.name && likeContains(q.name)).addIf(q.type, `m.media_type = ?`);
    const page = await newestFirstPage<StoredRow>(this.db, { select: COLUMNS, from: 'led_media m', alias: 'm', where }, q);
    const now = Date.now();
    return { ...page, list: page.list.map((row) => this.shown(row, now)) };
  }

  async detail(id: number, db: DataSource | EntityManager = this.db): Promise<LedMediaRow> {
    const [row]: StoredRow[] = await db.query(`SELECT ${COLUMNS} FROM led_media m WHERE m.id = $1`, [id]);
    if (!row) throw AppException.notFound();
    return this.shown(row, Date.now());
  }

  private shown(row: StoredRow, now: number): LedMediaRow {
    return { ...row, coverUrl: this.coverLinks.stable(row, now) };
  }

  /** Takes an upload of the upload port (one per user at a time): a picture or a video, checked by its content. */
  async upload(req: AppRequest, caller: Caller): Promise<LedMediaRow> {
    const release = mediaUploading.take(caller.userId, MEDIA_UPLOADS_AT_ONCE);
    try {
      const place = { rule: LED_MEDIA_RULE, folder: LED_MEDIA_FOLDER, nameField: LED_MEDIA_NAME_FIELD, nameMax: LED_MEDIA_NAME_MAX };
      return await takeMediaUpload(this.uploads, this.probe, req, place, async ({ upload, name, facts, filePath, coverPath }) => {
        const type = facts.type === MaterialType.Image ? MediaType.Picture : MediaType.Video;
        const [{ id }]: { id: number }[] = await this.db.query(
          `INSERT INTO led_media (name, media_type, file_size, width, height, duration_seconds, file_path, cover_path, original_name,
                                  sha256, mime, uploaded_by, uploader)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
          [
            name,
            type,
            upload.sizeBytes,
            facts.width,
            facts.height,
            facts.duration,
            filePath,
            coverPath,
            upload.originalName.slice(0, 255),
            upload.sha256,
            facts.mime,
            caller.userId,
            caller.username,
          ],
        );
        return this.detail(id);
      });
    } finally {
      release();
    }
  }

  /**
   * Deletes a medium no LED task plays and no open real-time play or task send names (asked with its row locked; saving a task locks its medium FOR SHARE, so neither
   * misses the other), then its file and cover.
   */
  async remove(id: number): Promise<void> {
    await this.stored.remove(id, async (tx) => {
      const tasks: { name: string }[] = await tx.query(`SELECT name FROM led_task WHERE media_id = $1 ORDER BY id`, [id]);
      if (tasks.length > 0)
        return AppException.conflict('ledMediaInUse', {
          names: shownList(
            tasks.map((t) => t.name),
            NAMES_SHOWN,
            true,
          ),
        });
      return stillBeingSent(tx, LED_MEDIUM_SENT, [id]);
    });
  }

  /** A signed link for the console's preview: valid long enough to play the whole medium. */
  async previewLink(id: number): Promise<MediaLink> {
    return this.fileLinks.forPreview(await this.detail(id));
  }

  /** The medium's file for a valid signed link; 403 for any other link, 404 when it or its file is gone. */
  fileOf(query: Record<string, unknown>): Promise<FileToSend> {
    return this.stored.file(this.fileLinks, query);
  }

  /** The medium's cover for a valid signed link. */
  coverOf(query: Record<string, unknown>): Promise<FileToSend> {
    return this.stored.cover(this.coverLinks, query);
  }
}
