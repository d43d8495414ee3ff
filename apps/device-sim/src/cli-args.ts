import { parseArgs } from 'node:util';
import type { FleetOptions } from './families/lamp.sim';

export const USAGE = `Usage: node dist/apps/device-sim/main.js [--from-db | --count N --prefix P] [--ack-latency 50-300] [--failure-rate 0.02]
       [--offline 0.05] [--telemetry-interval 10] [--lamps-per-gateway 50] [--individual | --multiplexed]
       [--clock-start 2026-11-21T17:00:00+08:00] [--clock-speed 60] [--clear-retained]
--clear-retained: on stop, empty the retained states of the simulated devices and gateways.
Environment: MQTT_URL (default mqtt://127.0.0.1:1883), MQTT_DEVICE_URL (the devices' listener; default MQTT_URL), DATABASE_URL (for --from-db), LOG_LEVEL; MQTT_CREDENTIAL_SECRET
(devices log in with their own accounts) and MQTT_BROKER_ACCESS_DIR (accounts the simulator invents are granted there).`;

export interface CliSettings {
  fleet: Omit<FleetOptions, 'logger'>;
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
      count: { type: 'string' },
      prefix: { type: 'string' },
      'ack-latency': { type: 'string' },
      'failure-rate': { type: 'string' },
      offline: { type: 'string' },
      'telemetry-interval': { type: 'string' },
      'lamps-per-gateway': { type: 'string' },
      individual: { type: 'boolean' },
      multiplexed: { type: 'boolean' },
      'clock-start': { type: 'string' },
      'clock-speed': { type: 'string' },
      'clear-retained': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new Error(USAGE);
  if (values['from-db'] && values.count !== undefined) throw new Error('--from-db and --count exclude each other');
  if (values.individual && values.multiplexed) throw new Error('--individual and --multiplexed exclude each other');
  // Without --count the simulator speaks for the registry's lamps: the devices the platform knows.
  const lamps: FleetOptions['lamps'] =
    values.count !== undefined
      ? { count: number('count', values.count, 0, 1, 1_000_000), prefix: values.prefix ?? 'LAMP-' }
      : { databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/smart_city' };
  const clockStart = values['clock-start'] === undefined ? undefined : new Date(values['clock-start']);
  if (clockStart && Number.isNaN(clockStart.getTime())) throw new Error(`--clock-start must be an ISO 8601 time, not '${values['clock-start']}'`);
  return {
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
      // The clock lamps run their schedules by: a start time and a speed (60 = an hour a minute).
      ...(clockStart || values['clock-speed'] !== undefined
        ? { clock: { start: clockStart, speed: number('clock-speed', values['clock-speed'], 1, 0, 100_000) } }
        : {}),
    },
    summaryIntervalMs: 30_000,
    clearRetainedOnStop: values['clear-retained'] === true,
  };
}
