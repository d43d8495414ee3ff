import { parseArgs } from 'node:util';
import type { FleetOptions } from './families/lamp.sim';

export const USAGE = `Usage: node dist/apps/device-sim/main.js [--from-db | [--family lamp|broadcast|led|signage|radar] --count N --prefix P] [--ack-latency 50-300]
       [--failure-rate 0.02] [--offline 0.05] [--telemetry-interval 10] [--lamps-per-gateway 50] [--individual | --multiplexed]
       [--activity-rate 0] [--control-stdin] [--download-concurrency N] [--clock-start 2026-11-21T17:00:00+08:00] [--clock-speed 60]
       [--radar-rate 0] [--clear-retained]
--from-db: the registry's devices of every family, with demo activity; with --family camera, its cameras alone.
--family, --count, --prefix: N devices of one family with codes P00001 … and no demo activity (default family lamp).
--activity-rate: changes the devices make by themselves per second over the fleet, in turn (terminals start or end a
  programme or a call; alarm columns are pressed); broadcast and alarm only.
--control-stdin: read commands from standard input, one a line: 'activity RATE' sets the activity rate (a benchmark's
  sweep), answered by a 'device-sim activity' log line with the fleet's counters (downloads included), as 'stats' is
  without changing anything; 'clock' reads the devices' clock and
  'clock TIME [SPEED]' moves it (a test's), answered by a 'device-sim clock' log line with the simulated time.
--radar-rate: detections a minute of each radar, steadily (radar only; 0, the default, follows the hour of the day).
--download-concurrency: media downloads under way at once over the fleet (broadcast, led, signage; default unbounded).
--lamps-per-gateway, --individual, --multiplexed: lamps only (terminals, screens and players always have connections of their own).
--clear-retained: on stop, empty the retained states of the simulated devices and gateways.
Environment: MQTT_URL (default mqtt://127.0.0.1:1883), MQTT_DEVICE_URL (the devices' listener; default MQTT_URL), DATABASE_URL (for --from-db), LOG_LEVEL; MQTT_CREDENTIAL_SECRET
(devices log in with their own accounts) and MQTT_BROKER_ACCESS_DIR (accounts the simulator invents are granted there).`;

/** The families a generated fleet (--count) can be of. */
export const CLI_FAMILIES = ['lamp', 'broadcast', 'led', 'signage', 'radar', 'alarm'] as const;
/** Cameras are simulated from the registry only (their RTSP addresses and logins are the registry's). */
export type CliFamily = (typeof CLI_FAMILIES)[number] | 'camera';

/** The codes of a generated fleet without --prefix. */
const DEFAULT_PREFIX: Record<(typeof CLI_FAMILIES)[number], string> = {
  lamp: 'LAMP-',
  broadcast: 'BC-',
  led: 'LED-',
  signage: 'FS-',
  radar: 'RADAR-',
  alarm: 'ALARM-',
};

export interface CliSettings {
  /** The family of a generated fleet; the registry's fleet (--from-db) is every family's. */
  family: CliFamily;
  /** The settings every family takes, and the lamps' (`lamps` is the source: generated codes or the registry). */
  fleet: Omit<FleetOptions, 'logger'>;
  /** Changes of the devices' own per second over the fleet (broadcast: occupancy); 0: none. */
  activityPerSecond: number;
  /** Detections a minute of each generated radar (0: by the hour of the day). */
  radarRate: number;
  /** Commands on standard input (parseControlLine). */
  controlStdin: boolean;
  /** Terminals', screens' and players' downloads under way at once; undefined: unbounded. */
  downloadConcurrency?: number;
  summaryIntervalMs: number;
  /** Empty the retained states on stop (a benchmark's fleet leaves nothing behind). */
  clearRetainedOnStop: boolean;
}

function number(name: string, text: string | undefined, fallback: number, min: number, max = Infinity): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max)
    throw new Error(`--${name} must be a number from ${min} to ${max}, not '${text}'`);
  return value;
}

/** `50-300` (uniform between) or `120` (fixed). */
export function parseLatency(text: string | undefined): { min: number; max: number } {
  if (text === undefined) return { min: 50, max: 300 };
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:-\s*(\d+(?:\.\d+)?))?\s*$/.exec(text);
  const min = match ? Number(match[1]) : NaN;
  const max = match?.[2] !== undefined ? Number(match[2]) : min;
  if (Number.isNaN(min) || max < min) throw new Error(`--ack-latency must be milliseconds, 'MIN-MAX' or 'N', not '${text}'`);
  return { min, max };
}

