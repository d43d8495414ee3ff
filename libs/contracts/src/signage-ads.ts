// Floor-screen ads (spec sections 3, 5 and 9): a cover, an orientation, a total duration and a screen split into 1 to 9
// zones, each playing its own list of materials. Here so that the editor, its preview, the server's checks and the
// simulated players all draw and check an ad the same way.
import type { PageQuery } from './envelope';
import { MaterialType } from './signage-materials';
import { LIMITS, ScreenOrientation } from './statuses';

export const AD_NAME_MAX = 64;
/** At most this many materials in one zone's list. */
export const AD_ZONE_ITEMS_MAX = 50;
/** An image shows this long in a zone's list unless the editor says otherwise (seconds). */
export const AD_IMAGE_SECONDS_DEFAULT = 10;
export const AD_ITEM_SECONDS = { min: 1, max: LIMITS.adDurationSeconds.max } as const;

/** One material in a zone's list: an image shows for `seconds`; a video plays for its own length unless cut shorter. */
export interface AdZoneItem {
  materialId: number;
  seconds: number;
}

/** An ad as the editor saves it. Zones are numbered in reading order (AD_LAYOUT). */
export interface AdRequest {
  name: string;
  /** A material of type image shown where the ad is listed (spec: cover image required). */
  coverMaterialId: number | null;
  orientation: ScreenOrientation;
  /** 5 to 600 s: the ad plays this long, each zone looping its list within it. */
  totalDuration: number;
  splitCount: number;
  zones: AdZoneItem[][];
  /** Background music (materials of type music) played in order through the ad; may be empty. */
  music: number[];
  /** Whether the ad must be audited before it may be published (spec: audit requirement). */
  auditRequired: boolean;
}

/** Server catalogue keys (libs/i18n) an ad can break. */
export type AdProblemKey =
  | 'nameEmpty'
  | 'tooLong'
  | 'adCoverRequired'
  | 'adDurationInvalid'
  | 'adSplitInvalid'
  | 'adZoneNeedsMaterial'
  | 'materialAlreadyInPlaylist'
  | 'playlistTooLong'
  | 'adItemSecondsInvalid'
  | 'pleaseSelect';

export interface AdProblem {
  field: string;
  key: AdProblemKey;
  params?: Record<string, unknown>;
}

const isWholeIn = (v: unknown, min: number, max: number): boolean => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;

/** The problems of an ad (spec section 5); none means it can be saved. Which materials exist is the server's check. */
export function adProblems(ad: Partial<Record<keyof AdRequest, unknown>>): AdProblem[] {
  const problems: AdProblem[] = [];
  const name = typeof ad.name === 'string' ? ad.name.trim() : '';
  if (!name) problems.push({ field: 'name', key: 'nameEmpty' });
  else if (name.length > AD_NAME_MAX) problems.push({ field: 'name', key: 'tooLong', params: { max: AD_NAME_MAX } });
  if (!Number.isInteger(ad.coverMaterialId)) problems.push({ field: 'coverMaterialId', key: 'adCoverRequired' });
  if (!(Object.values(ScreenOrientation) as unknown[]).includes(ad.orientation)) problems.push({ field: 'orientation', key: 'pleaseSelect' });
  const { min, max } = LIMITS.adDurationSeconds;
  if (!isWholeIn(ad.totalDuration, min, max)) problems.push({ field: 'totalDuration', key: 'adDurationInvalid', params: { min, max } });
  const split = LIMITS.adSplitScreens;
  if (!isWholeIn(ad.splitCount, split.min, split.max)) {
    problems.push({ field: 'splitCount', key: 'adSplitInvalid', params: { min: split.min, max: split.max } });
    return problems;
  }
  const zones = Array.isArray(ad.zones) ? (ad.zones as unknown[]) : [];
  for (let z = 0; z < (ad.splitCount as number); z++) problems.push(...zoneProblems(z, zones[z]));
  if (zones.length > (ad.splitCount as number)) problems.push({ field: 'zones', key: 'adSplitInvalid', params: { min: split.min, max: split.max } });
  if (ad.music !== undefined) problems.push(...listProblems('music', ad.music, false));
  return problems;
}

function zoneProblems(zone: number, list: unknown): AdProblem[] {
  const field = `zones[${zone}]`;
  const problems = listProblems(field, Array.isArray(list) ? list.map((item: unknown) => (item as AdZoneItem)?.materialId) : list, true);
  if (Array.isArray(list))
    list.forEach((item: unknown, i) => {
      if (!isWholeIn((item as AdZoneItem)?.seconds, AD_ITEM_SECONDS.min, AD_ITEM_SECONDS.max))
        problems.push({ field: `${field}[${i}].seconds`, key: 'adItemSecondsInvalid', params: { ...AD_ITEM_SECONDS } });
    });
  return problems;
}

