import { HttpStatus, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import sharp from 'sharp';
import type { DataSource, EntityManager } from 'typeorm';
import { DeviceFamily, ResultCode, type DeviceStateChangedEvent, type SignageScreenshot } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { storedFile, type FileToSend } from '../common/file-response';
import { InjectDb } from '../infra/database';
import { EventBus } from '../infra/event-bus.service';
import { MATERIAL_FOLDER } from '../signage-materials/materials.service';
import { UploadService } from '../uploads/upload.service';
import { sniffContainer } from '../uploads/material-probe';
import type { DispatchContent } from '../dispatch/device-control.service';
import { SCREENSHOT_UPLOAD_TTL_SECONDS, ScreenshotImageLinks, ScreenshotUploadLinks } from './screenshot-links';

/** Where screenshots are kept: beside the floor-screen materials, under UPLOAD_DIR. */
export const SCREENSHOT_FOLDER = join(MATERIAL_FOLDER, 'screenshots');
/** The largest picture a screenshot may be (a 4K panel's frame, with room), checked before it is decoded. */
const SCREENSHOT_MAX_PIXELS = 4096 * 4096;

const IMAGE_KINDS = {
  jpeg: { mime: 'image/jpeg', extension: '.jpg' },
  png: { mime: 'image/png', extension: '.png' },
} as const;
type ImageKind = keyof typeof IMAGE_KINDS;

/** JPEG or PNG by the body's first bytes (the materials' sniffing), whatever its Content-Type says; null for anything else. */
export function screenshotKindOf(body: Buffer): ImageKind | null {
  const container = sniffContainer(body);
  return container === 'jpeg' || container === 'png' ? container : null;
}

const notImage = () => new AppException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, ResultCode.UnsupportedMediaType, 'screenshotNotImage');
const linkRefused = () => AppException.forbidden('screenshotLinkInvalid');

/**
 * Floor-screen screenshots (docs/signage-devices.md): asked for through the command ledger, one `signage_screenshot`
 * row and one signed upload link per player; taken once on the upload port (a JPEG or PNG, checked by content and
 * read with sharp), kept under SCREENSHOT_FOLDER, and announced live as the player's `lastScreenshotAt`.
 */
