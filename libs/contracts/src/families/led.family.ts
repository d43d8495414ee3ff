import type { FromSchema } from 'json-schema-to-ts';
import type { LedRow } from '../led';
import { LED_BOUNDS } from '../led';
import { DeviceType, LedPlayMode, MediaType, ScreenState } from '../devices';
import { LED_TASK_LIMITS, LED_TASK_NAME_MAX } from '../led-tasks';
import { DeviceFamily, MqttService } from '../mqtt';
import { JobName, QueueName } from '../queues';
import { Button, Role } from '../roles';
import { CLOCK_SCHEMA, DATE_SCHEMA, TIMESTAMP_SCHEMA, VERSION_SCHEMA, defineFamily, type JsonSchema, type LiveFieldsOf } from './declaration';

const PERCENT_SCHEMA = { type: 'integer', minimum: 0, maximum: 100, description: 'Percent.' } as const satisfies JsonSchema;
const PIXELS_SCHEMA = { type: 'integer', minimum: LED_BOUNDS.pixels.min, maximum: LED_BOUNDS.pixels.max } as const satisfies JsonSchema;
const SCREEN_SCHEMA = {
  type: 'integer',
  enum: [ScreenState.Bright, ScreenState.Black],
  description: '1 bright, 2 black.',
} as const satisfies JsonSchema;
const TIME_ZONE_SCHEMA = { type: 'string', minLength: 1, maxLength: 64, description: 'An IANA time zone.' } as const satisfies JsonSchema;

const ID_SCHEMA = { type: 'integer', minimum: 1 } as const satisfies JsonSchema;

/** What a screen shows now: a medium pushed in real time, or one of its tasks in its periods. */
const LED_PLAYING_SCHEMA = {
  type: 'object',
  required: ['source', 'mediaId', 'name', 'taskId', 'since'],
  additionalProperties: false,
  properties: {
    source: { type: 'string', enum: ['realtime', 'task'] },
    mediaId: ID_SCHEMA,
    name: { type: 'string', minLength: 1, maxLength: 100 },
    taskId: { anyOf: [ID_SCHEMA, { type: 'null' }], description: 'The task it plays (null for real-time play).' },
    since: { ...TIMESTAMP_SCHEMA, description: 'When it began showing it.' },
  },
} as const satisfies JsonSchema;

/** The file a screen fetches and shows: where from, how it checks it, and what it is. */
const LED_FILE_SCHEMA = {
  type: 'object',
  required: ['mediaId', 'name', 'type', 'url', 'sha256', 'bytes', 'width', 'height'],
  additionalProperties: false,
  properties: {
    mediaId: ID_SCHEMA,
    name: { type: 'string', minLength: 1, maxLength: 100 },
    type: { type: 'integer', enum: [MediaType.Picture, MediaType.Video], description: '1 picture, 2 video.' },
    url: { type: 'string', maxLength: 2048, description: 'A short-lived signed HTTP(S) link to the file.' },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'The file is used only if it matches.' },
    bytes: { type: 'integer', minimum: 1, maximum: 536_870_912 },
    width: PIXELS_SCHEMA,
    height: PIXELS_SCHEMA,
    duration: { type: 'number', exclusiveMinimum: 0, description: 'Seconds (a video).' },
  },
} as const satisfies JsonSchema;

/** `play` (real-time play): fetch the file, ack once it is in and checked, then show it until told otherwise. */
export const LED_PLAY_SCHEMA = {
  type: 'object',
  required: ['file'],
  additionalProperties: false,
  properties: { file: LED_FILE_SCHEMA },
} as const satisfies JsonSchema;

