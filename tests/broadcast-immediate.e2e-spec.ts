// Immediate broadcasts end to end: the built gateway and broadcast worker as their own processes, simulated terminals
// that download the MP3 from the gateway's signed links, and /broadcastManage/immediatelyBroadcastTask in a real
// browser. A broadcast sent from the page to a group (an empty group refused, the volume required) turns up on the
// list with the terminals playing it, which then change live with no request of the page's own; it is stopped from
// the list. In Chinese (each browser flow runs in one language, the languages spread over the flows).
import type { Browser, Page } from 'playwright-core';
import { MediaAuditStatus, TerminalOccupancy, type BroadcastTaskRow, type MediaRow, type PageResult } from '@sc/contracts';
import { zhCN } from '@sc/i18n/locales/zh-CN';
import { ApiClient, mp3Tone, waitFor } from '@sc/testing';
import { startBroadcastFleet, type BroadcastFleet } from '../apps/device-sim/src';
import { broadcastTasks as zhTasks } from '../apps/web/src/i18n/locales/zh/broadcastTasks';
import { broadcastPlaylists as zhPlaylists } from '../apps/web/src/i18n/locales/zh/broadcastPlaylists';
import {
  pickGroupAfterEmpty,
  closePage,
  launchBrowser,
  login,
  newPage,
  pageErrors,
  recordApiRequests,
  socketConnected,
  settled,
} from './support/browser';
import { freePort, startGatewayProcess, type RunningGateway } from './support/gateway-process';
import {
  BROADCAST_WORKER,
  MQTT_URL,
  addTerminalsAndGroups,
  signIn,
  startWorkerProcess,
  terminalsOnline,
  uniqueCodePrefix,
  type RunningWorker,
} from './support/pipeline';

