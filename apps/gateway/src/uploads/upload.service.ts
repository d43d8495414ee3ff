import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import { LIMITS, ResultCode, UPLOAD_FIELD, type SpreadsheetFormat } from '@sc/contracts';
import type { MessageKey } from '@sc/i18n';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { AppRequest } from '../common/request-context';

export interface StoredUpload {
  /** Absolute path of the stored copy, under a generated name. */
  path: string;
  originalName: string;
  sizeBytes: number;
  /** Hex SHA-256 of the content, computed while it was streamed to disk. */
  sha256: string;
  /** The other form fields sent with the file. */
  fields: Record<string, string>;
}

/** A size limit and the refusal past it. */
export interface UploadLimit {
  maxBytes: number;
  tooLargeKey: MessageKey;
  tooLargeParams?: Record<string, string | number>;
}

export interface UploadRule extends UploadLimit {
  wrongTypeKey: MessageKey;
  extensions: string[];
  /** Checks the first bytes of the stored file; the name alone proves nothing. */
  sniff: (head: Buffer, extension: string) => boolean;
  /**
   * A lower limit for some extensions (an image beside a video): `maxBytes` bounds every upload while it streams, and
   * past this one the rest of the file is read and dropped, so nothing more of it reaches the disk.
   */
  limitFor?: (extension: string) => UploadLimit;
}

/**
 * The name an uploaded record gets: the form's `field` (trimmed, at most `max` characters, else refused under that
 * field), or the file's name without its extension.
 */
export function uploadedName(upload: StoredUpload, field: string, max: number): string {
  const given = (upload.fields[field] ?? '').trim();
  if (given.length > max) throw AppException.field(field, 'tooLong', { max });
  if (given) return given;
  const fileName = upload.originalName;
  const base = fileName.slice(0, fileName.length - extname(fileName).length).trim();
  return (base || fileName).slice(0, max);
}

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

export function sniffSpreadsheet(head: Buffer, extension: string): SpreadsheetFormat | null {
  if (extension === '.xlsx' && head.subarray(0, 4).equals(ZIP)) return 'xlsx';
  if (extension === '.xls' && head.subarray(0, 8).equals(OLE2)) return 'xls';
  return null;
}

export const SPREADSHEET_RULE: UploadRule = {
  maxBytes: LIMITS.importMaxBytes,
  tooLargeKey: 'fileTooLarge5mb',
  wrongTypeKey: 'onlyXlsx',
  extensions: ['.xlsx', '.xls'],
  sniff: (head, ext) => sniffSpreadsheet(head, ext) !== null,
};

/**
 * Receives one multipart file for the import and upload routes: enforces the size limit while streaming,
 * stores the file under a generated name outside any served folder, and checks its type by content.
 */
@Injectable()
export class UploadService {
  private readonly dir: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.dir = resolve(config.uploadDir);
  }

  async receive(req: AppRequest, rule: UploadRule): Promise<StoredUpload> {
    if (!req.isMultipart()) throw AppException.field(UPLOAD_FIELD, 'chooseFile');
    let stored: StoredUpload | null = null;
    const fields: Record<string, string> = {};
    try {
      for await (const part of req.parts({ limits: { fileSize: rule.maxBytes, files: 1, fields: 20, fieldSize: 4096 } })) {
        if (part.type === 'field') {
          fields[part.fieldname] = String(part.value);
        } else if (part.fieldname === UPLOAD_FIELD && !stored) {
          stored = await this.store(part, rule);
        } else {
          part.file.resume();
        }
      }
    } catch (err) {
      if (stored) await rm(stored.path, { force: true });
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw this.tooLarge(rule);
      if (err instanceof AppException) throw err;
      // Whatever else the multipart stream raised (cut off, malformed, too many parts) is the upload's fault.
      throw AppException.badRequest('fileUploadError');
    }
    if (!stored) throw AppException.field(UPLOAD_FIELD, 'chooseFile');
    stored.fields = fields;
    return stored;
  }

  async discard(upload: StoredUpload): Promise<void> {
    await rm(upload.path, { force: true });
  }

  /**
   * Keeps an accepted upload for good: moves it, under its generated name, into `folder` of the upload directory
   * (the same file system, so the move is atomic). Answers its path relative to the upload directory.
   */
  async keep(upload: StoredUpload, folder: string): Promise<string> {
    const relative = join(folder, basename(upload.path));
    await mkdir(join(this.dir, folder), { recursive: true, mode: 0o750 });
    await rename(upload.path, this.pathOf(relative));
    return relative;
  }

  /** The absolute path of a kept file, from its path relative to the upload directory. */
  pathOf(relative: string): string {
    return join(this.dir, relative);
  }

  private tooLarge(limit: UploadLimit): AppException {
    return new AppException(HttpStatus.PAYLOAD_TOO_LARGE, ResultCode.PayloadTooLarge, limit.tooLargeKey, limit.tooLargeParams);
  }

  private async store(part: MultipartFile, rule: UploadRule): Promise<StoredUpload> {
    const extension = extname(part.filename ?? '').toLowerCase();
    if (!rule.extensions.includes(extension)) {
      part.file.resume();
      throw AppException.badRequest(rule.wrongTypeKey);
    }
    await mkdir(this.dir, { recursive: true, mode: 0o750 });
    const path = join(this.dir, `${randomUUID()}${extension}`);
    const hash = createHash('sha256');
    const limit = rule.limitFor?.(extension) ?? rule;
    let received = 0;
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (received > limit.maxBytes) return done();
        hash.update(chunk);
        done(null, chunk);
      },
    });
    // The file is created before any byte arrives, so that removing it below cannot run ahead of its creation (a write
    // stream opens its path later, in the thread pool, and could create it after a cut-off request was answered).
    const file = await open(path, 'wx', 0o640);
    try {
      await pipeline(part.file, hashing, file.createWriteStream());
      if (part.file.truncated) throw this.tooLarge(limit);
      if (received > limit.maxBytes) throw this.tooLarge(limit);
      const handle = await open(path, 'r');
      try {
        const head = Buffer.alloc(16);
        const { bytesRead } = await handle.read(head, 0, 16, 0);
        if (!rule.sniff(head.subarray(0, bytesRead), extension)) throw AppException.badRequest(rule.wrongTypeKey);
        const { size } = await handle.stat();
        return { path, originalName: part.filename, sizeBytes: size, sha256: hash.digest('hex'), fields: {} };
      } finally {
        await handle.close();
      }
    } catch (err) {
      // Nothing of a refused or interrupted upload stays on disk.
      await rm(path, { force: true });
      throw err;
    }
  }
}
