import type { FromSchema } from 'json-schema-to-ts';
import { DeviceType, type DimmingLevel } from './devices';
import type {
  ACK_SCHEMA,
  RECEIPT_SCHEMA,
  FAULT_EVENT_SCHEMA,
  LedBrightnessParams,
  LedScreenParams,
  LedSyncTimeParams,
  LedPlayParams,
  LedTaskParams,
  LedForgetTaskParams,
  LedVolumeParams,
  OFFLINE_SCHEMA,
  RadarDetectionMessage,
  StripEffectParams,
  TerminalCancelTaskParams,
  TerminalTaskControlParams,
  TerminalPlayParams,
  TerminalTaskParams,
  TerminalVolumeParams,
} from './families';
import type { LampSchedule } from './strategy';

/**
 * The MQTT device contract (docs/asyncapi.yaml): topics `city/v1/{family}/{deviceId}/{channel}`, JSON payloads.
 * `deviceId` is the unique code on the device's record (for lamps and strip lights, its clientId).
 */
export const MQTT_TOPIC_ROOT = 'city/v1';

/** Topic names of the spec's device types. */
export enum DeviceFamily {
  Pole = 'pole',
  Lamp = 'lamp',
  Strip = 'strip',
  Broadcast = 'broadcast',
  Led = 'led',
  Radar = 'radar',
  AccessPoint = 'ap',
  /** A Wi-Fi access controller: the APs under it are managed through it. */
  AccessController = 'ac',
  Alarm = 'alarm',
  /** A lamp gateway (concentrator) that single lamps hang off. */
  LampGateway = 'lamp-gateway',
  /** A floor-standing advertising screen (records of their own, `signage_device`). */
  Signage = 'signage',
  /** Video equipment: cameras and recorders (their state comes from an edge reporter or the video worker's probe). */
  Camera = 'camera',
}

export const FAMILY_OF_DEVICE_TYPE: Readonly<Record<DeviceType, DeviceFamily>> = {
  [DeviceType.LampPole]: DeviceFamily.Pole,
  [DeviceType.SingleLamp]: DeviceFamily.Lamp,
  [DeviceType.LightStrip]: DeviceFamily.Strip,
  [DeviceType.Broadcast]: DeviceFamily.Broadcast,
  [DeviceType.LedScreen]: DeviceFamily.Led,
  [DeviceType.Radar]: DeviceFamily.Radar,
  [DeviceType.AccessPoint]: DeviceFamily.AccessPoint,
  [DeviceType.OneKeyAlarm]: DeviceFamily.Alarm,
  [DeviceType.AccessController]: DeviceFamily.AccessController,
  [DeviceType.VideoEquipment]: DeviceFamily.Camera,
};

/** The registry type of a family's devices (the families whose devices are `device` rows). */
export const DEVICE_TYPE_OF_FAMILY: Readonly<Partial<Record<DeviceFamily, DeviceType>>> = Object.fromEntries(
  Object.entries(FAMILY_OF_DEVICE_TYPE).map(([type, family]) => [family, Number(type) as DeviceType]),
);

export enum MqttChannel {
  /** Platform → device, QoS 1, not retained. */
  Cmd = 'cmd',
  /** Device → platform, QoS 1. */
  Ack = 'ack',
  /** Device → platform, QoS 1, retained: the full reported state; the Last Will publishes `{ "online": false }`. */
  State = 'state',
  /** Device → platform: readings with a timestamp. */
  Telemetry = 'telemetry',
  /** Device → platform: faults, active or cleared. */
  Event = 'event',
}

export interface DeviceTopic {
  family: DeviceFamily;
  deviceId: string;
  channel: MqttChannel;
}

/**
 * Device codes are one topic level and part of the device's MQTT username (`{family}/{code}`): no separators or
 * wildcards, and no `:` (the broker's password file separates the username from the hash with it), at most 64.
 */
export const DEVICE_CODE_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

const FAMILIES = new Set<string>(Object.values(DeviceFamily));
const CHANNELS = new Set<string>(Object.values(MqttChannel));

/**
 * MQTT account names (docs/security.md). A device logs in as `{family}/{code}` and may publish only under its own
 * topics `city/v1/{family}/{code}/…` and read only its own `cmd`; a lamp gateway (concentrator) may also speak for the
 * devices bound to it; a platform service logs in as `svc/{service}` with the rights its families need.
 */
export enum MqttService {
  /** The API gateway: it only checks that the broker answers (health), with no topic rights. */
  Gateway = 'gateway',
  WorkerLighting = 'worker-lighting',
  WorkerBroadcast = 'worker-broadcast',
  WorkerSignage = 'worker-signage',
  WorkerLed = 'worker-led',
  WorkerRadar = 'worker-radar',
  /** Wi-Fi access controllers and the access points under them. */
  WorkerWifi = 'worker-wifi',
  /** One-key alarm columns. */
  WorkerAlarm = 'worker-alarm',
  /** Video equipment: its online probe and the live streams. */
  WorkerVideo = 'worker-video',
  /** The development simulator's own connection (what simulated lamps hear from radars). */
  Simulator = 'device-sim',
}

export const mqttUsernames = {
  device: (family: DeviceFamily, code: string): string => `${family}/${code}`,
  service: (service: MqttService | string): string => `svc/${service}`,
  /** Whether an account is a platform service's (else a device's). */
  isService: (username: string): boolean => username.startsWith('svc/'),
  /** A device account's code: its client id where the broker binds the two (EMQX through the broker hook). */
  codeOf: (username: string): string => username.slice(username.indexOf('/') + 1),
};

