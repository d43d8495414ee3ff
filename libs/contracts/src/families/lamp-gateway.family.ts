import type { FromSchema } from 'json-schema-to-ts';
import type { GatewayRow } from '../lighting-equipment';
import { DeviceFamily, MqttService } from '../mqtt';
import { Role } from '../roles';
import { defineFamily, type JsonSchema, type LiveFieldsOf, VERSION_SCHEMA } from './declaration';

/** `state` of a lamp gateway (retained); its Last Will is the Offline message. */
export const LAMP_GATEWAY_STATE_SCHEMA = {
  title: 'LampGatewayState',
  description:
    'A lamp gateway (concentrator) is connected. Its code is what its lamps report as `gatewayId`. The platform stores it ' +
    'as the gateway’s network status (gateways without a record are ignored).',
  type: 'object',
  required: ['online'],
  properties: {
    online: { const: true },
    lamps: { type: 'integer', minimum: 0, description: 'How many lamps it speaks for.' },
    strips: { type: 'integer', minimum: 0, description: 'How many strip lights it speaks for.' },
    hardwareVersion: VERSION_SCHEMA,
    softwareVersion: VERSION_SCHEMA,
  },
} as const satisfies JsonSchema;

/**
 * Lamp gateways: the concentrators single lamps and strip lights hang off. They have records of their own
 * (`lamp_gateway`, with their code), report only whether they are connected, and take no commands.
 */
export const LAMP_GATEWAY_FAMILY = defineFamily<GatewayRow>()({
  family: DeviceFamily.LampGateway,
  title: 'Lamp gateway',
  deviceType: null,
  table: 'lamp_gateway',
  worker: MqttService.WorkerLighting,
  queue: null,
  job: null,
  actions: {},
  eventRoles: [Role.Admin],
  liveFields: ['networkStatus', 'hardwareVersion', 'softwareVersion', 'reportedAt'],
  reports: { state: LAMP_GATEWAY_STATE_SCHEMA },
  commands: {},
  heartbeatSeconds: 60,
});

export type LampGatewayStateMessage = FromSchema<typeof LAMP_GATEWAY_STATE_SCHEMA>;
export type LampGatewayLiveFields = LiveFieldsOf<typeof LAMP_GATEWAY_FAMILY>;
