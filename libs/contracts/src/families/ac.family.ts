import type { FromSchema } from 'json-schema-to-ts';
import { AlarmKind } from '../alarms';
import { DeviceType } from '../devices';
import { DeviceFamily, MqttService } from '../mqtt';
import { JobName, QueueName } from '../queues';
import { Button, Role } from '../roles';
import type { AcRow } from '../wifi';
import { RATIO_BOUNDS } from '../wifi';
import { NO_PARAMS_SCHEMA, TIMESTAMP_SCHEMA, VERSION_SCHEMA, defineFamily, type JsonSchema, type LiveFieldsOf } from './declaration';

/** A load ratio of a Wi-Fi device (cpuRatio, memoryRatio, diskRatio), percent. */
export const RATIO_SCHEMA = {
  type: 'number',
  minimum: RATIO_BOUNDS.min,
  maximum: RATIO_BOUNDS.max,
  description: 'Percent.',
} as const satisfies JsonSchema;

/** The load of a Wi-Fi device: what access controllers and access points both report. */
export const WIFI_LOAD_PROPERTIES = {
  cpuRatio: RATIO_SCHEMA,
  memoryRatio: RATIO_SCHEMA,
  diskRatio: RATIO_SCHEMA,
} as const;

/** A Wi-Fi device is overloaded when its CPU, memory or disk reaches 90 %, and no longer once all are below 80 %. */
export const WIFI_OVERLOAD_ALARM = {
  kind: AlarmKind.Overload,
  fields: ['cpuRatio', 'memoryRatio', 'diskRatio'],
  raiseAt: 90,
  clearBelow: 80,
} as const;

/** `state` of an access controller (retained; sent again at least every heartbeat). */
export const AC_STATE_SCHEMA = {
  title: 'AcState',
  type: 'object',
  required: ['online', 'cpuRatio', 'memoryRatio', 'diskRatio'],
  properties: { online: { const: true }, ...WIFI_LOAD_PROPERTIES, softwareVersion: VERSION_SCHEMA },
} as const satisfies JsonSchema;

/** `telemetry` of a Wi-Fi device: its load now (every telemetry interval, more often than the heartbeat). */
export const WIFI_LOAD_SCHEMA = {
  title: 'WifiLoad',
  type: 'object',
  required: ['ts', 'cpuRatio', 'memoryRatio', 'diskRatio'],
  properties: { ts: TIMESTAMP_SCHEMA, ...WIFI_LOAD_PROPERTIES },
} as const satisfies JsonSchema;

/**
 * Wi-Fi access controllers (spec "Wi-Fi: access controllers"): the controllers that manage the access points, their
 * load live and a reboot through the ledger. They share the Wi-Fi worker with their access points (docs/wifi.md).
 * The spec gates no Wi-Fi route: administrators and editors run them, as they run the LED screens.
 */
export const AC_FAMILY = defineFamily<AcRow>()({
  family: DeviceFamily.AccessController,
  title: 'Wi-Fi access controller',
  deviceType: DeviceType.AccessController,
  table: 'wifi_ac',
  worker: MqttService.WorkerWifi,
  queue: QueueName.WifiDevices,
  job: JobName.DistributeAcDispatch,
  // A reboot switches what the device does (Open and close, as for LED screens and floor screens).
  actions: { reboot: Button.OpenAndClose },
  eventRoles: [Role.Admin, Role.Editor],
  liveFields: ['networkStatus', 'cpuRatio', 'memoryRatio', 'diskRatio', 'softwareVersion', 'reportedAt'],
  reports: { state: AC_STATE_SCHEMA, telemetry: WIFI_LOAD_SCHEMA },
  commands: {
    reboot: {
      description: 'Restart the controller; it drops off and reports again when it is back (its access points keep serving).',
      params: NO_PARAMS_SCHEMA,
    },
  },
  heartbeatSeconds: 60,
  alarms: { thresholds: [WIFI_OVERLOAD_ALARM] },
});

export type AcStateMessage = FromSchema<typeof AC_STATE_SCHEMA>;
export type WifiLoadMessage = FromSchema<typeof WIFI_LOAD_SCHEMA>;
export type AcLiveFields = LiveFieldsOf<typeof AC_FAMILY>;
