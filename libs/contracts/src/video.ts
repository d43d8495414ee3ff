import { VIDEO_DEVICE_CATEGORIES, VideoVendor, type OnlineState } from './devices';
import type { PageQuery } from './envelope';
import type { DevicePlacement } from './poles';

/** Longest video equipment name. */
export const CAMERA_NAME_MAX = 64;
/** Longest RTSP address, user name and password the console keeps. */
export const RTSP_URL_MAX = 512;
export const CAMERA_USERNAME_MAX = 64;
export const CAMERA_PASSWORD_MAX = 128;
/** An IPv4 or IPv6 address or a host name, as the equipment's address field takes it. */
export const CAMERA_HOST_PATTERN =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[?[0-9A-Fa-f:.]{2,45}\]?)$/;
/**
 * An RTSP address: rtsp:// and a host, without a login in it (the login is fields of its own, the password sealed):
 * neither `user:password@` nor a password in the query string.
 */
export const RTSP_URL_PATTERN = /^(?![^?]*\?(?:.*&)?(?:password|passwd|pwd|pass)=)rtsp:\/\/[^\s/@?#]+(?:[/?]\S*)?$/i;

/** The values video equipment's number fields accept (browser and server check them alike). */
export const CAMERA_BOUNDS = {
  rtspPort: { min: 1, max: 65535, integer: true },
  /** The channel of a recorder (NVR/DVR) or of a multi-sensor camera; 1 for a plain camera. */
  channel: { min: 1, max: 256, integer: true },
} as const;

export const VIDEO_VENDORS = [VideoVendor.Dahua, VideoVendor.Haikang, VideoVendor.Other] as const;

/** A category of the spec's video device categories, by its code (1 encoding, 5 checkpoint, 34, 45, 53). */
export type VideoCategoryKey = keyof typeof VIDEO_DEVICE_CATEGORIES;

/** The categories as the console lists them: code, key and their sub-types (code and key), in the spec's order. */
export const VIDEO_CATEGORY_LIST: readonly { code: number; key: VideoCategoryKey; types: readonly { code: number; key: string }[] }[] = (
  Object.entries(VIDEO_DEVICE_CATEGORIES) as [VideoCategoryKey, { code: number; types: Record<string, number> }][]
).map(([key, c]) => ({ key, code: c.code, types: Object.entries(c.types).map(([type, code]) => ({ key: type, code })) }));

/** Whether a sub-type belongs to a category (a category without sub-types, IP speakers, takes none). */
export function isVideoSubType(category: number, subType: number | null): boolean {
  const found = VIDEO_CATEGORY_LIST.find((c) => c.code === category);
  if (!found) return false;
  if (subType === null) return found.types.length === 0;
  return found.types.some((t) => t.code === subType);
}

/** An address as the host part of a URL: an IPv6 address in brackets. */
export function hostOf(ip: string): string {
  return ip.includes(':') && !ip.startsWith('[') ? `[${ip}]` : ip;
}

/**
 * The live stream's address of a piece of equipment: its own RTSP address when it has one, else its vendor's usual
 * main-stream address from its address, port and channel (Dahua `cam/realmonitor`, Haikang `Streaming/Channels/{channel}01`);
 * null when neither says where the stream is (another vendor without an RTSP address: no live view).
 */
export function rtspAddressOf(c: { vendor: VideoVendor; ip: string; rtspPort: number; channel: number; rtspUrl: string }): string | null {
  if (c.rtspUrl) return c.rtspUrl;
  if (!c.ip) return null;
  const host = hostOf(c.ip);
  if (c.vendor === VideoVendor.Dahua) return `rtsp://${host}:${c.rtspPort}/cam/realmonitor?channel=${c.channel}&subtype=0`;
  if (c.vendor === VideoVendor.Haikang) return `rtsp://${host}:${c.rtspPort}/Streaming/Channels/${c.channel}01`;
  return null;
}

/** What the probe last found at a camera that answers: its stream, or a refusal of the stored credentials. */
export enum CameraAccess {
  Ok = 'ok',
  /** It refused the stored login. */
  Unauthorized = 'unauthorized',
  /** It answers, but has no stream at the address the console has for it (a wrong path or channel). */
  NoStream = 'no-stream',
}

/** What the console records of video equipment (what it does not read from the equipment). */
export interface CameraRecord {
  name: string;
  /** The device code (serial number): unique among video equipment. */
  code: string;
  vendor: VideoVendor;
  /** Spec video device category code (1, 5, 34, 45, 53) and sub-type (null for a category without sub-types). */
  category: number;
  subType: number | null;
  /** Its network address (IP or host name); empty when the RTSP address says it all. */
  ip: string;
  rtspPort: number;
  channel: number;
  /** Its own RTSP address (without credentials); empty to take the vendor's usual one. */
  rtspUrl: string;
  /** The RTSP login's user name; the password is never sent back (hasPassword says whether one is kept). */
  username: string;
  latitude: number | null;
  longitude: number | null;
}

/** One row of the video equipment list (POST /api/video/equipmentPage). */
export interface CameraRow extends CameraRecord, DevicePlacement {
  id: number;
  hasPassword: boolean;
  /** Whether the console knows where its live stream is (rtspAddressOf). */
  hasStream: boolean;
  networkStatus: OnlineState;
  /** What the last answer said of the stored login (null before the first answer, or while offline). */
  access: CameraAccess | null;
  /** When it last answered (probe or report). */
  reportedAt: string | null;
}

export interface CameraFilters {
  /** Part of the name, the code or the address, any case. */
  name?: string;
  regionId?: number;
  poleId?: number;
  vendor?: VideoVendor;
  category?: number;
  subType?: number;
  networkStatus?: OnlineState;
}

export interface CameraPageQuery extends PageQuery, CameraFilters {}

/** POST /api/video/equipmentAddOrEdit. The password: a string sets it, '' removes it, absent keeps it. */
export interface CameraAddOrEditRequest extends Omit<
  CameraRecord,
  'ip' | 'rtspPort' | 'channel' | 'rtspUrl' | 'username' | 'latitude' | 'longitude'
> {
  id?: number;
  ip?: string;
  rtspPort?: number;
  channel?: number;
  rtspUrl?: string;
  username?: string;
  password?: string;
  latitude?: number | null;
  longitude?: number | null;
  regionId?: number | null;
  poleId?: number | null;
}

/** GET /api/video/live: where the browser plays a camera (HLS, signed for a short while) and takes its snapshot. */
export interface CameraLiveLinks {
  /** The HLS playlist (hls.js, or the browser's own HLS). */
  playlist: string;
  /** A JPEG of the picture now. */
  snapshot: string;
  /** Seconds the links stay valid; the page asks again before then. */
  expiresIn: number;
}

/** The live view's grid: 1, 4, 9 or 16 pictures. */
export const VIDEO_GRID_SIZES = [1, 4, 9, 16] as const;
export type VideoGridSize = (typeof VIDEO_GRID_SIZES)[number];
