// Proof of play in a real browser, against the built gateway: plays stored as the signage worker stores them are shown
// per ad and per device on /floor-screen/plays (listed in the floor-screen menu), with their totals, and the export
// downloads the report as filtered with its header in the interface language; the floor screens' operation log
// (/floor-screen/log) shows the module's calls only.
import * as XLSX from '@e965/xlsx';
import { readFile } from 'node:fs/promises';
import { signagePlays as texts } from '../apps/web/src/i18n/locales/en/signagePlays';
import { browserSuite, login, pageErrors } from './support/browser';
import { signIn } from './support/pipeline';

describe('floor-screen proof of play: the report page and its export', () => {
  const suite = browserSuite();

  it('shows plays per ad and per device, exports them, and lists the module operation log', async () => {
    const db = suite.gw.db;
    const admin = await signIn(suite.gw);
    const save = async (code: string) =>
      (await admin.post<{ id: number }>('/api/signage/deviceAddOrEdit', { name: `Proof ${code}`, code })).body.data.id;
    const [a, b] = [await save('E2E-PLAY-A'), await save('E2E-PLAY-B')];
    // Ad 501 played 3 times on A and once on B, ad 502 twice on B, on the 10th and 11th (installation clock, +08:00).
    await db.query(
      `INSERT INTO signage_play (device_id, plan_id, ad_id, started_at, seconds)
       SELECT * FROM unnest($1::int[], $2::varchar[], $3::int[], $4::timestamptz[], $5::int[])`,
      [
        [a, a, a, b, b, b],
        ['p', 'p', 'p', 'p', 'p', 'p'],
        [501, 501, 501, 501, 502, 502],
        [
          '2026-11-10T09:00:00+08:00',
          '2026-11-10T09:00:30+08:00',
          '2026-11-11T23:00:00+08:00',
          '2026-11-10T10:00:00+08:00',
          '2026-11-11T10:00:00+08:00',
          '2026-11-11T10:00:20+08:00',
        ],
        [30, 30, 30, 30, 20, 20],
      ],
    );

    const page = await suite.open(undefined, undefined, { language: 'en' });
    await login(page, suite.gw.baseUrl, 'admin');
    await page.goto(`${suite.gw.baseUrl}/floor-screen/plays?startDate=2026-11-10&endDate=2026-11-11`);
    await page.locator('a[href="/floor-screen/plays"]').first().waitFor();
    const rows = page.getByTestId('plays-row');
    await rows.nth(1).waitFor();
    expect(await rows.allInnerTexts()).toEqual([
      `${texts.deletedAd.replace('{{id}}', '501')}\t4\t120`,
      `${texts.deletedAd.replace('{{id}}', '502')}\t2\t40`,
    ]);
    expect(await page.getByTestId('plays-totals').textContent()).toBe('6 plays, 160 seconds played');

    // Per device: one line each.
    await page.getByTestId('plays-by').getByText(texts.by.device, { exact: true }).click();
    await page.waitForURL(/by=device/);
    await rows.filter({ hasText: 'E2E-PLAY-B' }).waitFor();
    expect(await rows.allInnerTexts()).toEqual(['Proof E2E-PLAY-A (E2E-PLAY-A)\t3\t90', 'Proof E2E-PLAY-B (E2E-PLAY-B)\t3\t70']);

    // The export: the report as on screen, every line.
    const download = page.waitForEvent('download');
    await page.getByTestId('export-play').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/floor-screen-plays\.xlsx$/);
    const book = XLSX.read(await readFile((await file.path())!), { type: 'buffer' });
    expect(XLSX.utils.sheet_to_json(book.Sheets[book.SheetNames[0]], { header: 1 })).toEqual([
      ['Floor screen', 'Device code', 'Plays', 'Played seconds'],
      ['Proof E2E-PLAY-A', 'E2E-PLAY-A', 3, 90],
      ['Proof E2E-PLAY-B', 'E2E-PLAY-B', 3, 70],
    ]);

    // The module's operation log: the two saves above, and nothing of other modules (the sign-in is the system's).
    await page.goto(`${suite.gw.baseUrl}/floor-screen/log`);
    await page.getByTestId('log-row').nth(1).waitFor();
    expect(await page.getByTestId('log-description').allTextContents()).toEqual(['Save floor screen', 'Save floor screen']);
    expect(pageErrors(page)).toEqual([]);
  }, 60_000);
});
