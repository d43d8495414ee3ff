// The terminal page's Import and Export buttons in a real browser, against the built gateway with the demo terminals:
// the export downloads the list as filtered with its header in the interface language (English, Chinese); the import
// dialog takes a workbook into a broadcast group and offers the new terminals' logins; a visitor only exports.
import * as XLSX from '@e965/xlsx';
import { readFile } from 'node:fs/promises';
import type { Download } from 'playwright-core';
import { workbookBuffer } from '@sc/testing';
import { browserSuite, login, pageErrors } from './support/browser';
import { signIn } from './support/pipeline';

async function sheetOf(download: Download): Promise<unknown[][]> {
  const book = XLSX.read(await readFile((await download.path())!), { type: 'buffer' });
  return XLSX.utils.sheet_to_json(book.Sheets[book.SheetNames[0]], { header: 1, defval: '' });
}

describe('broadcast terminals: import and export buttons', () => {
  const suite = browserSuite();
  const open = async (language: 'en' | 'zh', user: 'admin' | 'visitor', path: string) => {
    const page = await suite.open(undefined, undefined, { language });
    await login(page, suite.gw.baseUrl, user);
    await page.goto(`${suite.gw.baseUrl}${path}`);
    return page;
  };

  it.each([
    ['en', ['Terminal name', 'Terminal IP', 'Terminal ID'], ['Status', 'Playing'], 'Huaqiangbei Subdistrict'],
    ['zh', ['终端名称', '终端IP', '终端ID'], ['状态', '正在播放'], '华强北街道'],
  ] as const)(
    'downloads the terminal list as filtered, its header in the interface language (%s)',
    async (language, first, last, region) => {
      const page = await open(language, 'admin', '/broadcastManage/terminalManagement?terminalName=BC-000');
      await page.getByTestId('terminal-row-BC-0001').waitFor();
      const download = page.waitForEvent('download');
      await page.getByTestId('export-terminal').click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^\d{14}broadcast-terminals\.xlsx$/);
      const rows = await sheetOf(file);
      expect(rows[0].slice(0, 3)).toEqual(first);
      expect(rows[0].slice(-2)).toEqual(last);
      expect(rows[0]).toHaveLength(14);
      // BC-0001 to BC-0009: the page's filter, not the whole fleet of 36.
      expect(rows.slice(1).map((r) => r[2])).toEqual(Array.from({ length: 9 }, (_, i) => `BC-000${i + 1}`));
      // BC-0001's region, by its name in the interface language.
      expect(rows[1][10]).toBe(region);
      expect(pageErrors(page)).toEqual([]);
    },
    60_000,
  );

  it('imports terminals through the dialog into a broadcast group and offers their logins; a visitor has Export only', async () => {
    const admin = await signIn(suite.gw);
    expect((await admin.post('/api/broadcast/groupAddOrEdit', { groupName: 'E2E imported' })).body.code).toBe(200);
    const page = await open('en', 'admin', '/broadcastManage/terminalManagement?terminalName=E2E-BC');
    await page.getByTestId('import-terminal').click();
    const dialog = page.getByTestId('import-dialog');
    await dialog.getByTestId('import-group').click();
    await page.getByRole('option', { name: 'E2E imported', exact: true }).click();
    const template = page.waitForEvent('download');
    await dialog.getByTestId('import-template').click();
    expect((await sheetOf(await template))[0][2]).toBe('Terminal ID');
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'terminals.xlsx',
      mimeType: 'application/octet-stream',
      buffer: workbookBuffer([
        ['Terminal name', 'Terminal IP', 'Terminal ID', 'Broadcast volume'],
        ['E2E square 1', '10.8.0.1', 'E2E-BC-1', 70],
        ['E2E square 2', '10.8.0.2', 'E2E-BC-2', ''],
      ]),
    });
    await dialog.getByTestId('import-submit').click();
    await dialog.getByText('2 rows imported').waitFor();
    expect(await dialog.getByTestId('import-credentials').isEnabled()).toBe(true);
    await page.keyboard.press('Escape');
    // The list shows the new terminals without a reload.
    await page.getByTestId('terminal-row-E2E-BC-2').waitFor();
    expect(await page.getByTestId('terminal-row-E2E-BC-1').getByTestId('terminal-broadcast-volume').textContent()).toBe('70 %');
    expect(pageErrors(page)).toEqual([]);

    const visitor = await open('en', 'visitor', '/broadcastManage/terminalManagement');
    await visitor.getByTestId('export-terminal').waitFor();
    expect(await visitor.getByTestId('import-terminal').count()).toBe(0);
  }, 60_000);
});
