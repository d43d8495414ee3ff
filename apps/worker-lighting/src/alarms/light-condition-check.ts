import type { Logger } from 'pino';
import type { Pool, PoolClient } from 'pg';
import { AlarmKind, DeviceFamily, LampStatus, OnlineState, type LampSchedule, type SchedulePlace } from '@sc/contracts';
import { resolvePlace, type PlaceParts } from '@sc/schedule';
import { inTransaction, type AlarmNotifier, type AlarmStore, type AlarmTransition, type ChangeObserver, type RowChange } from '@sc/device-runtime';
import type { LampEvent } from '../families/lamp.handler';
import { LightJudge } from './light-conditions';

export interface LightCheckOptions {
  /** Every lamp is checked this often (the sun and the schedules move without any lamp reporting). */
  intervalMs: number;
  /** A condition must have held this long before (see lightConditions). */
  graceMs: number;
  /** Lamps whose state changed are checked this long after, together. */
  touchDelayMs: number;
  /** Where lamps without a position of their own or of their region are. */
  defaultPlace: SchedulePlace;
  now?: () => Date;
}

const CONDITION_KINDS = [AlarmKind.DayBurning, AlarmKind.DarkLamp] as const;
const BUSY: readonly number[] = [LampStatus.Distributing, LampStatus.Synchronizing];

interface LampLightRow {
  id: number;
  latitude: number | null;
  longitude: number | null;
  region_id: number | null;
  switch_state: number;
  network_status: number;
  status: number;
  job_list: LampSchedule | null;
}

interface RegionPlaceRow {
  id: number;
  parent_id: number | null;
  latitude: number | null;
  longitude: number | null;
  time_zone: string | null;
}

/**
 * Day-burning and dark-lamp alarms. Runs in the lighting worker: over every lamp periodically, and over the lamps
 * whose switch, network or status changed shortly after the intake wrote them. Raising and clearing are idempotent
 * (AlarmStore), so replicas running the same check at once publish each change once.
 */
export class LightConditionCheck implements ChangeObserver<DeviceFamily.Lamp> {
  readonly family = DeviceFamily.Lamp;
  private timer: NodeJS.Timeout | null = null;
  private touchTimer: NodeJS.Timeout | null = null;
  private touched = new Set<number>();
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly pool: Pool,
    private readonly alarms: AlarmStore,
    private readonly notifier: AlarmNotifier,
    private readonly logger: Logger,
    private readonly options: LightCheckOptions,
  ) {}

  start(): void {
    if (this.options.intervalMs <= 0) return;
    this.timer = setInterval(() => void this.check(), this.options.intervalMs);
    this.timer.unref();
    void this.check();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.touchTimer) clearTimeout(this.touchTimer);
    await this.running;
  }

  /** The intake's hook: lamps that reported their state, or whose light or status changed, are checked soon after the commit. */
  async observe(
    _client: PoolClient,
    changes: readonly RowChange<DeviceFamily.Lamp>[],
    events: ReadonlyMap<number, readonly LampEvent[]>,
  ): Promise<() => void> {
    const reported = (c: RowChange) => events.get(c.recordId)?.some((e) => e.kind === 'report' && e.channel === 'state') ?? false;
    const ids = changes
      .filter((c) => 'switchState' in c.changed || 'networkStatus' in c.changed || 'status' in c.changed || reported(c))
      .map((c) => c.recordId);
    return () => this.touch(ids);
  }

  touch(ids: readonly number[]): void {
    if (ids.length === 0 || this.stopped) return;
    for (const id of ids) this.touched.add(id);
    this.touchTimer ??= setTimeout(() => {
      this.touchTimer = null;
      const batch = [...this.touched];
      this.touched.clear();
      void this.check(batch);
    }, this.options.touchDelayMs);
  }

  /** Checks the given lamps (all when omitted); checks run one after another. */
  check(ids?: readonly number[]): Promise<void> {
    this.running = this.running.then(() =>
      this.run(ids).catch((err: Error) => this.logger.warn({ err: err.message }, 'light condition check failed')),
    );
    return this.running;
  }

  private async run(ids?: readonly number[]): Promise<void> {
    if (this.stopped) return;
    const now = this.options.now?.() ?? new Date();
    const filter = ids ? `AND d.id = ANY($2::int[])` : '';
    const params: unknown[] = [1, ...(ids ? [ids] : [])];
    const [{ rows: lamps }, { rows: regions }, { rows: open }] = await Promise.all([
      this.pool.query<LampLightRow>(
        `SELECT d.id, d.latitude, d.longitude, d.region_id, l.switch_state, l.network_status, l.status, l.job_list
           FROM device d JOIN lamp l ON l.device_id = d.id WHERE d.type = $1 ${filter}`,
        params,
      ),
      this.pool.query<RegionPlaceRow>(`SELECT id, parent_id, latitude, longitude, time_zone FROM region`),
      this.pool.query<{ device_id: number; kind: AlarmKind }>(
        `SELECT device_id, kind FROM device_alarm WHERE kind = ANY($1::text[]) AND state <> 'cleared' ${ids ? 'AND device_id = ANY($2::int[])' : ''}`,
        [CONDITION_KINDS, ...(ids ? [ids] : [])],
      ),
    ]);
    const openKinds = new Map<number, Set<AlarmKind>>();
    for (const row of open) openKinds.set(row.device_id, (openKinds.get(row.device_id) ?? new Set()).add(row.kind));
    const regionById = new Map(regions.map((r) => [r.id, r]));
    const upward = (regionId: number | null): PlaceParts[] => {
      const chain: PlaceParts[] = [];
      for (
        let r = regionId === null ? undefined : regionById.get(regionId);
        r && chain.length < 64;
        r = r.parent_id === null ? undefined : regionById.get(r.parent_id)
      ) {
        chain.push({ latitude: r.latitude, longitude: r.longitude, timeZone: r.time_zone });
      }
      return chain;
    };

    const at = now.toISOString();
    const judge = new LightJudge(this.options.graceMs);
    const transitions: AlarmTransition[] = [];
    for (const lamp of lamps) {
      const place = resolvePlace({ latitude: lamp.latitude, longitude: lamp.longitude }, upward(lamp.region_id), this.options.defaultPlace).place;
      let found: Set<AlarmKind> | null;
      try {
        found = judge.conditions(
          {
            online: lamp.network_status === OnlineState.Online,
            on: lamp.switch_state === 1,
            busy: BUSY.includes(lamp.status),
            place,
            schedule: lamp.job_list?.rules && lamp.job_list.place ? lamp.job_list : null,
          },
          now,
        );
      } catch {
        // A job list or place this worker cannot evaluate (an unknown time zone): the lamp is left as it is.
        found = null;
      }
      if (found === null) continue;
      const had = openKinds.get(lamp.id) ?? new Set<AlarmKind>();
      for (const kind of CONDITION_KINDS) {
        if (found.has(kind) !== had.has(kind))
          transitions.push({ deviceId: lamp.id, family: DeviceFamily.Lamp, kind, code: 0, raise: found.has(kind), at });
      }
    }
    if (transitions.length === 0) return;
    const changes = await inTransaction(this.pool, (client) => this.alarms.apply(client, transitions));
    this.notifier.notify(changes);
  }
}
