// Floor-screen advertising at fleet scale, end to end: the built gateway, signage worker and device simulator as
// processes of their own, on PostgreSQL, Redis and the project's broker, with 1,000 simulated players (`--family
// signage --count 1000`, each on an MQTT connection of its own, 2 % of their commands failing) in one group, and a
// 1,001st player of the group that is off. An image and a video uploaded on the upload port make a 3-split portrait ad;
// a plan of it for the group, with replace, is published from its receive-status view in the browser. Every row moves
// on a socket client and on the view's page (no polling: the page reads again only when the dispatch's counts move)
// through the receive statuses to download completed, or unknown for a refusal; the off player's row waits with its
// expiry shown and then expires. Once it is on, Retry failed sends the plan again to the failed and expired rows only.
// A screenshot of it arrives and is shown, and the proof of play stored and shown matches what the players played.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import sharp from 'sharp';
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import {
  AdPlayMode,
  AdPublishMode,
  AdReceiveStatus,
  DeviceFamily,
  DispatchItemState,
  MaterialType,
  PublishType,
  ScreenOrientation,
  TERMINAL_ITEM_STATES,
  adReceiveStatusOf,
  type AdDetail,
  type AdPlanDetail,
  type DispatchRowChange,
  type MaterialRow,
} from '@sc/contracts';
import { ApiClient, mp4Clip, waitFor } from '@sc/testing';
import { startSignageFleet, type SignageFleet } from '../apps/device-sim/src/families/signage.sim';
import { signagePlans as texts } from '../apps/web/src/i18n/locales/en/signagePlans';
import { dispatchReads, login, newPage, pageErrors, recordRowStatuses, socketConnected, toasts } from './support/browser';
import { fleetRig } from './support/fleet-rig';
import {
  MQTT_URL,
  expectRetriedOnly,
  goesBack,
  insertFloorScreens,
  ledgerRows,
  uniqueCodePrefix,
  untilCounted,
  untilLedgerClosed,
  untilPushedEnded,
  type InsertedDevices,
} from './support/pipeline';

const SIGNAGE_WORKER = require.resolve('../dist/apps/worker-signage/main.js');
const PLAYERS = 1000;
/** The rows the receive-status view shows at a time (RECEIVERS_PAGE). */
const SHOWN = 50;
/** How long a publication's rows wait for their players (DISPATCH_TTL_SECONDS): the off player's row expires then. */
const TTL_SECONDS = 45;
const AD_SECONDS = 5;
/** The ad's picture, portrait: about 300 kB, past one progress step (256 kB). */
const IMAGE = { width: 240, height: 427 };
/** The installation's zone (the players have no region): the plan's days and the report's are its. */
const ZONE = 'Asia/Shanghai';
const TODAY = DateTime.now().setZone(ZONE);

/** How far a receive status is along the way; a row's statuses never go back. */
const STEP: Record<AdReceiveStatus, number> = {
  [AdReceiveStatus.NotPublished]: 0,
  [AdReceiveStatus.PublishedNotReceived]: 1,
  [AdReceiveStatus.ReceivedNotDownloaded]: 2,
  [AdReceiveStatus.Downloading]: 3,
  [AdReceiveStatus.DownloadCompleted]: 4,
  [AdReceiveStatus.Unknown]: 4,
};

