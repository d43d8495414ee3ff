import type { FromSchema } from 'json-schema-to-ts';
import { DeviceType } from '../devices';
import { DeviceFamily, MqttService } from '../mqtt';
import { JobName, QueueName } from '../queues';
import { Button, Role } from '../roles';
import type { ApRow } from '../wifi';
import { SIGNAL_BOUNDS, SSID_MAX } from '../wifi';
import { WIFI_LOAD_PROPERTIES, WIFI_OVERLOAD_ALARM } from './ac.family';
import { NO_PARAMS_SCHEMA, TIMESTAMP_SCHEMA, VERSION_SCHEMA, defineFamily, type JsonSchema, type LiveFieldsOf } from './declaration';

const CLIENTS_SCHEMA = { type: 'integer', minimum: 0, maximum: 1024, description: 'Clients associated now.' } as const satisfies JsonSchema;

/** `state` of an access point (retained; sent again at least every heartbeat). */
export const AP_STATE_SCHEMA = {
  title: 'ApState',
  type: 'object',
  required: ['online', 'cpuRatio', 'memoryRatio', 'diskRatio', 'clients'],
  properties: {
    online: { const: true },
    ...WIFI_LOAD_PROPERTIES,
    clients: CLIENTS_SCHEMA,
    softwareVersion: VERSION_SCHEMA,
  },
} as const satisfies JsonSchema;

/** `telemetry` of an access point: its load and its client count now. */
export const AP_LOAD_SCHEMA = {
  title: 'ApLoad',
  type: 'object',
  required: ['ts', 'cpuRatio', 'memoryRatio', 'diskRatio', 'clients'],
  properties: { ts: TIMESTAMP_SCHEMA, ...WIFI_LOAD_PROPERTIES, clients: CLIENTS_SCHEMA },
} as const satisfies JsonSchema;

/**
 * `event` of an access point: a Wi-Fi client joined it (associated), left it, or its signal moved. One message per
 * client change; the worker keeps who is online now and, when a client leaves, its session in the history.
 */
export const AP_CLIENT_EVENT_SCHEMA = {
  title: 'ApClient',
  type: 'object',
  required: ['ts', 'kind', 'clientMac'],
  properties: {
    ts: TIMESTAMP_SCHEMA,
    kind: { type: 'string', enum: ['join', 'leave', 'signal'], description: 'join: associated; leave: gone; signal: its signal strength moved.' },
    clientMac: { type: 'string', pattern: '^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$' },
    clientIp: { type: 'string', maxLength: 45, description: 'Its address (join).' },
    clientSsid: { type: 'string', maxLength: SSID_MAX, description: 'The SSID it joined (join).' },
    signalStrength: { type: 'integer', minimum: SIGNAL_BOUNDS.min, maximum: SIGNAL_BOUNDS.max, description: 'dBm (join, signal).' },
  },
} as const satisfies JsonSchema;

/**
 * Wi-Fi access points (device type 6, spec "Wi-Fi: access points"): pole-mounted radios, each managed by one access
 * controller; their load and client count live, the clients they serve, and a reboot through the ledger.
 */
export const AP_FAMILY = defineFamily<ApRow>()({
  family: DeviceFamily.AccessPoint,
  title: 'Wi-Fi access point',
  deviceType: DeviceType.AccessPoint,
  table: 'wifi_ap',
  worker: MqttService.WorkerWifi,
  queue: QueueName.WifiDevices,
  job: JobName.DistributeApDispatch,
  actions: { reboot: Button.OpenAndClose },
  eventRoles: [Role.Admin, Role.Editor],
  liveFields: ['networkStatus', 'cpuRatio', 'memoryRatio', 'diskRatio', 'clientCount', 'softwareVersion', 'reportedAt'],
  reports: { state: AP_STATE_SCHEMA, telemetry: AP_LOAD_SCHEMA, event: AP_CLIENT_EVENT_SCHEMA },
  commands: {
    reboot: { description: 'Restart the access point; its clients drop off and join again once it is back.', params: NO_PARAMS_SCHEMA },
  },
  heartbeatSeconds: 60,
  alarms: { thresholds: [WIFI_OVERLOAD_ALARM] },
});

export type ApStateMessage = FromSchema<typeof AP_STATE_SCHEMA>;
export type ApLoadMessage = FromSchema<typeof AP_LOAD_SCHEMA>;
export type ApClientEvent = FromSchema<typeof AP_CLIENT_EVENT_SCHEMA>;
export type ApLiveFields = LiveFieldsOf<typeof AP_FAMILY>;
