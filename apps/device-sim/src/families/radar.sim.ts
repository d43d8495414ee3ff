import { RADAR_FAMILY, RadarEventId, type CommandMessage, type RadarDetectionMessage, type RadarStateMessage } from '@sc/contracts';
import {
  FleetRunner,
  loadSeeds,
  seedsOf,
  type DeviceFleet,
  type DeviceSource,
  type Random,
  type SimulatedFamily,
  type SimulationOptions,
} from '../kit';

// Radars: presence detections along the street, more at rush hours, published on their `event` topic (which lamps on
// a sensing schedule naming the radar hear directly, and the radar worker counts).

const HARDWARE = 'MW-24G-R2';
const SOFTWARE = '2.4.1';

/** Detections a minute of one radar by the hour of its local day: quiet at night, busiest at the rush hours. */
export const DETECTIONS_PER_MINUTE: readonly number[] = [0.3, 0.2, 0.1, 0.1, 0.2, 0.6, 2, 8, 10, 6, 3, 3, 4, 3, 3, 3, 4, 9, 10, 7, 4, 3, 2, 1];

/** What one detection is of: mostly motor vehicles on the street, then pedestrians and bicycles. */
export function drawEvent(random: Random): RadarEventId {
  const r = random();
  return r < 0.6 ? RadarEventId.MotorVehicle : r < 0.85 ? RadarEventId.Pedestrian : RadarEventId.NonMotorVehicle;
}

export interface RadarState {
  /** Detections not yet published, in order. */
  pending: RadarDetectionMessage[];
  /** Simulated time of the last look at the street (ms), for the detections since. */
  lookedAt: number | null;
  readonly mac: string;
  readonly rssi: number;
}

/** The local hour of `at` in `timeZone`. */
export function localHour(at: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat('en-GB', { hour: 'numeric', hourCycle: 'h23', timeZone }).format(at));
}

/**
 * Detections in `elapsedMs` at `rate` a minute: a Poisson draw (Knuth's, by the product of uniforms; rates are small),
 * so a radar's detections are spread as a street's passers-by are.
 */
export function drawCount(rate: number, elapsedMs: number, random: Random): number {
  const mean = (rate * elapsedMs) / 60_000;
  if (mean <= 0) return 0;
  if (mean > 30) return Math.round(mean + Math.sqrt(mean) * (random() + random() + random() - 1.5) * 2);
  const limit = Math.exp(-mean);
  let n = 0;
  for (let p = random(); p > limit; p *= random()) n++;
  return n;
}

const hex = (n: number) => n.toString(16).padStart(2, '0').toUpperCase();

/**
 * The radar family's behaviour: detections at the rate of the hour, scaled by `busyness` (1: as DETECTIONS_PER_MINUTE),
 * gathered at each look at the street (the fleet's schedule tick) and published together.
 */
export function radarFamily(options: { timeZone: string; busyness: number }): SimulatedFamily<RadarState, CommandMessage> {
  return {
    declaration: RADAR_FAMILY,
    initial: (seed, ctx) => {
      const h = [...seed.code].reduce((a, c) => (a * 31 + c.charCodeAt(0)) >>> 0, 7);
      return {
        pending: [],
        lookedAt: ctx.clock(),
        mac: ['02', 'A0', ...[h >>> 24, h >>> 16, h >>> 8, h].map((b) => hex(b & 0xff))].join(':'),
        rssi: -45 - Math.floor(ctx.random() * 40),
      };
    },
    // Radars take no commands.
    apply: () => 'bad command',
    tick(radar, ctx) {
      const now = ctx.clock();
      const since = radar.lookedAt ?? now;
      radar.lookedAt = now;
      if (options.busyness <= 0 || now <= since) return false;
      const rate = DETECTIONS_PER_MINUTE[localHour(new Date(now), options.timeZone)] * options.busyness;
      const count = Math.min(drawCount(rate, now - since, ctx.random), 100);
      for (let i = 0; i < count; i++) {
        radar.pending.push({ ts: new Date(since + Math.floor(ctx.random() * (now - since))).toISOString(), event: drawEvent(ctx.random) });
      }
      radar.pending.sort((a, b) => a.ts.localeCompare(b.ts));
      return false;
    },
    takeEvents(radar) {
      return radar.pending.splice(0);
    },
    report: (radar): RadarStateMessage => ({ online: true, swver: SOFTWARE, hwver: HARDWARE, mac: radar.mac, rssi: radar.rssi }),
  };
}

/** Radars have connections of their own. */
export interface RadarFleetOptions extends Omit<SimulationOptions, 'individualConnections'> {
  /** Explicit codes, `count` generated codes (default prefix 'RADAR-'), or the registry's radars. */
  radars: DeviceSource;
  /** The time zone whose hours set the rate (default UTC). */
  timeZone?: string;
  /** Scales the hourly rates; 0 (the default) makes detections only on demand (`detect`). */
  busyness?: number;
  /**
   * Detections a minute of each radar, steadily, instead of by the hour: each radar publishes each detection as it
   * makes it (exponential gaps), so a benchmark's timings are not the simulator's gathering.
   */
  perMinute?: number;
}

export interface RadarFleet extends DeviceFleet {
  /** The radar detects something now: published at once on its `event` topic. */
  detect(code: string, event?: RadarEventId, at?: Date): Promise<void>;
}

class Radars extends FleetRunner<RadarState, CommandMessage> implements RadarFleet {
  private readonly steady = new Map<string, NodeJS.Timeout>();

  detect(code: string, event = RadarEventId.Pedestrian, at = new Date()): Promise<void> {
    return this.emit(code, (radar) => radar.pending.push({ ts: at.toISOString(), event }));
  }

  /** Every radar detects `perMinute` times a minute on average, each detection published as it is made. */
  detectSteadily(perMinute: number, random: Random): void {
    const next = (code: string) => {
      const timer = setTimeout(
        () => {
          void this.detect(code, drawEvent(random)).catch(() => undefined);
          next(code);
        },
        (-Math.log(1 - random()) * 60_000) / perMinute,
      );
      timer.unref();
      this.steady.set(code, timer);
    };
    for (const code of this.codes) next(code);
  }

  override stop(options?: { clearRetained?: boolean }): Promise<void> {
    for (const timer of this.steady.values()) clearTimeout(timer);
    this.steady.clear();
    return super.stop(options);
  }
}

/** Connects every radar on a connection of its own and publishes its retained state. */
export async function startRadarFleet(options: RadarFleetOptions): Promise<RadarFleet> {
  const { seeds, registered } = await seedsOf(options.radars, 'RADAR-', (url) => loadSeeds(url, RADAR_FAMILY, { schedules: false, gateways: false }));
  const steady = options.perMinute !== undefined && options.perMinute > 0;
  const fleet = await new Radars(
    radarFamily({ timeZone: options.timeZone ?? 'UTC', busyness: steady ? 0 : (options.busyness ?? 0) }),
    { ...options, devicesPerGateway: 1000, gatewayPrefix: 'RADAR-GW-', registered },
    seeds,
  ).run();
  if (steady) fleet.detectSteadily(options.perMinute!, options.random ?? Math.random);
  return fleet;
}
