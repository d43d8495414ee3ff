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
 * A request of the player (the playlist, or a segment it names) carried by the newest signature: the stream's files
 * are beside the playlist (`hls/seg-1.ts?…` or `hls?file=seg-1.ts&…`), and each takes the signing parameters of the
 * playlist's link (the gateway signs the camera, not the file), keeping its own others (the file it names). A request
 * elsewhere is left as it is.
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
  const folder = latest.pathname.slice(0, latest.pathname.lastIndexOf('/') + 1);
  if (request.origin !== latest.origin || !request.pathname.startsWith(folder)) return requestUrl;
  let changed = false;
  for (const [name, value] of latest.searchParams) {
    if (request.searchParams.get(name) === value) continue;
    request.searchParams.set(name, value);
    changed = true;
  }
  return changed ? request.href : requestUrl;
}
