import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestGateway, type TestGateway } from './harness';

/** The gateway serves the built console at / and hands client-side routes the index page. */
describe('serving the web console', () => {
  let gw: TestGateway;
  let web: string;
  beforeAll(async () => {
    web = await mkdtemp(join(tmpdir(), 'sc-web-'));
    await mkdir(join(web, 'assets'));
    await writeFile(join(web, 'index.html'), '<!doctype html><title>Smart City</title><div id="root"></div>');
    await writeFile(join(web, 'assets', 'index-abc123.js'), 'console.log("console")');
    gw = await startTestGateway({ webDist: web });
  });
  afterAll(async () => {
    await gw.close();
    await rm(web, { recursive: true, force: true });
  });

  it('serves index.html at / and for client-side routes, always revalidated', async () => {
    for (const path of ['/', '/login?redirect=%2Fentry', '/systemSetting/userManage']) {
      const res = await fetch(`${gw.baseUrl}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('serves hashed assets with a long cache life', async () => {
    const res = await fetch(`${gw.baseUrl}/assets/index-abc123.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it('answers a missing file with 404, not the index page (a chunk of an earlier build, say)', async () => {
    for (const path of ['/assets/index-old999.js', '/assets/page-old.css', '/robots.txt']) {
      const res = await fetch(`${gw.baseUrl}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).not.toContain('text/html');
    }
  });

  it('keeps unknown API and socket paths as JSON 404s', async () => {
    for (const path of ['/api/unknown', '/api']) {
      const res = await fetch(`${gw.baseUrl}${path}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: number }).code).toBe(404);
    }
  });
});
