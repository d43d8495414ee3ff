import { SIP_ACCOUNT_PATTERN } from './alarm-columns';
import type { OnlineState } from './devices';
import type { PageQuery } from './envelope';
import {
  AccountStatus,
  AgentMode,
  AlarmLevel,
  CallDirection,
  CallProtocol,
  CallSort,
  CallStatus,
  CallType,
  type BroadcastContentType,
  type PlaybackMode,
} from './statuses';

/** Longest user group name and remark. */
export const ALARM_GROUP_NAME_MAX = 64;
export const ALARM_GROUP_REMARK_MAX = 255;
/** Most agents in one user group. */
export const ALARM_GROUP_MEMBERS_MAX = 200;
/** Longest incident note. */
export const INCIDENT_NOTE_MAX = 1000;

/** The spec's option lists, in their order (the pages' selects and the servers' checks). */
export const AGENT_MODES = [AgentMode.Idle, AgentMode.Busy, AgentMode.Offline] as const;
export const CALL_TYPES = [CallType.OffToOff, CallType.OffToOn, CallType.OnToOff, CallType.OnNet] as const;
export const CALL_STATUSES = [CallStatus.Connected, CallStatus.NoReply] as const;
export const CALL_DIRECTIONS = [CallDirection.Incoming, CallDirection.Outgoing, CallDirection.Unknown] as const;
export const CALL_SORTS = [CallSort.StartTimeDesc, CallSort.StartTimeAsc, CallSort.DurationDesc, CallSort.DurationAsc] as const;
export const ACCOUNT_STATUSES = [AccountStatus.Normal, AccountStatus.Suspended] as const;
export const CALL_PROTOCOLS = [CallProtocol.Sip, CallProtocol.Voip] as const;

/**
 * Where a call is now. `waiting`: no agent is being rung (none idle yet); `ringing`: offered to one agent;
 * `connected`: an agent answered; `ended`: over (its status says Connected or NoReply).
 */
export enum CallState {
  Waiting = 'waiting',
  Ringing = 'ringing',
  Connected = 'connected',
  Ended = 'ended',
}

/** Where an incident is in the operators' hands. */
export enum IncidentState {
  Open = 'open',
  Acknowledged = 'acknowledged',
  Closed = 'closed',
}
export const INCIDENT_STATES = [IncidentState.Open, IncidentState.Acknowledged, IncidentState.Closed] as const;

/** What happened to an incident, in its log (each with who and when). */
export enum IncidentActionKind {
  Pressed = 'pressed',
  Offered = 'offered',
  Rejected = 'rejected',
  Missed = 'missed',
  Answered = 'answered',
  HungUp = 'hungUp',
  NoReply = 'noReply',
  Acknowledged = 'acknowledged',
  Note = 'note',
  Level = 'level',
  Closed = 'closed',
  /** A response sent to the devices near the column (IncidentResponse): its dispatch and how many devices it went to. */
  Lamps = 'lamps',
  Led = 'led',
  Broadcast = 'broadcast',
}

/**
 * What the incident view offers to do around the pressed column, each a dispatch through the command ledger: its
 * nearest street lights to 100 %, a medium of the LED library on its nearest LED screen, an announcement of the media
 * library on its nearest broadcast terminals.
 */
export enum IncidentResponse {
  Lamps = 'lamps',
  Led = 'led',
  Broadcast = 'broadcast',
}
export const INCIDENT_RESPONSES = [IncidentResponse.Lamps, IncidentResponse.Led, IncidentResponse.Broadcast] as const;

/**
 * Which devices count as near a column: within `radiusMeters` of it (the device's own position, or its pole's), the
 * nearest first, at most so many of each family. The announcement plays at `announcement` priority and volume: it
 * pre-empts whatever the terminals play.
 */
export const INCIDENT_NEARBY = {
  radiusMeters: 500,
  lamps: 6,
  ledScreens: 1,
  terminals: 3,
  /** The cameras whose live view the incident opens (the nearest first). */
  cameras: 2,
  announcement: { priority: 1, volume: 80 },
} as const;

/** A device near an incident's column. */
export interface NearbyDevice {
  id: number;
  code: string;
  name: string;
  /** Metres from the column, rounded. */
  distanceMeters: number;
  networkStatus: OnlineState;
}

/** GET /api/alarm/incidentNearby?id=: the devices each response would go to, nearest first. */
export interface IncidentNearby {
  lamps: NearbyDevice[];
  ledScreens: NearbyDevice[];
  terminals: NearbyDevice[];
  /** The nearest cameras with a live stream, whose picture the incident view shows (administrators': video is theirs). */
  cameras: NearbyDevice[];
}

