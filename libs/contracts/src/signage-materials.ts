import type { PageQuery } from './envelope';

/**
 * Floor-screen materials (spec section 3: id, name, cover, type image/video/music, file size, resolution, duration in
 * seconds, upload time, status available/unavailable, storage area number). The files the ads of the floor screens
 * play; docs/signage-materials.md says what is accepted and why.
 */
export enum MaterialType {
  Image = 'image',
  Video = 'video',
  Music = 'music',
}

export const MATERIAL_TYPES: readonly MaterialType[] = [MaterialType.Image, MaterialType.Video, MaterialType.Music];

/** Spec section 4: a material is available or unavailable; only available ones go into new ads. */
export enum MaterialStatus {
  Available = 'available',
  Unavailable = 'unavailable',
}

export const MATERIAL_STATUSES: readonly MaterialStatus[] = [MaterialStatus.Available, MaterialStatus.Unavailable];

/** Longest material name (the column's width). */
export const MATERIAL_NAME_MAX = 100;
/** Storage area numbers (the player's storage partition a material is kept in): 0 to this, or none. */
export const MATERIAL_STORAGE_AREA_MAX = 9999;
/** The optional form field of an upload that names the material (the file name without its extension otherwise). */
export const MATERIAL_NAME_FIELD = 'name';

/**
 * What each type takes: the file name's extension says which type the uploader means, and the content must be that
 * type, in one of these formats (checked by its first bytes, then by sharp or ffprobe). The limits are per type: music
 * has the spec's audio limit (50 MB); images and videos are the product's own.
 */
export const MATERIAL_UPLOAD: Readonly<Record<MaterialType, { maxBytes: number; extensions: readonly string[]; formats: string }>> = {
  [MaterialType.Image]: { maxBytes: 20 * 1024 * 1024, extensions: ['.jpg', '.jpeg', '.png', '.webp', '.gif'], formats: 'JPEG, PNG, WebP, GIF' },
  [MaterialType.Video]: { maxBytes: 500 * 1024 * 1024, extensions: ['.mp4', '.webm'], formats: 'MP4 (H.264), WebM (VP8, VP9)' },
  [MaterialType.Music]: { maxBytes: 50 * 1024 * 1024, extensions: ['.mp3', '.m4a'], formats: 'MP3, M4A (AAC)' },
};

/** Every extension an upload may have. */
export const MATERIAL_EXTENSIONS: readonly string[] = MATERIAL_TYPES.flatMap((type) => MATERIAL_UPLOAD[type].extensions);

/** The type a file name's extension announces, or null for any other name. */
export function materialTypeOfName(fileName: string): MaterialType | null {
  const lower = fileName.toLowerCase();
  return MATERIAL_TYPES.find((type) => MATERIAL_UPLOAD[type].extensions.some((extension) => lower.endsWith(extension))) ?? null;
}

/** An image's pixels at most (width × height): larger ones are refused before they are decoded. */
export const MATERIAL_IMAGE_MAX_PIXELS = 100_000_000;

/** One material (POST /api/signage/material/page, GET /api/signage/material/detail). */
export interface MaterialRow {
  id: number;
  name: string;
  type: MaterialType;
  /** Bytes. */
  fileSize: number;
  /** Pixels, read from the file; null for music. */
  width: number | null;
  height: number | null;
  /** Seconds, to the millisecond, read from the file; null for images. */
  duration: number | null;
  /** The content's MIME type, from what the file is (not from its name). */
  mime: string;
  /** Hex SHA-256 of the file: a player checks its download against it. */
  sha256: string;
  status: MaterialStatus;
  storageArea: number | null;
  /** The user name of whoever uploaded it. */
  uploader: string;
  uploadedAt: string;
  /** A signed link to its JPEG thumbnail (the spec's cover); null for music, which has none. */
  coverUrl: string | null;
}

export interface MaterialPageQuery extends PageQuery {
  /** Part of the name, any case. */
  name?: string;
  type?: MaterialType;
  status?: MaterialStatus;
}

export interface MaterialRenameRequest {
  id: number;
  name: string;
}

export interface MaterialStatusRequest {
  id: number;
  status: MaterialStatus;
}

export interface MaterialStorageAreaRequest {
  id: number;
  /** null takes the material out of any area. */
  storageArea: number | null;
}
