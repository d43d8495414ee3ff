import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { IsArray, Matches } from 'class-validator';
import {
  ACCOUNT_STATUSES,
  AGENT_MODES,
  ALARM_GROUP_NAME_MAX,
  ALARM_GROUP_REMARK_MAX,
  ALARM_LEVELS,
  CALL_DIRECTIONS,
  CALL_PROTOCOLS,
  CALL_SORTS,
  CALL_STATUSES,
  CALL_TYPES,
  INCIDENT_NOTE_MAX,
  INCIDENT_RESPONSES,
  INCIDENT_STATES,
  INTERCOM_ENDPOINT_KINDS,
  ONLINE_STATES,
  VOICE_SDP_MAX,
  type AccountStatus,
  type AgentMode,
  type AgentModeRequest,
  type AlarmAgentRecord,
  type AlarmCallFilters,
  type AlarmCallPageQuery,
  type AlarmIncidentFilters,
  type AlarmIncidentPageQuery,
  type AlarmLevel,
  type AlarmUserGroupAddOrEditRequest,
  type AlarmUserGroupFilters,
  type AlarmUserGroupPageQuery,
  type VoiceJoinRequest,
  type CallDirection,
  type CallProtocol,
  type CallSort,
  type CallStatus,
  type CallType,
  type IncidentActionRequest,
  type IncidentRespondRequest,
  type IncidentResponse,
  type IncidentState,
  type IntercomEndpointFilters,
  type IntercomEndpointKind,
  type IntercomEndpointPageQuery,
  type OnlineState,
} from '@sc/contracts';
import { BoolField, DateField, EnumField, IntField, PageDto, TextField, msg } from '../../common/fields';

/** An incident's id (a bigint, as text). */
const INCIDENT_ID = /^[1-9]\d{0,17}$/;

export class AlarmUserGroupFiltersDto implements AlarmUserGroupFilters {
  @TextField({ max: ALARM_GROUP_NAME_MAX, required: false, description: "Part of the group's name, any case" })
  name?: string;
}

export class AlarmUserGroupPageDto extends IntersectionType(PageDto, AlarmUserGroupFiltersDto) implements AlarmUserGroupPageQuery {}

/** The shape only: the agents are checked by alarmGroupProblems (the console's own check), then against the database. */
export class AlarmUserGroupAddOrEditDto implements AlarmUserGroupAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The group to change; omit to add one' })
  id?: number;

  @TextField({ max: ALARM_GROUP_NAME_MAX, emptyKey: 'nameEmpty', example: 'Lianhua district duty desk' })
  name!: string;

  @TextField({ max: ALARM_GROUP_REMARK_MAX, required: false })
  remark?: string;

  @IntField({
    min: 1,
    required: false,
    description: "Its columns: those of this region and below; null for every column no other group's region holds",
  })
  regionId?: number | null;

  @IsArray({ message: msg('invalidValue') })
  @ApiProperty({
    description: 'Its agents, the whole list: console users with their SIP account, protocol (SIP, VOIP) and account status (1 normal, 0 suspended)',
    example: [{ userId: 2, sipAccount: '8001', protocol: 'SIP', accountStatus: 1 }],
  })
  agents!: AlarmAgentRecord[];
}

export class AgentModeDto implements AgentModeRequest {
  @EnumField(AGENT_MODES, { description: 'IDLE takes calls, BUSY and OFFLINE do not' })
  mode!: AgentMode;
}

export class AlarmIncidentFiltersDto implements AlarmIncidentFilters {
  @EnumField(INCIDENT_STATES, { required: false })
  state?: IncidentState;

  @EnumField(ALARM_LEVELS, { required: false, description: '0 one, 1 two, 2 three' })
  level?: AlarmLevel;

  @TextField({ max: 64, required: false, description: "Part of the column's name or code, any case" })
  name?: string;
}

export class AlarmIncidentPageDto extends IntersectionType(PageDto, AlarmIncidentFiltersDto) implements AlarmIncidentPageQuery {}

