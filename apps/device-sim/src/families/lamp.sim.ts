import {
  DIMMING_LEVELS,
  DeviceFamily,
  FaultCode,
  LAMP_FAMILY,
  LAMP_GATEWAY_FAMILY,
  MqttChannel,
  StrategyMode,
  mqttTopics,
  type DimmingLevel,
  type LampCommand,
  type LampGatewayStateMessage,
  type LampSchedule,
  type LampStateMessage,
  type LampTelemetryMessage,
} from '@sc/contracts';
import { isTimeZone, levelInPlan, nightOf, planNight, type NightPlan } from '@sc/schedule';
import {
  FleetRunner,
  generateCodes,
  loadSeeds,
  seedsOf,
  type DeviceFleet,
  type DeviceSeed,
  type DeviceSource,
  type Random,
  type SimulatedFamily,
  type SimulationOptions,
} from '../kit';

// Single lamps: switched, dimmed, synchronized, and running the schedules they are given by their own clock.

/** What the lamp drives: `level` is the light it gives (0 = off, as in the spec's dimming levels). */
export interface LampSetting {
  on: boolean;
  level: DimmingLevel;
  /** The level a plain "switch on" returns to, so off-then-on keeps the last dimming. */
  resumeLevel: Exclude<DimmingLevel, 0>;
}

export const INITIAL_SETTING: LampSetting = { on: false, level: 0, resumeLevel: 100 };

/** Sync and schedule change no setting: a sync only makes the lamp report, as after any applied command. */
export function applyLampCommand(setting: LampSetting, command: LampCommand): LampSetting {
  if (command.type === 'switch') {
    return command.params.on ? { ...setting, on: true, level: setting.resumeLevel } : { ...setting, on: false, level: 0 };
  }
  if (command.type !== 'dim') return setting;
  const level = command.params.level;
  return level === 0 ? { ...setting, on: false, level: 0 } : { on: true, level, resumeLevel: level };
}

/** The fixed electrical character of one lamp head, drawn once so its readings wander around stable values. */
export interface LampProfile {
  nominalVoltage: number;
  ratedPower: number;
  powerFactor: number;
  signal: number;
}

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

/** One lamp's stored schedule, with tonight's plan kept until the night turns, and its last radar event. */
export class ScheduleRunner {
  private plan: NightPlan | null = null;
  lastRadarAt: number | null = null;

  constructor(readonly schedule: LampSchedule) {}

  /** The level the schedule says at `now` (simulated milliseconds). */
  levelAt(now: number): DimmingLevel {
    const at = new Date(now);
    // Most calls fall in the night already planned: no time-zone arithmetic then (a fleet asks every second).
    if (!this.plan || at < this.plan.from || at >= this.plan.to) {
      this.plan = planNight(this.schedule.rules, this.schedule.place, nightOf(at, this.schedule.place.timeZone), false);
    }
    return levelInPlan(this.schedule.rules, this.plan, at, this.lastRadarAt === null ? null : new Date(this.lastRadarAt));
  }

  /** Whether an event of this radar concerns the lamp (a sensing schedule naming it). */
  listensTo(radarCode: string): boolean {
    const rules = this.schedule.rules;
    return rules.mode === StrategyMode.Sensing && rules.modeData.radarCodes.includes(radarCode);
  }
}

export interface LampState {
  setting: LampSetting;
  readonly profile: LampProfile;
  /** Hours lit before the simulation started. */
  readonly baseHours: number;
  /** Lit time since then, up to `litSince` (real milliseconds). */
  litMs: number;
  litSince?: number;
  /** The schedule it holds, once one was distributed to it. */
  runner?: ScheduleRunner;
  /** The level its schedule last gave: the lamp follows the schedule when that changes, so a manual command holds until then. */
  scheduledLevel?: DimmingLevel;
}

