import { Injectable } from '@nestjs/common';
import { SignedFileLinks, signedQuery, verifySignedQuery } from '../common/signed-links';

/** Where a signed link leads (the console port, no session needed): MediaController.file. */
export const MEDIA_FILE_PATH = '/api/broadcast/mediaFile';

/** What is signed: the medium and the second its link expires, under a label of its own so no other HMAC of the secret matches. */
const LABEL = 'broadcast-media';

/** The query string of a link to medium `id` that is valid until `expires` (seconds since the epoch). */
export function signedMediaQuery(secret: string, id: number, expires: number): string {
  return signedQuery(secret, LABEL, id, expires);
}

/**
 * The medium a link's query names when its signature is the secret's and it has not expired at `nowSeconds`; null for
 * anything else (missing or malformed parameters, another medium or expiry than was signed, a past expiry).
 */
export function verifyMediaQuery(secret: string, query: Record<string, unknown>, nowSeconds: number): number | null {
  return verifySignedQuery(secret, LABEL, query, nowSeconds);
}

/**
 * Short-lived signed links to media files (MEDIA_LINK_SECRET): the console's preview player gets one, and broadcast
 * terminals will download a task's media with them, checking the file against the SHA-256 the link comes with.
 */
@Injectable()
export class MediaLinks extends SignedFileLinks {
  protected readonly kind = { path: MEDIA_FILE_PATH, label: LABEL };
}
