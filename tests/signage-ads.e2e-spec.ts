// Floor-screen ads in a real browser against the built gateway: an image and a video uploaded (through the API, to the
// upload port), a 3-split portrait ad built in the editor, previewed (each zone shows its material, the video plays),
// saved and listed; an ad of 601 s and 10 splits refused with their messages; in English.
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import type { MaterialRow } from '@sc/contracts';
import { ApiClient, mp4Clip } from '@sc/testing';
import { DEMO_PASSWORD } from '../apps/gateway/src/demo/demo-data';
import { closePage, launchBrowser, login, newPage, pageErrors } from './support/browser';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';

describe('floor-screen ads in the browser', () => {
  let gw: RunningGateway;
  let browser: Browser;
  let image: MaterialRow;
  let video: MaterialRow;

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGatewayProcess(), launchBrowser()]);
    const admin = await new ApiClient(gw.baseUrl).login('admin', DEMO_PASSWORD);
    const uploads = new ApiClient(gw.uploadUrl).as(admin.token);
    const send = async (content: Buffer, fileName: string) => {
      const body = new FormData();
      body.append('file', new Blob([content]), fileName);
      return (await uploads.post<MaterialRow>('/api/signage/material/upload', body)).body.data;
    };
    image = await send(
      await sharp({ create: { width: 360, height: 640, channels: 3, background: '#1366ec' } })
        .png()
        .toBuffer(),
      'poster.png',
    );
    video = await send(await mp4Clip({ seconds: 3, width: 180, height: 320 }), 'clip.mp4');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
  });

  /** Picks the material named `name` in the open picker. */
  async function pickMaterial(page: Page, name: string): Promise<void> {
    await page.getByTestId(`ad-pick-${name}`).getByTestId('ad-pick-add').click();
  }

  it.each([
    {
      language: 'en' as const,
      ad: 'Spring sale',
      duration: 'The total duration is 5 to 600 seconds',
      split: 'The split-screen count is 1 to 9',
      taken: 'cannot be added twice',
    },
  ])(
    'builds a 3-split portrait ad in the editor, previews and saves it ($language)',
    async ({ language, ad, duration, split, taken }) => {
      const page: Page = await newPage(browser, undefined, { language, baseUrl: gw.baseUrl });
      try {
        await login(page, gw.baseUrl, 'admin');
        await page.goto(`${gw.baseUrl}/floor-screen/advert`);
        await page.getByTestId('advert-tab-ad').waitFor();
        await page.getByTestId('ad-add').click();
        const editor = page.getByTestId('ad-editor');
        await editor.waitFor();

        await page.getByTestId('ad-name').fill(ad);
        await page.getByTestId('ad-cover-pick').click();
        await pickMaterial(page, 'poster');
        await page.getByTestId('ad-cover-chosen').waitFor();
        await page.getByTestId('ad-split').fill('3');
        await page.getByTestId('ad-duration').fill('12');
        expect(await page.getByTestId('ad-canvas').getAttribute('data-zones')).toBe('3');
        expect(await page.getByTestId('ad-canvas').getAttribute('data-orientation')).toBe('9:16');

        // Zone 1 the image, zone 2 the video, zone 3 both; the picker refuses a material twice in a list.
        const fill = async (zone: number, names: string[]) => {
          await page.getByTestId(`ad-zone-${zone}`).click();
          await page.getByTestId('ad-add-material').click();
          for (const name of names) await pickMaterial(page, name);
          await page.getByTestId(`ad-pick-${names[0]}`).getByTestId('ad-pick-taken').getByText(taken, { exact: false }).waitFor();
          expect(await page.getByTestId(`ad-pick-${names[0]}`).getByTestId('ad-pick-add').isDisabled()).toBe(true);
          await page.getByTestId('ad-pick-done').click();
          await page.getByTestId('ad-picker').waitFor({ state: 'detached' });
        };
        await fill(0, ['poster']);
        await fill(1, ['clip']);
        await fill(2, ['poster', 'clip']);
        // The video defaults to its own length.
        expect(await page.getByTestId('ad-playlist').getByTestId('ad-item-seconds').nth(1).inputValue()).toBe('3');

        // Too long and too many screens: refused before sending, each under its field.
        await page.getByTestId('ad-duration').fill('601');
        await page.getByTestId('ad-split').fill('10');
        await page.getByTestId('ad-save').click();
        await editor.getByText(duration).waitFor();
        await editor.getByText(split).waitFor();
        await page.getByTestId('ad-duration').fill('12');
        await page.getByTestId('ad-split').fill('3');

        // The preview plays the ad as a player would: each zone its material of that second, the video playing.
        await page.getByTestId('ad-preview').click();
        const showing = (zone: number) => page.getByTestId(`ad-zone-${zone}`).getAttribute('data-showing');
        expect([await showing(0), await showing(1), await showing(2)]).toEqual([String(image.id), String(video.id), String(image.id)]);
        await page.waitForFunction(() => {
          const doc = (globalThis as unknown as { document: { querySelector: (s: string) => unknown } }).document;
          const el = doc.querySelector('[data-testid="ad-zone-1"] video') as { currentTime: number; muted: boolean } | null;
          return !!el && el.muted && el.currentTime > 0.2;
        });
        // Zone 3 moves on to the video after the image's 10 s.
        await page.waitForFunction(
          (id) => {
            const doc = (globalThis as unknown as { document: { querySelector: (s: string) => { getAttribute: (n: string) => string } | null } })
              .document;
            return doc.querySelector('[data-testid="ad-zone-2"]')?.getAttribute('data-showing') === id;
          },
          String(video.id),
          { timeout: 15_000 },
        );
        // It stops by itself at the end (12 s).
        await page.getByTestId('ad-preview').waitFor({ timeout: 10_000 });

        await page.getByTestId('ad-save').click();
        await editor.waitFor({ state: 'detached' });
        const row = page.getByTestId(`ad-row-${ad}`);
        await row.waitFor();
        expect(await row.getByTestId('ad-row-split').textContent()).toBe('3');
        expect(await row.getByTestId('ad-row-duration').textContent()).toBe('00:12');
        await row.getByTestId('ad-cover').waitFor();
        expect(pageErrors(page)).toEqual([]);
      } finally {
        await closePage(page);
      }
    },
    120_000,
  );
});
