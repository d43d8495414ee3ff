import { SENSING_HOLD_MAX_SECONDS, SUN_OFFSET_MAX_MINUTES } from './strategy';

/** The values a number field accepts: the browser checks them before sending, the server checks them again. */
export interface NumberBounds {
  min: number;
  max: number;
  /** Whole numbers only. */
  integer?: boolean;
}

export const NUMBER_BOUNDS = {
  latitude: { min: -90, max: 90 },
  longitude: { min: -180, max: 180 },
  /** A lamp's rated power, watts at full brightness. */
  ratedPower: { min: 1, max: 10_000, integer: true },
  /** Minutes before (negative) or after sunset and sunrise. */
  sunOffset: { min: -SUN_OFFSET_MAX_MINUTES, max: SUN_OFFSET_MAX_MINUTES, integer: true },
  /** Seconds a radar event keeps a sensing lamp raised. */
  holdSeconds: { min: 1, max: SENSING_HOLD_MAX_SECONDS, integer: true },
  /** A broadcast terminal's broadcast or interphone volume, percent. */
  volume: { min: 0, max: 100, integer: true },
  /** A broadcast terminal's priority: 1 (first) to 10. */
  terminalPriority: { min: 1, max: 10, integer: true },
} as const satisfies Record<string, NumberBounds>;

/** What is wrong with a number, as a catalogue message and its parameters. */
export type NumberProblem = { key: 'invalidValue' } | { key: 'mustBeInteger' } | { key: 'outOfRange'; params: { min: number; max: number } };

/** Null when `value` is within `bounds`; never a corrected value, so nothing is saved that the operator did not type. */
export function numberProblem(value: number, bounds: NumberBounds): NumberProblem | null {
  if (!Number.isFinite(value)) return { key: 'invalidValue' };
  if (bounds.integer && !Number.isInteger(value)) return { key: 'mustBeInteger' };
  if (value < bounds.min || value > bounds.max) return { key: 'outOfRange', params: { min: bounds.min, max: bounds.max } };
  return null;
}
