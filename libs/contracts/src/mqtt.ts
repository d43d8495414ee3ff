import { DeviceType, type DimmingLevel, type FaultCode } from './devices';

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
  Alarm = 'alarm',
  /** A lamp gateway (concentrator) that single lamps hang off. */
  LampGateway = 'lamp-gateway',
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
};

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

/** Device codes are used as one topic level: no separators or wildcards, at most 64 characters. */
export const DEVICE_CODE_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

const FAMILIES = new Set<string>(Object.values(DeviceFamily));
const CHANNELS = new Set<string>(Object.values(MqttChannel));

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

/** Lamp commands: at least switch and dim. */
export type LampCommand = CommandMessage<'switch', { on: boolean }> | CommandMessage<'dim', { level: DimmingLevel }>;
export type LampCommandType = LampCommand['type'];

/** `ack`: the device's answer to a command id. */
export interface AckMessage {
  id: string;
  ok: boolean;
  error?: string;
}

/** `state` of a single lamp (retained), as the lamp reports it. */
export interface LampStateMessage {
  online: true;
  on: boolean;
  level: DimmingLevel;
  /** The lamp gateway the lamp hangs off. */
  gatewayId?: string;
  hardwareVersion?: string;
  softwareVersion?: string;
  /** Hours lit since installation. */
  totalIlluminationHours?: number;
}

/** What the broker publishes for a device that dropped off (its Last Will), and what a device sends before it leaves. */
export interface OfflineStateMessage {
  online: false;
}

/** `telemetry` of a single lamp. */
export interface LampTelemetryMessage {
  /** ISO 8601 time of the readings. */
  ts: string;
  /** Volts. */
  voltage: number;
  /** Amperes. */
  current: number;
  /** Watts. */
  power: number;
  /** 0 to 1. */
  powerFactor: number;
  /** Signal strength, dBm. */
  signal: number;
}

/** `event`: a fault of spec section 3, raised or cleared. */
export interface DeviceEventMessage {
  ts: string;
  code: FaultCode;
  active: boolean;
}
