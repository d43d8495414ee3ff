import {
  DARK_ZONE,
  FaultCode,
  LAMP_GATEWAY_FAMILY,
  LightEffectType,
  OnOffEffect,
  STRIP_FAMILY,
  Zone,
  applyStripEffect,
  stripEffectOf,
  type LampGatewayStateMessage,
  type LampSchedule,
  type LampTelemetryMessage,
  type StripCommand,
  type StripStateMessage,
  type StripZoneState,
} from '@sc/contracts';
import { isTimeZone, levelAt } from '@sc/schedule';
import { FleetRunner, loadSeeds, type DeviceFleet, type DeviceSeed, type SimulatedFamily, type SimulationOptions } from '../kit';

// Strip lights: light effects per zone, strip strategies run by their own clock, a moment of synchronizing after connecting.

const HARDWARE = 'RGB-STRIP-24';
const SOFTWARE = '1.3.0';

export interface StripState {
  zones: Record<Zone, StripZoneState>;
  synchronizing: boolean;
  /** The light level of lit zones, percent: 100 unless a schedule sets it. */
  level: number;
  schedule: LampSchedule | null;
  readonly ratedPower: number;
  readonly signal: number;
}

/** Brightness, percent: a lit zone gives half the strip's light, at its level. */
function brightness(strip: StripState): number {
  return Math.round((strip.level * ((strip.zones.L.on ? 1 : 0) + (strip.zones.R.on ? 1 : 0))) / 2);
}

/** Follows its schedule at `now`: both zones lit at the level it gives, dark at 0. Answers whether anything changed. */
function runSchedule(strip: StripState, now: Date): boolean {
  if (!strip.schedule) return false;
  const level = levelAt(strip.schedule, now);
  const on = level > 0;
  if (strip.zones.L.on === on && strip.zones.R.on === on && (!on || strip.level === level)) return false;
  if (on) strip.level = level;
  strip.zones = applyStripEffect(strip.zones, {
    type: LightEffectType.OnOff,
    effect: on ? OnOffEffect.On : OnOffEffect.Off,
    zones: [Zone.Left, Zone.Right],
  });
  return true;
}

/** The strip family's behaviour; a strip reports `synchronizing` for `syncMs` each time it comes online. */
export function stripFamily(syncMs: number): SimulatedFamily<StripState, StripCommand> {
  return {
    declaration: STRIP_FAMILY,
    gateway: {
      declaration: LAMP_GATEWAY_FAMILY,
      state: (strips): LampGatewayStateMessage => ({ online: true, strips }),
    },
    initial(seed, { random, clock }) {
      const strip: StripState = {
        zones: { [Zone.Left]: DARK_ZONE, [Zone.Right]: DARK_ZONE },
        synchronizing: syncMs > 0,
        level: 100,
        schedule: seed.schedule ?? null,
        ratedPower: 40 + random() * 20,
        signal: Math.round(-90 + random() * 25),
      };
      runSchedule(strip, new Date(clock()));
      return strip;
    },
    // The effect schema lists every effect for every type; the spec ties each effect to its type (stripEffectOf), and
    // a strip could not run a schedule in a time zone its clock does not know.
    accepts: (command) => (command.type === 'effect' ? stripEffectOf(command.params) !== null : isTimeZone(command.params.place.timeZone)),
    apply(strip, command, { clock }) {
      if (command.type === 'effect') {
        strip.zones = applyStripEffect(strip.zones, command.params);
      } else {
        // Replaces any earlier schedule and applies what it says now; from then on the strip follows it by its clock.
        strip.schedule = command.params;
        runSchedule(strip, new Date(clock()));
      }
    },
    report: (strip, { gatewayId }): StripStateMessage => ({
      online: true,
      bri: brightness(strip),
      zones: strip.zones,
      synchronizing: strip.synchronizing,
      gatewayId,
      hardwareVersion: HARDWARE,
      softwareVersion: SOFTWARE,
    }),
    /** Power follows the lit zones (breathing and flashing average about half of steady light). */
    telemetry(strip, faults, now, random): LampTelemetryMessage {
      const load = [strip.zones.L, strip.zones.R].reduce((sum, z) => sum + (!z.on ? 0 : z.type === 2 || z.type === 3 ? 0.25 : 0.5), 0);
      const voltage = 220 + (random() - 0.5) * 4 + (faults.has(FaultCode.VoltageLow) ? -40 : faults.has(FaultCode.VoltageHigh) ? 30 : 0);
      const power = Math.max(0.4, strip.ratedPower * load * (1 + (random() - 0.5) * 0.04));
      const powerFactor = 0.92 + random() * 0.05;
      return {
        ts: now.toISOString(),
        voltage: Number(voltage.toFixed(1)),
        current: Number((power / (voltage * powerFactor)).toFixed(3)),
        power: Number(power.toFixed(1)),
        powerFactor: Number(powerFactor.toFixed(2)),
        signal: strip.signal,
      };
    },
    tick: (strip, { clock }) => runSchedule(strip, new Date(clock())),
    // The strip synchronizes its zones with its gateway for a moment, then reports normally.
    connected(strip, { after }) {
      if (syncMs <= 0) return;
      strip.synchronizing = true;
      after(syncMs, (s) => {
        s.synchronizing = false;
        return true;
      });
    },
  };
}

