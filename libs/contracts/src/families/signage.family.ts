import type { FromSchema } from 'json-schema-to-ts';
import { DeviceFamily, MqttService } from '../mqtt';
import { JobName, QueueName } from '../queues';
import { Button, Role } from '../roles';
import { SCREEN_ORIENTATIONS, SIGNAGE_SCREEN_STATES, SIGNAGE_SERIAL_MAX, type SignageDeviceRow } from '../signage';
import { SIGNAGE_PLAY_EVENT_SCHEMA, SIGNAGE_PUBLISH_SCHEMA } from './signage-publish';
import { VERSION_SCHEMA, defineFamily, NO_PARAMS_SCHEMA, VOLUME_SCHEMA, type JsonSchema, type LiveFieldsOf } from './declaration';

/** The ad a player shows now. */
const CURRENT_AD_SCHEMA = {
  title: 'SignageCurrentAd',
  type: 'object',
  required: ['id', 'name'],
  additionalProperties: false,
  properties: { id: { type: 'integer', minimum: 1 }, name: { type: 'string', minLength: 1, maxLength: 128 } },
} as const satisfies JsonSchema;

/** `state` of a floor screen (retained): its sound, its screen, what it shows, and what it is. */
export const SIGNAGE_STATE_SCHEMA = {
  title: 'SignageState',
  type: 'object',
  required: ['online', 'volume', 'muted', 'screenState', 'orientation'],
  properties: {
    online: { const: true },
    volume: { ...VOLUME_SCHEMA, description: 'Percent; kept while muted.' },
    muted: { type: 'boolean' },
    screenState: { type: 'string', enum: [...SIGNAGE_SCREEN_STATES], description: 'normal display, black screen or bright screen.' },
    orientation: { type: 'string', enum: [...SCREEN_ORIENTATIONS], description: "'9:16' portrait or '16:9' landscape." },
    resolution: { type: 'string', pattern: '^[1-9]\\d{0,4}x[1-9]\\d{0,4}$', description: "'{width}x{height}' in pixels." },
    currentAd: { anyOf: [CURRENT_AD_SCHEMA, { type: 'null' }], description: 'The ad it shows now; null when none.' },
    serialNumber: { type: 'string', maxLength: SIGNAGE_SERIAL_MAX },
    softwareVersion: VERSION_SCHEMA,
  },
} as const satisfies JsonSchema;

/** The `volume` command's params. */
export const SIGNAGE_VOLUME_SCHEMA = {
  type: 'object',
  required: ['volume'],
  additionalProperties: false,
  properties: { volume: VOLUME_SCHEMA },
} as const satisfies JsonSchema;

/** The `screenshot` command's params: where to upload the picture, and until when that link works. */
export const SIGNAGE_SCREENSHOT_SCHEMA = {
  type: 'object',
  required: ['url', 'validUntil'],
  additionalProperties: false,
  properties: {
    url: {
      type: 'string',
      maxLength: 2048,
      description: 'A short-lived signed HTTP(S) link on the upload port: PUT (or POST) a JPEG or PNG of the screen, at most 5 MB, as the body.',
    },
    validUntil: { type: 'string', format: 'date-time', description: 'The link is refused after this time.' },
  },
} as const satisfies JsonSchema;

/**
 * Floor-standing advertising screens (spec "floor-screen"): players with records of their own (`signage_device`,
 * keyed by id with their code), on the ad-publishing queue and their own worker. The console sets their volume, mutes
 * and unmutes them, reboots them and asks them for a screenshot.
 */
export const SIGNAGE_FAMILY = defineFamily<SignageDeviceRow>()({
  family: DeviceFamily.Signage,
  title: 'Floor screen',
  deviceType: null,
  table: 'signage_device',
  worker: MqttService.WorkerSignage,
  queue: QueueName.AdPublishing,
  job: JobName.DistributeSignageDispatch,
  // The sound is a setting of the player (Edit); a reboot powers it off and on (Open and close); a screenshot only
  // fetches a fresh picture of what it shows (Refresh).
  actions: {
    volume: Button.Edit,
    mute: Button.Edit,
    unmute: Button.Edit,
    reboot: Button.OpenAndClose,
    screenshot: Button.Refresh,
    // Publishing an ad plan adds a publication (Add).
    publish: Button.Add,
  },
  eventRoles: [Role.Admin, Role.Editor],
  liveFields: [
    'networkStatus',
    'volume',
    'muted',
    'screenState',
    'orientation',
    'resolution',
    'currentAd',
    'serialNumber',
    'softwareVersion',
    'reportedAt',
    // Written by the gateway when a screenshot is uploaded (not by the worker's reports).
    'lastScreenshotAt',
  ],
  reports: { state: SIGNAGE_STATE_SCHEMA, event: SIGNAGE_PLAY_EVENT_SCHEMA },
  commands: {
    volume: { description: 'Set the volume (it stays muted if it was).', params: SIGNAGE_VOLUME_SCHEMA },
    mute: { description: 'Mute the sound, keeping the volume.', params: NO_PARAMS_SCHEMA },
    unmute: { description: 'Sound again at the kept volume.', params: NO_PARAMS_SCHEMA },
    reboot: {
      description: 'Restart the player: it acks, leaves (its Last Will or an offline state) and reports its state again once up.',
      params: NO_PARAMS_SCHEMA,
    },
    screenshot: { description: 'Upload a picture of what the screen shows now to the given link.', params: SIGNAGE_SCREENSHOT_SCHEMA },
    publish: {
      description: 'Keep this ad plan: fetch its files (receipts as they come in), ack once all are in and checked, then play it in its periods.',
      params: SIGNAGE_PUBLISH_SCHEMA,
      receipts: true,
    },
  },
  heartbeatSeconds: 60,
});

export type SignageStateMessage = FromSchema<typeof SIGNAGE_STATE_SCHEMA>;
export type SignageVolumeParams = FromSchema<typeof SIGNAGE_VOLUME_SCHEMA>;
export type SignageScreenshotParams = FromSchema<typeof SIGNAGE_SCREENSHOT_SCHEMA>;
/** The floor-screen fields devices and dispatches change, as DeviceStateChanged carries them. */
export type SignageLiveFields = LiveFieldsOf<typeof SIGNAGE_FAMILY>;
