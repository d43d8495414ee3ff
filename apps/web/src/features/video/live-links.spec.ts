import { RENEW_MIN_MS, renewDelayMs, withLatestSignature } from './live-links';

const BASE = 'https://console.example/realVideo/video';

describe('live view links', () => {
  it('are asked for again at 80 % of their lifetime', () => {
    expect(renewDelayMs(300)).toBe(240_000);
    expect(renewDelayMs(60)).toBe(48_000);
    expect(renewDelayMs(1)).toBe(RENEW_MIN_MS);
    // A lifetime that makes no sense is not asked for in a loop.
    expect(renewDelayMs(0)).toBe(RENEW_MIN_MS);
    expect(renewDelayMs(Number.NaN)).toBe(RENEW_MIN_MS);
  });

  it('keep the file a request names in its query (hls?file=…) and take the signing parameters only', () => {
    const latest = '/api/video/hls?id=7&expires=2000&signature=new';
    expect(withLatestSignature('https://console.example/api/video/hls?file=seg-12.ts&id=7&expires=1000&signature=old', latest, BASE)).toBe(
      'https://console.example/api/video/hls?file=seg-12.ts&id=7&expires=2000&signature=new',
    );
    expect(withLatestSignature('https://console.example/api/video/hls?id=7&expires=1000&signature=old', latest, BASE)).toBe(
      'https://console.example/api/video/hls?id=7&expires=2000&signature=new',
    );
  });

  it('leave alone a request already signed so, and any request elsewhere (a snapshot, another origin)', () => {
    const latest = '/api/video/hls?id=7&expires=2000&signature=new';
    const current = 'https://console.example/api/video/hls?file=seg-1.ts&id=7&expires=2000&signature=new';
    expect(withLatestSignature(current, latest, BASE)).toBe(current);
    expect(withLatestSignature('https://console.example/api/video/snapshot?id=7&expires=1000&signature=old', latest, BASE)).toBe(
      'https://console.example/api/video/snapshot?id=7&expires=1000&signature=old',
    );
    expect(withLatestSignature('https://elsewhere.example/api/video/hls?file=seg-1.ts&signature=old', latest, BASE)).toBe(
      'https://elsewhere.example/api/video/hls?file=seg-1.ts&signature=old',
    );
    expect(withLatestSignature('https://console.example/api/video/hls?file=seg-1.ts', 'http://[bad', BASE)).toBe(
      'https://console.example/api/video/hls?file=seg-1.ts',
    );
  });
});
