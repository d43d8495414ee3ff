import type { FromSchema } from 'json-schema-to-ts';
import { ALARM_LEVELS, type AlarmColumnRow } from '../alarm-columns';
import { ALARM_ANNOUNCE_ITEMS_MAX, ALARM_ANNOUNCE_TEXT_MAX, VOICE_SDP_MAX } from '../alarm-intercom';
import { BroadcastContentType, PlaybackMode } from '../statuses';
import { TASK_MEDIUM_SCHEMA } from './broadcast.family';
import { DeviceType } from '../devices';
import { DeviceFamily, MqttService } from '../mqtt';
import { JobName, QueueName } from '../queues';
import { ALARM_EVENT_ROLES, Button } from '../roles';
import { NO_PARAMS_SCHEMA, TIMESTAMP_SCHEMA, VERSION_SCHEMA, VOLUME_SCHEMA, defineFamily, type JsonSchema, type LiveFieldsOf } from './declaration';

/** `state` of an alarm column (retained; sent again at least every heartbeat): its versions, address and volume. */
export const ALARM_STATE_SCHEMA = {
  title: 'AlarmColumnState',
  type: 'object',
  required: ['online'],
  properties: {
    online: { const: true },
    swver: VERSION_SCHEMA,
    hwver: VERSION_SCHEMA,
    ipAddress: { type: 'string', maxLength: 45, description: 'Its network address (the intercom reaches it there).' },
    volume: { ...VOLUME_SCHEMA, description: "Its speaker's volume, percent." },
  },
} as const satisfies JsonSchema;

/**
 * `event` of an alarm column (QoS 1, not retained): someone pressed its button. The alarm worker records every press
 * (`alarm_press`) and announces it (AlarmPressed) so the consoles see it at once.
 */
export const ALARM_PRESS_SCHEMA = {
  title: 'AlarmPress',
  type: 'object',
  required: ['ts', 'kind', 'level'],
  properties: {
    ts: TIMESTAMP_SCHEMA,
    kind: { const: 'press', description: 'A press of the alarm button.' },
    level: { type: 'integer', enum: [...ALARM_LEVELS], description: 'The alarm level (spec alarm options): 0 one, 1 two, 2 three.' },
  },
} as const satisfies JsonSchema;

/** A call's id as the voice messages carry it (alarm_call.id, decimal). */
const CALL_ID_SCHEMA = { type: 'string', pattern: '^[1-9][0-9]{0,18}$', description: 'The call (its id in the call log).' } as const;
const SDP_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: VOICE_SDP_MAX,
  description: 'A WebRTC session description (SDP), its ICE candidates in it.',
} as const;

/**
 * `event` of an alarm column: a press, or its side of a call's voice. `talk` answers the platform's `talk` command
 * with the column's SDP; `talkEnd` says the column hung up (or could not take the call), with the reason.
 */
export const ALARM_EVENT_SCHEMA = {
  title: 'AlarmColumnEvent',
  type: 'object',
  required: ['ts', 'kind'],
  properties: {
    ts: TIMESTAMP_SCHEMA,
    kind: { enum: ['press', 'talk', 'talkEnd'], description: 'A press of the alarm button, or the voice of a call (its answer, its end).' },
    level: { type: 'integer', enum: [...ALARM_LEVELS], description: 'press: the alarm level (spec alarm options): 0 one, 1 two, 2 three.' },
    callId: CALL_ID_SCHEMA,
    sdp: SDP_SCHEMA,
    reason: { type: 'string', maxLength: 255, description: 'talkEnd: why the column ended or refused the call.' },
  },
  // What each kind needs. The kind is tested with `patternProperties`, not `properties`: the runtime's validator drops
  // every field a `properties` list does not name (removeAdditional), and would apply that inside `if` too.
  allOf: [
    { if: { patternProperties: { '^kind$': { const: 'press' } } }, then: { required: ['level'] } },
    { if: { patternProperties: { '^kind$': { const: 'talk' } } }, then: { required: ['callId', 'sdp'] } },
    { if: { patternProperties: { '^kind$': { const: 'talkEnd' } } }, then: { required: ['callId'] } },
  ],
} as const satisfies JsonSchema;

/** The params of `talk`: the platform's side of a call's voice, which the column answers with its `talk` event. */
export const ALARM_TALK_SCHEMA = {
  type: 'object',
  required: ['callId', 'sdp'],
  additionalProperties: false,
  properties: { callId: CALL_ID_SCHEMA, sdp: SDP_SCHEMA },
} as const satisfies JsonSchema;

/** The params of `hangUp`: the platform ended the call's voice. */
export const ALARM_HANG_UP_SCHEMA = {
  type: 'object',
  required: ['callId'],
  additionalProperties: false,
  properties: { callId: CALL_ID_SCHEMA },
} as const satisfies JsonSchema;

/**
 * The params of `announce`: what the column's speaker plays until told otherwise (audioInquiry). Audio (content type
 * 1): media of the broadcast library, fetched from their signed links and checked against their SHA-256 before the
 * column acks; text (2): spoken by the column's own speech synthesis. The playback mode is the spec's: the list once
 * in order (normal_mode), in a loop (list_cycle_mode), or in random order, looped (random_mode).
 */
