import type { FromSchema } from 'json-schema-to-ts';
import { DeviceType } from '../devices';
import type { LampRow } from '../lighting';
import { DeviceFamily, MqttService } from '../mqtt';
import { JobName, QueueName } from '../queues';
import { Button, Role } from '../roles';
import { FAULT_EVENT_SCHEMA, TIMESTAMP_SCHEMA, defineFamily, type JsonSchema, type LiveFieldsOf, VERSION_SCHEMA } from './declaration';

const LEVEL_SCHEMA = { type: 'integer', enum: [0, 20, 40, 60, 80, 100] } as const satisfies JsonSchema;
const CLOCK_TIME_SCHEMA = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' } as const satisfies JsonSchema;

/** `state` of a single lamp (retained), as the lamp reports it. */
export const LAMP_STATE_SCHEMA = {
  title: 'LampState',
  type: 'object',
  required: ['online', 'on', 'level'],
  properties: {
    online: { const: true },
    on: { type: 'boolean' },
    level: LEVEL_SCHEMA,
    gatewayId: { type: 'string', maxLength: 64, description: 'The lamp gateway the lamp hangs off.' },
    hardwareVersion: VERSION_SCHEMA,
    softwareVersion: VERSION_SCHEMA,
    totalIlluminationHours: { type: 'integer', minimum: 0, maximum: 2147483647, description: 'Hours lit since installation.' },
  },
} as const satisfies JsonSchema;

/** `telemetry` of a single lamp (strip lights send the same readings). */
export const LIGHT_TELEMETRY_SCHEMA = {
  title: 'LightTelemetry',
  description:
    'Readings with the time they were taken. The platform integrates `power` over the time between readings into the ' +
    "device's energy, so `ts` must be when the reading was taken; a reading older than the last one stored is not counted again.",
  type: 'object',
  required: ['ts', 'voltage', 'current', 'power', 'powerFactor', 'signal'],
  properties: {
    ts: TIMESTAMP_SCHEMA,
    voltage: { type: 'number', description: 'Volts.' },
    current: { type: 'number', description: 'Amperes.' },
    power: { type: 'number', description: 'Watts.' },
    powerFactor: { type: 'number', minimum: 0, maximum: 1 },
    signal: { type: 'number', description: 'Signal strength, dBm.' },
  },
} as const satisfies JsonSchema;

/** The `schedule` command's params (LampSchedule in strategy.ts); lamps and strip lights run it by their own clock. */
export const SCHEDULE_PARAMS_SCHEMA = {
  type: 'object',
  description:
    '`rules.mode` 0 sunrise/sunset (modeData `{sunsetOffset, sunriseOffset, level}`, minutes), 1 date (`{startDate, endDate}`), ' +
    "2 week (`{weekdays: ['1'..'7']}`, none = all), 3 sensing (`{radarCodes, brightness, holdSeconds}`). `periods` are local " +
    '`HH:mm` times of a night (noon to the next noon) in `place.timeZone`. See docs/lighting-strategies.md.',
  required: ['strategyId', 'name', 'rules', 'place'],
  properties: {
    strategyId: { type: 'integer' },
    name: { type: 'string' },
    rules: {
      type: 'object',
      required: ['mode', 'modeData', 'periods'],
      properties: {
        mode: { type: 'integer', enum: [0, 1, 2, 3] },
        modeData: { type: 'object' },
        periods: {
          type: 'array',
          maxItems: 12,
          items: {
            type: 'object',
            required: ['start', 'end', 'level'],
            properties: { start: CLOCK_TIME_SCHEMA, end: CLOCK_TIME_SCHEMA, level: LEVEL_SCHEMA },
          },
        },
      },
    },
    place: {
      type: 'object',
      required: ['latitude', 'longitude', 'timeZone'],
      properties: {
        latitude: { type: 'number' },
        longitude: { type: 'number' },
        timeZone: { type: 'string', description: 'IANA time zone, e.g. Asia/Shanghai.' },
      },
    },
  },
} as const satisfies JsonSchema;

/** Single lamps (device type 1): switched, dimmed, synchronized and given schedules through the lamp distribution queue. */
export const LAMP_FAMILY = defineFamily<LampRow>()({
  family: DeviceFamily.Lamp,
  title: 'Single lamp',
  deviceType: DeviceType.SingleLamp,
  table: 'lamp',
  worker: MqttService.WorkerLighting,
  queue: QueueName.LampDistribution,
  job: JobName.DistributeLampDispatch,
  // The spec names no dimming button: changing the light level falls under "Open and close", and so does a strategy,
  // which decides when lamps open and close.
  actions: { on: Button.OpenLamp, off: Button.CloseLamp, dim: Button.OpenAndClose, sync: Button.SyncData, schedule: Button.OpenAndClose },
  // Smart lamp pages are admin only (spec section 6).
  eventRoles: [Role.Admin],
  liveFields: [
    'status',
    'networkStatus',
    'switchState',
    'bri',
    'telemetry',
    'faults',
    'reportedAt',
    'gatewayId',
    'hardwareVersion',
    'softwareVersion',
    'totalIlluminationHours',
  ],
  reports: { state: LAMP_STATE_SCHEMA, telemetry: LIGHT_TELEMETRY_SCHEMA, event: FAULT_EVENT_SCHEMA },
  commands: {
    switch: {
      description: 'Switch the lamp on or off.',
      params: { type: 'object', required: ['on'], additionalProperties: false, properties: { on: { type: 'boolean' } } },
    },
    dim: {
      description: 'Set a dimming level; 0 is off.',
      params: { type: 'object', required: ['level'], additionalProperties: false, properties: { level: LEVEL_SCHEMA } },
    },
    sync: {
      description:
        'Report the full state now: the lamp acks, then publishes its retained `state`. The platform shows the lamp as ' +
        'synchronizing (status -1) until that state arrives.',
      params: { type: 'object', additionalProperties: false },
    },
    schedule: {
      description:
        'Store this schedule, replacing any earlier one, and run it by the lamp’s own clock from now on (publishing `state` at ' +
        'each change), so lighting goes on while the platform or the network is down.',
      params: SCHEDULE_PARAMS_SCHEMA,
    },
  },
  heartbeatSeconds: 300,
});

export type LampStateMessage = FromSchema<typeof LAMP_STATE_SCHEMA>;
export type LampTelemetryMessage = FromSchema<typeof LIGHT_TELEMETRY_SCHEMA>;
/** The lamp fields devices and dispatches change, as DeviceStateChanged carries them. */
export type LampLiveFields = LiveFieldsOf<typeof LAMP_FAMILY>;
