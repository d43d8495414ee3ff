import type { FromSchema } from 'json-schema-to-ts';
import { DeviceType } from '../devices';
import { DeviceFamily, MqttService } from '../mqtt';
import { RADAR_EVENT_IDS, type RadarRow } from '../radar';
import { Role } from '../roles';
import { TIMESTAMP_SCHEMA, VERSION_SCHEMA, defineFamily, type JsonSchema, type LiveFieldsOf } from './declaration';

/** `state` of a radar (retained; sent again at least every heartbeat): its versions and its link. */
export const RADAR_STATE_SCHEMA = {
  title: 'RadarState',
  type: 'object',
  required: ['online'],
  properties: {
    online: { const: true },
    swver: VERSION_SCHEMA,
    hwver: VERSION_SCHEMA,
    mac: { type: 'string', pattern: '^([0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}$', description: 'Its network MAC address.' },
    rssi: { type: 'integer', minimum: -150, maximum: 0, description: 'Signal strength of its link, dBm.' },
  },
} as const satisfies JsonSchema;

/**
 * `event` of a radar (QoS 0 or 1, not retained): something moved in its field. Lamps whose own sensing schedule names
 * the radar hear it directly and rise by themselves; the radar worker counts it and raises the lamps of the radar's
 * groups' strategies through the command ledger.
 */
export const RADAR_DETECTION_SCHEMA = {
  title: 'RadarDetection',
  type: 'object',
  required: ['ts', 'event'],
  properties: {
    ts: TIMESTAMP_SCHEMA,
    event: { type: 'integer', enum: [...RADAR_EVENT_IDS], description: 'What it saw: 1 pedestrian, 2 non-motor vehicle, 3 motor vehicle.' },
  },
} as const satisfies JsonSchema;

/**
 * Radar sensors (device type 5, spec "radar"): pole-mounted presence radars. They take no commands; their worker
 * (worker-radar, a process of its own so that detection-to-lamp latency never waits behind other families' work)
 * counts their detections and raises the lamps of their groups' strategies.
 *
 * The spec gates no radar route: administrators and editors run them, as the LED screens.
 */
export const RADAR_FAMILY = defineFamily<RadarRow>()({
  family: DeviceFamily.Radar,
  title: 'Radar',
  deviceType: DeviceType.Radar,
  table: 'radar_terminal',
  worker: MqttService.WorkerRadar,
  queue: null,
  job: null,
  actions: {},
  eventRoles: [Role.Admin, Role.Editor],
  liveFields: ['networkStatus', 'count', 'radarRate', 'swver', 'hwver', 'mac', 'rssi', 'reportedAt', 'lastDetectionAt'],
  reports: { state: RADAR_STATE_SCHEMA, event: RADAR_DETECTION_SCHEMA },
  commands: {},
  heartbeatSeconds: 60,
});

export type RadarStateMessage = FromSchema<typeof RADAR_STATE_SCHEMA>;
export type RadarDetectionMessage = FromSchema<typeof RADAR_DETECTION_SCHEMA>;
/** The radar fields devices change, as DeviceStateChanged carries them. */
export type RadarLiveFields = LiveFieldsOf<typeof RADAR_FAMILY>;
