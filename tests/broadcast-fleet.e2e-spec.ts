// Public address at fleet scale, end to end: the built gateway, broadcast worker and device simulator as processes of
// their own, on PostgreSQL, Redis and the project's broker, with 500 simulated terminals (each on an MQTT connection of
// its own) whose clock runs an hour a minute. An MP3 uploaded on the upload port, approved and put in a playlist is
// scheduled on all of them; as their clock enters the period every one plays it, not before, and every one is free
// again once it ends. An immediate broadcast of a first priority pre-empts it on 50 of them, which resume it when the
// broadcast has played. A file of 50 MB + 1 byte and a PNG named .mp3 are refused with the spec's messages and change
// nothing. The terminal page, open throughout, shows its rows occupied, pre-empted and free live, without a request.
import { readdirSync, rmSync } from 'node:fs';
import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import {
  DispatchStatus,
  LIMITS,
  MediaAuditStatus,
  PlaybackMode,
  TerminalOccupancy,
  TerminalStatus,
  taskWireId,
  type BroadcastTaskRow,
  type DispatchDetail,
  type MediaRow,
  type PageResult,
  type TaskTerminal,
  type TerminalRow,
} from '@sc/contracts';
import { ja } from '@sc/i18n/locales/ja';
import { zhCN } from '@sc/i18n/locales/zh-CN';
import { ApiClient, mp3Tone, waitFor } from '@sc/testing';
import { launchBrowser, login, newPage, pageErrors, socketConnected, settled } from './support/browser';
import { startSimulatorProcess, type RunningSimulator } from './support/device-sim-process';
import { dropRedisKeys, freePort, startGatewayProcess, type RunningGateway } from './support/gateway-process';
import {
  BROADCAST_WORKER,
  dispatchDetail,
  insertDevices,
  signIn,
  startWorkerProcess,
  uniqueCodePrefix,
  type InsertedDevices,
  type RunningWorker,
} from './support/pipeline';

const TERMINALS = 500;
/** The terminals the immediate broadcast goes to: the first ones, so the page's first rows are among them. */
const PRE_EMPTED = 50;
/** The rows the terminal page shows (its default page size). */
const SHOWN = 20;
/** The terminals' clock: an hour a minute. */
const SPEED = 60;
/** Their region's zone: neither the installation's default (Asia/Shanghai) nor, likely, the machine's. */
const ZONE = 'America/New_York';
// A Wednesday some weeks ahead: by the real clock the task has not started; the terminals' clock is moved into it.
const DAY = DateTime.now().setZone(ZONE).plus({ weeks: 3 }).set({ weekday: 3 }).toISODate()!;
const at = (time: string) => DateTime.fromISO(`${DAY}T${time}`, { zone: ZONE }).toJSDate();
// Three hours (three real minutes once the clock runs fast): room for the pre-emption on a busy machine; the test
// moves the clock to just before its end.
const PERIOD = { start: '10:00', end: '13:00' };
const START = at(PERIOD.start);
const END = at(PERIOD.end);
const MINUTE = 60_000;
/** How long the immediate broadcast plays (simulated seconds): 10 s of real time at SPEED. */
const NOTICE_SECONDS = 600;
/**
 * The terminals look at their clock once a (real) second, a minute of theirs: they start or resume a task up to that
 * late, more on a busy machine. A wrong zone or a missed period would be hours off.
 */
const LATE_MS = 5 * MINUTE;
/** A broadcast starts playing once its media are in, its time running from its arrival: the download shortens it. */
const DOWNLOAD_MS = 6 * MINUTE;