/** POST /api/alarm/incidentRespond: `mediaId` names the LED medium (led) or the broadcast medium (broadcast). */
export interface IncidentRespondRequest {
  id: string;
  response: IncidentResponse;
  mediaId?: number;
}

export interface IncidentRespondResult {
  dispatchId: string;
  incident: AlarmIncidentRow;
}

/**
 * How long a call rings one agent before it goes to the next, and how long it waits in all for an agent to answer
 * before it ends NoReply (ALARM_RING_MS and ALARM_CALL_WAIT_MS change them for a deployment, and for the tests).
 */
export const ALARM_CALL_TIMING = { ringMs: 20_000, waitMs: 90_000 } as const;

/**
 * The voice of a connected call (docs/alarm-intercom.md, Voice): WebRTC, with the alarm worker in the middle. The
 * agent's browser offers its side (SDP with its ICE candidates gathered) with POST /api/alarm/voiceJoin; the worker
 * that holds the call's voice bridge answers it, and has the column's side on MQTT (the column's `talk` command and
 * event). Both sides are Opus; the worker passes each side's audio to the other and records the call.
 */
export interface VoiceJoinRequest {
  callId: string;
  /** The browser's offer, its ICE candidates in it (gathering complete). */
  sdp: string;
}

/** The answer to POST /api/alarm/voiceJoin: the bridge's SDP for the browser. */
export interface VoiceJoinAnswer {
  sdp: string;
}

/** GET /api/alarm/voiceConfig: what the browser's peer connection needs (VOICE_ICE_SERVERS: STUN or TURN, coturn). */
export interface VoiceConfig {
  iceServers: { urls: string | string[]; username?: string; credential?: string }[];
}

/** An SDP a browser or column may send: at most 16 KB (an audio offer with a few candidates is 1–3 KB). */
export const VOICE_SDP_MAX = 16_384;

/** How long the bridge waits for the column's answer, and for the whole join, before the browser is told it failed. */
export const VOICE_TIMING = { columnAnswerMs: 8_000, joinMs: 20_000 } as const;

/** An announcement holds at most this many media, and a spoken text this many characters. */
export const ALARM_ANNOUNCE_ITEMS_MAX = 50;
export const ALARM_ANNOUNCE_TEXT_MAX = 500;

/**
 * POST /api/alarm/columnAnnounce (audioInquiry): an announcement on the speakers of the columns `ids`, or of every
 * column of `regionId` and below: approved media of the broadcast library (`mediaIds`, in order) or a `text` the
 * columns speak, in a playback mode. A dispatch through the ledger, followed in the dispatch panel.
 */
export interface AlarmAnnounceRequest {
  ids?: number[];
  regionId?: number;
  contentType: BroadcastContentType;
  mediaIds?: number[];
  text?: string;
  playbackMode: PlaybackMode;
}

/** POST /api/alarm/columnAnnounceStop: the announcement stops on the columns `ids`, or those of `regionId` and below. */
export interface AlarmAnnounceStopRequest {
  ids?: number[];
  regionId?: number;
}

/** One operator of a user group: a console user who takes the calls of the group's columns. */
export interface AlarmAgent {
  userId: number;
  username: string;
  /** The agent's SIP account for the intercom (empty: none yet). */
  sipAccount: string;
  protocol: CallProtocol;
  /** A suspended account is offered no call. */
  accountStatus: AccountStatus;
  mode: AgentMode;
  /** ISO 8601: since when the agent is in this mode. */
  modeSince: string;
}

/** One user group (userGroupManagement): its agents take the calls of the columns of its region and below. */
export interface AlarmUserGroupRow {
  id: number;
  name: string;
  remark: string;
  /** Its columns: those of this region and below; null for every column no other group's region holds. */
  regionId: number | null;
  regionName: string | null;
  agents: AlarmAgent[];
}

export interface AlarmUserGroupFilters {
  /** Part of the group's name, any case. */
  name?: string;
}
export interface AlarmUserGroupPageQuery extends PageQuery, AlarmUserGroupFilters {}

/** One agent of POST /api/alarm/groupAddOrEdit. */
export interface AlarmAgentRecord {
  userId: number;
  sipAccount?: string;
  protocol: CallProtocol;
  accountStatus: AccountStatus;
}

