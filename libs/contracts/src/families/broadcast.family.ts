import type { FromSchema } from 'json-schema-to-ts';
import type { TerminalRow } from '../broadcast';
import { TerminalOccupancy } from '../broadcast';
import { NUMBER_BOUNDS } from '../bounds';
import { DeviceType } from '../devices';
import { DeviceFamily, MqttService } from '../mqtt';
import { JobName, QueueName } from '../queues';
import { Button, Role } from '../roles';
import { TIMESTAMP_SCHEMA, VERSION_SCHEMA, defineFamily, type JsonSchema, type LiveFieldsOf } from './declaration';

const VOLUME_SCHEMA = {
  type: 'integer',
  minimum: NUMBER_BOUNDS.volume.min,
  maximum: NUMBER_BOUNDS.volume.max,
  description: 'Percent.',
} as const satisfies JsonSchema;
const TITLE_SCHEMA = { type: 'string', minLength: 1, maxLength: 128 } as const satisfies JsonSchema;
const TASK_ID_SCHEMA = { type: 'string', maxLength: 64 } as const satisfies JsonSchema;

/** What an occupied terminal plays (a task, a title) or carries (a call). */
export const TERMINAL_PLAYING_SCHEMA = {
  title: 'TerminalPlaying',
  type: 'object',
  required: ['title', 'since', 'paused'],
  additionalProperties: false,
  properties: {
    title: { ...TITLE_SCHEMA, description: 'The programme, or the caller of an intercom call.' },
    taskId: { anyOf: [TASK_ID_SCHEMA, { type: 'null' }], description: 'The broadcast task it plays; null or absent otherwise.' },
    since: TIMESTAMP_SCHEMA,
    paused: { type: 'boolean' },
  },
} as const satisfies JsonSchema;

/** `state` of a broadcast terminal (retained): whether it is busy, with what, and its two volumes. */
export const TERMINAL_STATE_SCHEMA = {
  title: 'TerminalState',
  type: 'object',
  required: ['online', 'occupancy', 'broadcastVolume', 'interphoneVolume'],
  properties: {
    online: { const: true },
    occupancy: {
      type: 'string',
      enum: [TerminalOccupancy.Idle, TerminalOccupancy.Task, TerminalOccupancy.Intercom],
      description: 'idle, task (playing a broadcast) or intercom (carrying a call); the platform shows a busy terminal as "occupy".',
    },
    playing: {
      anyOf: [TERMINAL_PLAYING_SCHEMA, { type: 'null' }],
      description: 'What it plays or carries while occupied; null or absent when idle.',
    },
    broadcastVolume: VOLUME_SCHEMA,
    interphoneVolume: VOLUME_SCHEMA,
    hardwareVersion: VERSION_SCHEMA,
    softwareVersion: VERSION_SCHEMA,
  },
} as const satisfies JsonSchema;

/** The `volume` command's params: one or both volumes. */
export const TERMINAL_VOLUME_SCHEMA = {
  type: 'object',
  minProperties: 1,
  additionalProperties: false,
  properties: { broadcastVolume: VOLUME_SCHEMA, interphoneVolume: VOLUME_SCHEMA },
} as const satisfies JsonSchema;

/** The `play` command's params: a title (a task's, or one sent on its own), for a time or until stopped. */
export const TERMINAL_PLAY_SCHEMA = {
  type: 'object',
  required: ['title'],
  additionalProperties: false,
  properties: {
    title: TITLE_SCHEMA,
    taskId: TASK_ID_SCHEMA,
    durationSeconds: { type: 'integer', minimum: 1, maximum: 86_400, description: 'Plays this long, then is idle; until stopped without it.' },
  },
} as const satisfies JsonSchema;

const NO_PARAMS = { type: 'object', additionalProperties: false, properties: {} } as const satisfies JsonSchema;

/**
 * Broadcast terminals (device type 3, spec "broadcast equipment"): IP speakers on poles that play broadcast tasks and
 * carry intercom calls. Their own worker and queue; the console sets their volumes and pauses, resumes or stops what
 * they play.
 */
export const BROADCAST_FAMILY = defineFamily<TerminalRow>()({
  family: DeviceFamily.Broadcast,
  title: 'Broadcast terminal',
  deviceType: DeviceType.Broadcast,
  table: 'broadcast_terminal',
  worker: MqttService.WorkerBroadcast,
  queue: QueueName.BroadcastTasks,
  job: JobName.DistributeTerminalDispatch,
  // Volumes are settings of the terminal (Edit); playing and stopping what it plays is opening and closing its output.
  actions: {
    volume: Button.Edit,
    play: Button.OpenAndClose,
    pause: Button.OpenAndClose,
    cancelPause: Button.OpenAndClose,
    stop: Button.OpenAndClose,
  },
  eventRoles: [Role.Admin, Role.Editor, Role.Visit],
  liveFields: [
    'networkStatus',
    'occupancy',
    'playing',
    'broadcastVolume',
    'interphoneVolume',
    'hardwareVersion',
    'softwareVersion',
    'reportedAt',
    // Computed from the stored fields, announced with them.
    'status',
  ],
  reports: { state: TERMINAL_STATE_SCHEMA },
  commands: {
    volume: { description: 'Set the broadcast volume, the interphone volume, or both.', params: TERMINAL_VOLUME_SCHEMA },
    play: { description: 'Play a title now (occupied until it ends or is stopped).', params: TERMINAL_PLAY_SCHEMA },
    pause: { description: 'Pause what it plays; it stays occupied.', params: NO_PARAMS },
    resume: { description: 'Cancel the pause.', params: NO_PARAMS },
    stop: { description: 'Stop what it plays or carries; it is idle.', params: NO_PARAMS },
  },
  heartbeatSeconds: 60,
});

export type TerminalStateMessage = FromSchema<typeof TERMINAL_STATE_SCHEMA>;
export type TerminalVolumeParams = FromSchema<typeof TERMINAL_VOLUME_SCHEMA>;
export type TerminalPlayParams = FromSchema<typeof TERMINAL_PLAY_SCHEMA>;
/** The terminal fields devices and dispatches change, as DeviceStateChanged carries them. */
export type TerminalLiveFields = LiveFieldsOf<typeof BROADCAST_FAMILY>;
