import pino from 'pino';
import {
  AccountStatus,
  AgentMode,
  AlarmLevel,
  CallDirection,
  CallProtocol,
  CallSort,
  CallState,
  CallStatus,
  CallType,
  DeviceFamily,
  IncidentActionKind,
  IncidentState,
  IntercomEndpointKind,
  MqttService,
  OnlineState,
  type AgentMe,
  type AgentModeChangedEvent,
  type AlarmCallRow,
  type AlarmColumnRow,
  type AlarmIncidentDetail,
  type AlarmIncidentRow,
  type AlarmUserGroupRow,
  type IncidentChangedEvent,
  type IntercomEndpointRow,
  type PageResult,
} from '@sc/contracts';
import * as XLSX from '@e965/xlsx';
import { ApiClient, waitFor } from '@sc/testing';
import { startAlarmFleet, type AlarmFleet } from '../../device-sim/src/families/alarm.sim';
import { startAlarmWorker } from '../../worker-alarm/src/alarm-worker';
import { startTestGateway, type TestGateway } from './harness';
import { MQTT_URL, testWorkerConfig, watchFamily } from './device-worker';
import type { DeviceWorker } from '@sc/device-runtime';
import type { Socket } from 'socket.io-client';

/** How long one agent is rung here (the product's is 20 s). */
const RING_MS = 1500;

/**
 * The alarm intercom on the real PostgreSQL, Redis and broker: user groups of agents, a column's press becoming an
 * incident whose call rings the group's idle agents one after the other (reject, ring out, answer, hang up), the call
 * log with its filters and sorts, and the incident handled (acknowledge, note, level, close); bad input and roles.
 */
