import type { FromSchema } from 'json-schema-to-ts';
import type { TerminalRow } from '../broadcast';
import { TerminalOccupancy } from '../broadcast';
import { BROADCAST_PERIODS_MAX, TASK_PRIORITY } from '../broadcast-programme';

import { PlaybackMode } from '../statuses';
import { DeviceType, WEEKDAYS } from '../devices';
import { DeviceFamily, MqttService } from '../mqtt';
import { JobName, QueueName } from '../queues';
import { Button, Role } from '../roles';
import {
  CLOCK_SCHEMA,
  DATE_SCHEMA,
  TIMESTAMP_SCHEMA,
  VERSION_SCHEMA,
  defineFamily,
  NO_PARAMS_SCHEMA,
  VOLUME_SCHEMA,
  type JsonSchema,
  type LiveFieldsOf,
} from './declaration';

const TITLE_SCHEMA = { type: 'string', minLength: 1, maxLength: 128 } as const satisfies JsonSchema;
const TASK_ID_SCHEMA = { type: 'string', maxLength: 64 } as const satisfies JsonSchema;
const PRIORITY_SCHEMA = {
  type: 'integer',
  minimum: TASK_PRIORITY.min,
  maximum: TASK_PRIORITY.max,
  description: '1 (first) to 10.',
} as const satisfies JsonSchema;

/** When a scheduled task plays (BroadcastSchedule): the terminal keeps it and runs it by its own clock. */
export const BROADCAST_SCHEDULE_SCHEMA = {
  title: 'BroadcastSchedule',
  type: 'object',
  required: ['weekdays', 'periods', 'startDate', 'endDate'],
  additionalProperties: false,
  properties: {
    weekdays: {
      type: 'array',
      maxItems: 7,
      items: { type: 'string', enum: [...WEEKDAYS] },
      description: "'1' Monday to '7' Sunday; none: every day.",
    },
    periods: {
      type: 'array',
      minItems: 1,
      maxItems: BROADCAST_PERIODS_MAX,
      items: { type: 'object', required: ['start', 'end'], additionalProperties: false, properties: { start: CLOCK_SCHEMA, end: CLOCK_SCHEMA } },
      description: "Ordered, not overlapping, within a calendar day; an end of '00:00' is midnight at the day's end.",
    },
    startDate: DATE_SCHEMA,
    endDate: { anyOf: [DATE_SCHEMA, { type: 'null' }], description: 'The last day it plays (included); null: until it is cancelled.' },
  },
} as const satisfies JsonSchema;

/** One medium of a task: where the terminal downloads it, how to check it, and how long it plays. */
export const TASK_MEDIUM_SCHEMA = {
  type: 'object',
  required: ['mediaId', 'title', 'url', 'sha256', 'bytes', 'durationMs'],
  additionalProperties: false,
  properties: {
    mediaId: { type: 'integer', minimum: 1 },
    title: TITLE_SCHEMA,
    url: { type: 'string', maxLength: 2048, description: 'A short-lived signed HTTP(S) link to the MP3 file.' },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'The file is played only if it matches.' },
    bytes: { type: 'integer', minimum: 1, maximum: 52_428_800 },
    durationMs: { type: 'integer', minimum: 1 },
  },
} as const satisfies JsonSchema;

/**
 * The `task` command's params: a broadcast task the terminal keeps (replacing one of the same id). It downloads the
 * media, reporting how far it got, then plays them now (schedule null: an immediate broadcast) or in the schedule's
 * periods; the task of the first priority under way plays, the others wait or play on after it.
 */
export const TERMINAL_TASK_SCHEMA = {
  type: 'object',
  required: ['taskId', 'title', 'priority', 'mode', 'timeZone', 'items', 'schedule'],
  additionalProperties: false,
  properties: {
    taskId: TASK_ID_SCHEMA,
    title: TITLE_SCHEMA,
    priority: PRIORITY_SCHEMA,
    volume: { ...VOLUME_SCHEMA, description: 'The broadcast volume while it plays; the terminal keeps its own without it.' },
    mode: { type: 'string', enum: [PlaybackMode.Normal, PlaybackMode.ListCycle, PlaybackMode.Random] },
    timeZone: { type: 'string', maxLength: 64, description: "The IANA time zone of the terminal's clock (its region's)." },
    items: { type: 'array', minItems: 1, maxItems: 200, items: TASK_MEDIUM_SCHEMA },
    schedule: { anyOf: [BROADCAST_SCHEDULE_SCHEMA, { type: 'null' }] },
  },
} as const satisfies JsonSchema;

/** The `cancelTask` command's params: the terminal forgets the task (and stops it if it plays it). */
export const TERMINAL_CANCEL_TASK_SCHEMA = {
  type: 'object',
  required: ['taskId'],
  additionalProperties: false,
  properties: { taskId: TASK_ID_SCHEMA },
} as const satisfies JsonSchema;