describe('immediate broadcasts in the browser: sent to a group, its terminals playing it live', () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let fleet: BroadcastFleet;
  let admin: ApiClient;
  let browser: Browser;
  const prefix = uniqueCodePrefix('I');
  const codes = [1, 2].map((n) => `${prefix}${n}`);
  const names = codes.map((_, i) => `${prefix} pole ${i + 1}`);
  const tone = `${prefix} chime`;

  beforeAll(async () => {
    // The terminals fetch their media from the gateway's signed links: its own address.
    const port = await freePort();
    [gw, browser] = await Promise.all([
      startGatewayProcess({ PORT: String(port), MEDIA_LINK_BASE_URL: `http://127.0.0.1:${port}` }),
      launchBrowser(),
    ]);
    admin = await signIn(gw);
    await addTerminalsAndGroups(admin, { codes, names, ipBase: '10.9.1' }, { [`${prefix} squares`]: [0, 1], [`${prefix} empty`]: [] });
    const media = new FormData();
    media.append('materialName', tone);
    media.append('file', new Blob([await mp3Tone({ seconds: 20, frequency: 520 })]), 'chime.mp3');
    const uploaded = await new ApiClient(gw.uploadUrl).as(admin.token).post<MediaRow>('/api/broadcast/mediaUpload', media);
    expect(uploaded.status).toBe(200);
    await admin.post('/api/broadcast/mediaAudit', { id: uploaded.body.data.id, auditStatus: MediaAuditStatus.Approved });
    worker = await startWorkerProcess(gw, {}, BROADCAST_WORKER);
    fleet = await startBroadcastFleet({ mqttUrl: MQTT_URL, terminals: codes, ackLatencyMs: { min: 20, max: 50 }, scheduleTickMs: 100 });
    await terminalsOnline(admin, prefix, codes.length);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await fleet?.stop({ clearRetained: true });
    await worker?.stop();
    await gw?.stop();
  });

  it.each([['zh', zhCN.messages, zhTasks, zhPlaylists.modes.list_cycle_mode]] as const)(
    'sends a cycling broadcast to a group and follows its terminals without a request (%s)',
    async (language, messages, texts, listCycle) => {
      const page: Page = await newPage(browser, undefined, { language, baseUrl: gw.baseUrl });
      try {
        await login(page, gw.baseUrl, 'admin');
        await page.addInitScript("localStorage.setItem('isAutoRefresh', 'false')");
        const connected = socketConnected(page);
        await page.goto(`${gw.baseUrl}/broadcastManage/immediatelyBroadcastTask`);
        // In the menu, under Broadcast.
        await page.locator('a[href="/broadcastManage/immediatelyBroadcastTask"]').first().waitFor();
        const taskName = `${prefix} notice ${language}`;
        await page.getByTestId('immediate-name').fill(taskName);
        const media = page.locator('input[data-testid="immediate-media-select"]');
        await media.click();
        await media.fill(tone);
        await page.getByRole('option', { name: new RegExp(tone) }).click();
        await page.getByTestId('immediate-mode').click();
        await page.getByRole('option', { name: listCycle }).click();

        // Groups: the empty one cannot be picked, with the spec's message.
        const form = page.getByTestId('immediate-form');
        await form.getByText(texts.immediate.byGroups, { exact: true }).click();
        await pickGroupAfterEmpty(
          page,
          form,
          'immediate-target-groups',
          { empty: `${prefix} empty`, chosen: `${prefix} squares` },
          messages.emptyGroupNotSelectable,
        );
        // The volume is required.
        await page.getByTestId('immediate-send').click();
        await form.getByText(messages.volumeEmpty).waitFor();
        await page.getByTestId('immediate-volume').fill('35');
        await page.getByTestId('immediate-send').click();
        await page.getByTestId('immediate-confirm').click();

        const task = await waitFor(async () => {
          const { list } = (await admin.post<PageResult<BroadcastTaskRow>>('/api/broadcast/taskPage', { pageNum: 1, pageSize: 5, taskName })).body
            .data;
          return list[0];
        }, 5000);
        expect(task).toMatchObject({ terminalCount: 2, volume: 35, playbackMode: 'list_cycle_mode' });
        const row = page.getByTestId(`immediate-row-${task.id}`);
        await row.locator('[data-testid="task-players"][data-count="2"]').waitFor({ timeout: 10_000 });
        await row.locator('[data-testid="task-dispatch-status"][data-status="allSuccessful"]').waitFor({ timeout: 10_000 });
        await page.locator('[data-testid="dispatch-panel"][data-status="allSuccessful"]').waitFor({ timeout: 10_000 });
        await connected;
        await settled(page);

        // From here on the page asks the server nothing: the terminals' own reports move the list.
        const requests = recordApiRequests(page);
        await fleet.occupy(codes[1], { occupancy: TerminalOccupancy.Intercom, title: 'Call 8101' });
        await row.locator('[data-testid="task-players"][data-count="1"]').waitFor({ timeout: 5000 });
        await fleet.release(codes[1]);
        const back = row.locator(`[data-testid="task-player"][data-terminal="${codes[1]}"]`);
        await back.waitFor({ timeout: 5000 });
        expect(await back.textContent()).toBe(`${codes[1]} · ${tone}`);
        expect(await row.getByTestId('task-time-status').textContent()).toBe(texts.timeStatus.inProgress);
        expect(requests.map((r) => r.url())).toEqual([]);

        // Stopped from the list, through the ledger: nobody plays it any more.
        await row.getByTestId('task-stop').click();
        await page.getByTestId('task-stop-confirm').click();
        await row.locator('[data-testid="task-time-status"][data-status="ended"]').waitFor({ timeout: 5000 });
        await row.locator('[data-testid="task-players"][data-count="0"]').waitFor({ timeout: 5000 });
        await waitFor(() => (codes.every((code) => fleet.terminal(code)?.occupancy === TerminalOccupancy.Idle) ? true : undefined), 5000, 50);
        expect(pageErrors(page)).toEqual([]);
      } finally {
        await closePage(page);
      }
    },
    90_000,
  );
});
