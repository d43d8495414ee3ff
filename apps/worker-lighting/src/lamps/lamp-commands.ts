import type { LampEvent } from './lamp-state';
import { DIMMING_LEVELS, type DimmingLevel, type LampAction, type LampCommand, type LampSchedule } from '@sc/contracts';

/** A lamp command without its id and expiry. */
export type LampCommandBody = LampCommand extends infer C ? (C extends LampCommand ? Pick<C, 'type' | 'params'> : never) : never;

function levelOf(params: unknown): DimmingLevel | null {
  const level = (params as { level?: unknown } | null)?.level;
  return (DIMMING_LEVELS as readonly unknown[]).includes(level) ? (level as DimmingLevel) : null;
}

/** The command a dispatch sends: 'on' and 'off' switch, 'dim' sets a dimming level. Null for a dispatch the lamps cannot run. */
export function lampCommandOf(action: string, params: unknown): LampCommandBody | null {
  switch (action as LampAction | 'schedule') {
    case 'on':
      return { type: 'switch', params: { on: true } };
    case 'off':
      return { type: 'switch', params: { on: false } };
    case 'dim': {
      const level = levelOf(params);
      return level === null ? null : { type: 'dim', params: { level } };
    }
    case 'schedule':
      return isSchedule(params) ? { type: 'schedule', params } : null;
    case 'sync':
      return { type: 'sync', params: {} };
    default:
      return null;
  }
}

/** Enough of a schedule to send: the gateway validated the rules when it compiled it. */
function isSchedule(params: unknown): params is LampSchedule {
  const p = params as Partial<LampSchedule> | null;
  return !!p && typeof p.strategyId === 'number' && !!p.rules && !!p.place && typeof p.place.timeZone === 'string';
}

/** What a lamp reports after it applied a command; level 0 is off (spec: dimming level 0 means off). */
export function fieldsAfterCommand(command: LampCommandBody): { switchState?: 0 | 1; bri?: DimmingLevel } {
  if (command.type === 'switch') return { switchState: command.params.on ? 1 : 0 };
  // A lamp applies its schedule's level itself and reports it in its state.
  if (command.type === 'schedule' || command.type === 'sync') return {};
  return { switchState: command.params.level > 0 ? 1 : 0, bri: command.params.level };
}

/** What a lamp goes through while a command of this dispatch action is out: synchronizing (-1) for sync, else distributing (-2). */
export function sendingEvent(action: string): LampEvent {
  return action === 'sync' ? { kind: 'synchronizing' } : { kind: 'distributing' };
}

/**
 * The lamp event of a command's outcome (ack, refusal or expiry). A delivered sync changes nothing by itself: the
 * state the lamp publishes right after ends the synchronizing status. A failed one ends it at once.
 */
export function answerEvent(action: string, params: unknown, delivered: boolean): LampEvent {
  if (action === 'sync') return { kind: 'syncAnswered', ok: delivered };
  const body = lampCommandOf(action, params);
  return delivered && body ? { kind: 'delivered', ...fieldsAfterCommand(body) } : { kind: 'failed' };
}
