// Floor-screen materials in a real browser against the built gateway: an image and a video uploaded through the
// Material Management tab (to the upload port) show with their cover, type, resolution and the duration the server
// read, in English; a video renamed .png is refused with the server's message.
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { mp4Clip } from '@sc/testing';
import { closePage, launchBrowser, login, newPage, pageErrors } from './support/browser';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';

describe('floor-screen materials in the browser', () => {
  let gw: RunningGateway;
  let browser: Browser;
  let png: Buffer;
  let mp4: Buffer;

  beforeAll(async () => {
    [gw, browser, png, mp4] = await Promise.all([
      startGatewayProcess(),
      launchBrowser(),
      sharp({ create: { width: 800, height: 600, channels: 3, background: '#e8590c' } })
        .png()
        .toBuffer(),
      mp4Clip({ seconds: 2, width: 320, height: 240 }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
  });

  async function uploadThrough(page: Page, file: { name: string; mimeType: string; buffer: Buffer }, name: string): Promise<void> {
    await page.getByTestId('material-upload').click();
    const form = page.getByTestId('material-upload-form');
    await form.locator('input[type=file]').setInputFiles(file);
    await page.getByTestId('material-upload-name').fill(name);
    await page.getByTestId('material-upload-submit').click();
  }

  it.each([{ language: 'en' as const, image: 'Poster', video: 'Clip', imageType: 'Image', videoType: 'Video', wrong: 'not an image' }])(
    'uploads an image and a video and shows them with cover, resolution and duration ($language)',
    async ({ language, image, video, imageType, videoType, wrong }) => {
      const page: Page = await newPage(browser, undefined, { language, baseUrl: gw.baseUrl });
      try {
        await login(page, gw.baseUrl, 'admin');
        // The section leads to Ad Plan Management (spec section 2).
        await page.goto(`${gw.baseUrl}/floor-screen`);
        await page.waitForURL(`${gw.baseUrl}/floor-screen/ad-plan`);
        await page.goto(`${gw.baseUrl}/floor-screen/advert`);
        await page.getByTestId('advert-tab-material').click();

        await uploadThrough(page, { name: `poster-${language}.png`, mimeType: 'image/png', buffer: png }, image);
        const imageRow = page.getByTestId(`material-row-${image}`);
        await imageRow.getByTestId('material-cover').waitFor();
        expect(await imageRow.getByTestId('material-type').textContent()).toBe(imageType);
        expect(await imageRow.getByTestId('material-resolution').textContent()).toBe('800×600');
        expect(await imageRow.getByTestId('material-duration').textContent()).toBe('—');

        await uploadThrough(page, { name: `clip-${language}.mp4`, mimeType: 'video/mp4', buffer: mp4 }, video);
        const videoRow = page.getByTestId(`material-row-${video}`);
        const cover = videoRow.getByTestId('material-cover');
        await cover.waitFor();
        // The thumbnail loaded: a picture the browser decoded.
        await cover.evaluate(
          (el) => new Promise((done) => ((el as { complete: boolean }).complete ? done(null) : el.addEventListener('load', done))),
        );
        expect(await cover.evaluate((el) => (el as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
        expect(await videoRow.getByTestId('material-type').textContent()).toBe(videoType);
        expect(await videoRow.getByTestId('material-resolution').textContent()).toBe('320×240');
        expect(await videoRow.getByTestId('material-duration').textContent()).toBe('00:02');

        // The preview plays the video through a signed link, with the spec's fallback text.
        await videoRow.getByTestId('material-preview').click();
        const player = page.getByTestId('material-video');
        await player.waitFor({ state: 'attached' });
        expect(await player.getAttribute('src')).toMatch(/^\/api\/signage\/material\/file\?id=\d+&expires=\d+&signature=/);
        await page.waitForFunction(() => {
          const doc = (globalThis as unknown as { document: { querySelector: (selector: string) => unknown } }).document;
          const el = doc.querySelector('[data-testid="material-video"]') as { readyState: number; duration: number } | null;
          return !!el && el.readyState >= 1 && el.duration > 1.9;
        });
        await page.keyboard.press('Escape');
        await player.waitFor({ state: 'detached' });

        // A video renamed .png: the server's refusal under the file, nothing added.
        await uploadThrough(page, { name: `fake-${language}.png`, mimeType: 'image/png', buffer: mp4 }, `fake-${language}`);
        await page.getByTestId('material-upload-form').getByText(wrong, { exact: false }).waitFor();
        await page.keyboard.press('Escape');
        expect(await page.getByTestId(`material-row-fake-${language}`).count()).toBe(0);
        expect(pageErrors(page)).toEqual([]);
      } finally {
        await closePage(page);
      }
    },
    120_000,
  );
});
