// The alarm intercom end to end: gateway and alarm worker as their own processes, a simulated alarm column on the real
// broker, and the console in a real browser signed in as the demo editor, an agent of the demo user group. Set idle
// with the header's headset, the editor hears and sees a press at once (a notice with the column's place, a sound) and is
// rung; answered, the call runs in the dock until hung up, and the call log shows it Connected with its duration. A
// second press the editor turns down rings nobody else (the other agent is offline) and ends NoReply; the incident
// is then acknowledged with a note and closed from the incidents view.
import type { Browser, Page } from 'playwright-core';
import pino from 'pino';
import { CallState, CallStatus, IncidentActionKind, OnlineState, type AlarmCallRow, type AlarmColumnRow, type PageResult } from '@sc/contracts';
import { waitFor, type ApiClient } from '@sc/testing';
import { alarmIntercom as texts } from '../apps/web/src/i18n/locales/en/alarmIntercom';
import { alarms as alarmTexts } from '../apps/web/src/i18n/locales/en/alarms';
import { startAlarmFleet, type AlarmFleet } from '../apps/device-sim/src/families/alarm.sim';
import { closePage, launchBrowser, login, newPage, pageErrors, socketConnected } from './support/browser';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';
import { ALARM_WORKER, MQTT_URL, signIn, startWorkerProcess, uniqueCodePrefix, type RunningWorker } from './support/pipeline';

/** Counts the tones the page makes (Web Audio oscillators started), as the alarm sounds them. */
const COUNT_TONES = `(() => {
  window.__tones = 0;
  const create = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () { window.__tones++; return create.call(this); };
})()`;

/** Keeps the page's peer connections (the call's voice), to read what they received. */
const KEEP_PEERS = `(() => {
  window.__peers = [];
  const Native = RTCPeerConnection;
  window.RTCPeerConnection = function (config) { const pc = new Native(config); window.__peers.push(pc); return pc; };
  window.RTCPeerConnection.prototype = Native.prototype;
})()`;

/** The audio the page's last peer connection received: bytes and energy (sound, not silence). */
const RECEIVED_AUDIO = `(async () => {
  const pc = window.__peers.at(-1);
  if (!pc) return { bytes: 0, energy: 0 };
  let bytes = 0, energy = 0;
  (await pc.getStats()).forEach((s) => { if (s.type === 'inbound-rtp' && s.kind === 'audio') { bytes += s.bytesReceived ?? 0; energy += s.totalAudioEnergy ?? 0; } });
  return { bytes, energy };
})()`;

