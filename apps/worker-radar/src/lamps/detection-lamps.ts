import type { Logger } from 'pino';
import type { Pool, PoolClient } from 'pg';
import { DeviceFamily, type RadarDetectedEvent, type RadarEventId, type RadarLampMove, type RadarLampsChangedEvent } from '@sc/contracts';
import { Periodic, inTransaction, type ChangeObserver, type RowChange } from '@sc/device-runtime';
import type { RedisBus } from '@sc/messaging';
import type { RadarEvent } from '../families/radar.handler';
import { lampRaiser } from './lamp-raiser';
import { lampTargets, type RadarLampRules } from './radar-lamp-rules';

/**
 * Detection to lamps: in the transaction that stores a batch of radar reports, each detection raises the lamps of
 * the strategies of the radar's groups (lampRaiser), and once it has committed the detection is announced
 * (RadarDetected) with the radar's new count and rate and the lamps it raised. Lamps whose event has an open interval
 * are kept in the same transaction as rises to come (`radar_lamp_pending`), so a worker stopped meanwhile loses none.
 * A pass every `passMs` raises the rises that are due and returns the lamps whose hold has ended, each in a
 * transaction of its own shared out among replicas, and announces what moved (RadarLampsChanged).
 */
export class DetectionLamps implements ChangeObserver<DeviceFamily.Radar> {
  readonly family = DeviceFamily.Radar;
  private readonly pass: Periodic<void>;

  constructor(
    private readonly pool: Pool,
    private readonly rules: RadarLampRules,
    private readonly bus: RedisBus,
    private readonly logger: Logger,
    private readonly passMs: number,
  ) {
    this.pass = new Periodic(() => this.movePass(), logger, 'radar lamp pass failed');
  }

  start(): void {
    this.pass.start(this.passMs);
  }

  stop(): Promise<void> {
    return this.pass.stop();
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
    // The whole batch's raises at once; those with an open interval are kept for the pass to raise when due.
    const now = Date.now();
    const radarOf = (d: (typeof detections)[number]) => ({ radarId: d.change.recordId, radarCode: d.change.deviceCode });
    const results = await lampRaiser.raise(
      client,
      detections.map((d) => ({ ...radarOf(d), targets: d.targets.filter((t) => t.after === 0) })),
      now,
    );
    const later = await lampRaiser.hold(
      client,
      detections.map((d) => ({ ...radarOf(d), detectedAt: d.at, targets: d.targets.filter((t) => t.after > 0) })),
      now,
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
      lamps: [...results[i].lamps, ...later[i]],
      dispatchId: results[i].dispatchId,
    }));
    return () => {
      for (const event of announced) {
        this.bus.publish('RadarDetected', event).catch((err: Error) => this.logger.warn({ err: err.message }, 'RadarDetected not published'));
      }
    };
  }

  /** Raises the due rises, then returns the lamps whose hold has ended; either failing does not hold up the other. */
  private async movePass(): Promise<void> {
    let failed: Error | null = null;
    for (const [change, work] of [
      ['raised', lampRaiser.raiseDue],
      ['returned', lampRaiser.returnDue],
    ] as const) {
      try {
        this.announce(change, await inTransaction(this.pool, work));
      } catch (err) {
        failed ??= err as Error;
      }
    }
    if (failed) throw failed;
  }

  /** After the commit: the radar pages move the lamps live. */
  private announce(change: RadarLampsChangedEvent['change'], lamps: RadarLampMove[]): void {
    if (lamps.length === 0) return;
    const event: RadarLampsChangedEvent = { family: DeviceFamily.Radar, change, lamps, at: new Date().toISOString() };
    this.bus.publish('RadarLampsChanged', event).catch((err: Error) => this.logger.warn({ err: err.message }, 'RadarLampsChanged not published'));
  }
}
