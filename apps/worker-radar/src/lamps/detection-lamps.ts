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
    const detections = changes.flatMap((change) =>
      (events.get(change.recordId) ?? []).flatMap((e) => {
        if (e.kind !== 'report' || e.channel !== 'event') return [];
        const event = e.report.event as RadarEventId;
        return [{ change, event, ts: e.report.ts, at: e.at, targets: lampTargets(this.rules.of(change.recordId), event) }];
      }),
    );
    if (detections.length === 0) return () => undefined;
    // The whole batch's raises at once; those with an open interval later, each in a transaction of its own.
    const results = await lampRaiser.raise(
      client,
      detections.map((d) => ({ radarCode: d.change.deviceCode, targets: d.targets.filter((t) => t.after === 0) })),
      Date.now(),
    );
    for (const d of detections)
      this.later(
        d.change.deviceCode,
        d.targets.filter((t) => t.after > 0),
      );
    const announced = detections.map((d, i): RadarDetectedEvent => ({
      family: DeviceFamily.Radar,
      radarId: d.change.recordId,
      code: d.change.deviceCode,
      event: d.event,
      ts: d.ts,
      at: d.at,
      count: d.change.changed.count ?? d.change.before.count,
      radarRate: d.change.changed.radarRate ?? d.change.before.radarRate,
      lamps: results[i].lamps,
      dispatchId: results[i].dispatchId,
    }));
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
        inTransaction(this.pool, (client) => lampRaiser.raise(client, [{ radarCode, targets: due }], Date.now())).catch((err: Error) =>
          this.logger.warn({ err: err.message, radarCode }, 'delayed radar raise failed'),
        );
      }, after * 1000);
      timer.unref();
      this.delayed.add(timer);
    }
  }
}
