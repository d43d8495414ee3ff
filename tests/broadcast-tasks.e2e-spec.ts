// Scheduled broadcast tasks in a real browser on the built gateway: a task whose periods are out of order is refused
// with the server's 'Order Wrong' under the period's field and nothing is recorded; put in order, it is saved, listed
// with its play time and played from its row (English). In Chinese, repeated periods get 'Time Repeats' at the field,
// and the task is deleted after confirmation. In Spanish, a task goes to a broadcast group's terminals; an empty group
// cannot be chosen.
import type { Browser, Page } from 'playwright-core';
import { MediaAuditStatus, type BroadcastTaskRow, type MediaRow, type PageResult } from '@sc/contracts';
import { es } from '@sc/i18n/locales/es';
import { zhCN } from '@sc/i18n/locales/zh-CN';
import { ApiClient, mp3Tone } from '@sc/testing';
import { broadcastTasks as esTasks } from '../apps/web/src/i18n/locales/es/broadcastTasks';
import { pickGroupAfterEmpty, closePage, fillTime, launchBrowser, login, newPage, pageErrors } from './support/browser';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';
import { addTerminalsAndGroups, signIn, uniqueCodePrefix } from './support/pipeline';

describe('broadcast tasks in the browser', () => {
  let gw: RunningGateway;
  let browser: Browser;
  let admin: ApiClient;
  const prefix = uniqueCodePrefix('T');
  const codes = [1, 2].map((n) => `${prefix}${n}`);
  const name = `${prefix} chimes`;

  const tasks = async () => (await admin.post<PageResult<BroadcastTaskRow>>('/api/broadcast/taskPage', { pageNum: 1, pageSize: 50 })).body.data;

  beforeAll(async () => {
    let tone: Buffer;
    [gw, browser, tone] = await Promise.all([startGatewayProcess(), launchBrowser(), mp3Tone({ seconds: 2 })]);
    admin = await signIn(gw);
    await addTerminalsAndGroups(
      admin,
      { codes, names: codes.map((_, i) => `${prefix}gate ${i + 1}`), ipBase: '10.9.0' },
      { [`${prefix} gates`]: [0, 1], [`${prefix} empty`]: [] },
    );
    const data = new FormData();
    data.append('materialName', `${prefix} chime`);
    data.append('file', new Blob([tone]), 'chime.mp3');
    const medium = await new ApiClient(gw.uploadUrl).as(admin.token).post<MediaRow>('/api/broadcast/mediaUpload', data);
    await admin.post('/api/broadcast/mediaAudit', { id: medium.body.data.id, auditStatus: MediaAuditStatus.Approved });
    expect(
      (
        await admin.post('/api/broadcast/playlistAddOrEdit', {
          name: `${prefix} list`,
          playbackMode: 'list_cycle_mode',
          mediaIds: [medium.body.data.id],
        })
      ).status,
    ).toBe(200);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
  });

  /** Opens a new task's form and fills everything but the second period. */
  const newTask = async (page: Page, taskName: string) => {
    await page.goto(`${gw.baseUrl}/broadcastManage/broadcastTask`);
    await page.getByTestId('task-add').click();
    await page.getByTestId('task-form').waitFor();
    await page.getByTestId('task-form-name').fill(taskName);
    await page.getByTestId('task-form-volume').fill('40');
    const playlist = page.locator('input[data-testid="task-form-playlist"]');
    await playlist.click();
    await page.getByRole('option', { name: new RegExp(`${prefix} list`) }).click();
    await page.locator('input[name=terminalName]').fill(prefix);
    await page.getByTestId('task-terminal-search').click();
    for (const code of codes) await page.getByTestId(`task-terminal-row-${code}`).click();
    await page.getByTestId(`task-chosen-${codes[1]}`).waitFor();
    await fillTime(page.getByTestId('task-period-0-start'), '08:00');
    await fillTime(page.getByTestId('task-period-0-end'), '08:30');
    await page.getByTestId('task-add-period').click();
  };

  it("shows the server's 'Order Wrong' at the period, saves nothing, then saves the task in order, lists it and plays it (en)", async () => {
    const page = await newPage(browser);
    try {
      await login(page, gw.baseUrl, 'editor');
      await page.goto(`${gw.baseUrl}/broadcastManage/broadcastTask`);
      // In the menu, under Broadcast.
      await page.locator('a[href="/broadcastManage/broadcastTask"]').first().waitFor();
      await newTask(page, name);
      await fillTime(page.getByTestId('task-period-1-start'), '07:00');
      await fillTime(page.getByTestId('task-period-1-end'), '07:30');
      await page.getByTestId('task-form-save').click();
      await page.getByTestId('task-period-1').getByText('Order Wrong').waitFor();
      expect((await tasks()).total).toBe(0);

      await fillTime(page.getByTestId('task-period-1-start'), '09:00');
      await fillTime(page.getByTestId('task-period-1-end'), '09:30');
      await page.getByTestId('task-form-save').click();
      const row = page.getByTestId(`task-row-${name}`);
      await row.waitFor();
      expect(await row.getByTestId('task-play-time').innerText()).toContain('08:00–08:30, 09:00–09:30');
      expect(await row.getByTestId('task-dispatch-status').getAttribute('data-status')).toBe('toBeSent');
      // The dispatch that sends it is followed beside the list.
      await page.locator('[data-testid="dispatch-panel"][data-status]').waitFor();
      expect((await tasks()).list[0]).toMatchObject({
        taskName: name,
        terminalCount: 2,
        volume: 40,
        schedule: { periods: [{ start: '08:00' }, { start: '09:00' }] },
      });

      // A row's play actions (their menu loads on the button's first click): Play asks with the terminal count, and
      // the command it sends is followed beside the list in place of the sending.
      const sending = new URL(page.url()).searchParams.get('dispatch');
      await row.getByTestId('task-controls').click();
      await page.getByTestId('task-control-play').click();
      await page.getByText(`Play "${name}" on its 2 terminals?`).waitFor();
      await page.getByTestId('task-control-confirm').click();
      await page.waitForURL((url) => !!url.searchParams.get('dispatch') && url.searchParams.get('dispatch') !== sending);
      await page.locator('[data-testid="dispatch-panel"][data-status]').waitFor();
      expect(pageErrors(page)).toEqual([]);
    } finally {
      await closePage(page);
    }
  }, 90_000);

  it("shows 'Time Repeats' at the field, and deletes a task after confirmation (zh)", async () => {
    const page = await newPage(browser, undefined, { language: 'zh', baseUrl: gw.baseUrl });
    try {
      await login(page, gw.baseUrl, 'admin');
      await newTask(page, `${prefix} again`);
      await fillTime(page.getByTestId('task-period-1-start'), '08:15');
      await fillTime(page.getByTestId('task-period-1-end'), '09:00');
      await page.getByTestId('task-form-save').click();
      await page.getByTestId('task-period-1').getByText(zhCN.messages.timeRepeats).waitFor();
      expect((await tasks()).total).toBe(1);

      await page.goto(`${gw.baseUrl}/broadcastManage/broadcastTask`);
      const row = page.getByTestId(`task-row-${name}`);
      await row.getByTestId('task-delete').click();
      await page.getByTestId('confirm-delete').click();
      await row.waitFor({ state: 'detached' });
      expect((await tasks()).total).toBe(0);
    } finally {
      await closePage(page);
    }
  }, 90_000);

  it('sends a task to the terminals of a broadcast group; an empty group cannot be chosen (es)', async () => {
    const page = await newPage(browser, undefined, { language: 'es', baseUrl: gw.baseUrl });
    const taskName = `${prefix} grupo`;
    try {
      await login(page, gw.baseUrl, 'admin');
      await page.goto(`${gw.baseUrl}/broadcastManage/broadcastTask`);
      await page.getByTestId('task-add').click();
      const form = page.getByTestId('task-form');
      await form.waitFor();
      await page.getByTestId('task-form-name').fill(taskName);
      await page.getByTestId('task-form-volume').fill('30');
      const playlist = page.locator('input[data-testid="task-form-playlist"]');
      await playlist.click();
      await page.getByRole('option', { name: new RegExp(`${prefix} list`) }).click();
      await fillTime(page.getByTestId('task-period-0-start'), '10:00');
      await fillTime(page.getByTestId('task-period-0-end'), '10:15');

      await form.getByText(esTasks.form.byGroups, { exact: true }).click();
      await form.getByText(esTasks.form.groupsHint).waitFor();
      await pickGroupAfterEmpty(
        page,
        form,
        'task-form-groups',
        { empty: `${prefix} empty`, chosen: `${prefix} gates` },
        es.messages.emptyGroupNotSelectable,
      );
      await page.getByTestId('task-form-save').click();
      await page.getByTestId(`task-row-${taskName}`).waitFor();
      const saved = (await admin.post<PageResult<BroadcastTaskRow>>('/api/broadcast/taskPage', { pageNum: 1, pageSize: 5, taskName })).body.data;
      expect(saved.list).toEqual([expect.objectContaining({ taskName, terminalCount: 2, volume: 30 })]);
      expect(pageErrors(page)).toEqual([]);
    } finally {
      await closePage(page);
    }
  }, 90_000);
});