/** POST /api/alarm/groupAddOrEdit: adds (no id) or changes a group with its whole list of agents. */
export interface AlarmUserGroupAddOrEditRequest {
  id?: number;
  name: string;
  remark?: string;
  regionId?: number | null;
  agents: AlarmAgentRecord[];
}

/** POST /api/alarm/agentMode: the caller's own mode. */
export interface AgentModeRequest {
  mode: AgentMode;
}

/** The caller as an agent (GET /api/alarm/agentMe): null when the caller is in no user group. */
export interface AgentMe extends AlarmAgent {
  groupId: number;
  groupName: string;
  /** The incident whose call rings the agent now or is connected to it (null: none). */
  liveIncident: AlarmIncidentRow | null;
}

/** A call as the incident and the call log show it. */
export interface AlarmCallRow {
  id: string;
  incidentId: string | null;
  columnId: number | null;
  columnName: string;
  columnCode: string;
  columnSip: string;
  callType: CallType;
  direction: CallDirection;
  /** The result: Connected once an agent answered; NoReply until then, and for good when nobody did. */
  status: CallStatus;
  state: CallState;
  /** The agent being rung now (ringing), or who answered. */
  agentUserId: number | null;
  agentName: string;
  agentSip: string;
  /** When the ringing agent's turn ends (ringing only). */
  offerExpiresAt: string | null;
  startedAt: string;
  answeredAt: string | null;
  endedAt: string | null;
  /** Seconds talked (answered to ended; 0 when nobody answered). */
  duration: number;
  /** The call's recording (both sides, MP3), once the call has ended and it is stored; null: none. */
  recording: AlarmCallRecording | null;
}

/** A call's recording: how long, how big, and a signed link the console's player plays it from. */
export interface AlarmCallRecording {
  seconds: number;
  fileSize: number;
  url: string;
}

/** One incident: a press of a column, its place, its call and what operators did with it. */
export interface AlarmIncidentRow {
  id: string;
  pressId: string;
  columnId: number;
  columnName: string;
  columnCode: string;
  level: AlarmLevel;
  state: IncidentState;
  /** Where the column is: its region, its pole, its position (its own, else its pole's). */
  regionId: number | null;
  regionName: string | null;
  poleCode: string | null;
  latitude: number | null;
  longitude: number | null;
  groupId: number | null;
  groupName: string | null;
  pressedAt: string;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
  closedAt: string | null;
  closedBy: string | null;
  call: AlarmCallRow | null;
}

/** One line of an incident's log. */
export interface IncidentActionRow {
  id: string;
  kind: IncidentActionKind;
  at: string;
  userName: string;
  note: string;
  level: AlarmLevel | null;
  /** A response's dispatch (lamps, led, broadcast) and how many devices it went to; null otherwise. */
  dispatchId: string | null;
  deviceCount: number | null;
}

export interface AlarmIncidentDetail extends AlarmIncidentRow {
  actions: IncidentActionRow[];
}

export interface AlarmIncidentFilters {
  state?: IncidentState;
  level?: AlarmLevel;
  /** Part of the column's name or code, any case. */
  name?: string;
}
export interface AlarmIncidentPageQuery extends PageQuery, AlarmIncidentFilters {}

/** POST /api/alarm/incident{Answer,Reject,HangUp,Acknowledge,Close,Note,Level}. */
export interface IncidentActionRequest {
  id: string;
  note?: string;
  level?: AlarmLevel;
}

/** The call log's filters (callLogQuery; the export takes the same). */
export interface AlarmCallFilters {
  /** Part of the column's name, code or SIP account, or of the agent's name or SIP account, any case. */
  keyword?: string;
  callType?: CallType;
  status?: CallStatus;
  direction?: CallDirection;
  /** Calls started from this time (ISO 8601, included) to that one (excluded). */
  startFrom?: string;
  startTo?: string;
  /** Only the calls with a recording (audioInquiry). */
  recorded?: boolean;
  sort?: CallSort;
}
export interface AlarmCallPageQuery extends PageQuery, AlarmCallFilters {}

/** An incident changed (IncidentChanged, pushed to the alarm pages): the whole row as it is now. */
export interface IncidentChangedEvent {
  family: 'alarm';
  incident: AlarmIncidentRow;
  /** ISO 8601. */
  at: string;
}

/** An agent's mode changed (AgentModeChanged, pushed to the alarm pages). */
export interface AgentModeChangedEvent {
  family: 'alarm';
  userId: number;
  groupId: number;
  mode: AgentMode;
  modeSince: string;
}

