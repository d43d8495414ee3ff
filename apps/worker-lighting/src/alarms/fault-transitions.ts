import { AlarmKind, DeviceFamily, type FaultCode } from '@sc/contracts';
import type { AlarmTransition } from '@sc/device-runtime';
import type { LampEvent } from '../families/lamp.handler';

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
    transitions.push({ deviceId, family: DeviceFamily.Lamp, kind: AlarmKind.Fault, code, raise: raised, at: event.at });
  }
  return transitions;
}