/** Which strip lights to simulate: explicit codes (with their gateway), or the registry's strip lights. */
export type StripSource = readonly (string | DeviceSeed)[] | { databaseUrl: string };

/**
 * Strip lights are multiplexed over their gateways, never on connections of their own: codes are unique per device
 * type only, so a strip's code may be a lamp's, and so that lamp's MQTT client id.
 */
export interface StripFleetOptions extends Omit<SimulationOptions, 'individualConnections'> {
  strips: StripSource;
  /** Strips per generated gateway (strips whose record names a gateway stay with it). Default 20. */
  stripsPerGateway?: number;
  /** Prefix of generated gateway ids (also MQTT client ids). Default 'SGW-'. */
  gatewayPrefix?: string;
  /** How long a strip reports `synchronizing` after it connects. Default 1500 ms; 0 skips it. */
  syncMs?: number;
  /** The strips' clock, for the schedules they run. Default the real time. */
  clock?: () => Date;
}

export interface StripSnapshot {
  code: string;
  gatewayId: string;
  synchronizing: boolean;
  bri: number;
  zones: Record<Zone, StripZoneState>;
  /** The strategy it runs, if one was distributed to it. */
  strategyId: number | null;
  faults: FaultCode[];
  /** Effects applied so far (never more than once per command id). */
  applied: number;
}

export interface StripFleet extends DeviceFleet {
  strip(code: string): StripSnapshot | undefined;
}

/** The registry's strip lights, with the gateway each record names; they start without a schedule, as they always have. */
export function loadStripsFromDatabase(databaseUrl: string): Promise<DeviceSeed[]> {
  return loadSeeds(databaseUrl, STRIP_FAMILY, { schedules: false });
}

class StripLights extends FleetRunner<StripState, StripCommand> implements StripFleet {
  strip(code: string): StripSnapshot | undefined {
    const strip = this.device(code);
    if (!strip) return undefined;
    return {
      code,
      gatewayId: strip.gatewayId,
      synchronizing: strip.state.synchronizing,
      bri: brightness(strip.state),
      zones: structuredClone(strip.state.zones),
      strategyId: strip.state.schedule?.strategyId ?? null,
      faults: strip.faults,
      applied: strip.applied,
    };
  }
}

/** Connects every strip gateway, publishes the strips' retained states, and starts telemetry. */
export async function startStripFleet(options: StripFleetOptions): Promise<StripFleet> {
  const source = options.strips;
  const seeds =
    'databaseUrl' in source ? await loadStripsFromDatabase(source.databaseUrl) : source.map((s) => (typeof s === 'string' ? { code: s } : s));
  const runner = {
    ...options,
    devicesPerGateway: options.stripsPerGateway ?? 20,
    gatewayPrefix: options.gatewayPrefix ?? 'SGW-',
    individualConnections: false,
    telemetryQos: options.telemetryQos ?? 0,
    registered: 'databaseUrl' in source,
  };
  return new StripLights(stripFamily(options.syncMs ?? 1500), runner, seeds).run();
}
