import { rm } from 'node:fs/promises';
import { extname } from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import { AppException } from '../common/app-exception';
import { storedFile, type FileToSend } from '../common/file-response';
import type { SignedFileLinks } from '../common/signed-links';
import type { UploadService } from './upload.service';

/**
 * A table of uploaded media (the floor-screen materials, the LED media): each row keeps its file (`file_path`, with
 * `sha256` and `mime`) and its cover (`cover_path`, a JPEG, or null) under UPLOAD_DIR. `table` and `label` are the
 * code's own constants, never a caller's words.
 */
export class StoredMediaTable {
  constructor(
    private readonly db: DataSource,
    private readonly uploads: UploadService,
    private readonly table: string,
    /** The start of the names files are downloaded under ('material' gives material-7.mp4 and cover-7.jpg). */
    private readonly label: string,
  ) {}

  /** The row's file for a valid signed link; 403 for any other link, 404 when the row or its file is gone. */
  async file(links: SignedFileLinks, query: Record<string, unknown>): Promise<FileToSend> {
    const id = links.verify(query);
    if (id === null) throw AppException.forbidden('mediaLinkInvalid');
    const [row]: { path: string; sha256: string; mime: string }[] = await this.db.query(
      `SELECT file_path AS path, sha256, mime FROM ${this.table} WHERE id = $1`,
      [id],
    );
    if (!row) throw AppException.notFound();
    return storedFile(this.uploads.pathOf(row.path), {
      contentType: row.mime,
      etag: row.sha256,
      fileName: `${this.label}-${id}${extname(row.path)}`,
    });
  }

  /** The row's cover for a valid signed link. */
  async cover(links: SignedFileLinks, query: Record<string, unknown>): Promise<FileToSend> {
    const id = links.verify(query);
    if (id === null) throw AppException.forbidden('mediaLinkInvalid');
    const [row]: { path: string | null }[] = await this.db.query(`SELECT cover_path AS path FROM ${this.table} WHERE id = $1`, [id]);
    if (!row?.path) throw AppException.notFound();
    return storedFile(this.uploads.pathOf(row.path), {
      contentType: 'image/jpeg',
      etag: `cover-${id}-${row.path.slice(-40, -4)}`,
      fileName: `cover-${id}.jpg`,
    });
  }

  /**
   * Deletes a row, then its file and cover, unless `refusal` (asked in the transaction, with the row locked FOR UPDATE:
   * what uses it) answers a refusal.
   */
  async remove(id: number, refusal: (tx: EntityManager) => Promise<AppException | null>): Promise<void> {
    const paths = await this.db.transaction(async (tx) => {
      const [row]: { file: string; cover: string | null }[] = await tx.query(
        `SELECT file_path AS file, cover_path AS cover FROM ${this.table} WHERE id = $1 FOR UPDATE`,
        [id],
      );
      if (!row) throw AppException.notFound();
      const refused = await refusal(tx);
      if (refused) throw refused;
      await tx.query(`DELETE FROM ${this.table} WHERE id = $1`, [id]);
      return [row.file, row.cover];
    });
    await Promise.all(paths.filter((p): p is string => p !== null).map((p) => rm(this.uploads.pathOf(p), { force: true })));
  }
}