export class IncidentIdDto {
  @TextField({ max: 18, example: '1' })
  @Matches(INCIDENT_ID, { message: msg('invalidValue') })
  id!: string;
}

export class IncidentActionDto extends IncidentIdDto implements IncidentActionRequest {
  @TextField({ max: INCIDENT_NOTE_MAX, required: false })
  note?: string;

  @EnumField(ALARM_LEVELS, { required: false, description: '0 one, 1 two, 2 three' })
  level?: AlarmLevel;
}

/** A response around the incident's column: the medium it shows or plays, for the LED screen and the announcement. */
export class IncidentRespondDto extends IncidentIdDto implements IncidentRespondRequest {
  @EnumField(INCIDENT_RESPONSES, {
    description: 'lamps: nearest street lights to 100 %; led: a medium on the nearest LED screen; broadcast: an announcement',
  })
  response!: IncidentResponse;

  @IntField({ min: 1, required: false, description: 'led: the LED medium to show; broadcast: the medium to play' })
  mediaId?: number;
}

/** A note: required. */
export class IncidentNoteDto extends IncidentIdDto {
  @TextField({ max: INCIDENT_NOTE_MAX })
  note!: string;
}

/** A new level: required. */
export class IncidentLevelDto extends IncidentIdDto {
  @EnumField(ALARM_LEVELS, { description: '0 one, 1 two, 2 three' })
  level!: AlarmLevel;
}

export class AlarmCallFiltersDto implements AlarmCallFilters {
  @TextField({ max: 64, required: false, description: "Part of the column's name, code or SIP account, or of the agent's name or SIP account" })
  keyword?: string;

  @EnumField(CALL_TYPES, { required: false })
  callType?: CallType;

  @EnumField(CALL_STATUSES, { required: false })
  status?: CallStatus;

  @EnumField(CALL_DIRECTIONS, { required: false, description: '1 incoming, 2 outgoing, 3 unknown' })
  direction?: CallDirection;

  @DateField({ required: false, example: '2026-11-20T00:00:00+08:00', description: 'Calls started from this time' })
  startFrom?: string;

  @DateField({ required: false, example: '2026-11-21T00:00:00+08:00', description: 'to this time (excluded)' })
  startTo?: string;

  @BoolField({ required: false, description: 'Only the calls with a recording (audioInquiry)' })
  recorded?: boolean;

  @EnumField(CALL_SORTS, { required: false, description: '1 start time descending (default), 2 ascending, 3 duration descending, 4 ascending' })
  sort?: CallSort;
}

export class AlarmCallPageDto extends IntersectionType(PageDto, AlarmCallFiltersDto) implements AlarmCallPageQuery {}

export class IntercomEndpointFiltersDto implements IntercomEndpointFilters {
  @TextField({ max: 64, required: false, description: 'Part of the name, the code or the SIP account' })
  keyword?: string;

  @EnumField(INTERCOM_ENDPOINT_KINDS, { required: false, description: 'column or agent' })
  kind?: IntercomEndpointKind;

  @EnumField(CALL_PROTOCOLS, { required: false })
  protocol?: CallProtocol;

  @EnumField(ACCOUNT_STATUSES, { required: false, description: '1 normal, 0 suspended' })
  accountStatus?: AccountStatus;

  @EnumField(ONLINE_STATES, { required: false, description: '1 online, 0 offline' })
  online?: OnlineState;
}

export class IntercomEndpointPageDto extends IntersectionType(PageDto, IntercomEndpointFiltersDto) implements IntercomEndpointPageQuery {}

/** POST /api/alarm/voiceJoin: the agent's browser's offer for its connected call's voice. */
export class VoiceJoinDto implements VoiceJoinRequest {
  @TextField({ max: 18, example: '1' })
  @Matches(INCIDENT_ID, { message: msg('invalidValue') })
  callId!: string;

  @TextField({ max: VOICE_SDP_MAX, description: "The browser's SDP offer, its ICE candidates gathered" })
  sdp!: string;
}
