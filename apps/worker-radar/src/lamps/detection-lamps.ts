import type { Logger } from 'pino';
import type { Pool, PoolClient } from 'pg';
import { DeviceFamily, type RadarDetectedEvent, type RadarEventId } from '@sc/contracts';
import { Periodic, inTransaction, type ChangeObserver, type RowChange } from '@sc/device-runtime';
import type { RedisBus } from '@sc/messaging';
import type { RadarEvent } from '../families/radar.handler';
import { lampRaiser } from './lamp-raiser';
import { lampTargets, type LampTarget, type RadarLampRules } from './radar-lamp-rules';

/**
 * Detection to lamps: in the transaction that stores a batch of radar reports, each detection raises the lamps of
 * the strategies of the radar's groups (lampRaiser), and once it has committed the detection is announced
 * (RadarDetected) with the radar's new count and rate and the lamps it raised. Lamps whose event has an open interval
 * rise later, in a transaction of their own. A pass every RETURN_PASS_MS returns the lamps whose hold has ended.
 */
export class DetectionLamps implements ChangeObserver<DeviceFamily.Radar> {
  readonly family = DeviceFamily.Radar;
  private readonly returns: Periodic<number>;
  private readonly delayed = new Set<NodeJS.Timeout>();

  constructor(
    private readonly pool: Pool,
    private readonly rules: RadarLampRules,
    private readonly bus: RedisBus,
    private readonly logger: Logger,
    private readonly returnPassMs: number,
  ) {
    this.returns = new Periodic(() => inTransaction(this.pool, (client) => lampRaiser.returnDue(client)), logger, 'radar lamp return failed');
  }

  start(): void {
    this.returns.start(this.returnPassMs);
  }

  async stop(): Promise<void> {
    for (const timer of this.delayed) clearTimeout(timer);
    this.delayed.clear();
    await this.returns.stop();
  }

  async observe(
    client: PoolClient,
    changes: readonly RowChange<DeviceFamily.Radar>[],
    events: ReadonlyMap<number, readonly RadarEvent[]>,
  ): Promise<() => void> {
    const announced: RadarDetectedEvent[] = [];
    const at = Date.now();
    for (const change of changes) {
      const detections = (events.get(change.recordId) ?? []).flatMap((e) => (e.kind === 'report' && e.channel === 'event' ? [e] : []));
      if (detections.length === 0) continue;
      const rules = this.rules.of(change.recordId);
      for (const detection of detections) {
        const event = detection.report.event as RadarEventId;
        const targets = lampTargets(rules, event);
        const now = targets.filter((t) => t.after === 0);
        const { lamps, dispatchIds } = await lampRaiser.raise(client, change.deviceCode, now, at);
        this.later(
          change.deviceCode,
          targets.filter((t) => t.after > 0),
        );
        announced.push({
          family: DeviceFamily.Radar,
          radarId: change.recordId,
          code: change.deviceCode,
          event,
          ts: detection.report.ts,
          at: detection.at,
          count: change.changed.count ?? change.before.count,
          radarRate: change.changed.radarRate ?? change.before.radarRate,
          lamps,
          dispatchId: dispatchIds[0] ?? null,
        });
      }
    }
    return () => {
      for (const event of announced) {
        this.bus.publish('RadarDetected', event).catch((err: Error) => this.logger.warn({ err: err.message }, 'RadarDetected not published'));
      }
    };
  }

  /** Raises lamps whose event has an open interval once it has passed (a worker stopped meanwhile does not). */
  private later(radarCode: string, targets: readonly LampTarget[]): void {
    for (const after of new Set(targets.map((t) => t.after))) {
      const timer = setTimeout(() => {
        this.delayed.delete(timer);
        const due = targets.filter((t) => t.after === after).map((t) => ({ ...t, after: 0 }));
        inTransaction(this.pool, (client) => lampRaiser.raise(client, radarCode, due, Date.now())).catch((err: Error) =>
          this.logger.warn({ err: err.message, radarCode }, 'delayed radar raise failed'),
        );
      }, after * 1000);
      timer.unref();
      this.delayed.add(timer);
    }
  }
}
