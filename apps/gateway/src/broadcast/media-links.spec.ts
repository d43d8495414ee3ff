import { loadConfig } from '../config/app-config';
import { MEDIA_FILE_PATH, MediaLinks, signedMediaQuery, verifyMediaQuery } from './media-links';

const SECRET = 'a-secret-of-the-installation';
const NOW = 1_800_000_000;
const query = (text: string) => Object.fromEntries(new URLSearchParams(text));

describe('signed media links', () => {
  it('verifies its own link until it expires, and names the medium', () => {
    const signed = query(signedMediaQuery(SECRET, 42, NOW + 60));
    expect(Object.keys(signed)).toEqual(['id', 'expires', 'signature']);
    expect(verifyMediaQuery(SECRET, signed, NOW)).toBe(42);
    expect(verifyMediaQuery(SECRET, signed, NOW + 59)).toBe(42);
    expect(verifyMediaQuery(SECRET, signed, NOW + 60)).toBeNull();
    expect(verifyMediaQuery(SECRET, signed, NOW + 3600)).toBeNull();
  });

  it('refuses a link whose medium, expiry or signature was changed, or that another secret signed', () => {
    const signed = query(signedMediaQuery(SECRET, 42, NOW + 60));
    expect(verifyMediaQuery(SECRET, { ...signed, id: '43' }, NOW)).toBeNull();
    expect(verifyMediaQuery(SECRET, { ...signed, expires: String(NOW + 6000) }, NOW)).toBeNull();
    const flipped = signed.signature.slice(0, -1) + (signed.signature.endsWith('A') ? 'B' : 'A');
    expect(verifyMediaQuery(SECRET, { ...signed, signature: flipped }, NOW)).toBeNull();
    expect(verifyMediaQuery(SECRET, { ...signed, signature: signed.signature.slice(1) }, NOW)).toBeNull();
    expect(verifyMediaQuery(SECRET, { ...signed, signature: '' }, NOW)).toBeNull();
    expect(verifyMediaQuery('another-secret', signed, NOW)).toBeNull();
    // Another medium's valid signature does not open this one.
    const other = query(signedMediaQuery(SECRET, 7, NOW + 60));
    expect(verifyMediaQuery(SECRET, { ...signed, signature: other.signature }, NOW)).toBeNull();
  });

  it('refuses missing, repeated and malformed parameters', () => {
    const signed = query(signedMediaQuery(SECRET, 42, NOW + 60));
    for (const bad of [
      {},
      { expires: signed.expires, signature: signed.signature },
      { id: '42', signature: signed.signature },
      { id: '42', expires: signed.expires },
      { ...signed, id: ['42', '42'] },
      { ...signed, id: '042' },
      { ...signed, id: '42.0' },
      { ...signed, id: '-42' },
      { ...signed, expires: `${signed.expires}.5` },
      { ...signed, expires: '1e12' },
      { ...signed, signature: { length: 43 } },
    ]) {
      expect(verifyMediaQuery(SECRET, bad, NOW)).toBeNull();
    }
  });

  it('MediaLinks signs with MEDIA_LINK_SECRET for MEDIA_LINK_TTL_SECONDS, with the checksum; absolute under MEDIA_LINK_BASE_URL', () => {
    const config = loadConfig({ MEDIA_LINK_SECRET: SECRET, MEDIA_LINK_TTL_SECONDS: '300', MEDIA_LINK_BASE_URL: 'https://city.example.org/' });
    const links = new MediaLinks(config);
    const medium = { id: 5, sha256: 'ab'.repeat(32), fileSize: 1234 };
    const link = links.sign(medium, { now: NOW * 1000 });
    expect(link).toEqual({
      url: `${MEDIA_FILE_PATH}?${signedMediaQuery(SECRET, 5, NOW + 300)}`,
      expiresAt: new Date((NOW + 300) * 1000).toISOString(),
      sha256: medium.sha256,
      fileSize: 1234,
    });
    expect(links.sign(medium, { now: NOW * 1000, absolute: true }).url).toBe(`https://city.example.org${link.url}`);
    const params = query(link.url.split('?')[1]);
    expect(links.verify(params, NOW * 1000)).toBe(5);
    expect(links.verify(params, (NOW + 300) * 1000)).toBeNull();
    expect(new MediaLinks(loadConfig({ MEDIA_LINK_SECRET: 'other' })).verify(params, NOW * 1000)).toBeNull();
  });

  it('has a documented development secret and a TTL of at least a minute', () => {
    expect(loadConfig({}).media).toMatchObject({
      linkSecretIsDefault: true,
      linkTtlSeconds: 900,
      linkBaseUrl: 'http://localhost:8080',
      ffprobePath: 'ffprobe',
    });
    expect(loadConfig({ CONSOLE_ORIGIN: 'https://city.example.org, http://10.1.2.3' }).media.linkBaseUrl).toBe('https://city.example.org');
    expect(loadConfig({ MEDIA_LINK_SECRET: SECRET }).media.linkSecretIsDefault).toBe(false);
    expect(loadConfig({ MEDIA_LINK_TTL_SECONDS: '5' }).media.linkTtlSeconds).toBe(60);
  });
});
