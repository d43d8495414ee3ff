import type { PoolClient } from 'pg';
import type { FamilyName } from '@sc/contracts';
import type { AnsweredItem } from '../ledger/command-ledger';
import type { StateEvents } from '../events/state-events';
import type { ChangeObserver, DeviceEvent, RowChange } from './family-handler';
import type { RowStore } from './row-store';

/** Events of one write, by family, then by device, in order. */
export class EventsByFamily {
  readonly byFamily = new Map<FamilyName, Map<number, DeviceEvent[]>>();

  add(family: FamilyName, recordId: number, event: DeviceEvent): void {
    let devices = this.byFamily.get(family);
    if (!devices) this.byFamily.set(family, (devices = new Map()));
    const list = devices.get(recordId);
    if (list) list.push(event);
    else devices.set(recordId, [event]);
  }

  /** Each ended ledger row as an `answered` event of its device, after the device's own messages. */
  addAnswers(rows: readonly AnsweredItem[]): void {
    for (const row of rows)
      this.add(row.family, row.device_id, { kind: 'answered', action: row.action, params: row.params, delivered: row.state === 'delivered' });
  }

  /** A `sending` event for each row taken for publishing. */
  addSending(rows: readonly { family: FamilyName; device_id: number; action: string }[]): void {
    for (const row of rows) this.add(row.family, row.device_id, { kind: 'sending', action: row.action });
  }
}

/**
 * Applies a write's events to every family's rows and lets the observers of each family record what follows from
 * the changes, all in the caller's transaction. Answers what to publish after the commit: the changes on the bus,
 * and whatever the observers announce.
 */
export class FamilyWrites {
  constructor(
    private readonly stores: ReadonlyMap<FamilyName, RowStore>,
    private readonly observers: readonly ChangeObserver[],
    private readonly stateEvents: StateEvents,
  ) {}

  async apply(client: PoolClient, events: EventsByFamily): Promise<() => void> {
    const published: (() => void)[] = [];
    // A fixed order of families, so concurrent writers lock their rows in the same order.
    for (const [family, store] of this.stores) {
      const byDevice = events.byFamily.get(family);
      if (!byDevice || byDevice.size === 0) continue;
      const changes: RowChange[] = await store.apply(client, byDevice);
      for (const observer of this.observers) {
        if (observer.family !== family) continue;
        const publish = await observer.observe(client, changes, byDevice);
        if (publish) published.push(publish);
      }
      if (changes.length > 0) published.push(() => this.stateEvents.publish(family, changes));
    }
    return () => {
      for (const publish of published) publish();
    };
  }
}