describe(`broadcast at fleet scale: a scheduled task on ${TERMINALS} simulated terminals`, () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let sim: RunningSimulator;
  let browser: Browser;
  let page: Page;
  let admin: ApiClient;
  let uploads: ApiClient;
  let fleet: InsertedDevices;
  let chimeFile: Buffer;
  let noticeFile: Buffer;
  let chime: MediaRow;
  let notice: MediaRow;
  let playlistId = 0;
  let taskId = 0;
  /** Every HTTP request the terminal page made once it had loaded. */
  const requests: string[] = [];
  /** When each terminal started the task, by its clock (ms), as it first reported it. */
  const startedAt = new Map<string, number>();
  const prefix = uniqueCodePrefix('F');
  const chimeName = `${prefix} chime`;
  const noticeName = `${prefix} storm notice`;
  const taskName = `${prefix} morning chime`;
  const noticeTask = `${prefix} storm warning`;

  /** Every terminal of the fleet as the API lists it (its terminal list, 200 a page, in id order). */
  async function fleetRows(): Promise<TerminalRow[]> {
    const rows: TerminalRow[] = [];
    for (let pageNum = 1; ; pageNum++) {
      const answer = await admin.post<PageResult<TerminalRow>>('/api/broadcast/terminalPage', { pageNum, pageSize: 200, terminalName: prefix });
      if (answer.status !== 200) throw new Error(`terminalPage: ${answer.status} ${JSON.stringify(answer.body)}`);
      rows.push(...answer.body.data.list);
      if (rows.length >= answer.body.data.total || answer.body.data.list.length === 0) return rows;
    }
  }

  /** What the terminals report, counted: `idle: 450, task 'x': 50`. */
  function summary(rows: readonly TerminalRow[]): string {
    const counts = new Map<string, number>();
    for (const row of rows) {
      const key = `${row.status}${row.playing ? ` '${row.playing.title}'` : ''}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts].map(([key, n]) => `${key}: ${n}`).join(', ');
  }

  /** Fails with what they report unless every terminal of `rows` is as `ok` says. */
  function expectAll(rows: readonly TerminalRow[], what: string, ok: (row: TerminalRow) => boolean): void {
    const others = rows.filter((row) => !ok(row));
    if (others.length > 0)
      throw new Error(`${others.length} of ${rows.length} terminals do not ${what}: ${summary(others)}, e.g. ${JSON.stringify(others[0])}`);
  }

  /** Waits until every terminal of the fleet (by the API) is as `ok` says; answers their rows. */
  function untilFleet(what: string, ok: (row: TerminalRow) => boolean, timeoutMs = 20_000): Promise<TerminalRow[]> {
    return waitFor(
      async () => {
        const rows = await fleetRows();
        const good = rows.filter(ok).length;
        if (rows.length !== TERMINALS || good !== TERMINALS)
          throw new Error(`${good} of ${TERMINALS} terminals ${what}; they report ${summary(rows)}`);
        return rows;
      },
      timeoutMs,
      250,
    );
  }

  /**
   * Checks the terminals again and again while their clock is before `boundary`, until it is not (a bounded wait): each
   * look is taken before the clock is read, so what it shows was reported before the boundary. Answers how many looks
   * counted.
   */
  async function whileBefore(boundary: Date, check: (rows: TerminalRow[]) => void): Promise<number> {
    const deadline = Date.now() + 30_000;
    for (let looks = 0; ; looks++) {
      const rows = await fleetRows();
      if ((await sim.clock()) >= boundary) return looks;
      check(rows);
      if (Date.now() > deadline) throw new Error(`the terminals' clock did not reach ${boundary.toISOString()} within 30 s`);
    }
  }

  /** Waits until the page shows `count` elements matching `selector`. */
  function pageShows(selector: string, count: number, what: string): Promise<boolean> {
    return waitFor(
      async () => {
        const shown = await page.locator(selector).count();
        if (shown !== count) throw new Error(`the terminal page shows ${shown} of ${count} ${what}`);
        return true;
      },
      20_000,
      100,
    );
  }
  const rowsPlaying = (title: string) => pageShows(`[data-testid="terminal-playing"]:has-text("${title}")`, SHOWN, `rows playing '${title}'`);

  /** Waits until every row of the dispatch is delivered; answers its detail. */
  function delivered(dispatchId: string, total: number, timeoutMs: number): Promise<DispatchDetail> {
    return waitFor(
      async () => {
        const detail = await dispatchDetail(admin, dispatchId);
        if (detail.status !== DispatchStatus.AllSuccessful || detail.counts.delivered !== total)
          throw new Error(`dispatch ${dispatchId}: ${detail.status}, ${JSON.stringify(detail.counts)} of ${total}`);
        return detail;
      },
      timeoutMs,
      250,
    );
  }

  async function taskRow(id: number): Promise<BroadcastTaskRow | undefined> {
    const { list } = (await admin.post<PageResult<BroadcastTaskRow>>('/api/broadcast/taskPage', { pageNum: 1, pageSize: 50, taskName: prefix })).body
      .data;
    return list.find((t) => t.id === id);
  }

  /** The media library's count, as its page shows it. */
  const mediaTotal = async () => (await admin.post<PageResult<MediaRow>>('/api/broadcast/mediaPage', { pageNum: 1, pageSize: 1 })).body.data.total;

  /** Uploads a file on the upload port, as the console's form sends it. */
  function upload(file: Buffer, fileName: string, materialName: string, language = 'en-US') {
    const form = new FormData();
    form.append('materialName', materialName);
    form.append('file', new Blob([file]), fileName);
    return uploads.as(admin.token, language).post<MediaRow>('/api/broadcast/mediaUpload', form);
  }

  async function uploadApproved(file: Buffer, name: string): Promise<MediaRow> {
    const answer = await upload(file, `${name}.mp3`, name);
    if (answer.status !== 200) throw new Error(`mediaUpload: ${answer.status} ${JSON.stringify(answer.body)}`);
    const approved = await admin.post<MediaRow>('/api/broadcast/mediaAudit', { id: answer.body.data.id, auditStatus: MediaAuditStatus.Approved });
    expect(approved.body).toMatchObject({ code: 200, data: { auditStatus: MediaAuditStatus.Approved } });
    return answer.body.data;
  }

  /** Every file under the upload directory (media kept, uploads under way). */
  const uploadedFiles = () => readdirSync(gw.env.UPLOAD_DIR!, { recursive: true }).map(String).sort();

  beforeAll(async () => {
    // The terminals fetch their media from the gateway's signed links: its own address.
    const port = await freePort();
    [gw, browser, chimeFile, noticeFile] = await Promise.all([
      startGatewayProcess({ PORT: String(port), MEDIA_LINK_BASE_URL: `http://127.0.0.1:${port}` }),
      launchBrowser(),
      mp3Tone({ seconds: 20, frequency: 520, kbps: 32 }),
      mp3Tone({ seconds: NOTICE_SECONDS, frequency: 700, sampleRate: 22050, kbps: 16 }),
    ]);
    admin = await signIn(gw);
    uploads = new ApiClient(gw.uploadUrl);
    // Registered in a moment with SQL, in a region of their own whose time zone their clocks keep.
    fleet = await insertDevices(gw.db, 'broadcast', TERMINALS, prefix, { name: `Fleet ${prefix}`, timeZone: ZONE });
    worker = await startWorkerProcess(gw, {}, BROADCAST_WORKER);
    // Their clock starts two hours before the period, on its day, at real speed: the setting up takes what it takes,
    // and the test runs the clock fast from just before the period.
    sim = await startSimulatorProcess([
      ...['--family', 'broadcast', '--count', String(TERMINALS), '--prefix', prefix],
      ...['--ack-latency', '20-100', '--download-concurrency', '50'],
      ...['--clock-start', at('08:00').toISOString(), '--clock-speed', '1'],
    ]);
    await untilFleet('online', (t) => t.status === TerminalStatus.Online, 30_000);
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    // The simulator empties its terminals' retained states; the gateway's database (the terminals with it) is dropped.
    await sim?.stop();
    await worker?.stop();
    await gw?.stop();
    if (gw?.env.UPLOAD_DIR) rmSync(gw.env.UPLOAD_DIR, { recursive: true, force: true });
    if (gw?.env.REDIS_PREFIX) await dropRedisKeys(gw.env.REDIS_PREFIX);
  }, 60_000);

  it('takes an MP3 on the upload port, approved and put in a playlist', async () => {
    const answer = await upload(chimeFile, 'chime.mp3', chimeName);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ materialName: chimeName, auditStatus: MediaAuditStatus.Pending, fileSize: chimeFile.length });
    expect(answer.body.data.duration).toBeCloseTo(20, 0);
    const approved = await admin.post<MediaRow>('/api/broadcast/mediaAudit', { id: answer.body.data.id, auditStatus: MediaAuditStatus.Approved });
    expect(approved.body).toMatchObject({ code: 200, data: { auditStatus: MediaAuditStatus.Approved } });
    chime = approved.body.data;
    const playlist = await admin.post<{ id: number }>('/api/broadcast/playlistAddOrEdit', {
      name: `${prefix} mornings`,
      playbackMode: PlaybackMode.ListCycle,
      mediaIds: [chime.id],
    });
    expect(playlist.body).toMatchObject({ code: 200 });
    playlistId = playlist.body.data.id;
    // The immediate broadcast's, for later.
    notice = await uploadApproved(noticeFile, noticeName);
    expect(notice.duration).toBeCloseTo(NOTICE_SECONDS, 0);
  });

  it("refuses a file of 50 MB + 1 byte and a PNG named .mp3 with the spec's messages, and keeps nothing of them", async () => {
    const [count, files] = [await mediaTotal(), uploadedFiles()];
    // An MP3's start, then zeros: only its size is wrong.
    const tooLarge = Buffer.alloc(LIMITS.audioMaxBytes + 1);
    chimeFile.copy(tooLarge);
    const large = await upload(tooLarge, 'long.mp3', `${prefix} long`);
    expect([large.status, large.body.message]).toEqual([413, 'File size cannot exceed 50MB']);
    const largeZh = await upload(tooLarge, 'long.mp3', `${prefix} long`, 'zh-CN');
    expect([largeZh.status, largeZh.body.message]).toEqual([413, zhCN.messages.fileTooLarge50mb]);
    // A real PNG (1 × 1 pixel) renamed.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const renamed = await upload(png, 'notice.mp3', `${prefix} renamed`);
    expect([renamed.status, renamed.body.message]).toEqual([400, 'Only MP3 audio files are supported']);
    const renamedJa = await upload(png, 'notice.mp3', `${prefix} renamed`, 'ja');
    expect([renamedJa.status, renamedJa.body.message]).toEqual([400, ja.messages.onlyMp3]);
    expect(await mediaTotal()).toBe(count);
    expect(uploadedFiles()).toEqual(files);
  }, 60_000);

  it(`sends the task to all ${TERMINALS} terminals through the ledger: each keeps it with its media, idle before its period by its clock`, async () => {
    const answer = await admin.post<{ id: number; dispatchId: string }>('/api/broadcast/taskAddOrEdit', {
      taskName,
      playlistId,
      ids: fleet.ids,
      priority: 5,
      volume: 60,
      schedule: { weekdays: ['3'], periods: [PERIOD], startDate: DAY, endDate: DAY },
    });
    expect(answer.body).toMatchObject({ code: 200 });
    taskId = answer.body.data.id;
    const wire = taskWireId(taskId);
    expect(await delivered(answer.body.data.dispatchId, TERMINALS, 60_000)).toMatchObject({
      action: 'task',
      total: TERMINALS,
      itemsTotal: TERMINALS,
    });
    await untilFleet(
      'hold the task with its media downloaded and checked',
      (t) => t.heldTasks.includes(wire) && t.download?.taskId === wire && t.download.done && !t.download.error,
      60_000,
    );
    // Read before the clock: what they reported, they reported before the period.
    const rows = await fleetRows();
    expect((await sim.clock()) < START).toBe(true);
    expect(summary(rows)).toBe(`${TerminalStatus.Online}: ${TERMINALS}`);
    expect(await taskRow(taskId)).toMatchObject({
      taskName,
      terminalCount: TERMINALS,
      dispatchStatus: DispatchStatus.AllSuccessful,
      playingCount: 0,
    });
    // Each keeps it by its region's clock.
    const { list } = (await admin.post<PageResult<TaskTerminal>>('/api/broadcast/taskTerminalPage', { id: taskId, pageNum: 1, pageSize: 10 })).body
      .data;
    expect(list.map((t) => t.timeZone)).toEqual(Array(10).fill(ZONE));
  }, 150_000);

  it('every terminal plays the task once its clock enters the period and not before, live on the terminal page', async () => {
    const wire = taskWireId(taskId);
    page = await newPage(browser, undefined, { language: 'en', baseUrl: gw.baseUrl });
    await login(page, gw.baseUrl, 'admin');
    await page.addInitScript("localStorage.setItem('isAutoRefresh', 'false')");
    const connected = socketConnected(page);
    await page.goto(`${gw.baseUrl}/broadcastManage/terminalManagement?terminalName=${encodeURIComponent(prefix)}`);
    await pageShows(`[data-testid="terminal-status"][data-status="${TerminalStatus.Online}"]`, SHOWN, 'rows online');
    await connected;
    await settled(page);
    const shown = await page.locator('[data-testid^="terminal-row-"]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-testid')));
    expect(shown).toEqual(fleet.codes.slice(0, SHOWN).map((code) => `terminal-row-${code}`));
    // From here on the page asks nothing: what changes comes over its socket.
    page.on('request', (request) => requests.push(`${request.method()} ${request.url()}`));

    // Five minutes of theirs (five real seconds) before the period, running an hour a minute: nobody plays yet.
    await sim.setClock(new Date(START.getTime() - 5 * MINUTE), SPEED);
    const looks = await whileBefore(START, (rows) => expectAll(rows, 'stay idle before the period', (t) => t.occupancy === TerminalOccupancy.Idle));
    expect(looks).toBeGreaterThan(0);

    const playingTask = (t: TerminalRow) =>
      t.status === TerminalStatus.Occupied && t.occupancy === TerminalOccupancy.Task && t.playing?.taskId === wire && t.playing.title === taskName;
    const [rows] = await Promise.all([
      untilFleet(`play '${taskName}'`, playingTask),
      pageShows(`[data-testid="terminal-status"][data-status="${TerminalStatus.Occupied}"]`, SHOWN, 'rows occupied'),
      rowsPlaying(taskName),
    ]);
    expect((await sim.clock()) < END).toBe(true);
    // Each started it as the period began by its clock (at its next look at the clock), the playlist's medium.
    for (const row of rows) {
      expect(row.playing).toMatchObject({ media: chimeName, priority: 5, paused: false });
      startedAt.set(row.terminalId, Date.parse(row.playing!.since));
    }
    const starts = [...startedAt.values()];
    expect(Math.min(...starts)).toBeGreaterThanOrEqual(START.getTime());
    expect(Math.max(...starts) - START.getTime()).toBeLessThan(LATE_MS);
    expect(await taskRow(taskId)).toMatchObject({ playingCount: TERMINALS });
    expect(requests).toEqual([]);
  }, 90_000);

  it(`an immediate broadcast of a first priority pre-empts the task on ${PRE_EMPTED} terminals, which resume it when it has played`, async () => {
    const wire = taskWireId(taskId);
    const chosen = new Set(fleet.codes.slice(0, PRE_EMPTED));
    const answer = await admin.post<{ id: number; dispatchId: string }>('/api/broadcast/immediateBroadcast', {
      taskName: noticeTask,
      mediaIds: [notice.id],
      ids: fleet.ids.slice(0, PRE_EMPTED),
      priority: 2,
      volume: 80,
    });
    expect(answer.body).toMatchObject({ code: 200 });
    const noticeWire = taskWireId(answer.body.data.id);
    await delivered(answer.body.data.dispatchId, PRE_EMPTED, 15_000);

    const [during] = await Promise.all([
      untilFleet(`play '${noticeTask}' (the first ${PRE_EMPTED}) or '${taskName}' (the others)`, (t) =>
        chosen.has(t.terminalId) ? t.playing?.taskId === noticeWire && t.playing.title === noticeTask : t.playing?.taskId === wire,
      ),
      rowsPlaying(noticeTask),
    ]);
    for (const row of during.filter((t) => chosen.has(t.terminalId))) expect(row.playing).toMatchObject({ media: noticeName, priority: 2 });
    // The others never stopped.
    for (const row of during.filter((t) => !chosen.has(t.terminalId))) expect(Date.parse(row.playing!.since)).toBe(startedAt.get(row.terminalId));
    const [scheduled, immediate] = [await taskRow(taskId), await taskRow(answer.body.data.id)];
    expect([scheduled?.playingCount, immediate?.playingCount]).toEqual([TERMINALS - PRE_EMPTED, PRE_EMPTED]);

    // Played to its end (once: normal mode), it is forgotten, and the task plays on in its period.
    const [after] = await Promise.all([
      untilFleet(
        `play '${taskName}' again, '${noticeTask}' forgotten`,
        (t) => t.playing?.taskId === wire && !t.heldTasks.includes(noticeWire),
        30_000,
      ),
      rowsPlaying(taskName),
    ]);
    expect((await sim.clock()) < END).toBe(true);
    const noticeSince = new Map(during.map((t) => [t.terminalId, Date.parse(t.playing!.since)]));
    // By its clock, each resumed it the broadcast's length after the broadcast began (less its download, plus a look).
    const length = NOTICE_SECONDS * 1000;
    const resumedAfter = after
      .filter((t) => chosen.has(t.terminalId))
      .map((t) => ({ terminal: t.terminalId, ms: Date.parse(t.playing!.since) - noticeSince.get(t.terminalId)! }));
    expect(resumedAfter.filter(({ ms }) => !(ms > length - DOWNLOAD_MS && ms < length + LATE_MS))).toEqual([]);
    // Their history says so too: the task, the broadcast, the task again; the others played the task throughout.
    const history = await gw.db.query<{ code: string; tasks: string[] }>(
      `SELECT d.code, array_agg(h.task_id ORDER BY h.started_at, h.id) AS tasks
         FROM broadcast_play_history h JOIN device d ON d.id = h.device_id WHERE d.code LIKE $1 GROUP BY d.code`,
      [`${prefix}%`],
    );
    const sequences = new Map(history.map((h) => [h.code, h.tasks.join(' → ')]));
    const expected = (code: string) => (chosen.has(code) ? `${wire} → ${noticeWire} → ${wire}` : wire);
    expect(fleet.codes.filter((code) => sequences.get(code) !== expected(code)).map((code) => `${code}: ${sequences.get(code)}`)).toEqual([]);
    expect(requests).toEqual([]);
  }, 90_000);

  it('every terminal is free again once its clock leaves the period, live on the page, which asked for nothing all along', async () => {
    const wire = taskWireId(taskId);
    // Five minutes of theirs before the end: all still play it.
    await sim.setClock(new Date(END.getTime() - 5 * MINUTE));
    const looks = await whileBefore(END, (rows) => expectAll(rows, `play '${taskName}' until its end`, (t) => t.playing?.taskId === wire));
    expect(looks).toBeGreaterThan(0);
    await Promise.all([
      untilFleet('free', (t) => t.status === TerminalStatus.Online && t.occupancy === TerminalOccupancy.Idle && t.playing === null),
      pageShows(`[data-testid="terminal-status"][data-status="${TerminalStatus.Online}"]`, SHOWN, 'rows online'),
    ]);
    expect(await page.locator('[data-testid="terminal-playing"]').count()).toBe(0);
    // The task's stretch of each terminal's history has ended.
    const [{ open }] = await gw.db.query<{ open: number }>(
      `SELECT count(*)::int AS open FROM broadcast_play_history h JOIN device d ON d.id = h.device_id WHERE d.code LIKE $1 AND h.ended_at IS NULL`,
      [`${prefix}%`],
    );
    expect(open).toBe(0);
    expect(await taskRow(taskId)).toMatchObject({ playingCount: 0 });
    expect(requests).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
  }, 60_000);
});
