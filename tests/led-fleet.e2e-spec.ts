// LED screens at fleet scale, end to end: the built gateway, LED worker and device simulator as processes of their own,
// on PostgreSQL, Redis and the project's broker, with 500 simulated screens (`--family led --count 500`, each on an
// MQTT connection of its own, 2 % of their commands failing) in a region of their own, their clock at 10:00 of today
// in their zone. A picture uploaded on the upload port is made a task with 3 time periods for the region; published
// from the task page, each screen's row moves live in the task's drawer (no polling: it reads again only when the
// dispatch's counts move) from to be sent to playing, or failed, on a socket client too. Moving their clock between
// periods and into the next one, every screen stops and plays again. Retry failed sends the task again to the failed
// screens only, and they play it.
import sharp from 'sharp';
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import {
  DeviceFamily,
  DispatchItemState,
  LedPlayMode,
  LedReceiveStatus,
  TERMINAL_ITEM_STATES,
  ledReceiveStatusOf,
  type LedMediaRow,
  type LedTaskScreenRow,
  type LedTaskScreensPage,
} from '@sc/contracts';
import { ApiClient, waitFor } from '@sc/testing';
import { led as texts } from '../apps/web/src/i18n/locales/en/led';
import { dispatchReads, login, newPage, pageErrors, recordRowStatuses, socketConnected, toasts } from './support/browser';
import { fleetRig } from './support/fleet-rig';
import {
  LED_WORKER,
  expectRetriedOnly,
  goesBack,
  insertDevices,
  ledgerRows,
  uniqueCodePrefix,
  untilCounted,
  untilLedgerClosed,
  untilPushedEnded,
  type InsertedDevices,
} from './support/pipeline';

const SCREENS = 500;
/** The rows the task's drawer shows at a time (TASK_SCREENS_PAGE). */
const SHOWN = 50;
/** The screens' zone (insertDevices gives them the installation's). */
const ZONE = 'Asia/Shanghai';
const TODAY = DateTime.now().setZone(ZONE).toISODate()!;
const at = (time: string) => DateTime.fromISO(`${TODAY}T${time}`, { zone: ZONE }).toJSDate();
const PERIODS = [
  { start: '08:00', end: '09:00' },
  { start: '09:30', end: '12:00' },
  { start: '19:00', end: '22:00' },
];

/** How far a receive status is along the way; a row's statuses never go back. */
const STEP: Record<LedReceiveStatus, number> = {
  [LedReceiveStatus.ToBeSent]: 0,
  [LedReceiveStatus.Downloading]: 1,
  [LedReceiveStatus.Received]: 2,
  [LedReceiveStatus.Playing]: 3,
  [LedReceiveStatus.Failed]: 3,
};