/** `task`: keep this task (by its id, a new one replacing the old): fetch its file, then play it in its periods. */
export const LED_TASK_SCHEMA = {
  type: 'object',
  required: ['taskId', 'name', 'playMode', 'timeZone', 'timePeriods', 'taskPeriods', 'file'],
  additionalProperties: false,
  properties: {
    taskId: ID_SCHEMA,
    name: { type: 'string', minLength: 1, maxLength: LED_TASK_NAME_MAX },
    playMode: {
      type: 'integer',
      enum: [LedPlayMode.Synchronous, LedPlayMode.Asynchronous],
      description: '1 synchronous (every screen at the same point of a video, by the clock), 2 asynchronous (each from when its period began).',
    },
    timeZone: { type: 'string', minLength: 1, maxLength: 64, description: "The zone its periods are read in (the screen record's)." },
    timePeriods: {
      type: 'array',
      minItems: 1,
      maxItems: LED_TASK_LIMITS.timePeriods,
      items: { type: 'object', required: ['start', 'end'], additionalProperties: false, properties: { start: CLOCK_SCHEMA, end: CLOCK_SCHEMA } },
    },
    taskPeriods: {
      type: 'array',
      minItems: 1,
      maxItems: LED_TASK_LIMITS.taskPeriods,
      items: {
        type: 'object',
        required: ['startDate', 'endDate'],
        additionalProperties: false,
        properties: { startDate: DATE_SCHEMA, endDate: DATE_SCHEMA },
      },
    },
    file: LED_FILE_SCHEMA,
  },
} as const satisfies JsonSchema;

/** `forgetTask`: drop a task (deleted in the console). */
export const LED_FORGET_TASK_SCHEMA = {
  type: 'object',
  required: ['taskId'],
  additionalProperties: false,
  properties: { taskId: ID_SCHEMA },
} as const satisfies JsonSchema;

/** `state` of an LED screen (retained; sent again at least every heartbeat): what it shows and how. */
export const LED_STATE_SCHEMA = {
  title: 'LedState',
  type: 'object',
  required: ['online', 'brightness', 'volume', 'screen'],
  properties: {
    online: { const: true },
    brightness: PERCENT_SCHEMA,
    volume: PERCENT_SCHEMA,
    screen: SCREEN_SCHEMA,
    width: { ...PIXELS_SCHEMA, description: "The panel's width, pixels." },
    height: { ...PIXELS_SCHEMA, description: "The panel's height, pixels." },
    timeZone: { ...TIME_ZONE_SCHEMA, description: 'The time zone its clock runs in.' },
    clock: { ...TIMESTAMP_SCHEMA, description: 'Its clock now (with its offset).' },
    ipAddress: { type: 'string', maxLength: 45 },
    hardwareVersion: VERSION_SCHEMA,
    softwareVersion: VERSION_SCHEMA,
    playing: { anyOf: [LED_PLAYING_SCHEMA, { type: 'null' }], description: 'What it shows now; null when nothing.' },
  },
} as const satisfies JsonSchema;

export const LED_BRIGHTNESS_SCHEMA = {
  type: 'object',
  required: ['brightness'],
  additionalProperties: false,
  properties: { brightness: PERCENT_SCHEMA },
} as const satisfies JsonSchema;

export const LED_VOLUME_SCHEMA = {
  type: 'object',
  required: ['volume'],
  additionalProperties: false,
  properties: { volume: PERCENT_SCHEMA },
} as const satisfies JsonSchema;

export const LED_SCREEN_SCHEMA = {
  type: 'object',
  required: ['state'],
  additionalProperties: false,
  properties: { state: SCREEN_SCHEMA },
} as const satisfies JsonSchema;

/** `syncTime`: the screen sets its clock to `utc` and runs it in `timeZone` (its record's). */
export const LED_SYNC_TIME_SCHEMA = {
  type: 'object',
  required: ['timeZone', 'utc'],
  additionalProperties: false,
  properties: { timeZone: TIME_ZONE_SCHEMA, utc: { ...TIMESTAMP_SCHEMA, description: 'The platform clock when the command was made.' } },
} as const satisfies JsonSchema;

