import { AlarmKind, type FaultCode } from '@sc/contracts';
import type { LampEvent } from '../families/lamp.handler';

/** An alarm to raise, or the open alarm of that device and condition to clear. */
export interface AlarmTransition {
  deviceId: number;
  kind: AlarmKind;
  /** The fault code for kind fault; 0 otherwise. */
  code: FaultCode | 0;
  raise: boolean;
  /** ISO time it happened. */
  at: string;
}

/**
 * The alarms a lamp's fault events raise and clear, in order, starting from the faults it had: a code that becomes
 * active raises one, a code that stops being active clears it; a repeat of what is already known changes nothing.
 */
export function faultTransitions(deviceId: number, faultsBefore: readonly FaultCode[], events: readonly LampEvent[]): AlarmTransition[] {
  const active = new Set<FaultCode>(faultsBefore);
  const transitions: AlarmTransition[] = [];
  for (const event of events) {
    if (event.kind !== 'report' || event.channel !== 'event') continue;
    const { code, active: raised } = event.report;
    if (active.has(code) === raised) continue;
    if (raised) active.add(code);
    else active.delete(code);
    transitions.push({ deviceId, kind: AlarmKind.Fault, code, raise: raised, at: event.at });
  }
  return transitions;
}
