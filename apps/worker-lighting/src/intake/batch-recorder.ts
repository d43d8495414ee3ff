import type { PoolClient } from 'pg';
import type { LampEvent } from '../lamps/lamp-state';
import type { LampChange } from '../lamps/lamp-store';

/**
 * Something else the intake writes from a batch, in the batch's transaction, after the lamps changed (alarms from
 * fault codes, energy from power readings). It answers what to publish once the transaction has committed.
 */
export interface BatchRecorder {
  record(client: PoolClient, changes: readonly LampChange[], events: ReadonlyMap<number, readonly LampEvent[]>): Promise<() => void>;
}