const NO_PARAMS = { type: 'object', additionalProperties: false, properties: {} } as const satisfies JsonSchema;

/**
 * LED screens (device type 4, spec "LED screen"): pole-mounted display panels. Their own worker and queue; the console
 * sets their brightness and volume, makes them bright or black, reboots them and sets their clocks.
 *
 * Buttons (the spec names none for LED): brightness, volume and the time sync are settings of the screen (Edit); the
 * screen bright or black and a reboot switch what it shows (Open and close, as a lamp's on and off).
 */
export const LED_FAMILY = defineFamily<LedRow>()({
  family: DeviceFamily.Led,
  title: 'LED screen',
  deviceType: DeviceType.LedScreen,
  table: 'led_screen',
  worker: MqttService.WorkerLed,
  queue: QueueName.LedTasks,
  job: JobName.DistributeLedDispatch,
  actions: {
    brightness: Button.Edit,
    volume: Button.Edit,
    syncTime: Button.Edit,
    screen: Button.OpenAndClose,
    reboot: Button.OpenAndClose,
    // Real-time play switches what it shows (Open and close); a task publication adds one (Add), a deleted task is
    // dropped (Delete).
    play: Button.OpenAndClose,
    stopPlay: Button.OpenAndClose,
    task: Button.Add,
    forgetTask: Button.Delete,
  },
  // The spec gates no LED route: administrators and editors run the screens (visitors do not see them).
  eventRoles: [Role.Admin, Role.Editor],
  liveFields: ['networkStatus', 'brightness', 'volume', 'screen', 'clockZone', 'hardwareVersion', 'softwareVersion', 'reportedAt', 'playing'],
  reports: { state: LED_STATE_SCHEMA },
  commands: {
    brightness: { description: 'Set the brightness, percent.', params: LED_BRIGHTNESS_SCHEMA },
    volume: { description: 'Set the volume, percent.', params: LED_VOLUME_SCHEMA },
    screen: { description: 'Make the screen bright (1) or black (2); it keeps what it plays.', params: LED_SCREEN_SCHEMA },
    reboot: { description: 'Restart the screen; it drops off and reports again when it is back.', params: NO_PARAMS },
    syncTime: { description: "Set the screen's clock and its time zone.", params: LED_SYNC_TIME_SCHEMA },
    play: {
      description:
        'Real-time play: fetch the file (receipts as it comes in), ack once it is in and checked, then show it until another play or stopPlay.',
      params: LED_PLAY_SCHEMA,
      receipts: true,
    },
    stopPlay: { description: 'End real-time play: back to its tasks.', params: NO_PARAMS },
    task: {
      description:
        'Keep this task: fetch its file (receipts as it comes in), ack once it is in and checked, then play it in its periods by its clock.',
      params: LED_TASK_SCHEMA,
      receipts: true,
    },
    forgetTask: { description: 'Drop a task.', params: LED_FORGET_TASK_SCHEMA },
  },
  heartbeatSeconds: 60,
});

export type LedStateMessage = FromSchema<typeof LED_STATE_SCHEMA>;
export type LedBrightnessParams = FromSchema<typeof LED_BRIGHTNESS_SCHEMA>;
export type LedVolumeParams = FromSchema<typeof LED_VOLUME_SCHEMA>;
export type LedScreenParams = FromSchema<typeof LED_SCREEN_SCHEMA>;
export type LedSyncTimeParams = FromSchema<typeof LED_SYNC_TIME_SCHEMA>;
export type LedPlayParams = FromSchema<typeof LED_PLAY_SCHEMA>;
export type LedTaskParams = FromSchema<typeof LED_TASK_SCHEMA>;
export type LedForgetTaskParams = FromSchema<typeof LED_FORGET_TASK_SCHEMA>;
/** The LED screen fields devices and dispatches change, as DeviceStateChanged carries them. */
export type LedLiveFields = LiveFieldsOf<typeof LED_FAMILY>;
