import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import {
  AgentMode,
  AlarmLevel,
  CallState,
  DeviceFamily,
  DispatchStatus,
  MediaAuditStatus,
  MqttService,
  OnlineState,
  PlaybackMode,
  type DispatchDetail,
  type MediaRow,
  type AlarmCallRow,
  type AlarmColumnRow,
  type AlarmIncidentRow,
  type IncidentChangedEvent,
  type PageResult,
  type VoiceJoinAnswer,
} from '@sc/contracts';
import { VoicePeer, playInto, type VoiceSource } from '@sc/device-runtime/voice/voice-peer';
import { ApiClient, mp3Tone, waitFor } from '@sc/testing';
import { startAlarmFleet, type AlarmFleet } from '../../device-sim/src/families/alarm.sim';
import { startAlarmWorker } from '../../worker-alarm/src/alarm-worker';
import { startTestGateway, type TestGateway } from './harness';
import { MQTT_URL, testWorkerConfig, watchFamily } from './device-worker';
import type { DeviceWorker } from '@sc/device-runtime';
import type { Socket } from 'socket.io-client';

/** An agent's browser in Node: a peer that offers, speaks a tone and counts what it hears. */
class TestAgent {
  readonly peer = new VoicePeer();
  heard = 0;
  private tone: VoiceSource | null = null;

  constructor() {
    this.peer.onPacket(() => this.heard++);
  }

  async speak(): Promise<void> {
    this.tone = await playInto(this.peer, ['-f', 'lavfi', '-i', 'sine=frequency=660']);
  }

  async close(): Promise<void> {
    this.tone?.stop();
    await this.peer.close();
  }
}

/**
 * A call's voice on the real PostgreSQL, Redis and broker (docs/alarm-intercom.md, Voice): the agent on a connected
 * call joins with a WebRTC offer, the alarm worker bridges it to the simulated column over MQTT, each side hears the
 * other, and the hang-up leaves a recording of both in the call log that plays through a signed link. Bad input and
 * anybody but the call's agent are refused, changing nothing.
 */
