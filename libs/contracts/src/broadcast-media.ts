import type { PageQuery } from './envelope';
import type { BroadcastContentType, PlaybackMode } from './statuses';

/** Longest medium name and playlist name (the columns' widths), and an audit's remark. */
export const MEDIA_NAME_MAX = 100;
export const PLAYLIST_NAME_MAX = 64;
export const MEDIA_AUDIT_REMARK_MAX = 255;
/** Media one playlist holds at most. */
export const PLAYLIST_MAX_ITEMS = 200;

/** What the media library takes (spec section 5: 'Audio upload: MP3, up to 50MB'); the server checks the content. */
export const MEDIA_UPLOAD_EXTENSIONS: readonly string[] = ['.mp3'];
/** The optional form field of an upload that names the medium (the file name without its extension otherwise). */
export const MEDIA_NAME_FIELD = 'materialName';

/** A medium's audit (spec: auditStatus): only approved media go into playlists and tasks. An administrator audits. */
export enum MediaAuditStatus {
  Pending = 'pending',
  Approved = 'approved',
  Rejected = 'rejected',
}

export const MEDIA_AUDIT_STATUSES: readonly MediaAuditStatus[] = [MediaAuditStatus.Pending, MediaAuditStatus.Approved, MediaAuditStatus.Rejected];
/** What an audit may decide. */
export const MEDIA_AUDIT_DECISIONS: readonly MediaAuditStatus[] = [MediaAuditStatus.Approved, MediaAuditStatus.Rejected];

/** One medium of the library (POST /api/broadcast/mediaPage). */
export interface MediaRow {
  id: number;
  materialName: string;
  /** The spec's broadcast content type: 1 audio (every upload); 2 text is spoken by tasks, never stored here. */
  materialType: BroadcastContentType;
  /** Seconds, to the millisecond, as read from the file. */
  duration: number;
  /** Bytes. */
  fileSize: number;
  /** Bits per second, as read from the file (the average of a variable bitrate). */
  bitrate: number;
  /** Hz. */
  sampleRate: number;
  channels: number;
  /** Hex SHA-256 of the stored file: a terminal checks its download against it. */
  sha256: string;
  auditStatus: MediaAuditStatus;
  auditRemark: string;
  auditedBy: string | null;
  auditedAt: string | null;
  /** The user name of whoever uploaded it. */
  uploader: string;
  uploadedAt: string;
  /** Playlists holding it: a medium in one cannot be deleted or rejected. */
  playlistCount: number;
}

export interface MediaPageQuery extends PageQuery {
  /** Part of the name, any case. */
  materialName?: string;
  auditStatus?: MediaAuditStatus;
  materialType?: BroadcastContentType;
}

export interface MediaRenameRequest {
  id: number;
  materialName: string;
}

export interface MediaAuditRequest {
  id: number;
  auditStatus: MediaAuditStatus.Approved | MediaAuditStatus.Rejected;
  /** Why, for a rejection in particular. */
  auditRemark?: string;
}

/**
 * A short-lived signed download of a medium's file: GET `url` needs no session, only its unexpired signature, and
 * answers ranges. A terminal checks what it downloaded against `sha256` and `fileSize`.
 */
export interface MediaLink {
  /** Path and query on the console port (`/api/broadcast/mediaFile?id=…&expires=…&signature=…`). */
  url: string;
  /** ISO 8601. */
  expiresAt: string;
  sha256: string;
  fileSize: number;
}

/** The query parameters of a signed media link. */
export const MEDIA_LINK_PARAMS = { id: 'id', expires: 'expires', signature: 'signature' } as const;

/** One playlist of the list (POST /api/broadcast/playlistPage). */
export interface PlaylistRow {
  id: number;
  name: string;
  playbackMode: PlaybackMode;
  itemCount: number;
  /** Seconds: the sum of its media's durations. */
  totalDuration: number;
  updatedBy: string;
  updatedAt: string;
}

export interface PlaylistItem {
  mediaId: number;
  materialName: string;
  duration: number;
  fileSize: number;
  auditStatus: MediaAuditStatus;
}

/** GET /api/broadcast/playlistDetail: the playlist with its media in playing order. */
export interface PlaylistDetail extends PlaylistRow {
  items: PlaylistItem[];
}

export interface PlaylistPageQuery extends PageQuery {
  /** Part of the name, any case. */
  name?: string;
}

/**
 * POST /api/broadcast/playlistAddOrEdit: a new playlist (no id) or a changed one, with its whole ordered list of media:
 * adding, removing and reordering are all a new list. A medium appears at most once; only approved media.
 */
export interface PlaylistAddOrEditRequest {
  id?: number;
  name: string;
  playbackMode: PlaybackMode;
  mediaIds: number[];
}
