import type { PoolClient } from 'pg';
import { AlarmKind, familyAlarms, OnlineState, type FamilyName, type ThresholdAlarmDeclaration } from '@sc/contracts';
import type { AnyFamilyHandler, ChangeObserver, DeviceEvent, RowChange } from '../family/family-handler';
import type { AlarmNotifier, AlarmStore, AlarmTransition } from './alarm-store';

type Fields = Record<string, unknown>;

const reaches = (fields: Fields, alarm: ThresholdAlarmDeclaration) =>
  alarm.fields.some((field) => typeof fields[field] === 'number' && (fields[field] as number) >= alarm.raiseAt);
const below = (fields: Fields, alarm: ThresholdAlarmDeclaration) =>
  alarm.fields.every((field) => typeof fields[field] !== 'number' || (fields[field] as number) < alarm.clearBelow);

/** When the device's last event of the write happened (a report's or a Last Will's time), else now. */
function timeOf(events: readonly DeviceEvent[] | undefined): string {
  for (const event of [...(events ?? [])].reverse()) if (event.kind === 'report' || event.kind === 'offline') return event.at;
  return new Date().toISOString();
}

/**
 * The alarms the runtime raises and clears for one device's change: `offline` when its network status became offline
 * (cleared when it became online), and each declared threshold crossed: raised when a field reaches `raiseAt` from
 * below, cleared when every field falls below `clearBelow` from at or above it.
 */
export function familyAlarmTransitions(
  family: FamilyName,
  ownRecord: boolean,
  offline: boolean,
  thresholds: readonly ThresholdAlarmDeclaration[],
  change: RowChange,
  at: string,
): AlarmTransition[] {
  const transitions: AlarmTransition[] = [];
  const before = change.before as Fields;
  const changed = change.changed as Fields;
  const raise = (kind: AlarmKind, up: boolean) => transitions.push({ deviceId: change.recordId, family, ownRecord, kind, code: 0, raise: up, at });
  if (offline && 'networkStatus' in changed && changed.networkStatus !== before.networkStatus) {
    if (changed.networkStatus === OnlineState.Offline) raise(AlarmKind.Offline, true);
    else if (changed.networkStatus === OnlineState.Online) raise(AlarmKind.Offline, false);
  }
  for (const alarm of thresholds) {
    if (!alarm.fields.some((field) => field in changed)) continue;
    const after = { ...before, ...changed };
    if (reaches(after, alarm) && !reaches(before, alarm)) raise(alarm.kind, true);
    else if (below(after, alarm) && !below(before, alarm)) raise(alarm.kind, false);
  }
  return transitions;
}

/**
 * The runtime's alarms of one family, written beside its rows in the same transaction (an observer every worker
 * gets for each family it serves) and announced as AlarmChanged once committed. An alarm names a registry device, or
 * for a family whose devices are records of their own (lamp gateways, floor screens), the record.
 */
export class FamilyAlarms implements ChangeObserver {
  readonly family: FamilyName;
  private readonly ownRecord: boolean;
  private readonly offline: boolean;
  private readonly thresholds: readonly ThresholdAlarmDeclaration[];

  private constructor(
    handler: AnyFamilyHandler,
    private readonly alarms: AlarmStore,
    private readonly notifier: AlarmNotifier,
  ) {
    const declared = familyAlarms(handler.declaration);
    this.family = handler.declaration.family;
    this.ownRecord = handler.declaration.deviceType === null;
    this.offline = declared.offline && 'networkStatus' in handler.columns;
    this.thresholds = declared.thresholds;
  }

  /** The observer of a family with runtime alarms; null for one without. */
  static of(handler: AnyFamilyHandler, alarms: AlarmStore, notifier: AlarmNotifier): FamilyAlarms | null {
    const observer = new FamilyAlarms(handler, alarms, notifier);
    return observer.offline || observer.thresholds.length > 0 ? observer : null;
  }

  async observe(
    client: PoolClient,
    changes: readonly RowChange[],
    events: ReadonlyMap<number, readonly DeviceEvent[]>,
  ): Promise<(() => void) | void> {
    const transitions = changes.flatMap((change) =>
      familyAlarmTransitions(this.family, this.ownRecord, this.offline, this.thresholds, change, timeOf(events.get(change.recordId))),
    );
    if (transitions.length === 0) return;
    const applied = await this.alarms.apply(client, transitions);
    if (applied.length > 0) return () => this.notifier.notify(applied);
  }
}
