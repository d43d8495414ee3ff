import * as XLSX from '@e965/xlsx';
import { readFile } from 'node:fs/promises';
import type { Browser, Page, Request } from 'playwright-core';
import type { ImportRejection, ImportResult } from '@sc/contracts';
import { ApiClient, workbookBuffer } from '@sc/testing';
import { DEMO_PASSWORD } from '../apps/gateway/src/demo/demo-data';
import { common as enCommon } from '../apps/web/src/i18n/locales/en/common';
import { closePage, launchBrowser, login, newPage, pageErrors, screenshot, waitForPath } from './support/browser';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';

const LAMP_HEADER = ['Lamp name', 'Client ID', 'Region', 'Gateway ID', 'Lamp controller ID', 'Address', 'MAC address', 'Longitude', 'Latitude'];
const POLE_HEADER = ['Name', 'Code', 'Region', 'Longitude', 'Latitude', 'Address', 'Remark'];

/** Imports and lamp poles against the built gateway: the upload port from outside, then the console in a real browser. */
describe('imports and lamp poles, end to end', () => {
  let gw: RunningGateway;
  let browser: Browser;
  let admin: ApiClient;
  /** The console as the browser opens it: the default CONSOLE_ORIGIN (http://localhost:<port>) is allowed by the upload port. */
  let consoleUrl: string;
  const pages: Page[] = [];

  const upload = (body: FormData) => new ApiClient(gw.uploadUrl).as(admin.token).post<ImportResult>('/api/light/lightImport', body);
  const form = (book: Buffer, groupId: number) => {
    const data = new FormData();
    data.append('groupId', String(groupId));
    data.append('file', new Blob([book]), 'lamps.xlsx');
    return data;
  };
  const count = async (like: string) => (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM device WHERE code LIKE $1`, [like]))[0].n;
  const open = async (language?: 'zh' | 'en' | 'es' | 'ja') => {
    const page = await newPage(browser, undefined, language ? { language, baseUrl: consoleUrl } : {});
    pages.push(page);
    return page;
  };

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGatewayProcess(), launchBrowser()]);
    consoleUrl = gw.baseUrl.replace('127.0.0.1', 'localhost');
    admin = await gw.client().login('admin', DEMO_PASSWORD);
  }, 60_000);
  afterEach(async () => {
    await Promise.all(pages.splice(0).map((p) => closePage(p)));
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
  });

  it('imports 5,000 lamps from a workbook through the upload port; the same file again changes nothing; bad rows import nothing', async () => {
    const [{ id: groupId }] = await gw.db.query<{ id: number }>(`INSERT INTO device_group (type, name) VALUES (1, 'E2E import') RETURNING id`);
    const rows = Array.from({ length: 5000 }, (_, i) => [
      `E2E lamp ${i + 1}`,
      `E2E-${i + 1}`,
      'Futian District',
      'LGW-01',
      `LC-${i + 1}`,
      '',
      '',
      114.05,
      22.54,
    ]);
    const book = workbookBuffer([LAMP_HEADER, ...rows]);
    const first = await upload(form(book, groupId));
    expect(first.body.data).toMatchObject({ total: 5000, added: 5000, changed: 0, unchanged: 0 });
    expect(await count('E2E-%')).toBe(5000);
    const again = await upload(form(book, groupId));
    expect(again.body.data).toMatchObject({ total: 5000, added: 0, changed: 0, unchanged: 5000 });

    const bad = workbookBuffer([
      LAMP_HEADER,
      ['Fine', 'E2E-BAD-1', '', '', '', '', '', '', ''],
      ['Dup', 'E2E-BAD-1', '', '', '', '', '', '', ''],
      ['', 'E2E-BAD-3', '', '', '', '', '', '', ''],
    ]);
    const refused = await upload(form(bad, groupId));
    expect(refused.status).toBe(400);
    expect((refused.body.data as unknown as ImportRejection).badRows).toBe(3);
    expect(await count('E2E-BAD-%')).toBe(0);
  }, 60_000);

  it('shows the demo poles with their lamps, and imports poles through the dialog: preview, errors, then the import', async () => {
    const page = await open();
    await login(page, consoleUrl, 'admin');
    await page.goto(`${consoleUrl}/lampPole/poleManage?name=POLE-00001`);
    await waitForPath(page, '/lampPole/poleManage');
    await page.waitForFunction(
      (title) => (globalThis as unknown as { document: { title: string } }).document.title === title,
      `Smart City - ${enCommon.route.poleManage}`,
    );
    const demoPole = page.getByTestId('pole-row-POLE-00001');
    await demoPole.waitFor();
    await demoPole.getByTestId('pole-devices').click();
    const drawer = page.getByTestId('pole-devices-drawer');
    const lampRow = drawer.getByTestId('pole-device-LAMP-00001');
    await lampRow.waitFor();
    // The pole carries other demo devices too (each row links to its own family's page).
    expect(await lampRow.getByTestId('pole-device-link').count()).toBe(1);
    // The lamp links to its own page, the lamp list filtered to it.
    await lampRow.getByTestId('pole-device-link').click();
    await waitForPath(page, '/smartLamp/equipmentManage');
    await page.getByTestId('lamp-row-LAMP-00001').waitFor();
    await page.goto(`${consoleUrl}/lampPole/poleManage?name=POLE-00001`);
    await page.getByTestId('pole-row-POLE-00001').waitFor();

    await page.getByTestId('import-lamp').click();
    const dialog = page.getByTestId('import-dialog');
    await dialog.waitFor();
    await dialog.getByTestId('import-group').click();
    await page.getByRole('option', { name: 'Demo poles', exact: true }).click();
    // The template is named for what it holds.
    const template = page.waitForEvent('download');
    await dialog.getByTestId('import-template').click();
    expect((await template).suggestedFilename()).toMatch(/^\d{14}lamp-pole-template\.xlsx$/);
    const file = (rows: unknown[][]) => ({
      name: 'poles.xlsx',
      mimeType: 'application/octet-stream',
      buffer: workbookBuffer([POLE_HEADER, ...rows]),
    });

    await dialog.locator('input[type=file]').setInputFiles(file([['Bad pole', 'E2E POLE', 'Nowhere', '', '', '', '']]));
    await dialog.getByTestId('import-submit').click();
    await dialog.getByTestId('import-errors').waitFor();
    expect(await dialog.getByTestId('import-error-row').count()).toBe(2);
    const download = page.waitForEvent('download');
    await dialog.getByTestId('import-report').click();
    expect((await download).suggestedFilename()).toMatch(/^\d{14}import-errors\.xlsx$/);
    expect(await count('E2E POLE')).toBe(0);

    await dialog.locator('input[type=file]').setInputFiles(
      file([
        ['E2E pole 1', 'E2E-POLE-1', 'Futian District', 114.05, 22.54, 'Shennan Avenue 1', ''],
        ['E2E pole 2', 'E2E-POLE-2', '', '', '', '', ''],
      ]),
    );
    await dialog.getByTestId('import-preview').click();
    await dialog.getByTestId('import-result').waitFor();
    expect(await dialog.getByTestId('import-added').textContent()).toBe('Added: 2');
    expect(await count('E2E-POLE-%')).toBe(0);
    await dialog.getByTestId('import-submit').click();
    await dialog.getByText('2 rows imported').waitFor();
    expect(await count('E2E-POLE-%')).toBe(2);
    // The added poles' MQTT logins: one download, for the installers.
    const logins = page.waitForEvent('download');
    await dialog.getByTestId('import-credentials').click();
    const loginFile = await logins;
    expect(loginFile.suggestedFilename()).toMatch(/^\d{14}mqtt-logins\.xlsx$/);
    const book = XLSX.read(await readFile((await loginFile.path())!), { type: 'buffer' });
    const loginRows = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]], { header: 1 });
    expect(loginRows.map((row) => row.slice(0, 2))).toEqual([
      ['Code', 'User name'],
      ['E2E-POLE-1', 'pole/E2E-POLE-1'],
      ['E2E-POLE-2', 'pole/E2E-POLE-2'],
    ]);
    expect(loginRows[1][2]).toMatch(/^[0-9a-f]{64}$/);
    expect(await dialog.getByTestId('import-credentials').isDisabled()).toBe(true);
    await screenshot(page, 'pole-import-dialog');
    await page.keyboard.press('Escape');
    await page.goto(`${consoleUrl}/lampPole/poleManage?name=E2E-POLE`);
    await page.getByTestId('pole-row-E2E-POLE-2').waitFor();

    // A position out of range is refused under its field, as typed and unsent: never clamped to 90, 180 (here in
    // English, below in Chinese).
    const saves: string[] = [];
    const saving = (request: Request) => {
      if (request.url().endsWith('/api/lamp/poleAddOrEdit')) saves.push(request.url());
    };
    const refuseOutOfRange = async (target: Page, latitudeError: string, longitudeError: string) => {
      target.on('request', saving);
      await target.getByTestId('pole-add').click();
      const form = target.getByTestId('pole-form');
      await form.locator('input[name=name]').fill('E2E clamp');
      await form.locator('input[name=code]').fill('E2E-POLE-CLAMP');
      await form.locator('input[name=latitude]').fill('200');
      await form.locator('input[name=longitude]').fill('500');
      await target.getByTestId('pole-save').click();
      await form.getByText(latitudeError, { exact: true }).waitFor();
      await form.getByText(longitudeError, { exact: true }).waitFor();
      expect(await form.locator('input[name=latitude]').inputValue()).toBe('200');
      expect(await form.locator('input[name=longitude]').inputValue()).toBe('500');
      expect(saves).toEqual([]);
      expect(await gw.db.query(`SELECT id FROM device WHERE code = 'E2E-POLE-CLAMP'`)).toEqual([]);
    };
    await refuseOutOfRange(page, 'Must be between -90 and 90', 'Must be between -180 and 180');
    expect(pageErrors(page)).toEqual([]);

    // The region column follows the interface language, as the region tree does: its Chinese name in Chinese.
    const zh = await open('zh');
    await login(zh, consoleUrl, 'admin');
    await zh.goto(`${consoleUrl}/lampPole/poleManage?name=E2E-POLE-1`);
    await zh.getByTestId('pole-row-E2E-POLE-1').getByText('福田区', { exact: true }).waitFor();
    expect(await zh.getByTestId('pole-row-E2E-POLE-1').textContent()).not.toContain('Futian District');

    await refuseOutOfRange(zh, '必须在 -90 到 90 之间', '必须在 -180 到 180 之间');
    expect(pageErrors(zh)).toEqual([]);
  }, 60_000);

  it('lets a visitor look at the poles without changing them; editors have no pole manage page', async () => {
    const page = await open();
    await login(page, consoleUrl, 'visitor');
    await page.goto(`${consoleUrl}/lampPole/poleManage`);
    await page.getByTestId('pole-row-POLE-00001').waitFor();
    for (const id of ['pole-add', 'import-lamp', 'pole-edit', 'pole-delete']) expect(await page.getByTestId(id).count()).toBe(0);
    expect(await page.getByTestId('export-lamp').count()).toBe(1);

    const editor = await open();
    await login(editor, consoleUrl, 'editor');
    await editor.goto(`${consoleUrl}/lampPole/poleManage`);
    await waitForPath(editor, '/401');
  }, 60_000);
});