/**
 * A device's MQTT login as the console hands it to the installer: once, in the answer that created the device or
 * rotated its credentials (Edit MQTT). Absent when the installation has no credential secret (an open broker).
 */
export interface MqttCredentials {
  username: string;
  password: string;
}

/**
 * POST /api/mqtt/renew: new MQTT credentials for one device, by its family and record id (a lamp gateway's own id, the
 * registry id otherwise), answered once; the old password stops working and its connection is dropped.
 */
export interface MqttRenewRequest {
  family: DeviceFamily;
  id: number;
}

/**
 * The families whose devices have records of their own (a table keyed by id with the code and the credential
 * generation `mqtt_generation`) rather than registry rows: lamp gateways and floor screens.
 */
export const OWN_RECORD_FAMILIES: readonly DeviceFamily[] = [DeviceFamily.LampGateway, DeviceFamily.Signage];

/** The families whose devices hold MQTT accounts the console can renew: every registry family, and those with records of their own. */
export const RENEWABLE_FAMILIES: readonly DeviceFamily[] = [...Object.values(FAMILY_OF_DEVICE_TYPE), ...OWN_RECORD_FAMILIES];

export const mqttTopics = {
  of: (family: DeviceFamily, deviceId: string, channel: MqttChannel): string => `${MQTT_TOPIC_ROOT}/${family}/${deviceId}/${channel}`,

  /** A shared subscription: replicas in the same group split the family's traffic on one channel between them. */
  shared: (group: string, family: DeviceFamily, channel: MqttChannel): string => `$share/${group}/${MQTT_TOPIC_ROOT}/${family}/+/${channel}`,

  /** Every device of a family on one channel (a plain subscription, e.g. for a simulator or a test). */
  all: (family: DeviceFamily, channel: MqttChannel): string => `${MQTT_TOPIC_ROOT}/${family}/+/${channel}`,

  /** The parts of a device topic, or null for anything that is not one. */
  parse(topic: string): DeviceTopic | null {
    const parts = topic.split('/');
    if (parts.length !== 5 || `${parts[0]}/${parts[1]}` !== MQTT_TOPIC_ROOT) return null;
    const [, , family, deviceId, channel] = parts;
    if (!FAMILIES.has(family) || !CHANNELS.has(channel) || !DEVICE_CODE_PATTERN.test(deviceId)) return null;
    return { family: family as DeviceFamily, deviceId, channel: channel as MqttChannel };
  },
};

/** `cmd`: one command, applied at most once per id (QoS 1 may deliver it twice). */
export interface CommandMessage<Type extends string = string, Params = unknown> {
  id: string;
  type: Type;
  params: Params;
  /** ISO 8601; a device ignores a command that arrives after it (and acks it as expired). */
  expiresAt: string;
}

/** Lamp commands (their params are declared in families/lamp.family.ts). */
export type LampCommand =
  | CommandMessage<'switch', { on: boolean }>
  | CommandMessage<'dim', { level: DimmingLevel }>
  /** Report the full state now: the lamp acks, then publishes its retained `state`. */
  | CommandMessage<'sync', Record<string, never>>
  /** Store this schedule and run it from now on, by the lamp's own clock (a new one replaces the old). */
  | CommandMessage<'schedule', LampSchedule>;
export type LampCommandType = LampCommand['type'];

/** Strip light commands: one light effect, or a strip strategy's schedule (families/strip.family.ts). */
export type StripCommand = CommandMessage<'effect', StripEffectParams> | CommandMessage<'schedule', LampSchedule>;

/** `ack`: the device's answer to a command id. */
export type AckMessage = FromSchema<typeof ACK_SCHEMA>;

/** `ack` before the ack: how far the device has got with a command declared with receipts. */
export type ReceiptMessage = FromSchema<typeof RECEIPT_SCHEMA>;

/** What the broker publishes for a device that dropped off (its Last Will), and what a device sends before it leaves. */
export type OfflineStateMessage = FromSchema<typeof OFFLINE_SCHEMA>;

/** `event`: a fault of spec section 3, raised or cleared. */
export type DeviceEventMessage = FromSchema<typeof FAULT_EVENT_SCHEMA>;

/**
 * `event` of a radar (`city/v1/radar/{radarCode}/event`): something moved in its field (families/radar.family.ts).
 * Lamps whose schedule is a sensing strategy naming the radar listen to it directly, so sensing works while the
 * platform is down.
 */
export type RadarEventMessage = RadarDetectionMessage;

/** Broadcast terminal commands (families/broadcast.family.ts). */
export type TerminalCommand =
  | CommandMessage<'volume', TerminalVolumeParams>
  | CommandMessage<'play', TerminalPlayParams>
  | CommandMessage<'pause', Record<string, never>>
  | CommandMessage<'resume', Record<string, never>>
  | CommandMessage<'stop', Record<string, never>>
  | CommandMessage<'task', TerminalTaskParams>
  | CommandMessage<'cancelTask', TerminalCancelTaskParams>
  | CommandMessage<'taskControl', TerminalTaskControlParams>;

/** LED screen commands (families/led.family.ts). */
export type LedCommand =
  | CommandMessage<'brightness', LedBrightnessParams>
  | CommandMessage<'volume', LedVolumeParams>
  | CommandMessage<'screen', LedScreenParams>
  | CommandMessage<'reboot', Record<string, never>>
  | CommandMessage<'syncTime', LedSyncTimeParams>
  | CommandMessage<'play', LedPlayParams>
  | CommandMessage<'stopPlay', Record<string, never>>
  | CommandMessage<'task', LedTaskParams>
  | CommandMessage<'forgetTask', LedForgetTaskParams>;