describe('Alarm intercom: user groups, incidents and their calls, the call log', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let editor: ApiClient;
  let visitor: ApiClient;
  let region: number;
  let columnId: number;
  let groupId: number;
  const userIds: Record<string, number> = {};
  let worker: DeviceWorker | null = null;
  let fleet: AlarmFleet | null = null;
  let socket: Socket | null = null;
  const incidents: IncidentChangedEvent[] = [];
  const modes: AgentModeChangedEvent[] = [];

  const snapshot = async () => ({
    groups: await gw.db.query(`SELECT * FROM alarm_user_group ORDER BY id`),
    agents: await gw.db.query(`SELECT * FROM alarm_agent ORDER BY user_id`),
    incidents: await gw.db.query(`SELECT * FROM alarm_incident ORDER BY id`),
    calls: await gw.db.query(`SELECT * FROM alarm_call ORDER BY id`),
    actions: (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM alarm_incident_action`))[0].n,
  });
  const group = (over: Record<string, unknown> = {}) => ({
    name: 'Lianhua duty desk',
    remark: 'Day shift',
    regionId: region,
    agents: [
      { userId: userIds.editor, sipAccount: '7002', protocol: 'SIP', accountStatus: 1 },
      { userId: userIds.admin, sipAccount: '7001', protocol: 'SIP', accountStatus: 1 },
    ],
    ...over,
  });
  /** The incident's latest pushed row once `test` holds for it. */
  const pushed = (test: (row: AlarmIncidentRow) => boolean) =>
    waitFor(async () => incidents.map((e) => e.incident).findLast((row) => test(row)), 10_000);
  const calls = async (filters: Record<string, unknown> = {}) =>
    (await admin.post<PageResult<AlarmCallRow>>('/api/alarm/callPage', { pageNum: 1, pageSize: 20, ...filters })).body.data;

  beforeAll(async () => {
    process.env.ALARM_RING_MS = String(RING_MS);
    process.env.ALARM_CALL_WAIT_MS = '30000';
    process.env.ALARM_CALL_PASS_MS = '100';
    gw = await startTestGateway({ presenceGraceMs: 200 });
    [admin, editor, visitor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor'), gw.signedIn('visitor')]);
    for (const { id, username } of await gw.db.query<{ id: number; username: string }>(`SELECT id, username FROM sys_user`)) userIds[username] = id;
    [{ id: region }] = await gw.db.query<{ id: number }>(`SELECT id FROM region WHERE region_name = 'Lianhua Subdistrict'`);
    const saved = await admin.post<{ id: number }>('/api/alarm/columnAddOrEdit', {
      name: 'Lianhua help point',
      code: 'ALARM-I1',
      sipAccount: '9101',
      regionId: region,
    });
    columnId = saved.body.data.id;
  });
  afterAll(async () => {
    socket?.close();
    await fleet?.stop({ clearRetained: true });
    await worker?.stop();
    await gw?.close();
    for (const name of ['ALARM_RING_MS', 'ALARM_CALL_WAIT_MS', 'ALARM_CALL_PASS_MS']) delete process.env[name];
  });

  it("refuses bad user groups with the catalogue's messages, translated, and visitors every call, changing nothing", async () => {
    const before = await snapshot();
    const refused = async (body: Record<string, unknown>, field: string, message: string, client = admin) => {
      const answer = await client.post('/api/alarm/groupAddOrEdit', body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ data: { errors: expect.arrayContaining([expect.objectContaining({ field, reason: message })]) } });
    };
    await refused(group({ name: ' ' }), 'name', 'The name cannot be empty');
    const twice = group({ agents: [group().agents[0], { ...group().agents[0], sipAccount: '7003' }] });
    await refused(twice, 'agents[1].userId', `${userIds.editor} is listed twice: each operator is in the group once`);
    await refused(
      group({ agents: [{ ...group().agents[0], sipAccount: 'sip:7002' }] }),
      'agents[0].sipAccount',
      'Use letters, digits and _ . + - for the SIP account, at most 32',
    );
    await refused(group({ agents: [{ ...group().agents[0], protocol: 'H323' }] }), 'agents[0].protocol', 'Please select');
    await refused(
      group({ agents: [{ userId: 999_999, protocol: 'SIP', accountStatus: 1 }] }),
      'agents',
      'These users do not exist or are disabled: 999999',
    );
    const spanish = await gw.signedIn('admin', 'es');
    await refused(group({ name: '' }), 'name', 'El nombre no puede estar vacío', spanish);
    // A visitor has no alarm role: every call is refused.
    for (const [method, path] of [
      ['post', '/api/alarm/groupAddOrEdit'],
      ['post', '/api/alarm/groupPage'],
      ['post', '/api/alarm/agentMode'],
      ['post', '/api/alarm/incidentPage'],
      ['post', '/api/alarm/callPage'],
      ['get', '/api/alarm/agentMe'],
    ] as const) {
      const answer = method === 'get' ? await visitor.get(path) : await visitor.post(path, method === 'post' ? group() : undefined);
      expect(answer.status).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('saves a user group with its agents, offline until they say otherwise; a name or SIP account given twice is refused', async () => {
    const saved = await editor.post<{ id: number }>('/api/alarm/groupAddOrEdit', group());
    expect(saved.body).toMatchObject({ code: 200 });
    groupId = saved.body.data.id;
    const listed = (await admin.post<PageResult<AlarmUserGroupRow>>('/api/alarm/groupPage', { pageNum: 1, pageSize: 20, name: 'duty' })).body.data;
    expect(listed.total).toBe(1);
    expect(listed.list[0]).toMatchObject({
      id: groupId,
      name: 'Lianhua duty desk',
      regionName: 'Lianhua Subdistrict',
      agents: [
        { username: 'admin', sipAccount: '7001', protocol: 'SIP', accountStatus: 1, mode: AgentMode.Offline },
        { username: 'editor', sipAccount: '7002', protocol: 'SIP', accountStatus: 1, mode: AgentMode.Offline },
      ],
    });
    const before = await snapshot();
    const taken = await admin.post('/api/alarm/groupAddOrEdit', group({ name: 'LIANHUA DUTY DESK', agents: [] }));
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ message: 'A user group named "LIANHUA DUTY DESK" already exists' });
    const other = await admin.post('/api/alarm/groupAddOrEdit', group({ name: 'Night desk', agents: [group().agents[0]] }));
    expect(other.status).toBe(400);
    expect(JSON.stringify(other.body)).toContain('editor is already an agent of the user group \\"Lianhua duty desk\\"');
    expect(await snapshot()).toEqual(before);
  });

  it('lets agents set their own mode, pushed live; a user in no group is told so', async () => {
    socket = await watchFamily(gw, admin.token, DeviceFamily.Alarm, 'IncidentChanged');
    const modeSocket = await watchFamily(gw, admin.token, DeviceFamily.Alarm, 'AgentModeChanged');
    modeSocket.on('AgentModeChanged', (e) => modes.push(e));
    socket.on('IncidentChanged', (e) => incidents.push(e));
    try {
      // The editor has been idle longest: it is rung first.
      expect((await editor.post<AgentMe>('/api/alarm/agentMode', { mode: AgentMode.Idle })).body.data).toMatchObject({
        mode: AgentMode.Idle,
        groupName: 'Lianhua duty desk',
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await admin.post<AgentMe>('/api/alarm/agentMode', { mode: AgentMode.Idle })).body.data.mode).toBe(AgentMode.Idle);
      await waitFor(async () => (modes.filter((m) => m.mode === AgentMode.Idle).length === 2 ? true : undefined), 5000);
      expect(modes[0]).toMatchObject({ family: 'alarm', userId: userIds.editor, groupId, mode: AgentMode.Idle });
      expect((await admin.post('/api/alarm/agentMode', { mode: 'AWAY' })).status).toBe(400);
    } finally {
      modeSocket.close();
    }
    await gw.db.query(`DELETE FROM alarm_agent WHERE user_id = $1`, [userIds.admin]);
    expect((await admin.get('/api/alarm/agentMe')).body.data).toBeNull();
    const refused = await admin.post('/api/alarm/agentMode', { mode: AgentMode.Idle });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: 'You are not an agent of any user group' });
    expect((await editor.post('/api/alarm/groupAddOrEdit', { ...group(), id: groupId })).body).toMatchObject({ code: 200 });
    await admin.post('/api/alarm/agentMode', { mode: AgentMode.Idle });
  });

  it('makes a press an incident whose call rings the idle agents in turn: rejected, rung out, then NoReply', async () => {
    worker = await startAlarmWorker(
      { ...testWorkerConfig(gw, { name: 'alarm', service: MqttService.WorkerAlarm }, 'alarm'), ackTimeoutMs: 500 },
      pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
    );
    fleet = await startAlarmFleet({
      mqttUrl: MQTT_URL,
      columns: ['ALARM-I1'],
      ackLatencyMs: { min: 5, max: 20 },
      scheduleTickMs: 100,
      logger: pino({ level: 'silent' }),
    });
    await waitFor(async () => {
      const [row] = (await admin.post<PageResult<AlarmColumnRow>>('/api/alarm/columnPage', { pageNum: 1, pageSize: 5, name: 'ALARM-I1' })).body.data
        .list;
      return row.networkStatus === OnlineState.Online ? true : undefined;
    }, 10_000);

    const pressedAt = new Date();
    await fleet.press('ALARM-I1', AlarmLevel.Two, pressedAt);
    const ringing = await pushed((row) => row.call?.state === CallState.Ringing);
    expect(ringing).toMatchObject({
      columnId,
      columnName: 'Lianhua help point',
      columnCode: 'ALARM-I1',
      level: AlarmLevel.Two,
      state: IncidentState.Open,
      regionName: 'Lianhua Subdistrict',
      groupName: 'Lianhua duty desk',
      pressedAt: pressedAt.toISOString(),
      call: {
        columnSip: '9101',
        callType: CallType.OnNet,
        direction: CallDirection.Incoming,
        status: CallStatus.NoReply,
        agentName: 'editor',
        agentSip: '7002',
      },
    });
    const id = ringing.id;
    // Only the agent being rung may answer or reject it.
    const wrong = await admin.post('/api/alarm/incidentAnswer', { id });
    expect(wrong.status).toBe(409);
    expect(wrong.body).toMatchObject({ message: 'This call is no longer offered to you' });
    expect((await editor.post('/api/alarm/incidentReject', { id })).body).toMatchObject({ code: 200 });
    const next = await pushed((row) => row.id === id && row.call?.state === CallState.Ringing && row.call.agentName === 'admin');
    expect(Date.parse(next.call!.offerExpiresAt!) - Date.now()).toBeLessThanOrEqual(RING_MS);
    // Nobody answers: the admin's turn rings out, no one is left, and the call ends NoReply.
    const ended = await pushed((row) => row.id === id && row.call?.state === CallState.Ended);
    expect(ended.call).toMatchObject({ status: CallStatus.NoReply, duration: 0, answeredAt: null, agentUserId: null });
    const detail = (await editor.get<AlarmIncidentDetail>(`/api/alarm/incidentDetail?id=${id}`)).body.data;
    expect(detail.actions.map((a) => [a.kind, a.userName])).toEqual([
      [IncidentActionKind.Pressed, ''],
      [IncidentActionKind.Offered, 'editor'],
      [IncidentActionKind.Rejected, 'editor'],
      [IncidentActionKind.Offered, 'admin'],
      [IncidentActionKind.Missed, 'admin'],
      [IncidentActionKind.NoReply, ''],
    ]);
  });

  it('connects a call its agent answers, busy until the hang-up, and records its duration; the call log filters and sorts', async () => {
    await fleet!.press('ALARM-I1', AlarmLevel.One, new Date());
    const ringing = await pushed((row) => row.level === AlarmLevel.One && row.call?.state === CallState.Ringing);
    const agent = ringing.call!.agentName === 'editor' ? editor : admin;
    expect((await agent.post<AlarmIncidentRow>('/api/alarm/incidentAnswer', { id: ringing.id })).body.data.call).toMatchObject({
      state: CallState.Connected,
      status: CallStatus.Connected,
      answeredAt: expect.any(String),
    });
    expect((await agent.get<AgentMe>('/api/alarm/agentMe')).body.data.mode).toBe(AgentMode.Busy);
    // It cannot be answered twice, and only its agent hangs it up.
    expect((await agent.post('/api/alarm/incidentAnswer', { id: ringing.id })).status).toBe(409);
    const other = agent === editor ? admin : editor;
    expect((await other.post('/api/alarm/incidentHangUp', { id: ringing.id })).body).toMatchObject({ message: 'You are not on this call' });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const hungUp = (await agent.post<AlarmIncidentRow>('/api/alarm/incidentHangUp', { id: ringing.id })).body.data;
    expect(hungUp.call).toMatchObject({ state: CallState.Ended, status: CallStatus.Connected });
    expect(hungUp.call!.duration).toBeGreaterThanOrEqual(1);
    expect((await agent.get<AgentMe>('/api/alarm/agentMe')).body.data.mode).toBe(AgentMode.Idle);

    const all = await calls();
    expect(all.total).toBe(2);
    expect(all.list.map((c) => c.status)).toEqual([CallStatus.Connected, CallStatus.NoReply]);
    expect((await calls({ sort: CallSort.StartTimeAsc })).list.map((c) => c.status)).toEqual([CallStatus.NoReply, CallStatus.Connected]);
    expect((await calls({ sort: CallSort.DurationAsc })).list.map((c) => c.duration)).toEqual([0, hungUp.call!.duration]);
    expect((await calls({ sort: CallSort.DurationDesc })).list[0].id).toBe(hungUp.call!.id);
    expect((await calls({ status: CallStatus.NoReply })).total).toBe(1);
    expect((await calls({ keyword: '9101', direction: CallDirection.Incoming, callType: CallType.OnNet })).total).toBe(2);
    expect((await calls({ callType: CallType.OffToOn })).total).toBe(0);
    expect((await calls({ startFrom: new Date(Date.now() + 60_000).toISOString() })).total).toBe(0);
    expect((await admin.post('/api/alarm/callPage', { pageNum: 1, pageSize: 20, sort: 5 })).status).toBe(400);

    // The export: the same filters and sort, words in the caller's language (Spanish here), times in the zone.
    const xlsx = await fetch(`${gw.baseUrl}/api/alarm/callExport?sort=${CallSort.DurationDesc}`, {
      headers: { Authorization: `Bearer ${admin.token}`, 'Accept-Language': 'es' },
    });
    expect(xlsx.status).toBe(200);
    const sheet = XLSX.read(Buffer.from(await xlsx.arrayBuffer()));
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet.Sheets[sheet.SheetNames[0]], { header: 1 });
    expect(rows[0]).toEqual(expect.arrayContaining(['Columna de alarma', 'Dirección', 'Estado de la llamada']));
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual(expect.arrayContaining(['Lianhua help point', 'ALARM-I1', '9101', 'Entrante', 'Conectada', hungUp.call!.duration]));
    expect(rows[2]).toEqual(expect.arrayContaining(['Sin respuesta']));
    expect((await fetch(`${gw.baseUrl}/api/alarm/callExport`, { headers: { Authorization: `Bearer ${visitor.token}` } })).status).toBe(403);
  });

  it('acknowledges an incident, takes notes and a new level, closes it; a closed one takes nothing more', async () => {
    const [{ id }] = (
      await admin.post<PageResult<AlarmIncidentRow>>('/api/alarm/incidentPage', { pageNum: 1, pageSize: 5, state: IncidentState.Open })
    ).body.data.list;
    expect((await editor.post<AlarmIncidentRow>('/api/alarm/incidentAcknowledge', { id, note: 'On my way' })).body.data).toMatchObject({
      state: IncidentState.Acknowledged,
      acknowledgedBy: 'editor',
    });
    await editor.post('/api/alarm/incidentNote', { id, note: 'Patrol car 12 sent' });
    expect((await editor.post<AlarmIncidentRow>('/api/alarm/incidentLevel', { id, level: AlarmLevel.Three })).body.data.level).toBe(AlarmLevel.Three);
    expect((await editor.post('/api/alarm/incidentLevel', { id, level: 3 })).status).toBe(400);
    expect((await editor.post('/api/alarm/incidentNote', { id, note: '' })).status).toBe(400);
    expect((await editor.post<AlarmIncidentRow>('/api/alarm/incidentClose', { id })).body.data).toMatchObject({
      state: IncidentState.Closed,
      closedBy: 'editor',
    });
    await pushed((row) => row.id === id && row.state === IncidentState.Closed);
    const before = await snapshot();
    const late = await editor.post('/api/alarm/incidentNote', { id, note: 'Too late' });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ message: 'This incident is already closed' });
    expect((await editor.post('/api/alarm/incidentClose', { id: '99999999' })).status).toBe(404);
    expect((await editor.post('/api/alarm/incidentClose', { id: 'x1' })).status).toBe(400);
    expect(await snapshot()).toEqual(before);
    const detail = (await admin.get<AlarmIncidentDetail>(`/api/alarm/incidentDetail?id=${id}`)).body.data;
    expect(detail.actions.slice(-4).map((a) => [a.kind, a.note, a.level])).toEqual([
      [IncidentActionKind.Acknowledged, 'On my way', null],
      [IncidentActionKind.Note, 'Patrol car 12 sent', null],
      [IncidentActionKind.Level, '', AlarmLevel.Three],
      [IncidentActionKind.Closed, '', null],
    ]);
  });

  it('takes an agent offline once its last console closes, and ends the call it was on', async () => {
    // The editor takes a call on its console, then closes it.
    await admin.post('/api/alarm/agentMode', { mode: AgentMode.Busy });
    await editor.post('/api/alarm/agentMode', { mode: AgentMode.Idle });
    const own = await watchFamily(gw, editor.token, DeviceFamily.Alarm, 'AgentModeChanged');
    const seen = incidents.length;
    await fleet!.press('ALARM-I1', AlarmLevel.One, new Date());
    const ringing = await waitFor(
      async () =>
        incidents
          .slice(seen)
          .map((e) => e.incident)
          .find((row) => row.call?.state === CallState.Ringing && row.call.agentName === 'editor'),
      10_000,
    );
    expect((await editor.post('/api/alarm/incidentAnswer', { id: ringing.id })).body).toMatchObject({ code: 200 });
    own.close();
    const ended = await pushed((row) => row.id === ringing.id && row.call?.state === CallState.Ended);
    expect(ended.call).toMatchObject({ status: CallStatus.Connected, agentName: 'editor' });
    expect((await editor.get<AgentMe>('/api/alarm/agentMe')).body.data).toMatchObject({ mode: AgentMode.Offline, liveIncident: null });
    const actions = (await admin.get<AlarmIncidentDetail>(`/api/alarm/incidentDetail?id=${ringing.id}`)).body.data.actions;
    expect(actions.at(-1)).toMatchObject({ kind: IncidentActionKind.HungUp, userName: 'editor' });
  });

  it('lists every intercom endpoint, columns and agents, with their accounts, state and calls (equipmentInquiry)', async () => {
    const page = async (filters: Record<string, unknown> = {}) =>
      (await admin.post<PageResult<IntercomEndpointRow>>('/api/alarm/endpointPage', { pageNum: 1, pageSize: 50, ...filters })).body.data;
    const [{ calls: columnCalls, last }] = await gw.db.query<{ calls: number; last: string }>(
      `SELECT count(*)::int AS calls, max(started_at) AS last FROM alarm_call WHERE device_id = $1`,
      [columnId],
    );
    const [{ calls: editorCalls }] = await gw.db.query<{ calls: number }>(`SELECT count(*)::int AS calls FROM alarm_call WHERE agent_user_id = $1`, [
      userIds.editor,
    ]);
    const column = (await page({ keyword: '9101' })).list;
    expect(column).toEqual([
      expect.objectContaining({
        key: `column:${columnId}`,
        kind: IntercomEndpointKind.Column,
        name: 'Lianhua help point',
        code: 'ALARM-I1',
        sipAccount: '9101',
        protocol: CallProtocol.Sip,
        accountStatus: AccountStatus.Normal,
        online: OnlineState.Online,
        agentMode: null,
        regionName: 'Lianhua Subdistrict',
        groupName: 'Lianhua duty desk',
        callCount: columnCalls,
      }),
    ]);
    expect(new Date(column[0].lastCallAt!).getTime()).toBe(new Date(last).getTime());
    expect(columnCalls).toBeGreaterThan(2);
    // The editor closed its console (the test before): offline, its calls counted.
    const agents = await page({ kind: IntercomEndpointKind.Agent, keyword: '700' });
    expect(agents.list.map((a) => [a.name, a.sipAccount, a.agentMode, a.online])).toEqual([
      ['admin', '7001', AgentMode.Busy, OnlineState.Online],
      ['editor', '7002', AgentMode.Offline, OnlineState.Offline],
    ]);
    expect(agents.list[1]).toMatchObject({ groupName: 'Lianhua duty desk', callCount: editorCalls, protocol: CallProtocol.Sip });
    expect((await page({ kind: IntercomEndpointKind.Agent, online: OnlineState.Offline, keyword: '700' })).list.map((a) => a.name)).toEqual([
      'editor',
    ]);
    // Filters that match nothing, and bad ones refused.
    expect((await page({ keyword: '9101', kind: IntercomEndpointKind.Agent })).total).toBe(0);
    expect((await page({ keyword: '9101', accountStatus: AccountStatus.Suspended })).total).toBe(0);
    const bad = await admin.post('/api/alarm/endpointPage', { pageNum: 1, pageSize: 20, kind: 'camera', protocol: 'H323' });
    expect(bad.status).toBe(400);
    expect((await visitor.post('/api/alarm/endpointPage', { pageNum: 1, pageSize: 20 })).status).toBe(403);
  });
});