describe(`LED screens at fleet scale: a task published to ${SCREENS} simulated screens`, () => {
  let page: Page;
  let fleet: InsertedDevices;
  let taskId = 0;
  let dispatchId = '';
  const prefix = uniqueCodePrefix('L');
  const taskName = `${prefix} opening`;
  /** The task's screens as its drawer's API lists them, every page. */
  async function taskScreens(): Promise<LedTaskScreenRow[]> {
    const rows: LedTaskScreenRow[] = [];
    for (let pageNum = 1; rows.length < SCREENS; pageNum++) {
      const answer = await rig.admin.post<LedTaskScreensPage>('/api/led/taskScreens', { id: taskId, pageNum, pageSize: 50 });
      if (answer.status !== 200 || answer.body.data.list.length === 0)
        throw new Error(`taskScreens: ${answer.status} ${JSON.stringify(answer.body)}`);
      rows.push(...answer.body.data.list);
    }
    return rows;
  }
  const ledger = () => ledgerRows(rig.gw.db, dispatchId);
  /** Waits until every screen of the task plays it (`playing`) or none does; answers how many play it. */
  const untilPlaying = (playing: boolean, among: readonly number[]) =>
    waitFor(
      async () => {
        const rows = (await taskScreens()).filter((r) => among.includes(r.deviceId));
        const n = rows.filter((r) => r.playingTaskId === taskId).length;
        if (n !== (playing ? among.length : 0)) throw new Error(`${n} of ${among.length} screens play the task`);
        return n;
      },
      30_000,
      250,
    );
  const drawerRow = (sn: string) => page.getByTestId(`led-task-screen-${sn}`);
  const counts = (status: LedReceiveStatus, n: number) =>
    page.getByTestId('led-task-receive-counts').locator(`[data-status="${status}"][data-count="${n}"]`).waitFor({ timeout: 30_000 });

  const rig = fleetRig({
    family: DeviceFamily.Led,
    worker: LED_WORKER,
    // Registered in a moment with SQL, in a region of their own.
    register: async (gw) => void (fleet = await insertDevices(gw.db, 'led', SCREENS, prefix, `${prefix} avenue`)),
    simulator: () => [
      ...['--family', 'led', '--count', String(SCREENS), '--prefix', prefix],
      // Slow to answer (2.5 to 6 s), as over a mobile network: the drawer, which opens once the task is published, sees
      // its rows on their way.
      ...['--ack-latency', '2500-6000', '--failure-rate', '0.02'],
      ...['--clock-start', at('10:00').toISOString(), '--clock-speed', '1'],
    ],
    online: (gw) =>
      untilCounted(
        gw.db,
        'screens online',
        `SELECT count(*)::int AS n FROM led_screen WHERE device_id = ANY($1) AND network_status = 1`,
        [fleet.ids],
        SCREENS,
      ),
  });

  it(`publishes a task with 3 periods for the region from the task page: all ${SCREENS} rows move live to playing or failed`, async () => {
    const png = await sharp({ create: { width: 640, height: 320, channels: 3, background: '#2f9e44' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([png]), 'opening.png');
    const media = await new ApiClient(rig.gw.uploadUrl).as(rig.admin.token).post<LedMediaRow>('/api/led/mediaUpload', form);
    expect(media.status).toBe(200);
    const saved = await rig.admin.post<{ id: number }>('/api/led/taskAddOrEdit', {
      name: taskName,
      mediaIds: [media.body.data.id],
      playMode: LedPlayMode.Synchronous,
      timePeriods: PERIODS,
      taskPeriods: [{ startDate: TODAY, endDate: TODAY }],
      screenIds: [],
      regionIds: [fleet.regionId],
    });
    expect(saved.status).toBe(200);
    taskId = saved.body.data.id;

    page = await newPage(rig.browser, undefined, { language: 'en', baseUrl: rig.gw.baseUrl });
    // The drawer reads its totals again when a screen starts or stops playing the task, as the screens report.
    const reads = dispatchReads(page, '/api/led/taskScreens', /^42\["DeviceStateChanged",.*"playing"/);
    await login(page, rig.gw.baseUrl, 'admin');
    const connected = socketConnected(page);
    await page.goto(`${rig.gw.baseUrl}/ledManage/ledTaskManage`);
    await connected;
    const row = page.getByTestId(`led-task-row-${taskName}`);
    expect(await row.getByTestId('led-task-screen-count').textContent()).toBe(String(SCREENS));
    const shownStatuses = await recordRowStatuses(page, '[data-testid^="led-task-screen-"]', '[data-testid="led-task-receive"]');
    reads.mark();
    await row.getByTestId('led-task-publish').click();
    await toasts(page).filter({ hasText: texts.task.published }).waitFor();
    dispatchId = await waitFor(async () => {
      const [task] = await rig.gw.db.query<{ id: string | null }>(`SELECT dispatch_id AS id FROM led_task WHERE id = $1`, [taskId]);
      return task?.id ?? undefined;
    });

    // Every row ends on the socket: delivered, or failed where the screen refused.
    await untilPushedEnded(rig.pushed, dispatchId, fleet.ids, (row) => TERMINAL_ITEM_STATES.includes(row.state));
    const rows = await ledger();
    const state = new Map(rows.map((r) => [r.deviceId, r.state]));
    const delivered = fleet.ids.filter((id) => state.get(id) === DispatchItemState.Delivered);
    const failed = fleet.ids.filter((id) => state.get(id) === DispatchItemState.Failed);
    expect(delivered.length + failed.length).toBe(SCREENS);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThan(SCREENS * 0.06);
    // On the socket: each row as the ledger has it, none going back, the delivered ones seen received first.
    const pushedOf = (id: number) =>
      (rig.pushed.get(dispatchId)?.get(id) ?? []).map((r) => ledReceiveStatusOf(r, false)).filter((s, i, all) => s !== all[i - 1]);
    const wentBack = (statuses: readonly string[]) => goesBack(statuses as LedReceiveStatus[], STEP);
    expect(fleet.ids.filter((id) => wentBack(pushedOf(id)))).toEqual([]);
    expect(delivered.filter((id) => pushedOf(id).at(-1) !== LedReceiveStatus.Received)).toEqual([]);
    expect(failed.filter((id) => pushedOf(id).at(-1) !== LedReceiveStatus.Failed)).toEqual([]);

    // In the drawer: the totals over all 500, and the shown rows moved live to playing or failed, none going back.
    await counts(LedReceiveStatus.Playing, delivered.length);
    await counts(LedReceiveStatus.Failed, failed.length);
    const snOf = new Map(fleet.codes.map((code, i) => [fleet.ids[i], code]));
    const shownIds = fleet.ids.slice(0, SHOWN);
    for (const id of shownIds)
      await drawerRow(snOf.get(id)!)
        .locator(`[data-testid="led-task-receive"][data-status="${state.get(id) === DispatchItemState.Delivered ? 'playing' : 'failed'}"]`)
        .waitFor();
    const shown = await shownStatuses();
    const shownOf = (id: number) => shown[`led-task-screen-${snOf.get(id)}`] ?? [];
    expect(shownIds.filter((id) => wentBack(shownOf(id)))).toEqual([]);
    // Rows were seen on screen on their way, not only at their ends (the screens answer in 2.5 to 6 s, so the drawer,
    // even when it opens late on a busy machine, finds many of them on their way).
    const seenOnTheWay = shownIds.filter((id) => shownOf(id).length > 1).length;
    expect(seenOnTheWay).toBeGreaterThanOrEqual(SHOWN / 10);
    expect(await drawerRow(snOf.get(delivered[0])!).getByTestId('led-task-receive').textContent()).toBe(texts.task.receive.playing);
    // No polling: the drawer read its page when it opened (and as the publish refreshed the task's queries), again as
    // each of its feeds was joined (events may have been missed before), and then only when the dispatch's counts moved
    // or a screen reported what it plays.
    const { reads: read, progress, joined, other } = reads.since(dispatchId);
    expect(read).toBeLessThanOrEqual(2 + joined + progress + other);
    expect(pageErrors(page)).toEqual([]);
  }, 90_000);

  it('every screen that has it stops between its periods and plays it again in the next, by its clock, live in the drawer', async () => {
    const holders = (await ledger()).filter((r) => r.state === DispatchItemState.Delivered).map((r) => r.deviceId);
    await untilPlaying(true, holders);
    await rig.sim.setClock(at('15:00'));
    await untilPlaying(false, holders);
    await counts(LedReceiveStatus.Received, holders.length);
    await rig.sim.setClock(at('19:30'));
    await untilPlaying(true, holders);
    await counts(LedReceiveStatus.Playing, holders.length);
    expect(pageErrors(page)).toEqual([]);
  }, 60_000);

  it('Retry failed sends the task again to the failed screens only; they play it', async () => {
    const before = await ledger();
    const failed = new Set(before.filter((r) => r.state !== DispatchItemState.Delivered).map((r) => r.deviceId));
    expect(failed.size).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await page.getByTestId(`led-task-row-${taskName}`).getByTestId('led-task-retry').click();
    await toasts(page).filter({ hasText: texts.task.retried }).waitFor();
    const after = await untilLedgerClosed(rig.gw.db, dispatchId);
    expectRetriedOnly(before, after);
    // The simulator's 2 % may refuse one again; the others play it, and the drawer counts them.
    const holders = after.filter((r) => r.state === DispatchItemState.Delivered).map((r) => r.deviceId);
    expect(holders.length).toBeGreaterThan(before.filter((r) => r.state === DispatchItemState.Delivered).length);
    await untilPlaying(true, holders);
    await counts(LedReceiveStatus.Playing, holders.length);
    await counts(LedReceiveStatus.Failed, SCREENS - holders.length);
    expect(pageErrors(page)).toEqual([]);
  }, 60_000);
});