/** A problem of a user group as the console and the server both check it (the server adds what needs the database). */
export interface AlarmGroupProblem {
  field: string;
  key: 'nameEmpty' | 'pleaseSelect' | 'invalidValue' | 'sipAccountInvalid' | 'alarmAgentTwice' | 'alarmGroupTooManyAgents';
  params?: Record<string, unknown>;
}

/** The problems of a user group (name, agents); none means the database checks come next. */
export function alarmGroupProblems(group: Partial<Record<keyof AlarmUserGroupAddOrEditRequest, unknown>>): AlarmGroupProblem[] {
  const problems: AlarmGroupProblem[] = [];
  if (typeof group.name !== 'string' || group.name.trim().length === 0) problems.push({ field: 'name', key: 'nameEmpty' });
  if (!Array.isArray(group.agents)) return [...problems, { field: 'agents', key: 'invalidValue' }];
  if (group.agents.length > ALARM_GROUP_MEMBERS_MAX)
    problems.push({ field: 'agents', key: 'alarmGroupTooManyAgents', params: { max: ALARM_GROUP_MEMBERS_MAX } });
  const seen = new Set<number>();
  (group.agents as unknown[]).slice(0, ALARM_GROUP_MEMBERS_MAX).forEach((item, i) => {
    const agent = (item ?? {}) as Partial<Record<keyof AlarmAgentRecord, unknown>>;
    const field = (name: string) => `agents[${i}].${name}`;
    if (typeof item !== 'object' || item === null) return problems.push({ field: `agents[${i}]`, key: 'invalidValue' });
    if (!Number.isInteger(agent.userId) || (agent.userId as number) < 1 || (agent.userId as number) > 2_147_483_647)
      problems.push({ field: field('userId'), key: 'pleaseSelect' });
    else if (seen.has(agent.userId as number)) problems.push({ field: field('userId'), key: 'alarmAgentTwice', params: { name: agent.userId } });
    else seen.add(agent.userId as number);
    if (!(CALL_PROTOCOLS as readonly unknown[]).includes(agent.protocol)) problems.push({ field: field('protocol'), key: 'pleaseSelect' });
    if (!(ACCOUNT_STATUSES as readonly unknown[]).includes(agent.accountStatus))
      problems.push({ field: field('accountStatus'), key: 'pleaseSelect' });
    const sip = agent.sipAccount;
    if (sip !== undefined && sip !== null && sip !== '' && (typeof sip !== 'string' || !SIP_ACCOUNT_PATTERN.test(sip)))
      problems.push({ field: field('sipAccount'), key: 'sipAccountInvalid' });
    return undefined;
  });
  return problems;
}

/**
 * equipmentInquiry: every intercom endpoint of the platform, the alarm columns (devices) and the agents' consoles (the
 * operators of the user groups), with what a call to or from it needs: its SIP account, protocol and account status,
 * whether it is reachable now, and its calls.
 */
export enum IntercomEndpointKind {
  Column = 'column',
  Agent = 'agent',
}
export const INTERCOM_ENDPOINT_KINDS = [IntercomEndpointKind.Column, IntercomEndpointKind.Agent] as const;

export interface IntercomEndpointRow {
  /** `column:{device id}` or `agent:{user id}`. */
  key: string;
  kind: IntercomEndpointKind;
  /** The column's device id or the agent's user id. */
  id: number;
  /** The column's name or the agent's user name. */
  name: string;
  /** The column's code; empty for an agent. */
  code: string;
  sipAccount: string;
  /** A column speaks SIP; an agent the protocol of its group's record. */
  protocol: CallProtocol;
  /** An agent's account status; a column's is normal when it has a SIP account, suspended when it has none. */
  accountStatus: AccountStatus;
  /** A column online on the broker; an agent in any mode but OFFLINE. */
  online: OnlineState;
  /** The agent's mode (null for a column). */
  agentMode: AgentMode | null;
  /** The column's region, or the agent's group's. */
  regionName: string | null;
  /** The agent's user group; for a column, the group its calls go to (its region's, or the nearest above, or none). */
  groupName: string | null;
  /** Its calls on record, and when the last one started. */
  callCount: number;
  lastCallAt: string | null;
}

export interface IntercomEndpointFilters {
  /** Part of the name, the code or the SIP account, any case. */
  keyword?: string;
  kind?: IntercomEndpointKind;
  protocol?: CallProtocol;
  accountStatus?: AccountStatus;
  online?: OnlineState;
}
export interface IntercomEndpointPageQuery extends PageQuery, IntercomEndpointFilters {}
