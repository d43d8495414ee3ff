import {
  DIMMING_LEVELS,
  FaultCode,
  type AckMessage,
  type DeviceEventMessage,
  type DimmingLevel,
  type LampStateMessage,
  type LampTelemetryMessage,
  type OfflineStateMessage,
  type StripStateMessage,
  type StripZoneState,
} from '@sc/contracts';

/**
 * Parsing of device → platform payloads (the MQTT device contract in libs/contracts). Devices are untrusted: every
 * parser returns null for anything that is not exactly the contract, and never throws, so one bad device cannot
 * disturb the batch its message would have joined. Kept out of libs/contracts because the browser bundles that.
 */

/** Larger payloads are refused before JSON.parse, so a misbehaving device cannot make the intake parse megabytes. */
export const MAX_DEVICE_PAYLOAD_BYTES = 8 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FAULT_CODES = new Set<number>(Object.values(FaultCode).filter((v): v is number => typeof v === 'number'));
const LEVELS = new Set<number>(DIMMING_LEVELS);
/** PostgreSQL int. */
const MAX_INT = 2_147_483_647;
const MAX_ERROR_LENGTH = 255;

type Json = Record<string, unknown>;

function object(payload: Buffer | string): Json | null {
  if (payload.length === 0 || payload.length > MAX_DEVICE_PAYLOAD_BYTES) return null;
  try {
    const value: unknown = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function optionalString(value: unknown, max: number): value is string | undefined {
  return value === undefined || (typeof value === 'string' && value.length <= max);
}

function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 40 && !Number.isNaN(Date.parse(value));
}

/** Command ids are the uuids of dispatch_item.command_id. */
export function isCommandId(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

export function parseAck(payload: Buffer | string): AckMessage | null {
  const m = object(payload);
  if (!m || !isCommandId(m.id) || typeof m.ok !== 'boolean') return null;
  if (m.error !== undefined && typeof m.error !== 'string') return null;
  const ack: AckMessage = { id: m.id.toLowerCase(), ok: m.ok };
  if (typeof m.error === 'string') ack.error = m.error.slice(0, MAX_ERROR_LENGTH);
  return ack;
}

export type LampStatePayload = LampStateMessage | OfflineStateMessage;

export function parseLampState(payload: Buffer | string): LampStatePayload | null {
  const m = object(payload);
  if (!m) return null;
  if (m.online === false) return { online: false };
  if (m.online !== true || typeof m.on !== 'boolean' || !LEVELS.has(m.level as number)) return null;
  if (!optionalString(m.gatewayId, 64) || !optionalString(m.hardwareVersion, 32) || !optionalString(m.softwareVersion, 32)) return null;
  const hours = m.totalIlluminationHours;
  if (hours !== undefined && !(Number.isInteger(hours) && (hours as number) >= 0 && (hours as number) <= MAX_INT)) return null;
  const state: LampStateMessage = { online: true, on: m.on, level: m.level as DimmingLevel };
  if (m.gatewayId !== undefined) state.gatewayId = m.gatewayId;
  if (m.hardwareVersion !== undefined) state.hardwareVersion = m.hardwareVersion;
  if (m.softwareVersion !== undefined) state.softwareVersion = m.softwareVersion;
  if (hours !== undefined) state.totalIlluminationHours = hours as number;
  return state;
}

export function parseLampTelemetry(payload: Buffer | string): LampTelemetryMessage | null {
  const m = object(payload);
  if (!m || !isTimestamp(m.ts)) return null;
  const { voltage, current, power, powerFactor, signal } = m;
  if (!isFiniteNumber(voltage) || !isFiniteNumber(current) || !isFiniteNumber(power) || !isFiniteNumber(signal)) return null;
  if (!isFiniteNumber(powerFactor) || powerFactor < 0 || powerFactor > 1) return null;
  // Only the contract's fields are stored: extra keys from a device never reach the database.
  return { ts: m.ts, voltage, current, power, powerFactor, signal };
}

export function parseDeviceEvent(payload: Buffer | string): DeviceEventMessage | null {
  const m = object(payload);
  if (!m || !isTimestamp(m.ts) || !FAULT_CODES.has(m.code as number) || typeof m.active !== 'boolean') return null;
  return { ts: m.ts, code: m.code as FaultCode, active: m.active };
}

export type StripStatePayload = StripStateMessage | OfflineStateMessage;

const STRIP_COLOR = /^#[0-9a-f]{6}$/;
const EFFECT_TYPES = new Set<number>([1, 2, 3, 6]);

function stripZone(value: unknown): StripZoneState | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const z = value as Record<string, unknown>;
  if (typeof z.on !== 'boolean' || !EFFECT_TYPES.has(z.type as number) || typeof z.color !== 'string' || !STRIP_COLOR.test(z.color)) return null;
  if (z.effect !== null && !(Number.isInteger(z.effect) && (z.effect as number) >= -3 && (z.effect as number) <= 15)) return null;
  return { on: z.on, type: z.type as StripZoneState['type'], effect: z.effect as number | null, color: z.color };
}

export function parseStripState(payload: Buffer | string): StripStatePayload | null {
  const m = object(payload);
  if (!m) return null;
  if (m.online === false) return { online: false };
  if (m.online !== true || !Number.isInteger(m.bri) || (m.bri as number) < 0 || (m.bri as number) > 100) return null;
  const zones = m.zones as Record<string, unknown> | null | undefined;
  if (!zones || typeof zones !== 'object') return null;
  const [left, right] = [stripZone(zones.L), stripZone(zones.R)];
  if (!left || !right) return null;
  if (m.synchronizing !== undefined && typeof m.synchronizing !== 'boolean') return null;
  if (!optionalString(m.gatewayId, 64) || !optionalString(m.hardwareVersion, 32) || !optionalString(m.softwareVersion, 32)) return null;
  const state: StripStateMessage = { online: true, bri: m.bri as number, zones: { L: left, R: right } };
  if (m.synchronizing !== undefined) state.synchronizing = m.synchronizing;
  if (m.gatewayId !== undefined) state.gatewayId = m.gatewayId;
  if (m.hardwareVersion !== undefined) state.hardwareVersion = m.hardwareVersion;
  if (m.softwareVersion !== undefined) state.softwareVersion = m.softwareVersion;
  return state;
}