/** A list of material ids: at least one where required, no material twice ('A material already in the playlist cannot be added twice'). */
function listProblems(field: string, ids: unknown, required: boolean): AdProblem[] {
  if (!Array.isArray(ids) || (required && ids.length === 0)) return [{ field, key: 'adZoneNeedsMaterial' }];
  if (ids.length > AD_ZONE_ITEMS_MAX) return [{ field, key: 'playlistTooLong', params: { max: AD_ZONE_ITEMS_MAX } }];
  const seen = new Set<unknown>();
  const problems: AdProblem[] = [];
  ids.forEach((id, i) => {
    if (!Number.isInteger(id)) problems.push({ field: `${field}[${i}]`, key: 'pleaseSelect' });
    else if (seen.has(id)) problems.push({ field: `${field}[${i}]`, key: 'materialAlreadyInPlaylist' });
    seen.add(id);
  });
  return problems;
}

/** Which material kinds a place of the ad takes: zones show pictures and video, the music list plays music. */
export const AD_ZONE_TYPES: readonly MaterialType[] = [MaterialType.Image, MaterialType.Video];
export const AD_MUSIC_TYPES: readonly MaterialType[] = [MaterialType.Music];

/** A zone of the screen as fractions of its width and height (0 to 1), left to right, top to bottom. */
export interface AdZoneRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The screen's aspect: 9:16 portrait or 16:9 landscape (spec section 9), as width over height. */
export function orientationAspect(orientation: ScreenOrientation): number {
  return orientation === ScreenOrientation.Portrait ? 9 / 16 : 16 / 9;
}

/**
 * How a screen of the orientation is split into `count` zones (1 to 9): one line of zones along the screen's long side
 * for up to three (a portrait screen stacks them, a landscape one sets them side by side), two lines for four to eight,
 * three lines of three for nine; a shorter last line's zones are widened to fill it. The zones always tile the whole
 * screen with no gap and no overlap, and are numbered in reading order (top to bottom, then left to right).
 */
export function adLayout(orientation: ScreenOrientation, count: number): AdZoneRect[] {
  const n = Math.min(Math.max(Math.trunc(count), 1), LIMITS.adSplitScreens.max);
  const lines = n <= 3 ? 1 : n <= 8 ? 2 : 3;
  const perLine = Math.ceil(n / lines);
  const portrait = orientation === ScreenOrientation.Portrait;
  const zones: AdZoneRect[] = [];
  for (let line = 0; line < lines; line++) {
    const inLine = line === lines - 1 ? n - perLine * (lines - 1) : perLine;
    const band = { start: line / lines, size: 1 / lines };
    for (let k = 0; k < inLine; k++) {
      const along = { start: k / inLine, size: 1 / inLine };
      // A line runs along the long side: down a portrait screen, across a landscape one.
      zones.push(
        portrait ? { x: band.start, y: along.start, w: band.size, h: along.size } : { x: along.start, y: band.start, w: along.size, h: band.size },
      );
    }
  }
  return zones.sort((a, b) => a.y - b.y || a.x - b.x);
}

/** What a zone shows at `second` of the ad (0 ≤ second < totalDuration): its list looped, or null for an empty list. */
export function zoneItemAt(items: readonly AdZoneItem[], second: number): { index: number; offset: number } | null {
  const cycle = items.reduce((sum, item) => sum + item.seconds, 0);
  if (cycle <= 0) return null;
  let t = second % cycle;
  for (let index = 0; index < items.length; index++) {
    if (t < items[index].seconds) return { index, offset: t };
    t -= items[index].seconds;
  }
  return null;
}

/** Spec section 4: an ad is audited or not. A change to an audited ad's content makes it not audited again. */
export enum AdAuditStatus {
  Audited = 'audited',
  NotAudited = 'not_audited',
}

export const AD_AUDIT_STATUSES: readonly AdAuditStatus[] = [AdAuditStatus.Audited, AdAuditStatus.NotAudited];

/** Ads deleted by one batch delete at most. */
export const AD_DELETE_MAX = 200;

/** One ad (POST /api/signage/ad/page, GET /api/signage/ad/detail). */
export interface AdRow extends AdRequest {
  id: number;
  coverMaterialId: number;
  /** A signed link to the cover image's thumbnail; null only if the image has none. */
  coverUrl: string | null;
  auditStatus: AdAuditStatus;
  /** The user name of whoever created it. */
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/** A material an ad uses, as the editor shows it (GET detail answers the ad's materials with it). */
export interface AdMaterial {
  id: number;
  name: string;
  type: MaterialType;
  /** Seconds; null for images. */
  duration: number | null;
  status: 'available' | 'unavailable';
  coverUrl: string | null;
}

export interface AdDetail extends AdRow {
  /** Every material the ad names (cover, zones, music), once each. */
  materials: AdMaterial[];
}

export interface AdPageQuery extends PageQuery {
  /** Part of the name, any case. */
  name?: string;
  orientation?: ScreenOrientation;
  auditStatus?: AdAuditStatus;
}

export interface AdEditRequest extends AdRequest {
  id: number;
}

/** Deletes one ad or many ('Batch delete needs at least one selected ad' for none). */
export interface AdDeleteRequest {
  ids: number[];
}

export interface AdAuditRequest {
  id: number;
  auditStatus: AdAuditStatus;
}

/**
 * The most whole seconds a video plays in a zone, and what the editor gives it at first: its own length, rounded (a
 * file's length is seldom whole: 2.04 s plays as 2), and never under AD_ITEM_SECONDS.min.
 */
export function videoItemSeconds(duration: number): number {
  return Math.max(AD_ITEM_SECONDS.min, Math.round(duration));
}