function setSetting(lamp: LampState, next: LampSetting, now: number): void {
  if (lamp.litSince !== undefined) lamp.litMs += now - lamp.litSince;
  lamp.litSince = next.on ? now : undefined;
  lamp.setting = next;
}

function illuminationHours(lamp: LampState, now: number): number {
  const lit = lamp.litMs + (lamp.litSince !== undefined ? now - lamp.litSince : 0);
  return Math.floor(lamp.baseHours + lit / 3_600_000);
}

/** Drives the lamp at a level; whether that changed anything. */
function applyLevel(lamp: LampState, level: DimmingLevel): boolean {
  if (lamp.setting.level === level && lamp.setting.on === level > 0) return false;
  setSetting(lamp, level === 0 ? { ...lamp.setting, on: false, level: 0 } : { on: true, level, resumeLevel: level }, Date.now());
  return true;
}

/** The lamp keeps the schedule, replacing any earlier one, and applies what it says now. */
function runSchedule(lamp: LampState, schedule: LampSchedule, now: number): void {
  lamp.runner = new ScheduleRunner(schedule);
  lamp.scheduledLevel = lamp.runner.levelAt(now);
  applyLevel(lamp, lamp.scheduledLevel);
}

/** The radar whose event a message is. */
type RadarCode = string;

/** The lamp family's behaviour; the versions are what lamps and their gateways report. */
export function lampFamily(versions: { hardwareVersion: string; softwareVersion: string }): SimulatedFamily<LampState, LampCommand, RadarCode> {
  return {
    declaration: LAMP_FAMILY,
    gateway: {
      declaration: LAMP_GATEWAY_FAMILY,
      state: (lamps): LampGatewayStateMessage => ({ online: true, lamps, ...versions }),
    },
    initial(seed, { random, clock }) {
      const profile = drawLampProfile(random);
      const baseHours = Math.floor(random() * 20_000);
      const levels = DIMMING_LEVELS.filter((l) => l > 0) as Exclude<DimmingLevel, 0>[];
      const resumeLevel = levels[Math.floor(random() * levels.length)];
      const setting: LampSetting = random() < 0.5 ? { on: true, level: resumeLevel, resumeLevel } : { on: false, level: 0, resumeLevel };
      const lamp: LampState = { setting, profile, baseHours, litMs: 0, litSince: setting.on ? Date.now() : undefined };
      if (seed.schedule) runSchedule(lamp, seed.schedule, clock());
      return lamp;
    },
    // The schedule schema cannot tell a time zone the lamp's clock knows: a lamp could not run the schedule at all.
    accepts: (command) => command.type !== 'schedule' || isTimeZone(command.params.place.timeZone),
    apply(lamp, command, { clock }) {
      if (command.type === 'schedule') runSchedule(lamp, command.params, clock());
      else setSetting(lamp, applyLampCommand(lamp.setting, command), Date.now());
    },
    report: (lamp, { gatewayId }): LampStateMessage => ({
      online: true,
      on: lamp.setting.on,
      level: lamp.setting.level,
      gatewayId,
      ...versions,
      totalIlluminationHours: illuminationHours(lamp, Date.now()),
    }),
    telemetry: (lamp, faults, now, random) => readTelemetry(lamp.profile, lamp.setting, faults, now, random),
    tick(lamp, { clock }) {
      if (!lamp.runner) return false;
      const level = lamp.runner.levelAt(clock());
      if (level === lamp.scheduledLevel) return false;
      lamp.scheduledLevel = level;
      return applyLevel(lamp, level);
    },
    // Radars publish to the broker and lamps listen directly (no platform in between): an event from a radar named in
    // a lamp's sensing schedule raises the lamp at once; the schedule tick lowers it again after the hold time.
    listens: {
      topics: [mqttTopics.all(DeviceFamily.Radar, MqttChannel.Event)],
      read: (topic) => mqttTopics.parse(topic)?.deviceId ?? null,
      hear(lamp, radarCode, { clock }) {
        if (!lamp.runner?.listensTo(radarCode)) return false;
        const now = clock();
        lamp.runner.lastRadarAt = now;
        lamp.scheduledLevel = lamp.runner.levelAt(now);
        return applyLevel(lamp, lamp.scheduledLevel);
      },
    },
  };
}

