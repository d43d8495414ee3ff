import type { FromSchema } from 'json-schema-to-ts';
import { DeviceType, LightEffectType, OnOffEffect, Zone } from '../devices';
import { DeviceFamily, MqttService } from '../mqtt';
import { JobName, QueueName } from '../queues';
import { Button, Role } from '../roles';
import type { StripRow } from '../strip';
import { FAULT_EVENT_SCHEMA, defineFamily, type JsonSchema, type LiveFieldsOf, VERSION_SCHEMA } from './declaration';
import { LIGHT_TELEMETRY_SCHEMA, SCHEDULE_PARAMS_SCHEMA } from './lamp.family';

const EFFECT_TYPE_SCHEMA = {
  type: 'integer',
  enum: [LightEffectType.OnOff, LightEffectType.Breathing, LightEffectType.ExplosiveFlash, LightEffectType.SetColour],
} as const satisfies JsonSchema;
const COLOR_SCHEMA = { type: 'string', pattern: '^#[0-9a-f]{6}$' } as const satisfies JsonSchema;
const ZONE_SCHEMA = { type: 'string', enum: [Zone.Left, Zone.Right] } as const satisfies JsonSchema;

/** What one zone of a strip light shows. */
export const STRIP_ZONE_SCHEMA = {
  title: 'StripZone',
  type: 'object',
  required: ['on', 'type', 'effect', 'color'],
  additionalProperties: false,
  properties: {
    on: { type: 'boolean' },
    type: { ...EFFECT_TYPE_SCHEMA, description: 'The effect type the zone runs: 1 plain on/off, 2 breathing, 3 explosive flash, 6 a set colour.' },
    effect: {
      anyOf: [{ type: 'integer', minimum: -3, maximum: 15 }, { type: 'null' }],
      description: 'The running effect (-1 lit or -2 dark for type 1, 1 to 7 breathing, 8 to 15 flashing); null for type 6.',
    },
    color: { ...COLOR_SCHEMA, description: '`#rrggbb`: the colour the zone lights (and breathes or flashes) in.' },
  },
} as const satisfies JsonSchema;

/** `state` of a strip light (retained), as the strip reports it. */
export const STRIP_STATE_SCHEMA = {
  title: 'StripState',
  type: 'object',
  required: ['online', 'bri', 'zones'],
  properties: {
    online: { const: true },
    bri: { type: 'integer', minimum: 0, maximum: 100, description: 'Brightness, percent.' },
    zones: { type: 'object', required: ['L', 'R'], properties: { L: STRIP_ZONE_SCHEMA, R: STRIP_ZONE_SCHEMA } },
    synchronizing: {
      type: 'boolean',
      description: 'True while the strip synchronizes its zones with its gateway; the platform labels it "synchronizing" (status -1).',
    },
    gatewayId: { type: 'string', maxLength: 64, description: 'The gateway the strip hangs off.' },
    hardwareVersion: VERSION_SCHEMA,
    softwareVersion: VERSION_SCHEMA,
  },
} as const satisfies JsonSchema;

/** The `effect` command's params: one light effect of spec section 3 on zone L, R or both. */
export const STRIP_EFFECT_SCHEMA = {
  type: 'object',
  required: ['type', 'zones'],
  additionalProperties: false,
  description:
    'Exactly the light effects of the spec: type 1 on/off with effect -1 on, -2 off or -3 switch (inverts each named zone); ' +
    'type 2 breathing with effect 1 to 7; type 3 explosive flash with effect 8 to 15; type 6 set colour with `color` and no effect. ' +
    'Breathing and flashing run in the zone’s colour; on/off keeps it. A strip refuses anything else with `ok: false`, `error: "bad command"`.',
  properties: {
    type: EFFECT_TYPE_SCHEMA,
    effect: { type: 'integer', enum: [OnOffEffect.On, OnOffEffect.Off, OnOffEffect.Switch, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] },
    color: COLOR_SCHEMA,
    zones: { type: 'array', minItems: 1, maxItems: 2, uniqueItems: true, items: ZONE_SCHEMA },
  },
} as const satisfies JsonSchema;

/** Strip lights (device type 2): light effects per zone and strip strategies, on the lighting worker's queue. */
export const STRIP_FAMILY = defineFamily<StripRow>()({
  family: DeviceFamily.Strip,
  title: 'Strip light',
  deviceType: DeviceType.LightStrip,
  table: 'strip_light',
  worker: MqttService.WorkerLighting,
  queue: QueueName.LampDistribution,
  job: JobName.DistributeStripDispatch,
  // Effects -1 on and -2 off are Open lamp and Close lamp; switching and every other effect is Open and close, and so
  // is a strip strategy, which decides when strips light.
  actions: {
    on: Button.OpenLamp,
    off: Button.CloseLamp,
    switch: Button.OpenAndClose,
    breathing: Button.OpenAndClose,
    flash: Button.OpenAndClose,
    colour: Button.OpenAndClose,
    schedule: Button.OpenAndClose,
  },
  eventRoles: [Role.Admin],
  liveFields: [
    'status',
    'networkStatus',
    'bri',
    'zones',
    'telemetry',
    'faults',
    'reportedAt',
    'gatewayId',
    'hardwareVersion',
    'softwareVersion',
    // Computed from the stored fields, announced with them.
    'statusLabels',
    'color',
  ],
  reports: { state: STRIP_STATE_SCHEMA, telemetry: LIGHT_TELEMETRY_SCHEMA, event: FAULT_EVENT_SCHEMA },
  commands: {
    effect: { description: 'Run one light effect on the named zones.', params: STRIP_EFFECT_SCHEMA },
    schedule: {
      description: 'Store this strip strategy and run it by the strip’s own clock: both zones lit at the level it gives, dark at 0.',
      params: SCHEDULE_PARAMS_SCHEMA,
    },
  },
  heartbeatSeconds: 300,
});

export type StripZoneState = FromSchema<typeof STRIP_ZONE_SCHEMA>;
export type StripStateMessage = FromSchema<typeof STRIP_STATE_SCHEMA>;
export type StripEffectParams = FromSchema<typeof STRIP_EFFECT_SCHEMA>;
/** The strip fields devices and dispatches change, as DeviceStateChanged carries them. */
export type StripLiveFields = LiveFieldsOf<typeof STRIP_FAMILY>;
