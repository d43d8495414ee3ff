import { MEDIA_LINK_PARAMS } from '@sc/contracts';

/** The share of a live view's link lifetime after which the player asks for new links. */
export const RENEW_AT = 0.8;
/** The soonest a renewal runs (a link valid for a moment only is not asked for again and again). */
export const RENEW_MIN_MS = 1_000;
/** How long after a failed renewal the player asks again (while the links it has still hold). */
export const RENEW_RETRY_MS = 5_000;

/** When to ask for new links, in ms from now, for links valid `expiresIn` seconds: at 80 % of their lifetime. */
export function renewDelayMs(expiresIn: number): number {
  const lifetime = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : 0;
  return Math.max(RENEW_MIN_MS, Math.round(lifetime * RENEW_AT));
}

/**
 * A request of the player (the playlist, or a segment it names: both `/api/video/hls`, a segment with `file=`) carried
 * by the newest signature: it takes the signing parameters of the newest playlist link (the gateway signs the camera,
 * not the file) and keeps the file it names. A request to any other path is left as it is.
 */
export function withLatestSignature(requestUrl: string, latestPlaylist: string, base: string): string {
  let request: URL;
  let latest: URL;
  try {
    request = new URL(requestUrl, base);
    latest = new URL(latestPlaylist, base);
  } catch {
    return requestUrl;
  }
  if (request.origin !== latest.origin || request.pathname !== latest.pathname) return requestUrl;
  let changed = false;
  for (const name of Object.values(MEDIA_LINK_PARAMS)) {
    const value = latest.searchParams.get(name);
    if (value === null || request.searchParams.get(name) === value) continue;
    request.searchParams.set(name, value);
    changed = true;
  }
  return changed ? request.href : requestUrl;
}
