import type { Logger } from 'pino';
import type { DeviceStateChangedEvent, FamilyName } from '@sc/contracts';
import type { RedisBus } from '@sc/messaging';
import type { RowChange } from '../family/family-handler';

/**
 * Announces stored changes on the bus: one DeviceStateChanged per family per write, carrying every device that
 * changed. Called after the commit, so listeners never see a change that was rolled back.
 */
export class StateEvents {
  constructor(
    private readonly bus: RedisBus,
    private readonly logger: Logger,
  ) {}

  publish(family: FamilyName, changes: readonly RowChange[]): void {
    if (changes.length === 0) return;
    const event = {
      family,
      changes: changes.map((c) => ({ recordId: c.recordId, deviceCode: c.deviceCode, changed: c.changed })),
      at: new Date().toISOString(),
    } as DeviceStateChangedEvent;
    this.bus.publish('DeviceStateChanged', event).catch((err: Error) => this.logger.warn({ err: err.message }, 'DeviceStateChanged not published'));
  }
}
