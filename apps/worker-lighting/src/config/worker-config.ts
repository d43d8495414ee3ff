import { envNumber, loadRuntimeConfig, type RuntimeConfig } from '@sc/device-runtime';

/** The device runtime's settings, and lighting's own (day-burning checks, energy, the default place). */
export interface WorkerConfig extends RuntimeConfig {
  /** Day-burning and dark-lamp checks over every lamp this often (0 turns the periodic check off). */
  lightCheckIntervalMs: number;
  /** A light condition must have held this long before it raises an alarm (lamps switching at dusk or dawn). */
  lightCheckGraceMs: number;
  /** Where lamps without a position (of their own or of a region above them) are: the installation default. */
  defaultPlace: { latitude: number; longitude: number; timeZone: string };
  /** Power readings further apart than this are not integrated across the gap (energy, see energy-integration.ts). */
  energyMaxGapMs: number;
}

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  return {
    ...loadRuntimeConfig('lighting', env),
    lightCheckIntervalMs: envNumber(env.LIGHT_CHECK_INTERVAL_MS, 60_000),
    lightCheckGraceMs: envNumber(env.LIGHT_CHECK_GRACE_MS, 120_000),
    // The same installation default as the gateway's schedules (docs/lighting-strategies.md).
    defaultPlace: {
      latitude: envNumber(env.SCHEDULE_DEFAULT_LATITUDE, 22.5431),
      longitude: envNumber(env.SCHEDULE_DEFAULT_LONGITUDE, 114.0579),
      timeZone: env.SCHEDULE_DEFAULT_TIME_ZONE || 'Asia/Shanghai',
    },
    energyMaxGapMs: envNumber(env.ENERGY_MAX_GAP_MS, 15 * 60_000),
  };
}