/** What `taskControl` does to one task, in the device's words (the console's "cancel pause" is `resume`). */
export const TERMINAL_TASK_CONTROLS = ['play', 'pause', 'resume', 'stop'] as const;

/**
 * The `taskControl` command's params: the spec's play actions on one task the terminal holds, leaving its other tasks
 * as they are. `play` starts it now, outside its periods too, for one run of its list (it still yields to a task of a
 * first priority); `pause` and `resume` pause it wherever it is, now or when it next plays (its timetable runs on);
 * `stop` ends it until its next period (an immediate broadcast: forgets it). A terminal not holding the task refuses
 * the command ('unknown task').
 */
export const TERMINAL_TASK_CONTROL_SCHEMA = {
  type: 'object',
  required: ['taskId', 'action'],
  additionalProperties: false,
  properties: {
    taskId: { ...TASK_ID_SCHEMA, description: 'A task the terminal holds; one it does not hold is refused with `error: "unknown task"`.' },
    action: {
      type: 'string',
      enum: [...TERMINAL_TASK_CONTROLS],
      description:
        '`play`: now, outside its periods too, its list once from the top (an immediate broadcast starts again), still ' +
        'yielding to a task of a first priority; `pause` / `resume`: paused wherever it plays, now or later, until resumed ' +
        '(its timetable runs on); `stop`: ends it until its next period (an immediate broadcast is forgotten).',
    },
  },
} as const satisfies JsonSchema;

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
    media: { ...TITLE_SCHEMA, description: 'The medium of the task it plays now.' },
    priority: { ...PRIORITY_SCHEMA, description: "The task's priority." },
  },
} as const satisfies JsonSchema;

/** How far the terminal has got with the media of the last task it was given. */
export const TERMINAL_DOWNLOAD_SCHEMA = {
  title: 'TerminalDownload',
  type: 'object',
  required: ['taskId', 'received', 'total', 'done'],
  additionalProperties: false,
  properties: {
    taskId: TASK_ID_SCHEMA,
    received: { type: 'integer', minimum: 0, description: 'Bytes received, over every medium of the task.' },
    total: { type: 'integer', minimum: 0, description: 'Bytes of every medium of the task.' },
    done: { type: 'boolean', description: 'Every medium is in and matches its checksum.' },
    error: { type: 'string', maxLength: 200, description: 'Why it gave up; absent otherwise.' },
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
    tasks: { type: 'array', maxItems: 500, items: TASK_ID_SCHEMA, description: 'The tasks it holds.' },
    download: { anyOf: [TERMINAL_DOWNLOAD_SCHEMA, { type: 'null' }] },
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
    task: Button.OpenAndClose,
    cancelTask: Button.OpenAndClose,
    taskControl: Button.OpenAndClose,
  },
  eventRoles: [Role.Admin, Role.Editor, Role.Visit],
  liveFields: [
    'networkStatus',
    'occupancy',
    'playing',
    'heldTasks',
    'download',
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
    pause: { description: 'Pause what it plays; it stays occupied.', params: NO_PARAMS_SCHEMA },
    resume: { description: 'Cancel the pause.', params: NO_PARAMS_SCHEMA },
    stop: { description: 'Stop what it plays or carries; it is idle (a scheduled task plays again in its next period).', params: NO_PARAMS_SCHEMA },
    task: { description: 'Keep a broadcast task: download its media, then play them now or in its periods.', params: TERMINAL_TASK_SCHEMA },
    cancelTask: { description: 'Forget a broadcast task (stopping it if it plays).', params: TERMINAL_CANCEL_TASK_SCHEMA },
    taskControl: {
      description: 'Play, pause, resume or stop one task it holds, leaving its other tasks as they are.',
      params: TERMINAL_TASK_CONTROL_SCHEMA,
    },
  },
  heartbeatSeconds: 60,
});

export type TerminalStateMessage = FromSchema<typeof TERMINAL_STATE_SCHEMA>;
export type TerminalVolumeParams = FromSchema<typeof TERMINAL_VOLUME_SCHEMA>;
export type TerminalPlayParams = FromSchema<typeof TERMINAL_PLAY_SCHEMA>;
export type TerminalTaskParams = FromSchema<typeof TERMINAL_TASK_SCHEMA>;
export type TerminalCancelTaskParams = FromSchema<typeof TERMINAL_CANCEL_TASK_SCHEMA>;
export type TerminalTaskControlParams = FromSchema<typeof TERMINAL_TASK_CONTROL_SCHEMA>;
/** The terminal fields devices and dispatches change, as DeviceStateChanged carries them. */
export type TerminalLiveFields = LiveFieldsOf<typeof BROADCAST_FAMILY>;
