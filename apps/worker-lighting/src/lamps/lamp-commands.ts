import { DIMMING_LEVELS, type DimmingLevel, type LampAction, type LampCommand } from '@sc/contracts';

/** A lamp command without its id and expiry. */
export type LampCommandBody = LampCommand extends infer C ? (C extends LampCommand ? Pick<C, 'type' | 'params'> : never) : never;

function levelOf(params: unknown): DimmingLevel | null {
  const level = (params as { level?: unknown } | null)?.level;
  return (DIMMING_LEVELS as readonly unknown[]).includes(level) ? (level as DimmingLevel) : null;
}

/** The command a dispatch sends: 'on' and 'off' switch, 'dim' sets a dimming level. Null for a dispatch the lamps cannot run. */
export function lampCommandOf(action: string, params: unknown): LampCommandBody | null {
  switch (action as LampAction) {
    case 'on':
      return { type: 'switch', params: { on: true } };
    case 'off':
      return { type: 'switch', params: { on: false } };
    case 'dim': {
      const level = levelOf(params);
      return level === null ? null : { type: 'dim', params: { level } };
    }
    default:
      return null;
  }
}

/** What a lamp reports after it applied a command; level 0 is off (spec: dimming level 0 means off). */
export function fieldsAfterCommand(command: LampCommandBody): { switchState: 0 | 1; bri?: DimmingLevel } {
  if (command.type === 'switch') return { switchState: command.params.on ? 1 : 0 };
  return { switchState: command.params.level > 0 ? 1 : 0, bri: command.params.level };
}
