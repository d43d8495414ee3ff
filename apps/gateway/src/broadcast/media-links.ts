import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { MEDIA_LINK_PARAMS, type MediaLink } from '@sc/contracts';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** Where a signed link leads (the console port, no session needed): MediaController.file. */
export const MEDIA_FILE_PATH = '/api/broadcast/mediaFile';

/** What is signed: the medium and the second its link expires, under a label of its own so no other HMAC of the secret matches. */
function signature(secret: string, id: number, expires: number): string {
  return createHmac('sha256', secret).update(`broadcast-media:${id}:${expires}`).digest('base64url');
}

/** The query string of a link to medium `id` that is valid until `expires` (seconds since the epoch). */
export function signedMediaQuery(secret: string, id: number, expires: number): string {
  const { id: idParam, expires: expiresParam, signature: signatureParam } = MEDIA_LINK_PARAMS;
  return `${idParam}=${id}&${expiresParam}=${expires}&${signatureParam}=${signature(secret, id, expires)}`;
}

/**
 * The medium a link's query names when its signature is the secret's and it has not expired at `nowSeconds`; null for
 * anything else (missing or malformed parameters, another medium or expiry than was signed, a past expiry).
 */
export function verifyMediaQuery(secret: string, query: Record<string, unknown>, nowSeconds: number): number | null {
  const id = query[MEDIA_LINK_PARAMS.id];
  const expires = query[MEDIA_LINK_PARAMS.expires];
  const given = query[MEDIA_LINK_PARAMS.signature];
  if (typeof id !== 'string' || typeof expires !== 'string' || typeof given !== 'string') return null;
  if (!/^[1-9]\d{0,9}$/.test(id) || !/^[1-9]\d{0,11}$/.test(expires)) return null;
  const [mediaId, expiry] = [Number(id), Number(expires)];
  if (expiry <= nowSeconds) return null;
  const expected = Buffer.from(signature(secret, mediaId, expiry));
  const received = Buffer.from(given);
  return received.length === expected.length && timingSafeEqual(received, expected) ? mediaId : null;
}

/**
 * Short-lived signed links to media files (MEDIA_LINK_SECRET): the console's preview player gets one, and broadcast
 * terminals will download a task's media with them, checking the file against the SHA-256 the link comes with.
 */
@Injectable()
export class MediaLinks {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** MEDIA_LINK_TTL_SECONDS. */
  get defaultTtlSeconds(): number {
    return this.config.media.linkTtlSeconds;
  }

  /**
   * A link to the medium's file valid for `ttlSeconds` (MEDIA_LINK_TTL_SECONDS by default) from `now`. `absolute`
   * puts MEDIA_LINK_BASE_URL before it, for a terminal; the console uses the path as it is.
   */
  sign(medium: { id: number; sha256: string; fileSize: number }, options: { ttlSeconds?: number; now?: number; absolute?: boolean } = {}): MediaLink {
    const now = options.now ?? Date.now();
    const expires = Math.floor(now / 1000) + (options.ttlSeconds ?? this.defaultTtlSeconds);
    const path = `${MEDIA_FILE_PATH}?${signedMediaQuery(this.config.media.linkSecret, medium.id, expires)}`;
    return {
      url: options.absolute ? `${this.config.media.linkBaseUrl}${path}` : path,
      expiresAt: new Date(expires * 1000).toISOString(),
      sha256: medium.sha256,
      fileSize: medium.fileSize,
    };
  }

  /** The medium a link's query names, when it is valid now. */
  verify(query: Record<string, unknown>, now = Date.now()): number | null {
    return verifyMediaQuery(this.config.media.linkSecret, query, Math.floor(now / 1000));
  }
}