/** A lamp to simulate, with the gateway recorded for it if any. */
export type LampSeed = DeviceSeed;

/** Which lamps to simulate: explicit codes, `count` generated codes, or the registry's single lamps. */
export type LampSource = DeviceSource;

export interface FleetOptions extends SimulationOptions {
  lamps: LampSource;
  /** Lamps per generated gateway (lamps whose record names a gateway stay with it). Default 50. */
  lampsPerGateway?: number;
  /** Prefix of generated gateway ids, which are also MQTT client ids. Default `${prefix}GW-` for generated codes, else 'GW-'. */
  gatewayPrefix?: string;
  hardwareVersion?: string;
  softwareVersion?: string;
  /** The simulated clock lamps run their schedules by: a start time (default now) and a speed (default 1). */
  clock?: { start?: Date; speed?: number };
}

export interface LampSnapshot {
  code: string;
  gatewayId: string;
  /** Whether the lamp has its own MQTT connection (and so its own Last Will). */
  individual: boolean;
  online: boolean;
  on: boolean;
  level: DimmingLevel;
  faults: FaultCode[];
  /** Commands applied so far (never more than once per id). */
  applied: number;
  totalIlluminationHours: number;
  /** The strategy of the schedule the lamp holds and runs, if any. */
  strategyId: number | null;
}

export interface Fleet extends DeviceFleet {
  lamp(code: string): LampSnapshot | undefined;
}

/** Lamp codes `prefix` + a five-digit number from 1: LAMP-00001, LAMP-00002, ... */
export function generateLampCodes(count: number, prefix = 'LAMP-'): string[] {
  return generateCodes(count, prefix);
}

/** The registry's single lamps, with the gateway and the schedule each lamp record names. */
export function loadLampsFromDatabase(databaseUrl: string): Promise<LampSeed[]> {
  return loadSeeds(databaseUrl, LAMP_FAMILY, { schedules: true });
}

class LampFleet extends FleetRunner<LampState, LampCommand, RadarCode> implements Fleet {
  lamp(code: string): LampSnapshot | undefined {
    const lamp = this.device(code);
    if (!lamp) return undefined;
    const { setting, runner } = lamp.state;
    return {
      code,
      gatewayId: lamp.gatewayId,
      individual: lamp.individual,
      online: lamp.online,
      on: setting.on,
      level: setting.level,
      faults: lamp.faults,
      applied: lamp.applied,
      totalIlluminationHours: illuminationHours(lamp.state, Date.now()),
      strategyId: runner?.schedule.strategyId ?? null,
    };
  }
}

/** Connects every gateway and lamp, publishes their retained states, and starts telemetry. */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const source = options.lamps;
  const { seeds, registered } = await seedsOf(source, 'LAMP-', loadLampsFromDatabase);
  // Generated gateway ids are MQTT client ids: named after the codes, so two fleets on one broker do not take each
  // other's connections (LAMP-00001 … hang off LAMP-GW-0001 …); the registry's lamps without one hang off GW-….
  const gatewayPrefix = registered
    ? 'GW-'
    : 'count' in source
      ? `${source.prefix ?? 'LAMP-'}GW-`
      : `${(seeds[0]?.code ?? '').replace(/\d+$/, '')}GW-`;
  const family = lampFamily({ hardwareVersion: options.hardwareVersion ?? 'SL-100W-B2', softwareVersion: options.softwareVersion ?? '2.4.1' });
  const runner = { ...options, devicesPerGateway: options.lampsPerGateway ?? 50, gatewayPrefix: options.gatewayPrefix ?? gatewayPrefix, registered };
  return new LampFleet(family, runner, seeds).run();
}