describe('Alarm intercom: a press rings a browser agent, who answers; the call log and the incident follow', () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let browser: Browser;
  let fleet: AlarmFleet | undefined;
  let page: Page;
  let admin: ApiClient;
  let region: { id: number; name: string };
  let poleId: number;
  let screen: string;
  const prefix = uniqueCodePrefix('AI');
  const code = `${prefix}COL`;

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGatewayProcess(), launchBrowser({ fakeMedia: true })]);
    worker = await startWorkerProcess(gw, { ALARM_RING_MS: '8000', ALARM_CALL_WAIT_MS: '10000', ALARM_CALL_PASS_MS: '100' }, ALARM_WORKER);
    admin = await signIn(gw);
    [region] = (await admin.get<{ id: number; name: string }[]>('/api/bi/area/queryAreaTree')).body.data;
    // On the pole of a demo LED screen, which the incident offers to show a picture on; one picture in the library.
    [{ poleId, screen }] = await gw.db.query<{ poleId: number; screen: string }>(
      `SELECT d.pole_id AS "poleId", d.code AS screen FROM device d JOIN led_screen s ON s.device_id = d.id WHERE d.pole_id IS NOT NULL ORDER BY d.id LIMIT 1`,
    );
    await gw.db.query(
      `INSERT INTO led_media (name, media_type, file_size, width, height, file_path, cover_path, sha256, mime, uploader)
       VALUES ($1, 1, 2048, 192, 96, 'led/keep-clear.png', 'led/keep-clear-cover.png', $2, 'image/png', 'admin')`,
      [`${prefix} keep clear`, 'c'.repeat(64)],
    );
    const saved = await admin.post<{ id: number }>('/api/alarm/columnAddOrEdit', {
      name: `${prefix} help point`,
      code,
      sipAccount: `${prefix.replace(/\W/g, '').slice(-6)}1`,
      regionId: region.id,
      poleId,
    });
    expect(saved.body.code).toBe(200);
    fleet = await startAlarmFleet({
      mqttUrl: MQTT_URL,
      columns: [code],
      ackLatencyMs: { min: 5, max: 20 },
      scheduleTickMs: 100,
      logger: pino({ level: 'silent' }),
    });
    await waitFor(async () => {
      const [row] = (await admin.post<PageResult<AlarmColumnRow>>('/api/alarm/columnPage', { pageNum: 1, pageSize: 5, name: code })).body.data.list;
      return row?.networkStatus === OnlineState.Online ? true : undefined;
    }, 20_000);
    page = await newPage(browser, undefined, { language: 'en', baseUrl: gw.baseUrl });
    await page.addInitScript(COUNT_TONES);
    await page.addInitScript(KEEP_PEERS);
  }, 90_000);

  afterAll(async () => {
    if (page) await closePage(page);
    await fleet?.stop({ clearRetained: true });
    await browser?.close();
    await worker?.stop();
    await gw?.stop();
  });

  const calls = async () =>
    (await admin.post<PageResult<AlarmCallRow>>('/api/alarm/callPage', { pageNum: 1, pageSize: 20, keyword: prefix })).body.data.list;

  it('rings the idle agent with the place and a sound; answered, hung up, the call log shows it Connected with its duration', async () => {
    await login(page, gw.baseUrl, 'editor');
    await page.addInitScript("localStorage.setItem('isAutoRefresh', 'false')");
    // The demo user group, its agents offline; its form lists them.
    const connected = socketConnected(page);
    await page.goto(`${gw.baseUrl}/alarmManage/userGroupManagement`);
    await connected;
    const group = page.getByTestId('group-row-City duty desk');
    await group.locator('[data-testid="agent-editor"][data-mode="OFFLINE"]').waitFor();
    await group.getByTestId('group-edit').click();
    const agents = page.getByTestId('group-form').getByTestId('group-agent');
    await agents.nth(1).waitFor();
    expect(await agents.count()).toBe(2);
    await page.keyboard.press('Escape');
    // Set idle in the header's agent menu: the group's list follows, pushed.
    const mode = page.getByTestId('agent-mode');
    await mode.waitFor();
    expect(await mode.getAttribute('data-mode')).toBe('OFFLINE');
    await mode.click();
    await page.getByTestId('agent-mode-IDLE').click();
    await page.locator('[data-testid="agent-mode"][data-mode="IDLE"]').waitFor();
    await group.locator('[data-testid="agent-editor"][data-mode="IDLE"]').waitFor();
    await page.getByTestId('sidebar').getByTestId('menu-/alarmManage/callLogQuery').click();
    await page.getByTestId('call-table').waitFor();

    const pressed = Date.now();
    await fleet!.press(code, 1, new Date());
    const notice = page.getByTestId('incident-notice');
    await notice.waitFor({ timeout: 20_000 });
    const noticed = Date.now() - pressed;
    expect(await page.getByText(texts.notice.pressed.replace('{{name}}', `${prefix} help point`).replace('{{level}}', 'Level two')).count()).toBe(1);
    expect(await notice.getByTestId('incident-place').textContent()).toContain(region.name);
    const dock = page.getByTestId('agent-dock');
    const ringing = dock.getByTestId('agent-ringing');
    await ringing.waitFor({ timeout: 20_000 });
    expect(await ringing.textContent()).toContain(texts.dock.ringing.replace('{{name}}', `${prefix} help point`));
    expect(await page.evaluate('window.__tones')).toBeGreaterThan(0);
    // The press reached the console within a second or so on this machine (docs/benchmarks.md has the figures).
    expect(noticed).toBeLessThan(5000);

    await ringing.getByTestId('agent-answer').click();
    const call = dock.getByTestId('agent-connected');
    await call.waitFor();
    await page.locator('[data-testid="agent-mode"][data-mode="BUSY"]').waitFor();
    // The voice: the browser's microphone reaches the column's speaker, and the column's recorded voice plays here.
    await call.locator('[data-testid="voice-state"][data-state="talking"]').waitFor({ timeout: 15_000 });
    await waitFor(async () => ((fleet!.column(code)?.calls.at(-1)?.heardPackets ?? 0) > 50 ? true : undefined), 15_000);
    const received = await waitFor(async () => {
      const audio = (await page.evaluate(RECEIVED_AUDIO)) as { bytes: number; energy: number };
      return audio.bytes > 5_000 && audio.energy > 0 ? audio : undefined;
    }, 15_000);
    expect(received.bytes).toBeGreaterThan(5_000);
    await call.getByTestId('agent-hang-up').click();
    await call.waitFor({ state: 'detached' });
    await page.locator('[data-testid="agent-mode"][data-mode="IDLE"]').waitFor();

    // The call log (this page) read again when the call ended: Connected, with its duration.
    const row = page.locator('[data-testid^="call-row-"]', { hasText: `${prefix} help point` }).first();
    await row
      .locator(`[data-testid="call-status"][data-status="${CallStatus.Connected}"][data-state="${CallState.Ended}"]`)
      .waitFor({ timeout: 10_000 });
    expect(Number(await row.getByTestId('call-duration').getAttribute('data-seconds'))).toBeGreaterThanOrEqual(1);
    const [record] = await calls();
    expect(record).toMatchObject({ status: CallStatus.Connected, agentName: 'editor', agentSip: '7002', direction: 1, callType: 'ONNET' });
    // The column hung up with the call, and its recording plays in the call log.
    await waitFor(async () => (fleet!.column(code)?.calls.at(-1)?.ended ? true : undefined), 10_000);
    const play = page.getByTestId(`call-recording-play-${record.id}`);
    await play.waitFor({ timeout: 20_000 });
    await play.click();
    const audio = page.getByTestId('call-recording-audio');
    await audio.waitFor();
    await page.waitForFunction(`document.querySelector('[data-testid="call-recording-audio"]').duration > 1`, undefined, { timeout: 10_000 });
    expect(pageErrors(page)).toEqual([]);
    await page.keyboard.press('Escape');
  }, 90_000);

  it('finds the recorded call in Audio (audioInquiry) and plays it; announces a text on the column, and refuses a renamed file', async () => {
    const [record] = await calls();
    await page.getByTestId('sidebar').getByTestId('menu-/alarmManage/audioInquiry').click();
    await page.getByTestId('audio-tab-recordings').waitFor();
    await page.getByTestId(`recording-play-${record.id}`).click();
    await page.getByTestId('recording-audio').waitFor();
    await page.waitForFunction(`document.querySelector('[data-testid="recording-audio"]').duration > 1`, undefined, { timeout: 10_000 });
    await page.keyboard.press('Escape');

    await page.getByTestId('audio-tab-announce').click();
    // The upload is the media library's: a PNG named .mp3 is refused by its content, and nothing is kept.
    await page.getByTestId('announce-upload').click();
    const form = page.getByTestId('media-upload-form');
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    await form.locator('input[type=file]').setInputFiles({ name: `${prefix}.mp3`, mimeType: 'audio/mpeg', buffer: png });
    await page.getByTestId('media-upload-submit').click();
    await form.locator('text=Only MP3 audio files are supported').first().waitFor();
    expect(
      (await admin.post<{ total: number }>('/api/broadcast/mediaPage', { pageNum: 1, pageSize: 10, materialName: prefix })).body.data.total,
    ).toBe(0);
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });

    // A text on the column's speaker, through the ledger.
    await page.getByTestId('announce-columns').click();
    await page.keyboard.type(code);
    await page.getByRole('option', { name: new RegExp(`${prefix} help point`) }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('announce-content-type').getByText(texts.announce.text, { exact: true }).click();
    await page.getByTestId('announce-text').fill('Help is on the way.');
    await page.getByTestId('announce-send').click();
    await page.getByTestId('announce-send-confirm').click();
    await waitFor(async () => (fleet!.column(code)?.announcement?.text === 'Help is on the way.' ? true : undefined), 20_000);
    expect(pageErrors(page)).toEqual([]);
  }, 90_000);

  it('ends a call nobody takes NoReply; the incident is acknowledged with a note and closed from the incidents view', async () => {
    const connected = socketConnected(page);
    await page.goto(`${gw.baseUrl}/alarmManage/alarmManage?view=incidents&name=${encodeURIComponent(prefix)}`);
    await page.getByTestId('incident-table').waitFor();
    await connected;
    // The new page knows the agent idle (read as it loads, then pushed).
    await page.locator('[data-testid="agent-mode"][data-mode="IDLE"]').waitFor();
    await fleet!.press(code, 2, new Date());
    const ringing = page.getByTestId('agent-ringing');
    await ringing.waitFor({ timeout: 20_000 });
    await ringing.getByTestId('agent-reject').click();
    await ringing.waitFor({ state: 'detached' });
    // The other agent of the group is offline: nobody takes it, and after its waiting time it ends NoReply.
    const call = page.locator('[data-testid="incident-call"][data-call-state="ended"][data-call-status="NoReply"]').first();
    await call.waitFor({ timeout: 20_000 });
    const [latest] = await calls();
    expect(latest).toMatchObject({ status: CallStatus.NoReply, state: CallState.Ended, duration: 0 });

    await page.locator('[data-testid^="incident-row-"]', { has: call }).click();
    const drawer = page.getByTestId('incident-drawer');
    await drawer.getByTestId('incident-note').fill('Patrol 12 on the way');
    await drawer.getByTestId('incident-acknowledge').click();
    await drawer.locator('[data-testid="incident-state"][data-state="acknowledged"]').waitFor();
    // Around the column: its pole's LED screen, at 0 m, shows a picture of the library now, through the ledger; the
    // street lights are the administrators', so the editor is not offered them.
    const led = drawer.getByTestId('incident-nearby-led');
    await led.locator(`[data-testid="incident-nearby-device"][data-code="${screen}"]`).waitFor();
    expect(await led.locator('[data-testid="incident-nearby-device"]').first().textContent()).toBe(`${screen} · 0 m`);
    expect(await drawer.getByTestId('incident-nearby-lamps').count()).toBe(0);
    await drawer.getByTestId('incident-nearby-broadcast').waitFor();
    await led.getByTestId('incident-respond-led-media').click();
    await page.getByRole('option', { name: `${prefix} keep clear` }).click();
    await led.getByTestId('incident-respond-led').click();
    await drawer.getByTestId('dispatch-panel').waitFor();
    await drawer.locator(`[data-testid="incident-action"][data-kind="${IncidentActionKind.Led}"]`).waitFor();
    await drawer.getByTestId('incident-close').click();
    await page.getByTestId('incident-close-confirm').click();
    await drawer.locator('[data-testid="incident-state"][data-state="closed"]').waitFor();
    const kinds = await drawer.getByTestId('incident-action').evaluateAll((els) => els.map((el) => el.getAttribute('data-kind')));
    expect(kinds).toEqual([
      IncidentActionKind.Pressed,
      IncidentActionKind.Offered,
      IncidentActionKind.Rejected,
      IncidentActionKind.NoReply,
      IncidentActionKind.Acknowledged,
      IncidentActionKind.Led,
      IncidentActionKind.Closed,
    ]);
    expect(await drawer.textContent()).toContain('Patrol 12 on the way');

    // The equipment inquiry: the column with both its calls, the group that takes them; the editor's console reachable.
    await page.goto(`${gw.baseUrl}/alarmManage/equipmentInquiry?keyword=${encodeURIComponent(code)}`);
    const endpoint = page.locator('[data-testid^="endpoint-row-column:"]');
    await endpoint.getByTestId('endpoint-calls').filter({ hasText: /^2$/ }).waitFor();
    expect(await page.locator('[data-testid^="endpoint-row-"]').count()).toBe(1);
    expect(await endpoint.textContent()).toContain('City duty desk');
    await page.goto(`${gw.baseUrl}/alarmManage/equipmentInquiry?kind=agent&keyword=7002`);
    await page.locator('[data-testid^="endpoint-row-agent:"] [data-testid="endpoint-online"][data-online="1"]').waitFor();
    expect(pageErrors(page)).toEqual([]);
  }, 90_000);

  it("shows the column's offline alarm live on the device alarms page, as the editor's roles see it, and acknowledges it", async () => {
    const connected = socketConnected(page);
    await page.goto(`${gw.baseUrl}/alarmManage/deviceAlarms?family=alarm`);
    await page.getByTestId('alarm-table').waitFor();
    await connected;
    // The family filter offers the families the editor's roles see: no lamps (administrators').
    await page.getByTestId('alarm-filter-family').click();
    await page.getByRole('option', { name: alarmTexts.family.alarm }).waitFor();
    expect(await page.getByRole('option', { name: alarmTexts.family.lamp }).count()).toBe(0);
    await page.keyboard.press('Escape');

    // The column drops off (its Last Will): the alarm comes in live, the page is not reloaded by hand.
    await fleet!.takeOffline(code);
    const row = page.getByTestId(`alarm-row-${code}`);
    await row.locator('[data-testid="alarm-label"][data-kind="offline"]').waitFor({ timeout: 20_000 });
    await row.getByTestId('alarm-acknowledge').click();
    await page.getByTestId('alarm-confirm').click();
    await page.locator(`[data-testid="alarm-row-${code}"][data-state="acknowledged"]`).waitFor();
    expect(pageErrors(page)).toEqual([]);
  }, 60_000);
});
