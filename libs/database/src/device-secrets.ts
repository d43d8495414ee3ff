import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Device logins the console must be able to use again (a camera's RTSP password: the video worker opens its stream
 * with it), unlike the platform's own passwords, which are only ever compared. They are kept encrypted with the
 * installation's key (`DEVICE_SECRET_KEY`, any string; its SHA-256 is the AES-256-GCM key): a copy of the database
 * alone does not give them away. The gateway encrypts what an administrator types; the video worker decrypts.
 */
export const DEV_DEVICE_SECRET_KEY = 'smart-city-dev-device-secret-key';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The installation's key from the environment, and whether it is the published development default. */
export function deviceSecretKey(env: NodeJS.ProcessEnv = process.env): { key: string; isDefault: boolean } {
  return env.DEVICE_SECRET_KEY ? { key: env.DEVICE_SECRET_KEY, isDefault: false } : { key: DEV_DEVICE_SECRET_KEY, isDefault: true };
}

function aesKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

/** `v1:` and base64url of IV, tag and ciphertext. */
export function encryptDeviceSecret(key: string, plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', aesKey(key), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** The secret, or null when it was not made with this key (another installation's, or changed): never a guess. */
export function decryptDeviceSecret(key: string, sealed: string): string | null {
  if (!sealed.startsWith(`${VERSION}:`)) return null;
  const raw = Buffer.from(sealed.slice(VERSION.length + 1), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', aesKey(key), raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
