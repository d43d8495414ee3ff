import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AppRequest } from '../common/request-context';
import type { MaterialFacts, MaterialProbe } from './material-probe';
import { type StoredUpload, type UploadRule, type UploadService, uploadedName } from './upload.service';
import { UserSlots } from './user-slots';

/** Media uploads this process receives and checks at once, of every kind together (one per user in any case). */
export const MEDIA_UPLOADS_AT_ONCE = 4;
/** The slots of every media upload (floor-screen materials, LED media): one per user, MEDIA_UPLOADS_AT_ONCE in all. */
export const mediaUploading = new UserSlots({ user: 'materialUploadBusyUser', server: 'materialUploadBusyServer' });

/** Where a kind of media is kept (under UPLOAD_DIR, covers in `covers` beside it) and how its uploads are named. */
export interface MediaPlace {
  rule: UploadRule;
  folder: string;
  /** The optional form field naming the record (else the file name without its extension), and its longest name. */
  nameField: string;
  nameMax: number;
}

/** An accepted media upload: its name, what was read from its content, and where the file and its cover now are. */
export interface TakenMedia {
  upload: StoredUpload;
  name: string;
  facts: MaterialFacts;
  /** Relative to UPLOAD_DIR. */
  filePath: string;
  coverPath: string | null;
}

/**
 * Takes one picture, video or piece of music from the upload port (the floor-screen materials, the LED media): streamed
 * to disk within the rule's size, checked by its content (MaterialProbe), given a JPEG cover, kept in the place's
 * folder, then recorded by `record` (the row's insert). Nothing of a refused file stays, row, file or cover.
 */
export async function takeMediaUpload<T>(
  uploads: UploadService,
  probe: MaterialProbe,
  req: AppRequest,
  place: MediaPlace,
  record: (taken: TakenMedia) => Promise<T>,
): Promise<T> {
  const upload = await uploads.receive(req, place.rule);
  let kept: string | null = null;
  let cover: string | null = null;
  try {
    const name = uploadedName(upload, place.nameField, place.nameMax);
    const facts = await probe.inspect(upload.path, upload.originalName);
    const coverPath = join(place.folder, 'covers', `${randomUUID()}.jpg`);
    await mkdir(dirname(uploads.pathOf(coverPath)), { recursive: true, mode: 0o750 });
    if (await probe.cover(upload.path, facts, uploads.pathOf(coverPath))) cover = coverPath;
    kept = await uploads.keep(upload, place.folder);
    return await record({ upload, name, facts, filePath: kept, coverPath: cover });
  } catch (err) {
    if (kept) await rm(uploads.pathOf(kept), { force: true });
    if (cover) await rm(uploads.pathOf(cover), { force: true });
    throw err;
  } finally {
    if (!kept) await uploads.discard(upload);
  }
}
