import { Inject } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { MEDIA_LINK_PARAMS, type MediaLink } from '@sc/contracts';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * What a kind of signed link leads to: the path of the public route that serves it, and the label its signatures are
 * made under, so that no link of one kind (or any other HMAC of the secret) opens another.
 */
export interface SignedLinkKind {
  path: string;
  label: string;
}

function signature(secret: string, label: string, id: number, expires: number): string {
  return createHmac('sha256', secret).update(`${label}:${id}:${expires}`).digest('base64url');
}

/** The query string of a link of `label` to record `id` that is valid until `expires` (seconds since the epoch). */
export function signedQuery(secret: string, label: string, id: number, expires: number): string {
  const { id: idParam, expires: expiresParam, signature: signatureParam } = MEDIA_LINK_PARAMS;
  return `${idParam}=${id}&${expiresParam}=${expires}&${signatureParam}=${signature(secret, label, id, expires)}`;
}

/**
 * The record a link's query names when its signature is the secret's under `label` and it has not expired at
 * `nowSeconds`; null for anything else (missing or malformed parameters, another record or expiry than was signed, a past
 * expiry).
 */
export function verifySignedQuery(secret: string, label: string, query: Record<string, unknown>, nowSeconds: number): number | null {
  const id = query[MEDIA_LINK_PARAMS.id];
  const expires = query[MEDIA_LINK_PARAMS.expires];
  const given = query[MEDIA_LINK_PARAMS.signature];
  if (typeof id !== 'string' || typeof expires !== 'string' || typeof given !== 'string') return null;
  if (!/^[1-9]\d{0,9}$/.test(id) || !/^[1-9]\d{0,11}$/.test(expires)) return null;
  const [recordId, expiry] = [Number(id), Number(expires)];
  if (expiry <= nowSeconds) return null;
  const expected = Buffer.from(signature(secret, label, recordId, expiry));
  const received = Buffer.from(given);
  return received.length === expected.length && timingSafeEqual(received, expected) ? recordId : null;
}

/**
 * Short-lived signed links to stored files (MEDIA_LINK_SECRET): a browser's media elements cannot send the session's
 * header, and devices download with them, checking the file against the SHA-256 the link comes with. A subclass names
 * its kind of link.
 */
export abstract class SignedFileLinks {
  protected abstract readonly kind: SignedLinkKind;

  constructor(@Inject(APP_CONFIG) protected readonly config: AppConfig) {}

  /** MEDIA_LINK_TTL_SECONDS. */
  get defaultTtlSeconds(): number {
    return this.config.media.linkTtlSeconds;
  }

  /**
   * A link to the record's file valid for `ttlSeconds` (MEDIA_LINK_TTL_SECONDS by default) from `now`. `absolute`
   * puts MEDIA_LINK_BASE_URL before it, for a device; the console uses the path as it is.
   */
  sign(record: { id: number; sha256: string; fileSize: number }, options: { ttlSeconds?: number; now?: number; absolute?: boolean } = {}): MediaLink {
    const now = options.now ?? Date.now();
    const expires = Math.floor(now / 1000) + (options.ttlSeconds ?? this.defaultTtlSeconds);
    const path = `${this.kind.path}?${signedQuery(this.config.media.linkSecret, this.kind.label, record.id, expires)}`;
    return {
      url: options.absolute ? `${this.config.media.linkBaseUrl}${path}` : path,
      expiresAt: new Date(expires * 1000).toISOString(),
      sha256: record.sha256,
      fileSize: record.fileSize,
    };
  }

  /** The record a link's query names, when it is valid now. */
  verify(query: Record<string, unknown>, now = Date.now()): number | null {
    return verifySignedQuery(this.config.media.linkSecret, this.kind.label, query, Math.floor(now / 1000));
  }
}