@Injectable()
export class SignageScreenshotsService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly bus: EventBus,
    private readonly uploads: UploadService,
    private readonly uploadLinks: ScreenshotUploadLinks,
    private readonly imageLinks: ScreenshotImageLinks,
  ) {}

  /**
   * What a `screenshot` dispatch sends (in its transaction, once its players are chosen): a requested row for each
   * player, and each player its own upload link to it, valid SCREENSHOT_UPLOAD_TTL_SECONDS. The players' requests
   * left unanswered past that are marked failed.
   */
  async requested(tx: EntityManager, deviceIds: readonly number[], requestedBy: string): Promise<DispatchContent> {
    // The players' earlier requests whose link has lapsed unanswered failed (their links no longer take a picture).
    await tx.query(
      `UPDATE signage_screenshot SET status = 'failed'
        WHERE device_id = ANY($1::int[]) AND status = 'requested' AND requested_at < now() - $2 * interval '1 second'`,
      [deviceIds, SCREENSHOT_UPLOAD_TTL_SECONDS],
    );
    const rows: { id: number; deviceId: number }[] = await tx.query(
      `INSERT INTO signage_screenshot (device_id, requested_by) SELECT unnest($1::int[]), $2 RETURNING id, device_id AS "deviceId"`,
      [deviceIds, requestedBy],
    );
    const shotOf = new Map(rows.map((r) => [r.deviceId, r.id]));
    const now = Date.now();
    return {
      params: {},
      itemParams: deviceIds.map((id) => this.uploadLinks.sign(shotOf.get(id)!, { ttlSeconds: SCREENSHOT_UPLOAD_TTL_SECONDS, now })),
    };
  }

  /**
   * Takes a player's upload for a valid link whose screenshot still waits: a JPEG or PNG by its first bytes, read
   * with sharp. The file, the row (received) and the player's `lastScreenshotAt` are written together; a forged,
   * expired or used link, or a body that is no such image, stores nothing.
   */
  async receive(query: Record<string, unknown>, body: unknown): Promise<{ width: number; height: number }> {
    const id = this.uploadLinks.verify(query);
    if (id === null) throw linkRefused();
    if (!Buffer.isBuffer(body)) throw notImage();
    const kind = screenshotKindOf(body);
    if (!kind) throw notImage();
    const { width, height } =
      (await sharp(body, { limitInputPixels: SCREENSHOT_MAX_PIXELS, failOn: 'error' })
        .metadata()
        .then((m) => (m.format === kind && m.width && m.height ? { width: m.width, height: m.height } : null))
        .catch(() => null)) ?? throwIt(notImage());
    const relative = join(SCREENSHOT_FOLDER, `${id}-${randomUUID()}${IMAGE_KINDS[kind].extension}`);
    const path = this.uploads.pathOf(relative);
    let written = false;
    try {
      const change = await this.db.transaction(async (tx) => {
        const [shot]: { deviceId: number }[] = await tx.query(
          `SELECT device_id AS "deviceId" FROM signage_screenshot WHERE id = $1 AND status = 'requested' FOR UPDATE`,
          [id],
        );
        if (!shot) throw linkRefused();
        await mkdir(dirname(path), { recursive: true, mode: 0o750 });
        await writeFile(path, body, { flag: 'wx', mode: 0o640 });
        written = true;
        const [[received]]: [{ at: Date }[]] = await tx.query(
          `UPDATE signage_screenshot SET status = 'received', received_at = now(), file_path = $2, mime_type = $3, bytes = $4,
                  width = $5, height = $6
            WHERE id = $1 RETURNING received_at AS at`,
          [id, relative, IMAGE_KINDS[kind].mime, body.length, width, height],
        );
        const [[device]]: [{ code: string }[]] = await tx.query(`UPDATE signage_device SET last_screenshot_at = $2 WHERE id = $1 RETURNING code`, [
          shot.deviceId,
          received.at,
        ]);
        return { recordId: shot.deviceId, deviceCode: device.code, changed: { lastScreenshotAt: received.at.toISOString() } };
      });
      this.announce(change);
      return { width, height };
    } catch (err) {
      if (written) await rm(path, { force: true });
      throw err;
    }
  }

  /** The new `lastScreenshotAt` on the bus, as the workers announce a player's fields: every console follows it. */
  private announce(change: DeviceStateChangedEvent['changes'][number]): void {
    const event = { family: DeviceFamily.Signage, changes: [change], at: new Date().toISOString() } as DeviceStateChangedEvent;
    this.bus.publish('DeviceStateChanged', event);
  }

  /** The player's latest received screenshot, with a signed link to show it; null when none came yet. */
  async latest(deviceId: number): Promise<SignageScreenshot | null> {
    const [device]: unknown[] = await this.db.query(`SELECT 1 FROM signage_device WHERE id = $1`, [deviceId]);
    if (!device) throw AppException.notFound();
    const [row]: Omit<SignageScreenshot, 'url'>[] = await this.db.query(
      `SELECT id, device_id AS "deviceId", width, height, bytes, requested_at AS "requestedAt", received_at AS "receivedAt"
         FROM signage_screenshot WHERE device_id = $1 AND status = 'received' ORDER BY received_at DESC LIMIT 1`,
      [deviceId],
    );
    return row ? { ...row, url: this.imageLinks.link(row.id).url } : null;
  }

  /** A received screenshot for a valid signed link; 403 for any other link, 404 when it or its file is gone. */
  async imageOf(query: Record<string, unknown>): Promise<FileToSend> {
    const id = this.imageLinks.verify(query);
    if (id === null) throw AppException.forbidden('mediaLinkInvalid');
    const [row]: { path: string; mime: string }[] = await this.db.query(
      `SELECT file_path AS path, mime_type AS mime FROM signage_screenshot WHERE id = $1 AND status = 'received'`,
      [id],
    );
    if (!row) throw AppException.notFound();
    return storedFile(this.uploads.pathOf(row.path), {
      contentType: row.mime,
      etag: `screenshot-${id}`,
      fileName: `screenshot-${id}${extname(row.path)}`,
    });
  }
}

function throwIt(err: Error): never {
  throw err;
}