export const ALARM_ANNOUNCE_SCHEMA = {
  type: 'object',
  required: ['contentType', 'mode'],
  additionalProperties: false,
  properties: {
    contentType: { type: 'integer', enum: [BroadcastContentType.Audio, BroadcastContentType.Text], description: '1 audio, 2 text.' },
    mode: { type: 'string', enum: [PlaybackMode.Normal, PlaybackMode.ListCycle, PlaybackMode.Random] },
    items: { type: 'array', minItems: 1, maxItems: ALARM_ANNOUNCE_ITEMS_MAX, items: TASK_MEDIUM_SCHEMA, description: 'Audio: the media, in order.' },
    text: { type: 'string', minLength: 1, maxLength: ALARM_ANNOUNCE_TEXT_MAX, description: 'Text: what the column says.' },
  },
  // As ALARM_EVENT_SCHEMA: the content type is tested with `patternProperties`, which the validator strips nothing for.
  allOf: [
    { if: { patternProperties: { '^contentType$': { const: BroadcastContentType.Audio } } }, then: { required: ['items'] } },
    { if: { patternProperties: { '^contentType$': { const: BroadcastContentType.Text } } }, then: { required: ['text'] } },
  ],
} as const satisfies JsonSchema;

/** The params of `volume`. */
export const ALARM_VOLUME_SCHEMA = {
  type: 'object',
  required: ['volume'],
  additionalProperties: false,
  properties: { volume: VOLUME_SCHEMA },
} as const satisfies JsonSchema;

/**
 * One-key alarm columns (device type 7, spec "one-key alarm"): pole-mounted help points with an alarm button, a
 * speaker and a SIP intercom. Their worker (worker-alarm) keeps their state and records their presses; the console
 * reboots them and sets their volume through the command ledger.
 *
 * Spec section 2 shows /alarmManage always; it gates no alarm route: administrators and editors run them, as the
 * other pole devices. Rebooting is Open and close and the volume a setting (Edit), as for the screens.
 */
export const ALARM_FAMILY = defineFamily<AlarmColumnRow>()({
  family: DeviceFamily.Alarm,
  title: 'Alarm column',
  deviceType: DeviceType.OneKeyAlarm,
  table: 'alarm_column',
  worker: MqttService.WorkerAlarm,
  queue: QueueName.AlarmColumns,
  job: JobName.DistributeAlarmDispatch,
  actions: { reboot: Button.OpenAndClose, volume: Button.Edit, announce: Button.Edit, stopAnnounce: Button.Edit },
  eventRoles: ALARM_EVENT_ROLES,
  liveFields: ['networkStatus', 'ipAddress', 'swver', 'hwver', 'volume', 'reportedAt', 'lastPressAt', 'lastPressLevel', 'pressCount'],
  reports: { state: ALARM_STATE_SCHEMA, event: ALARM_EVENT_SCHEMA },
  commands: {
    reboot: { description: 'Restart the column; it reports its state again once it is back.', params: NO_PARAMS_SCHEMA },
    volume: { description: "Set its speaker's volume, percent.", params: ALARM_VOLUME_SCHEMA },
    announce: {
      description: "Play an announcement on the column's speaker (audio media fetched first, or a text spoken), in a playback mode, until stopped.",
      params: ALARM_ANNOUNCE_SCHEMA,
      receipts: true,
    },
    stopAnnounce: { description: 'Stop the announcement.', params: NO_PARAMS_SCHEMA },
    talk: {
      description:
        'The voice of a call an agent answered (WebRTC, Opus): the platform offers its side; the column answers with a `talk` event, or a `talkEnd` if it cannot. Sent by the alarm worker, not through the command ledger: the call log is the record of a call.',
      params: ALARM_TALK_SCHEMA,
    },
    hangUp: { description: "The call's voice ended: the column hangs up.", params: ALARM_HANG_UP_SCHEMA },
  },
  heartbeatSeconds: 60,
});

export type AlarmStateMessage = FromSchema<typeof ALARM_STATE_SCHEMA>;
export type AlarmPressMessage = FromSchema<typeof ALARM_PRESS_SCHEMA>;
/** A column's answer to `talk`: its side of the call's voice. */
export interface AlarmTalkMessage {
  ts: string;
  kind: 'talk';
  callId: string;
  sdp: string;
}
/** A column hung up, or could not take the call's voice. */
export interface AlarmTalkEndMessage {
  ts: string;
  kind: 'talkEnd';
  callId: string;
  reason?: string;
}
/** What an alarm column sends on its `event` topic (ALARM_EVENT_SCHEMA). */
export type AlarmEventMessage = AlarmPressMessage | AlarmTalkMessage | AlarmTalkEndMessage;
export type AlarmTalkParams = FromSchema<typeof ALARM_TALK_SCHEMA>;
export type AlarmHangUpParams = FromSchema<typeof ALARM_HANG_UP_SCHEMA>;
export type AlarmVolumeParams = FromSchema<typeof ALARM_VOLUME_SCHEMA>;
/** The params of `announce` (ALARM_ANNOUNCE_SCHEMA). */
export interface AlarmAnnounceParams {
  contentType: BroadcastContentType;
  mode: PlaybackMode;
  items?: { mediaId: number; title: string; url: string; sha256: string; bytes: number; durationMs: number }[];
  text?: string;
}
/** The alarm column fields devices change, as DeviceStateChanged carries them. */
export type AlarmLiveFields = LiveFieldsOf<typeof ALARM_FAMILY>;