describe('Alarm intercom: the voice of a call, its recording, and announcements on the columns', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let visitor: ApiClient;
  let worker: DeviceWorker | null = null;
  let fleet: AlarmFleet | null = null;
  let socket: Socket | null = null;
  const agents: TestAgent[] = [];
  const incidents: IncidentChangedEvent[] = [];
  const pushed = (test: (row: AlarmIncidentRow) => boolean) =>
    waitFor(async () => incidents.map((e) => e.incident).findLast((row) => test(row)), 15_000);

  /** A press of the column, answered by the editor: the connected call. */
  async function connectedCall(level: AlarmLevel): Promise<AlarmIncidentRow> {
    await fleet!.press('ALARM-V1', level, new Date());
    const ringing = await pushed((row) => row.level === level && row.call?.state === CallState.Ringing).catch((err: Error) => {
      throw new Error(
        `${err.message}: ${JSON.stringify(incidents.map((e) => [e.incident.level, e.incident.groupName, e.incident.call?.state, e.incident.call?.agentName]))}`,
      );
    });
    expect((await editor.post('/api/alarm/incidentAnswer', { id: ringing.id })).body).toMatchObject({ code: 200 });
    return ringing;
  }

  beforeAll(async () => {
    process.env.ALARM_CALL_PASS_MS = '100';
    process.env.VOICE_RECORDING_DIR = await mkdtemp(join(tmpdir(), 'sc-recordings-'));
    gw = await startTestGateway();
    // The columns fetch the announcements' media from this gateway.
    gw.config.media.linkBaseUrl = gw.baseUrl;
    [admin, editor, visitor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor'), gw.signedIn('visitor')]);
    const [{ id: editorId }] = await gw.db.query<{ id: number }>(`SELECT id FROM sys_user WHERE username = 'editor'`);
    await admin.post('/api/alarm/columnAddOrEdit', { name: 'Voice help point', code: 'ALARM-V1', sipAccount: '9201' });
    const group = await admin.post('/api/alarm/groupAddOrEdit', {
      name: 'Voice desk',
      agents: [{ userId: editorId, sipAccount: '7201', protocol: 'SIP', accountStatus: 1 }],
    });
    expect(group.body).toMatchObject({ code: 200 });
    socket = await watchFamily(gw, admin.token, DeviceFamily.Alarm, 'IncidentChanged');
    socket.on('IncidentChanged', (e: IncidentChangedEvent) => incidents.push(e));
    worker = await startAlarmWorker(
      { ...testWorkerConfig(gw, { name: 'alarm', service: MqttService.WorkerAlarm }, 'alarm'), ackTimeoutMs: 500 },
      pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
    );
    fleet = await startAlarmFleet({
      mqttUrl: MQTT_URL,
      columns: ['ALARM-V1'],
      ackLatencyMs: { min: 5, max: 20 },
      scheduleTickMs: 100,
      logger: pino({ level: 'silent' }),
    });
    await waitFor(async () => {
      const [row] = (await admin.post<PageResult<AlarmColumnRow>>('/api/alarm/columnPage', { pageNum: 1, pageSize: 5, name: 'ALARM-V1' })).body.data
        .list;
      return row?.networkStatus === OnlineState.Online ? true : undefined;
    }, 10_000);
    await editor.post('/api/alarm/agentMode', { mode: AgentMode.Idle });
  });
  afterAll(async () => {
    for (const agent of agents) await agent.close();
    socket?.close();
    await fleet?.stop({ clearRetained: true });
    await worker?.stop();
    await gw?.close();
    delete process.env.ALARM_CALL_PASS_MS;
    delete process.env.VOICE_RECORDING_DIR;
  });

  it('tells the browser its ICE servers (VOICE_ICE_SERVERS), to the alarm roles only', async () => {
    expect((await editor.get('/api/alarm/voiceConfig')).body.data).toEqual({ iceServers: [] });
    expect((await visitor.get('/api/alarm/voiceConfig')).status).toBe(403);
  });

  it('bridges the agent and the column both ways, and records the call when it is hung up', async () => {
    const call = await connectedCall(AlarmLevel.One);
    const agent = new TestAgent();
    agents.push(agent);
    const offer = await agent.peer.offer();

    // Nobody but the call's agent, and nothing malformed.
    const before = await gw.db.query(`SELECT * FROM alarm_call ORDER BY id`);
    const other = await admin.post('/api/alarm/voiceJoin', { callId: call.call!.id, sdp: offer });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ message: 'You are not on this call' });
    expect((await visitor.post('/api/alarm/voiceJoin', { callId: call.call!.id, sdp: offer })).status).toBe(403);
    const bad = await editor.as(editor.token, 'zh').post('/api/alarm/voiceJoin', { callId: 'x1', sdp: '' });
    expect(bad.status).toBe(400);
    expect((await editor.post('/api/alarm/voiceJoin', { callId: call.call!.id, sdp: `v=0\r\n${'a'.repeat(20_000)}` })).status).toBe(400);
    expect(await gw.db.query(`SELECT * FROM alarm_call ORDER BY id`)).toEqual(before);

    const joined = await editor.post<VoiceJoinAnswer>('/api/alarm/voiceJoin', { callId: call.call!.id, sdp: offer });
    expect(joined.status).toBe(200);
    expect(joined.body.data.sdp).toContain('opus/48000');
    await agent.peer.accept(joined.body.data.sdp);
    await agent.peer.connected(10_000);
    await agent.speak();

    // The column's recorded voice reaches the agent, and the agent's tone the column's speaker.
    const heard = () => `agent heard ${agent.heard}, column ${JSON.stringify(fleet!.column('ALARM-V1')?.calls)}`;
    await waitFor(async () => (agent.heard > 100 ? true : undefined), 15_000).catch((err: Error) => {
      throw new Error(`${err.message}: ${heard()}`);
    });
    await waitFor(async () => ((fleet!.column('ALARM-V1')?.calls.at(-1)?.heardPackets ?? 0) > 100 ? true : undefined), 15_000).catch((err: Error) => {
      throw new Error(`${err.message}: ${heard()}`);
    });
    expect(fleet!.column('ALARM-V1')!.calls.at(-1)).toMatchObject({ callId: call.call!.id, connected: true, ended: false });

    expect((await editor.post('/api/alarm/incidentHangUp', { id: call.id })).body).toMatchObject({ code: 200 });
    // The column is hung up, and the recording of both sides is in the call log.
    await waitFor(async () => (fleet!.column('ALARM-V1')?.calls.at(-1)?.ended ? true : undefined), 10_000);
    const recorded = await waitFor(async () => {
      const rows = (await editor.post<PageResult<AlarmCallRow>>('/api/alarm/callPage', { pageNum: 1, pageSize: 5 })).body.data.list;
      return rows.find((row) => row.id === call.call!.id && row.recording)?.recording ?? undefined;
    }, 20_000);
    const [{ duration_s: talked }] = await gw.db.query<{ duration_s: number }>(`SELECT duration_s FROM alarm_call WHERE id = $1`, [call.call!.id]);
    expect(recorded.seconds).toBeGreaterThan(1);
    expect(recorded.seconds).toBeLessThanOrEqual(talked + 2);
    expect(recorded.fileSize).toBeGreaterThan(recorded.seconds * 4_000);
    expect(recorded.url).toMatch(/^\/api\/alarm\/recording\?id=\d+&expires=\d+&signature=/);
    const file = await fetch(`${gw.baseUrl}${recorded.url}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('audio/mpeg');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.length).toBe(recorded.fileSize);
    const path = join(tmpdir(), `sc-recording-${call.call!.id}.mp3`);
    await writeFile(path, bytes);
    // Both sides are in it: the agent's 660 Hz tone and the column's voice; loud, not silence.
    const levels = spawnSync('ffmpeg', ['-v', 'info', '-i', path, '-af', 'volumedetect', '-f', 'null', '-'], { encoding: 'utf8' }).stderr;
    expect(Number(/mean_volume: (-?[\d.]+) dB/.exec(levels)?.[1])).toBeGreaterThan(-40);

    // A changed or foreign link opens nothing.
    expect((await fetch(`${gw.baseUrl}${recorded.url.replace(/signature=[^&]+/, 'signature=AAAA')}`)).status).toBe(403);
    // The call is over: its voice cannot be joined again.
    const late = await editor.post('/api/alarm/voiceJoin', { callId: call.call!.id, sdp: offer });
    expect(late.status).toBe(409);
  });

  it('finds the recorded calls (audioInquiry) and only them', async () => {
    const page = async (recorded: boolean) =>
      (await editor.post<PageResult<AlarmCallRow>>('/api/alarm/callPage', { pageNum: 1, pageSize: 20, recorded })).body.data.list;
    const recorded = await page(true);
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded.every((row) => row.recording !== null)).toBe(true);
    expect((await page(false)).every((row) => row.recording === null)).toBe(true);
  });

  it('announces approved media and a text on the columns in a playback mode, through the ledger; bad announcements change nothing', async () => {
    const data = new FormData();
    data.append('materialName', 'Keep the crossing clear');
    data.append('file', new Blob([await mp3Tone({ seconds: 2, frequency: 500, kbps: 64, sampleRate: 44100, channels: 1 })]), 'clear.mp3');
    const uploaded = await new ApiClient(gw.uploadUrl, 'en-US').as(admin.token).post<MediaRow>('/api/broadcast/mediaUpload', data);
    expect(uploaded.status).toBe(200);
    const medium = uploaded.body.data;
    const [{ id: columnId }] = await gw.db.query<{ id: number }>(`SELECT id FROM device WHERE code = 'ALARM-V1'`);
    const dispatches = async () => (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM dispatch`))[0].n;
    const before = await dispatches();
    const refused = async (body: Record<string, unknown>, field: string, message: string, client = editor) => {
      const answer = await client.post('/api/alarm/columnAnnounce', body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ data: { errors: expect.arrayContaining([expect.objectContaining({ field, reason: message })]) } });
    };
    const audio = { ids: [columnId], contentType: 1, mediaIds: [medium.id], playbackMode: PlaybackMode.ListCycle };
    // Not approved yet.
    await refused(audio, 'mediaIds', expect.stringContaining('Keep the crossing clear') as unknown as string);
    await refused({ ...audio, mediaIds: [] }, 'mediaIds', 'Please select at least one audio file');
    await refused({ ...audio, contentType: 2, mediaIds: undefined }, 'text', 'Please enter the text the columns should say');
    await refused({ ...audio, playbackMode: 'shuffle' }, 'playbackMode', expect.any(String) as unknown as string);
    await refused({ ...audio, contentType: 2, text: 'x'.repeat(501) }, 'text', expect.any(String) as unknown as string);
    expect((await visitor.post('/api/alarm/columnAnnounce', audio)).status).toBe(403);
    expect(await dispatches()).toBe(before);

    await admin.post('/api/broadcast/mediaAudit', { id: medium.id, auditStatus: MediaAuditStatus.Approved });
    const sent = await editor.post<{ dispatchId: string }>('/api/alarm/columnAnnounce', audio);
    expect(sent.status).toBe(200);
    const delivered = async (dispatchId: string) =>
      waitFor(async () => {
        const d = (await editor.get<DispatchDetail>(`/api/dispatch/detail?id=${dispatchId}`)).body.data;
        return d.status === DispatchStatus.AllSuccessful ? d : undefined;
      }, 15_000).catch(async (err: Error) => {
        throw new Error(`${err.message}: ${JSON.stringify((await editor.get(`/api/dispatch/detail?id=${dispatchId}`)).body)}`);
      });
    await delivered(sent.body.data.dispatchId);
    // The column fetched the file, checked it against its SHA-256, and plays it in a loop.
    expect(fleet!.column('ALARM-V1')!.announcement).toEqual({
      contentType: 1,
      mode: PlaybackMode.ListCycle,
      titles: ['Keep the crossing clear'],
      text: null,
    });

    const spoken = await editor.post<{ dispatchId: string }>('/api/alarm/columnAnnounce', {
      ids: [columnId],
      contentType: 2,
      text: 'Help is on the way, please stay at the column.',
      playbackMode: PlaybackMode.Normal,
    });
    await delivered(spoken.body.data.dispatchId);
    expect(fleet!.column('ALARM-V1')!.announcement).toMatchObject({ contentType: 2, text: 'Help is on the way, please stay at the column.' });

    const stopped = await editor.post<{ dispatchId: string }>('/api/alarm/columnAnnounceStop', { ids: [columnId] });
    await delivered(stopped.body.data.dispatchId);
    expect(fleet!.column('ALARM-V1')!.announcement).toBeNull();
  });

  it('tells the agent when the column does not answer the voice, and the call stays connected', async () => {
    await fleet!.stop();
    fleet = null;
    // The press came in before the column dropped off: its call is answered, but the column is gone.
    await gw.db.query(`UPDATE alarm_agent SET mode = 'IDLE'`);
    const pressed = await startAlarmFleet({
      mqttUrl: MQTT_URL,
      columns: ['ALARM-V1'],
      ackLatencyMs: { min: 5, max: 20 },
      scheduleTickMs: 100,
      logger: pino({ level: 'silent' }),
    });
    fleet = pressed;
    const call = await connectedCall(AlarmLevel.Two);
    await pressed.stop();
    fleet = null;
    const agent = new TestAgent();
    agents.push(agent);
    const answer = await editor.post('/api/alarm/voiceJoin', { callId: call.call!.id, sdp: await agent.peer.offer() });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ message: 'The alarm column did not answer the voice of the call' });
    const [row] = await gw.db.query<{ state: string; recording_file: string | null }>(`SELECT state, recording_file FROM alarm_call WHERE id = $1`, [
      call.call!.id,
    ]);
    expect(row).toEqual({ state: CallState.Connected, recording_file: null });
    expect((await editor.post('/api/alarm/incidentHangUp', { id: call.id })).body).toMatchObject({ code: 200 });
  });
});
