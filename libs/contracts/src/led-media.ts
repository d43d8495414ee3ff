// The LED screens' media library (spec: ledMediaLib; media type 1 picture, 2 video): the files real-time play and LED
// tasks show, uploaded on the upload port (`/api/led/mediaUpload`), checked by content like the floor-screen materials.
import { MediaType } from './devices';
import type { PageQuery } from './envelope';
import { MATERIAL_UPLOAD, MaterialType } from './signage-materials';

export const LED_MEDIA_TYPES: readonly MediaType[] = [MediaType.Picture, MediaType.Video];

/** The floor-screen material type whose formats and size each LED media type takes (the same check of the content). */
export const LED_MEDIA_MATERIAL: Readonly<Record<MediaType, MaterialType>> = {
  [MediaType.Picture]: MaterialType.Image,
  [MediaType.Video]: MaterialType.Video,
};

/** What each type accepts: extensions, formats and size (a picture 20 MB, a video 500 MB). */
export const LED_MEDIA_UPLOAD = {
  [MediaType.Picture]: MATERIAL_UPLOAD[MaterialType.Image],
  [MediaType.Video]: MATERIAL_UPLOAD[MaterialType.Video],
} as const;

export const LED_MEDIA_NAME_MAX = 100;
/** The optional form field of an upload that names the medium (the file name without its extension otherwise). */
export const LED_MEDIA_NAME_FIELD = 'name';

/** One medium (POST /api/led/mediaPage, GET /api/led/mediaDetail). */
export interface LedMediaRow {
  id: number;
  name: string;
  /** 1 picture, 2 video. */
  type: MediaType;
  /** Bytes. */
  fileSize: number;
  /** Pixels, read from the file. */
  width: number;
  height: number;
  /** Seconds to the millisecond, read from the file; null for a picture. */
  duration: number | null;
  mime: string;
  /** Hex SHA-256: a screen checks its download against it. */
  sha256: string;
  uploader: string;
  uploadedAt: string;
  /** A signed link to its JPEG thumbnail. */
  coverUrl: string;
}

export interface LedMediaPageQuery extends PageQuery {
  /** Part of the name, any case. */
  name?: string;
  type?: MediaType;
}

/** A screen's panel as the media library compares it: width × height in pixels. */
export interface ScreenSize {
  width: number;
  height: number;
}

/** Whether a medium's resolution differs from the screen's panel (the library then warns, and previews it fitted). */
export function resolutionMismatch(media: ScreenSize, screen: ScreenSize): boolean {
  return media.width !== screen.width || media.height !== screen.height;
}

/**
 * How a medium shows on a panel it does not match: scaled to fit inside it, keeping its proportions, centred (the
 * bars are black). Answers its size and offset in the panel's pixels.
 */
export function fitToScreen(media: ScreenSize, screen: ScreenSize): { width: number; height: number; left: number; top: number } {
  const scale = Math.min(screen.width / media.width, screen.height / media.height);
  const width = Math.round(media.width * scale);
  const height = Math.round(media.height * scale);
  return { width, height, left: Math.floor((screen.width - width) / 2), top: Math.floor((screen.height - height) / 2) };
}