/** Turns the command line and environment into fleet options; throws with a plain message on bad input. */
export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv): CliSettings {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      'from-db': { type: 'boolean' },
      family: { type: 'string' },
      count: { type: 'string' },
      prefix: { type: 'string' },
      'ack-latency': { type: 'string' },
      'failure-rate': { type: 'string' },
      offline: { type: 'string' },
      'telemetry-interval': { type: 'string' },
      'lamps-per-gateway': { type: 'string' },
      individual: { type: 'boolean' },
      multiplexed: { type: 'boolean' },
      'activity-rate': { type: 'string' },
      'radar-rate': { type: 'string' },
      'download-concurrency': { type: 'string' },
      'control-stdin': { type: 'boolean' },
      'clock-start': { type: 'string' },
      'clock-speed': { type: 'string' },
      'clear-retained': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new Error(USAGE);
  if (values['from-db'] && values.count !== undefined) throw new Error('--from-db and --count exclude each other');
  if (values.individual && values.multiplexed) throw new Error('--individual and --multiplexed exclude each other');
  if (values.family === 'camera') {
    if (!values['from-db']) throw new Error('--family camera goes with --from-db: cameras are simulated from the registry');
    return {
      ...parseCliArgs(
        argv.filter((arg, i) => arg !== '--family' && !arg.startsWith('--family=') && argv[i - 1] !== '--family'),
        env,
      ),
      family: 'camera',
    };
  }
  const family = (values.family ?? 'lamp') as (typeof CLI_FAMILIES)[number];
  if (!CLI_FAMILIES.includes(family)) throw new Error(`--family must be one of ${CLI_FAMILIES.join(', ')}, camera, not '${values.family}'`);
  if (values.family !== undefined && values.count === undefined) throw new Error('--family goes with --count (--from-db simulates every family)');
  if (family !== 'lamp') {
    const lampOnly = (['lamps-per-gateway', 'individual', 'multiplexed'] as const).find((name) => values[name] !== undefined);
    if (lampOnly)
      throw new Error(`--${lampOnly} is for lamps: broadcast terminals, LED screens and floor screens each have a connection of their own`);
  }
  const activityPerSecond = number('activity-rate', values['activity-rate'], 0, 0, 1_000_000);
  if (activityPerSecond > 0 && family !== 'broadcast' && family !== 'alarm')
    throw new Error('--activity-rate is for broadcast terminals and alarm columns (--family broadcast or alarm)');
  const radarRate = number('radar-rate', values['radar-rate'], 0, 0, 600);
  if (values['radar-rate'] !== undefined && family !== 'radar') throw new Error('--radar-rate is for radars (--family radar)');
  if (values['download-concurrency'] !== undefined && values.count !== undefined && family === 'lamp')
    throw new Error('--download-concurrency is for broadcast terminals, LED screens and floor screens');
  // Without --count the simulator speaks for the registry's lamps: the devices the platform knows.
  const lamps: FleetOptions['lamps'] =
    values.count !== undefined
      ? { count: number('count', values.count, 0, 1, 1_000_000), prefix: values.prefix ?? DEFAULT_PREFIX[family] }
      : { databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/smart_city' };
  const clockStart = values['clock-start'] === undefined ? undefined : new Date(values['clock-start']);
  if (clockStart && Number.isNaN(clockStart.getTime())) throw new Error(`--clock-start must be an ISO 8601 time, not '${values['clock-start']}'`);
  return {
    family,
    fleet: {
      mqttUrl: env.MQTT_URL ?? 'mqtt://127.0.0.1:1883',
      deviceMqttUrl: env.MQTT_DEVICE_URL || undefined,
      lamps,
      ackLatencyMs: parseLatency(values['ack-latency']),
      failureRate: number('failure-rate', values['failure-rate'], 0, 0, 1),
      offlineFraction: number('offline', values.offline, 0, 0, 1),
      telemetryIntervalMs: number('telemetry-interval', values['telemetry-interval'], 10, 0) * 1000,
      lampsPerGateway: number('lamps-per-gateway', values['lamps-per-gateway'], 50, 1),
      individualConnections: values.individual ? true : values.multiplexed ? false : undefined,
      // The clock devices run their schedules by: a start time and a speed (60 = an hour a minute).
      ...(clockStart || values['clock-speed'] !== undefined
        ? { clock: { start: clockStart, speed: number('clock-speed', values['clock-speed'], 1, 0, 100_000) } }
        : {}),
    },
    activityPerSecond,
    radarRate,
    controlStdin: values['control-stdin'] === true,
    ...(values['download-concurrency'] !== undefined
      ? { downloadConcurrency: number('download-concurrency', values['download-concurrency'], 0, 1, 1_000_000) }
      : {}),
    summaryIntervalMs: 30_000,
    clearRetainedOnStop: values['clear-retained'] === true,
  };
}

/**
 * A command line of --control-stdin: `activity RATE` (changes per second over the fleet); `stats` (the fleet's
 * counters, its downloads' among them, as a 'device-sim activity' line); `clock` (what time the
 * devices' clock says) or `clock TIME [SPEED]` (moves it to an ISO 8601 time, at a new speed if given).
 */
export type ControlCommand = { kind: 'activity'; perSecond: number } | { kind: 'clock'; at?: Date; speed?: number } | { kind: 'stats' };

/** Reads one line of --control-stdin; throws with a plain message on anything else (an empty line is null). */
export function parseControlLine(line: string): ControlCommand | null {
  const words = line.trim().split(/\s+/);
  if (words[0] === '') return null;
  if (words[0] === 'stats' && words.length === 1) return { kind: 'stats' };
  if (words[0] === 'activity' && words.length === 2) return { kind: 'activity', perSecond: number('activity-rate', words[1], 0, 0, 1_000_000) };
  if (words[0] === 'clock' && words.length <= 3) {
    if (words.length === 1) return { kind: 'clock' };
    const at = new Date(words[1]);
    if (Number.isNaN(at.getTime())) throw new Error(`clock must be given an ISO 8601 time, not '${words[1].slice(0, 40)}'`);
    return words.length === 3 ? { kind: 'clock', at, speed: number('clock-speed', words[2], 1, 0, 100_000) } : { kind: 'clock', at };
  }
  throw new Error(`unknown command '${line.trim().slice(0, 80)}': the simulator takes 'activity RATE', 'stats', 'clock' or 'clock TIME [SPEED]'`);
}
