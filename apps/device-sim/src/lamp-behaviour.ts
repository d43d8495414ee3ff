import { DIMMING_LEVELS, FaultCode, type AckMessage, type DimmingLevel, type LampCommand, type LampTelemetryMessage } from '@sc/contracts';
import { parseSchedule } from './lamp-schedule';

/** What a lamp makes of one `cmd` payload. */
export type ParsedCommand =
  | { kind: 'command'; command: LampCommand; expiresAtMs: number }
  /** Readable id, unusable rest: answered with ok:false 'bad command'. */
  | { kind: 'invalid'; id: string }
  /** No id to answer to: dropped. */
  | { kind: 'unreadable' };

export const BAD_COMMAND = 'bad command';
export const EXPIRED = 'expired';
export const DRIVER_FAULT = 'driver fault';

const LEVELS = new Set<number>(DIMMING_LEVELS);
const MAX_ID_LENGTH = 128;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseLampCommand(payload: Buffer | string): ParsedCommand {
  let body: unknown;
  try {
    body = JSON.parse(payload.toString());
  } catch {
    return { kind: 'unreadable' };
  }
  if (!isRecord(body) || typeof body.id !== 'string' || body.id.length === 0 || body.id.length > MAX_ID_LENGTH) return { kind: 'unreadable' };
  const { id, type, params, expiresAt } = body;
  const expiresAtMs = typeof expiresAt === 'string' ? Date.parse(expiresAt) : NaN;
  if (Number.isNaN(expiresAtMs) || !isRecord(params)) return { kind: 'invalid', id };
  if (type === 'switch' && typeof params.on === 'boolean') {
    return { kind: 'command', command: { id, type, params: { on: params.on }, expiresAt: expiresAt as string }, expiresAtMs };
  }
  // Sync changes nothing: the lamp acks and then publishes its full state, as after any applied command.
  if (type === 'sync') return { kind: 'command', command: { id, type, params: {}, expiresAt: expiresAt as string }, expiresAtMs };
  if (type === 'dim' && typeof params.level === 'number' && LEVELS.has(params.level)) {
    return { kind: 'command', command: { id, type, params: { level: params.level as DimmingLevel }, expiresAt: expiresAt as string }, expiresAtMs };
  }
  if (type === 'schedule') {
    const schedule = parseSchedule(params);
    if (schedule) return { kind: 'command', command: { id, type, params: schedule, expiresAt: expiresAt as string }, expiresAtMs };
  }
  return { kind: 'invalid', id };
}

/** What the lamp drives: `level` is the light it gives (0 = off, as in the spec's dimming levels). */
export interface LampSetting {
  on: boolean;
  level: DimmingLevel;
  /** The level a plain "switch on" returns to, so off-then-on keeps the last dimming. */
  resumeLevel: Exclude<DimmingLevel, 0>;
}

export const INITIAL_SETTING: LampSetting = { on: false, level: 0, resumeLevel: 100 };

export function applyLampCommand(setting: LampSetting, command: LampCommand): LampSetting {
  if (command.type === 'switch') {
    return command.params.on ? { ...setting, on: true, level: setting.resumeLevel } : { ...setting, on: false, level: 0 };
  }
  if (command.type !== 'dim') return setting;
  const level = command.params.level;
  return level === 0 ? { ...setting, on: false, level: 0 } : { on: true, level, resumeLevel: level };
}

/**
 * The answers a lamp gave to recent command ids, so a redelivered id is acked again with the same answer and never
 * re-applied. An entry may go once its command has expired: a late redelivery is then refused as expired anyway,
 * so at-most-once holds while memory stays bounded by the commands still alive.
 */
export class RecentResults {
  private readonly entries = new Map<string, { ack: AckMessage; keepUntil: number }>();

  constructor(private readonly capacity = 256) {}

  get(id: string): AckMessage | undefined {
    return this.entries.get(id)?.ack;
  }

  remember(ack: AckMessage, keepUntil: number, now: number): void {
    this.entries.set(ack.id, { ack, keepUntil });
    // Ids arrive roughly in expiry order, so pruning from the oldest end is enough.
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= this.capacity && entry.keepUntil >= now) break;
      if (id === ack.id) break;
      this.entries.delete(id);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The fixed electrical character of one lamp head, drawn once so its readings wander around stable values. */
export interface LampProfile {
  nominalVoltage: number;
  ratedPower: number;
  powerFactor: number;
  signal: number;
}

export type Random = () => number;

export function drawLampProfile(random: Random): LampProfile {
  return {
    nominalVoltage: 221 + random() * 8,
    ratedPower: 96 + random() * 8,
    powerFactor: 0.93 + random() * 0.05,
    signal: -95 + random() * 30,
  };
}

const STANDBY_WATTS = 0.5;
const round = (value: number, digits: number) => Number(value.toFixed(digits));
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const jitter = (random: Random, span: number) => (random() - 0.5) * span;

/** One set of readings: supply voltage, power following the dimming level, current from P = V·I·PF. */
export function readTelemetry(
  profile: LampProfile,
  setting: LampSetting,
  faults: ReadonlySet<FaultCode>,
  now: Date,
  random: Random,
): LampTelemetryMessage {
  const sag = faults.has(FaultCode.VoltageLow) ? 0.8 : faults.has(FaultCode.VoltageHigh) ? 1.12 : 1;
  const voltage = profile.nominalVoltage * sag + jitter(random, 1.5);
  // A failed LED string takes half the head's load with it.
  const ledLoss = faults.has(FaultCode.ALedFailure) || faults.has(FaultCode.BLedFailure) ? 0.5 : 1;
  const power = setting.on ? ((profile.ratedPower * setting.level) / 100) * ledLoss * (1 + jitter(random, 0.04)) : STANDBY_WATTS + random() * 0.2;
  // LED drivers lose some power factor when dimmed.
  const powerFactor = clamp(profile.powerFactor - ((100 - (setting.on ? setting.level : 0)) / 100) * 0.03 + jitter(random, 0.01), 0.9, 0.99);
  return {
    ts: now.toISOString(),
    voltage: round(voltage, 1),
    current: round(power / (voltage * powerFactor), 3),
    power: round(power, 1),
    powerFactor: round(powerFactor, 2),
    signal: Math.round(clamp(profile.signal + jitter(random, 6), -100, -60)),
  };
}
