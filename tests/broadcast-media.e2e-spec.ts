// The broadcast media library and playlists in a real browser against the built gateway: an MP3 uploaded through the
// page (to the upload port) shows the duration the server read, an administrator approves it, and a playlist of two
// approved media shows their total duration; in Chinese, a renamed WAV is refused with the server's message.
import type { Browser, Page } from 'playwright-core';
import { MediaAuditStatus, type MediaRow } from '@sc/contracts';
import { zhCN } from '@sc/i18n/locales/zh-CN';
import { ApiClient, mp3Tone, wavTone } from '@sc/testing';
import { closePage, launchBrowser, login, newPage, pageErrors } from './support/browser';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';
import { signIn } from './support/pipeline';

describe('broadcast media library and playlists in the browser', () => {
  let gw: RunningGateway;
  let browser: Browser;
  let admin: ApiClient;
  let toneA: Buffer;
  let toneB: Buffer;

  beforeAll(async () => {
    [gw, browser, toneA, toneB] = await Promise.all([
      startGatewayProcess(),
      launchBrowser(),
      mp3Tone({ seconds: 3 }),
      mp3Tone({ seconds: 2, frequency: 660 }),
    ]);
    admin = await signIn(gw);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
  });

  it('uploads an MP3 and shows its duration, audits it, and builds a playlist of two with their total (en)', async () => {
    const page: Page = await newPage(browser, undefined, { language: 'en', baseUrl: gw.baseUrl });
    try {
      await login(page, gw.baseUrl, 'admin');
      await page.goto(`${gw.baseUrl}/broadcastManage/mediaLibrary`);
      await page.locator('a[href="/broadcastManage/mediaLibrary"]').first().waitFor();
      await page.getByTestId('media-upload').click();
      const form = page.getByTestId('media-upload-form');
      await form.locator('input[type=file]').setInputFiles({ name: 'tone-a.mp3', mimeType: 'audio/mpeg', buffer: toneA });
      await page.getByTestId('media-upload-name').fill('E2E tone A');
      await page.getByTestId('media-upload-submit').click();
      const row = page.getByTestId('media-row-E2E tone A');
      await row.getByTestId('media-status').locator('text=Pending').waitFor();
      expect(await row.getByTestId('media-duration').textContent()).toBe('0:03');

      // The player streams it through a signed link, with the spec's fallback text.
      await row.getByTestId('media-preview').click();
      const audio = page.getByTestId('media-audio');
      await audio.waitFor({ state: 'attached' });
      expect(await audio.getAttribute('src')).toMatch(/^\/api\/broadcast\/mediaFile\?id=\d+&expires=\d+&signature=/);
      expect(await audio.textContent()).toBe('Your browser does not support audio elements');
      await page.keyboard.press('Escape');
      await audio.waitFor({ state: 'detached' });

      await row.getByTestId('media-audit').click();
      await page.getByTestId('media-audit-save').click();
      await row.locator('[data-testid="media-status"][data-status="approved"]').waitFor();

      // The second one by the API, approved too.
      const second = await new ApiClient(gw.uploadUrl).as(admin.token).post<MediaRow>('/api/broadcast/mediaUpload', mediaForm(toneB, 'E2E tone B'));
      expect(second.status).toBe(200);
      expect((await admin.post('/api/broadcast/mediaAudit', { id: second.body.data.id, auditStatus: MediaAuditStatus.Approved })).status).toBe(200);

      await page.goto(`${gw.baseUrl}/broadcastManage/playList`);
      await page.getByTestId('playlist-add').click();
      await page.getByTestId('playlist-name').fill('E2E notices');
      for (const name of ['E2E tone B', 'E2E tone A']) {
        const select = page.locator('input[data-testid="playlist-media-select"]');
        await select.click();
        await select.fill(name);
        await page.getByRole('option', { name: new RegExp(name) }).click();
      }
      expect(await page.getByTestId('playlist-item-name').allTextContents()).toEqual(['E2E tone B', 'E2E tone A']);
      await page.getByTestId('playlist-item-up').nth(1).click();
      expect(await page.getByTestId('playlist-item-name').allTextContents()).toEqual(['E2E tone A', 'E2E tone B']);
      await page.getByTestId('playlist-save').click();
      const playlist = page.getByTestId('playlist-row-E2E notices');
      await playlist.waitFor();
      expect(await playlist.getByTestId('playlist-total').textContent()).toBe('0:05');
      expect(pageErrors(page)).toEqual([]);
    } finally {
      await closePage(page);
    }
  }, 90_000);

  it('shows the server refusing a WAV renamed .mp3 under the file, in Chinese (zh)', async () => {
    const page: Page = await newPage(browser, undefined, { language: 'zh', baseUrl: gw.baseUrl });
    try {
      await login(page, gw.baseUrl, 'editor');
      await page.goto(`${gw.baseUrl}/broadcastManage/mediaLibrary`);
      await page.getByTestId('media-upload').click();
      const form = page.getByTestId('media-upload-form');
      await form.locator('input[type=file]').setInputFiles({ name: 'notice.mp3', mimeType: 'audio/mpeg', buffer: await wavTone({ seconds: 1 }) });
      await page.getByTestId('media-upload-submit').click();
      await form.locator(`text=${zhCN.messages.onlyMp3}`).first().waitFor();
      expect(
        (await admin.post<{ total: number }>('/api/broadcast/mediaPage', { pageNum: 1, pageSize: 10, materialName: 'notice' })).body.data.total,
      ).toBe(0);
    } finally {
      await closePage(page);
    }
  }, 60_000);
});

/** An upload of the media library: the file and its name. */
function mediaForm(content: Buffer, name: string): FormData {
  const data = new FormData();
  data.append('materialName', name);
  data.append('file', new Blob([content]), 'tone.mp3');
  return data;
}