describe(`floor screens at fleet scale: an ad plan published by group to ${PLAYERS} simulated players`, () => {
  let page: Page;
  let fleet: InsertedDevices & { groupId: number };
  let late: SignageFleet | undefined;
  let ad: AdDetail;
  let plan: AdPlanDetail;
  let dispatchId = '';
  /** What each shown row of the view rendered, in order (recordRowStatuses). */
  let shownStatuses: () => Promise<Record<string, string[]>>;
  const prefix = uniqueCodePrefix('S');
  /** The group's player no simulator speaks for at first: the lowest id, so the view's first page shows it. */
  const off = `${prefix}00000`;
  const planName = `${prefix} spring`;

  const ledger = () => ledgerRows(rig.gw.db, dispatchId);
  /** The statuses a device's row was pushed in on the socket, in order (repeats folded). */
  const pushedStatuses = (deviceId: number) =>
    (rig.pushed.get(dispatchId)?.get(deviceId) ?? []).map((row: DispatchRowChange) => adReceiveStatusOf(row)).filter((s, i, all) => s !== all[i - 1]);
  const wentBack = (statuses: readonly string[]) => goesBack(statuses as AdReceiveStatus[], STEP);
  const receiverRow = (code: string) => page.getByTestId(`plan-receiver-${code}`);
  const upload = async (file: Buffer, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([file]), name);
    const answer = await new ApiClient(rig.gw.uploadUrl, 'en-US').as(rig.admin.token).post<MaterialRow>('/api/signage/material/upload', form);
    expect(answer.status).toBe(200);
    return answer.body.data;
  };

  const rig = fleetRig({
    family: DeviceFamily.Signage,
    worker: SIGNAGE_WORKER,
    gatewayEnv: { DISPATCH_TTL_SECONDS: String(TTL_SECONDS) },
    // Registered in a moment with SQL, all in one group: the off player first, then the simulator's 1,000.
    register: async (gw) => void (fleet = await insertFloorScreens(gw.db, PLAYERS, prefix, `${prefix} concourse`, 0)),
    simulator: () => [
      ...['--family', 'signage', '--count', String(PLAYERS), '--prefix', prefix],
      ...['--ack-latency', '20-100', '--failure-rate', '0.02', '--download-concurrency', '100'],
    ],
    online: (gw) =>
      untilCounted(
        gw.db,
        'players online',
        `SELECT count(*)::int AS n FROM signage_device WHERE group_id = $1 AND network_status = 1`,
        [fleet.groupId],
        PLAYERS,
      ),
    stopFirst: async () => late?.stop({ clearRetained: true }),
  });

  it('makes a 3-split portrait ad of an image and a video uploaded on the upload port, and a plan of it for the group with replace', async () => {
    const [png, mp4] = await Promise.all([
      // Noise: it does not compress, so each player's download passes a progress step (256 kB) and says so.
      sharp(randomBytes(IMAGE.width * IMAGE.height * 3), { raw: { ...IMAGE, channels: 3 } })
        .png()
        .toBuffer(),
      mp4Clip({ seconds: 2, width: 180, height: 320 }),
    ]);
    const [image, video] = [await upload(png, 'spring.png'), await upload(mp4, 'spring.mp4')];
    expect(image).toMatchObject({ type: MaterialType.Image, ...IMAGE, fileSize: png.length });
    expect(video).toMatchObject({ type: MaterialType.Video, width: 180, height: 320 });
    expect(video.duration).toBeCloseTo(2, 0);
    const made = await rig.admin.post<AdDetail>('/api/signage/ad/add', {
      name: `${prefix} spring ad`,
      coverMaterialId: image.id,
      orientation: ScreenOrientation.Portrait,
      totalDuration: AD_SECONDS,
      splitCount: 3,
      zones: [
        [{ materialId: image.id, seconds: AD_SECONDS }],
        [{ materialId: video.id, seconds: 2 }],
        [{ materialId: image.id, seconds: AD_SECONDS }],
      ],
      music: [],
      auditRequired: false,
    });
    expect(made.status).toBe(200);
    ad = made.body.data;
    // Played once on each player (a limited loop of one run), so what each played is known.
    const saved = await rig.admin.post<AdPlanDetail>('/api/signage/plan/add', {
      publishName: planName,
      publishMode: AdPublishMode.Group,
      groupId: fleet.groupId,
      adIds: [ad.id],
      schedule: { startDate: TODAY.toISODate(), endDate: TODAY.plus({ years: 1 }).toISODate(), allDay: true, weekdays: [] },
      playMode: AdPlayMode.LimitedLoopInterval,
      playLimitCount: 1,
      playIntervalSeconds: 60,
      publishType: PublishType.Replace,
    });
    expect(saved.status).toBe(200);
    plan = saved.body.data;
  });

  it(`publishes it from the receive-status view: all ${PLAYERS} rows move live through the receive statuses, on a socket and on the page`, async () => {
    page = await newPage(rig.browser, undefined, { language: 'en', baseUrl: rig.gw.baseUrl });
    const reads = dispatchReads(page, '/api/signage/plan/receivers');
    await login(page, rig.gw.baseUrl, 'admin');
    const connected = socketConnected(page);
    await page.goto(`${rig.gw.baseUrl}/floor-screen/ad-plan`);
    await connected;
    await page.getByTestId(`plan-row-${planName}`).getByTestId('plan-receivers').click();
    const view = page.getByTestId('plan-receivers-view');
    await view.locator(`[data-status="${AdReceiveStatus.NotPublished}"][data-count="${PLAYERS + 1}"]`).waitFor();
    await receiverRow(fleet.codes[SHOWN - 1]).waitFor();
    shownStatuses = await recordRowStatuses(page, '[data-testid^="plan-receiver-"][data-status]');
    reads.mark();

    await view.getByTestId('plan-receivers-publish').click();
    await page.getByTestId('plan-publish-confirm').click();
    await page.getByText(texts.published).first().waitFor();
    dispatchId = await waitFor(async () => {
      const [row] = await rig.gw.db.query<{ id: string | null }>(`SELECT dispatch_id AS id FROM signage_ad_plan WHERE id = $1`, [plan.id]);
      return row?.id ?? undefined;
    });

    // The off player's row waits, its expiry shown: looked at now, well before the publication's rows expire (TTL_SECONDS),
    // however long the fleet takes to answer on a busy machine.
    await receiverRow(off)
      .and(page.locator(`[data-status="${AdReceiveStatus.PublishedNotReceived}"]`))
      .waitFor();
    expect(await receiverRow(off).getByTestId('plan-receiver-expiry').textContent()).toMatch(/^Expires /);

    // Every online player's row ends on the socket: download completed, or unknown where its command failed.
    const online = fleet.ids.slice(1);
    await untilPushedEnded(rig.pushed, dispatchId, online, (row) => TERMINAL_ITEM_STATES.includes(row.state));
    const rows = await ledger();
    const state = new Map(rows.map((r) => [r.deviceId, r.state]));
    const delivered = online.filter((id) => state.get(id) === DispatchItemState.Delivered);
    const failed = online.filter((id) => state.get(id) === DispatchItemState.Failed);
    expect(delivered.length + failed.length).toBe(PLAYERS);
    // About 2 % refuse (the simulator's failure rate); the others have it.
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThan(PLAYERS * 0.06);
    // On the socket: no row goes back; each ends as the ledger says; the delivered ones were seen received or
    // downloading before they completed.
    const sequences = new Map(online.map((id) => [id, pushedStatuses(id)]));
    expect(online.filter((id) => wentBack(sequences.get(id)!))).toEqual([]);
    expect(delivered.filter((id) => sequences.get(id)!.at(-1) !== AdReceiveStatus.DownloadCompleted)).toEqual([]);
    expect(failed.filter((id) => sequences.get(id)!.at(-1) !== AdReceiveStatus.Unknown)).toEqual([]);
    const passed = (status: AdReceiveStatus) => delivered.filter((id) => sequences.get(id)!.includes(status)).length;
    const onTheWay = delivered.filter(
      (id) => sequences.get(id)!.includes(AdReceiveStatus.ReceivedNotDownloaded) || sequences.get(id)!.includes(AdReceiveStatus.Downloading),
    );
    expect(onTheWay.length).toBe(delivered.length);
    // Their receipts reach the socket one by one: most rows are seen received; rows whose receipt at 256 kB was not
    // overtaken by their ack within one progress interval are seen downloading too.
    expect(passed(AdReceiveStatus.ReceivedNotDownloaded)).toBeGreaterThan(delivered.length / 2);
    expect(passed(AdReceiveStatus.Downloading)).toBeGreaterThan(0);

    // On the page: the totals follow the rows; the shown rows moved live, none going back, each ending as the ledger
    // says.
    await view.locator(`[data-status="${AdReceiveStatus.DownloadCompleted}"][data-count="${delivered.length}"]`).waitFor();
    // Unknown: the refused rows, and the off player's once its row has expired (after TTL_SECONDS, which a busy
    // machine may reach by now): the count the ledger has when the page shows it.
    await waitFor(
      async () => {
        const unknown = (await ledger()).filter((r) => r.state === DispatchItemState.Failed || r.state === DispatchItemState.Expired).length;
        const shown = await view.locator(`[data-status="${AdReceiveStatus.Unknown}"][data-count="${unknown}"]`).count();
        return shown > 0 && [failed.length, failed.length + 1].includes(unknown) ? true : undefined;
      },
      20_000,
      250,
    );
    const codeOf = new Map(fleet.codes.map((code, i) => [fleet.ids[i], code]));
    const shownOnline = fleet.ids.slice(1, SHOWN);
    for (const id of shownOnline)
      await receiverRow(codeOf.get(id)!)
        .and(
          page.locator(
            `[data-status="${state.get(id) === DispatchItemState.Delivered ? AdReceiveStatus.DownloadCompleted : AdReceiveStatus.Unknown}"]`,
          ),
        )
        .waitFor();
    const shown = await shownStatuses();
    const shownOf = (id: number) => shown[`plan-receiver-${codeOf.get(id)}`] ?? [];
    expect(shownOnline.filter((id) => shownOf(id)[0] !== AdReceiveStatus.NotPublished || wentBack(shownOf(id)))).toEqual([]);
    // Rows were seen on screen on their way, not only at their ends.
    const shownOnTheWay = shownOnline.filter((id) =>
      shownOf(id).some((s) => s === AdReceiveStatus.ReceivedNotDownloaded || s === AdReceiveStatus.Downloading),
    );
    expect(shownOnTheWay.length).toBeGreaterThan(0);
    // No polling: after publishing (which reads the view again) it read its page only when the dispatch's counts moved
    // (or a feed was joined anew: events may have been missed).
    const { reads: read, progress, joined } = reads.since(dispatchId);
    expect(read).toBeLessThanOrEqual(1 + joined + progress);
    expect(pageErrors(page)).toEqual([]);
  }, 90_000);

  it("expires the off player's row; once it is on, Retry failed sends the plan again to the failed and expired rows only", async () => {
    const offId = fleet.ids[0];
    // Its row expires at the publication's expiry, pushed to the socket and moved on the page.
    await waitFor(() => (pushedStatuses(offId).at(-1) === AdReceiveStatus.Unknown ? true : undefined), (TTL_SECONDS + 15) * 1000, 250);
    expect(pushedStatuses(offId)).toEqual([AdReceiveStatus.Unknown]);
    await receiverRow(off)
      .and(page.locator(`[data-status="${AdReceiveStatus.Unknown}"]`))
      .waitFor();
    expect(await receiverRow(off).getByTestId('plan-receiver-expiry').count()).toBe(0);
    const before = await ledger();
    const toRetry = before.filter((r) => r.state !== DispatchItemState.Delivered);
    expect(before.find((r) => r.deviceId === offId)?.state).toBe(DispatchItemState.Expired);
    expect(toRetry.every((r) => r.state === DispatchItemState.Failed || r.state === DispatchItemState.Expired)).toBe(true);

    late = await startSignageFleet({
      mqttUrl: MQTT_URL,
      players: [{ code: off, record: { name: `${prefix}player 0`, orientation: ScreenOrientation.Portrait } }],
      ackLatencyMs: { min: 5, max: 20 },
      logger: pino({ level: 'silent' }),
    });
    await receiverRow(off).getByText(texts.online).waitFor();
    await page.getByTestId('plan-retry').click();
    await toasts(page)
      .filter({ hasText: texts.retried_other.replace('{{count}}', String(toRetry.length)) })
      .waitFor();

    // The retried rows end again (the simulator's 2 % may refuse one more time); the off player, now on, has it.
    // Only they were sent again (a new command id); the delivered rows are as they were.
    const after = await untilLedgerClosed(rig.gw.db, dispatchId);
    expectRetriedOnly(before, after);
    expect(after.find((r) => r.deviceId === offId)?.state).toBe(DispatchItemState.Delivered);
    await receiverRow(off)
      .and(page.locator(`[data-status="${AdReceiveStatus.DownloadCompleted}"]`))
      .waitFor();
    const delivered = after.filter((r) => r.state === DispatchItemState.Delivered).length;
    await page
      .getByTestId('plan-receivers-view')
      .locator(`[data-status="${AdReceiveStatus.DownloadCompleted}"][data-count="${delivered}"]`)
      .waitFor();
    expect(pageErrors(page)).toEqual([]);
  }, 90_000);

  it('asks the off player, now on, for a screenshot from Device Management: it arrives and is shown', async () => {
    await page.goto(`${rig.gw.baseUrl}/floor-screen/device?name=${encodeURIComponent(off)}`);
    const row = page.getByTestId(`signage-row-${off}`);
    await row.locator('[data-testid="lamp-network"][data-network="1"]').waitFor();
    // The viewer asks as it opens (its Take button, disabled while it waits, would ask again once the picture is in).
    await row.getByTestId('signage-screenshot').click();
    await page.getByTestId('signage-screenshot-image').waitFor();
    // The player counts its upload once the server has answered it, which may be just after the page shows it.
    await waitFor(() => (late?.player(off)?.screenshots === 1 ? true : undefined), 5000);
    expect(late?.player(off)?.lastUpload).toMatch(/^2\d\d$/);
    expect(pageErrors(page)).toEqual([]);
  }, 60_000);

  it('stores the plays the players report, one run of the ad on each player that has the plan, and reports them per ad', async () => {
    const holders = (await ledger()).filter((r) => r.state === DispatchItemState.Delivered).map((r) => r.deviceId);
    const stored = () =>
      rig.gw.db.query<{ deviceId: number; adId: number; seconds: number }>(
        `SELECT device_id AS "deviceId", ad_id AS "adId", seconds FROM signage_play WHERE plan_id = $1 ORDER BY device_id`,
        [`plan-${plan.id}`],
      );
    // What the players say they played: the simulator's events sent (plays are the only events a player sends) and the
    // once-off player's; each stored once.
    const reported = async () =>
      ((await rig.sim.command('activity 0')) as unknown as { eventsSent: number }).eventsSent + (late?.player(off)?.playsReported ?? 0);
    const plays = await waitFor(
      async () => {
        const said = await reported();
        const rows = await stored();
        if (said < holders.length || rows.length !== said)
          throw new Error(`${rows.length} plays stored of ${said} the players reported; ${holders.length} players have the plan`);
        return rows;
      },
      30_000,
      250,
    );
    expect(plays.map((p) => p.deviceId)).toEqual(holders);
    expect(plays.filter((p) => p.adId !== ad.id || p.seconds !== AD_SECONDS)).toEqual([]);

    const from = TODAY.minus({ days: 1 }).toISODate();
    const to = TODAY.plus({ days: 1 }).toISODate();
    await page.goto(`${rig.gw.baseUrl}/floor-screen/plays?startDate=${from}&endDate=${to}`);
    await page.getByTestId('plays-row').filter({ hasText: ad.name }).waitFor();
    expect(await page.getByTestId('plays-row').filter({ hasText: ad.name }).innerText()).toBe(
      `${ad.name}\t${holders.length.toLocaleString('en')}\t${(holders.length * AD_SECONDS).toLocaleString('en')}`,
    );
    expect(pageErrors(page)).toEqual([]);
  }, 60_000);
});
