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

/** What every kind of signed link shares: the secret (MEDIA_LINK_SECRET), its kind, signing and checking. */
export abstract class SignedLinks {
  protected abstract readonly kind: SignedLinkKind;

  constructor(@Inject(APP_CONFIG) protected readonly config: AppConfig) {}

  /** MEDIA_LINK_TTL_SECONDS. */
  get defaultTtlSeconds(): number {
    return this.config.media.linkTtlSeconds;
  }

  /** The path and query of a link to record `id`, valid for `ttlSeconds` from `now` (ms), and its expiry (s). */
  protected signedPath(id: number, ttlSeconds: number, now: number): { path: string; expires: number } {
    const expires = Math.floor(now / 1000) + ttlSeconds;
    return { path: `${this.kind.path}?${signedQuery(this.config.media.linkSecret, this.kind.label, id, expires)}`, expires };
  }

  /** The path and query of a link to record `id`, valid `ttlSeconds` from `now`: for a page that asks for new ones before they end. */
  pathOf(id: number, ttlSeconds: number, now = Date.now()): string {
    return this.signedPath(id, ttlSeconds, now).path;
  }

  /** The record a link's query names, when it is valid now. */
  verify(query: Record<string, unknown>, now = Date.now()): number | null {
    return verifySignedQuery(this.config.media.linkSecret, this.kind.label, query, Math.floor(now / 1000));
  }
}

/**
 * Short-lived signed links to stored files (MEDIA_LINK_SECRET): a browser's media elements cannot send the session's
 * header, and devices download with them, checking the file against the SHA-256 the link comes with. A subclass names
 * its kind of link.
 */
export abstract class SignedFileLinks extends SignedLinks {
  /**
   * A link to the record's file valid for `ttlSeconds` (MEDIA_LINK_TTL_SECONDS by default) from `now`. `absolute`
   * puts MEDIA_LINK_BASE_URL before it, for a device; the console uses the path as it is.
   */
  sign(record: { id: number; sha256: string; fileSize: number }, options: { ttlSeconds?: number; now?: number; absolute?: boolean } = {}): MediaLink {
    const { url, expiresAt } = this.link(record.id, options);
    return { url, expiresAt, sha256: record.sha256, fileSize: record.fileSize };
  }

  /**
   * A link a device's command carries (absolute): valid while the ledger may still send the command (a dispatch's
   * expiry period, DISPATCH_TTL_SECONDS) and the usual link's time after it to download. Every family's commands use
   * this lifetime, and a retry signs them again with it (DispatchRenewals).
   */
  forDevice(record: { id: number; sha256: string; fileSize: number }, now = Date.now()): MediaLink {
    return this.sign(record, { absolute: true, now, ttlSeconds: this.config.dispatchTtlSeconds + this.defaultTtlSeconds });
  }

  /** A link for the console's player: valid long enough to play the whole medium (its duration) and seek in it. */
  forPreview(record: { id: number; sha256: string; fileSize: number; duration?: number | null }): MediaLink {
    return this.sign(record, { ttlSeconds: Math.ceil(record.duration ?? 0) + this.defaultTtlSeconds });
  }

  /**
   * A link that stays the same for a while, so the browser keeps the picture between pages of a list (a cover): it
   * expires at the second multiple of MEDIA_LINK_TTL_SECONDS to come, so it is valid for one to two of them.
   */
  stable(record: { id: number; sha256: string; fileSize: number }, now = Date.now()): string {
    const ttl = this.defaultTtlSeconds;
    const start = Math.floor(now / 1000 / ttl) * ttl;
    return this.sign(record, { now: start * 1000, ttlSeconds: 2 * ttl }).url;
  }

  /** The link alone, for a file shown rather than downloaded and checked (a picture in the console). */
  link(id: number, options: { ttlSeconds?: number; now?: number; absolute?: boolean } = {}): { url: string; expiresAt: string } {
    const { path, expires } = this.signedPath(id, options.ttlSeconds ?? this.defaultTtlSeconds, options.now ?? Date.now());
    return { url: options.absolute ? `${this.config.media.linkBaseUrl}${path}` : path, expiresAt: new Date(expires * 1000).toISOString() };
  }
}

/** A link a device uploads a file to, and until when it is taken. */
export interface UploadLink {
  url: string;
  validUntil: string;
}

/**
 * Short-lived signed links a device uploads one file to, on the upload port (MEDIA_UPLOAD_BASE_URL): the link names
 * the record the file is for, so the device needs no session. A subclass names its kind of link; the route that takes
 * the file checks the link (`verify`) and that its record still waits for a file.
 */
export abstract class SignedUploadLinks extends SignedLinks {
  /** A link for record `id`'s file, valid for `ttlSeconds` from `now`. */
  sign(id: number, options: { ttlSeconds: number; now?: number }): UploadLink {
    const { path, expires } = this.signedPath(id, options.ttlSeconds, options.now ?? Date.now());
    return { url: `${this.config.media.uploadBaseUrl}${path}`, validUntil: new Date(expires * 1000).toISOString() };
  }
}
