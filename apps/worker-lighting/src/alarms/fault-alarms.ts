import type { PoolClient } from 'pg';
import { DeviceFamily } from '@sc/contracts';
import type { AlarmNotifier, AlarmStore, ChangeObserver, RowChange } from '@sc/device-runtime';
import type { LampEvent } from '../families/lamp.handler';
import { faultTransitions } from './fault-transitions';

/** The intake's part: fault codes that became active raise alarms, codes that cleared clear them. */
export class FaultAlarmRecorder implements ChangeObserver<DeviceFamily.Lamp> {
  readonly family = DeviceFamily.Lamp;

  constructor(
    private readonly alarms: AlarmStore,
    private readonly notifier: AlarmNotifier,
  ) {}

  async observe(
    client: PoolClient,
    changes: readonly RowChange<DeviceFamily.Lamp>[],
    events: ReadonlyMap<number, readonly LampEvent[]>,
  ): Promise<() => void> {
    // Every lamp with a fault event, even when its codes end as they began (a clear and a raise in one batch).
    const transitions = changes.flatMap((change) => faultTransitions(change.recordId, change.before.faults, events.get(change.recordId) ?? []));
    if (transitions.length === 0) return () => undefined;
    const applied = await this.alarms.apply(client, transitions);
    return () => this.notifier.notify(applied);
  }
}
