import type { FromSchema } from 'json-schema-to-ts';
import type { LedRow } from '../led';
import { LED_BOUNDS } from '../led';
import { DeviceType, ScreenState } from '../devices';
import { DeviceFamily, MqttService } from '../mqtt';
import { JobName, QueueName } from '../queues';
import { Button, Role } from '../roles';
import { TIMESTAMP_SCHEMA, VERSION_SCHEMA, defineFamily, type JsonSchema, type LiveFieldsOf } from './declaration';

const PERCENT_SCHEMA = { type: 'integer', minimum: 0, maximum: 100, description: 'Percent.' } as const satisfies JsonSchema;
const PIXELS_SCHEMA = { type: 'integer', minimum: LED_BOUNDS.pixels.min, maximum: LED_BOUNDS.pixels.max } as const satisfies JsonSchema;
const SCREEN_SCHEMA = {
  type: 'integer',
  enum: [ScreenState.Bright, ScreenState.Black],
  description: '1 bright, 2 black.',
} as const satisfies JsonSchema;
const TIME_ZONE_SCHEMA = { type: 'string', minLength: 1, maxLength: 64, description: 'An IANA time zone.' } as const satisfies JsonSchema;

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
  },
  // The spec gates no LED route: administrators and editors run the screens (visitors do not see them).
  eventRoles: [Role.Admin, Role.Editor],
  liveFields: ['networkStatus', 'brightness', 'volume', 'screen', 'clockZone', 'hardwareVersion', 'softwareVersion', 'reportedAt'],
  reports: { state: LED_STATE_SCHEMA },
  commands: {
    brightness: { description: 'Set the brightness, percent.', params: LED_BRIGHTNESS_SCHEMA },
    volume: { description: 'Set the volume, percent.', params: LED_VOLUME_SCHEMA },
    screen: { description: 'Make the screen bright (1) or black (2); it keeps what it plays.', params: LED_SCREEN_SCHEMA },
    reboot: { description: 'Restart the screen; it drops off and reports again when it is back.', params: NO_PARAMS },
    syncTime: { description: "Set the screen's clock and its time zone.", params: LED_SYNC_TIME_SCHEMA },
  },
  heartbeatSeconds: 60,
});

export type LedStateMessage = FromSchema<typeof LED_STATE_SCHEMA>;
export type LedBrightnessParams = FromSchema<typeof LED_BRIGHTNESS_SCHEMA>;
export type LedVolumeParams = FromSchema<typeof LED_VOLUME_SCHEMA>;
export type LedScreenParams = FromSchema<typeof LED_SCREEN_SCHEMA>;
export type LedSyncTimeParams = FromSchema<typeof LED_SYNC_TIME_SCHEMA>;
/** The LED screen fields devices and dispatches change, as DeviceStateChanged carries them. */
export type LedLiveFields = LiveFieldsOf<typeof LED_FAMILY>;
