import type { Logger } from 'pino';
import type { Pool } from 'pg';
import { RADAR_RULES_CHANNEL, NotificationListener } from '@sc/database';
import type { RadarEventId, RadarEventInfo } from '@sc/contracts';

/** What one radar's detections raise through one strategy: the strategy's events and its group's lamps. */
export interface RadarRule {
  strategyId: number;
  events: readonly RadarEventInfo[];
  lampIds: readonly number[];
}

/** One lamp's raise for one detection: the highest level and the latest return the radar's strategies ask for. */
export interface LampTarget {
  lampId: number;
  level: number;
  after: number;
  closeInterval: number;
}

/**
 * The lamps one detection raises, from the radar's rules: each strategy whose events name the detection's event
 * raises its group's lamps to that event's brightness after its open interval, for its close interval. A lamp of
 * several such groups takes the highest brightness, the soonest rise and the longest hold.
 */
export function lampTargets(rules: readonly RadarRule[], event: RadarEventId): LampTarget[] {
  const byLamp = new Map<number, LampTarget>();
  for (const rule of rules) {
    const info = rule.events.find((e) => e.event === event);
    if (!info) continue;
    for (const lampId of rule.lampIds) {
      const held = byLamp.get(lampId);
      byLamp.set(
        lampId,
        held
          ? {
              lampId,
              level: Math.max(held.level, info.brightness),
              after: Math.min(held.after, info.openInterval),
              closeInterval: Math.max(held.closeInterval, info.closeInterval),
            }
          : { lampId, level: info.brightness, after: info.openInterval, closeInterval: info.closeInterval },
      );
    }
  }
  return [...byLamp.values()];
}

const HEARTBEAT_MS = 2000;

/**
 * Every radar's rules, held in memory so a detection is matched without a query, and loaded again whenever groups
 * or strategies change (the database announces it on RADAR_RULES_CHANNEL, whoever changes them) and whenever the
 * announcements may have been missed.
 */
export class RadarLampRules {
  private rules = new Map<number, RadarRule[]>();
  private readonly listener: NotificationListener;
  private loading: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly pool: Pool,
    databaseUrl: string,
    private readonly logger: Logger,
  ) {
    this.listener = new NotificationListener({
      databaseUrl,
      channel: RADAR_RULES_CHANNEL,
      applicationName: 'sc-radar-rules',
      heartbeatMs: HEARTBEAT_MS,
      silentAfterMs: HEARTBEAT_MS * 3,
      onNotification: () => void this.reload(),
      onReset: () => void this.reload(),
      onInterrupted: (err) => logger.warn({ err: err?.message }, 'radar rule notifications interrupted'),
    });
  }

  of(radarId: number): readonly RadarRule[] {
    return this.rules.get(radarId) ?? [];
  }

  async start(): Promise<void> {
    await this.listener.start();
    await this.reload();
  }

  stop(): Promise<void> {
    return this.listener.stop();
  }

  /** Loads the rules again (a load asked for while one runs makes one more after it). */
  reload(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.again = false;
        try {
          this.rules = await this.load();
        } catch (err) {
          this.logger.warn({ err: (err as Error).message }, 'radar rules not loaded');
        }
      } while (this.again);
    })().finally(() => (this.loading = null));
    return this.loading;
  }

  private async load(): Promise<Map<number, RadarRule[]>> {
    const { rows } = await this.pool.query<{ radarId: number; strategyId: number; events: RadarEventInfo[]; lampIds: number[] }>(
      `SELECT gr.device_id AS "radarId", s.id AS "strategyId", s.event_infos AS events,
              ARRAY(SELECT gl.device_id FROM radar_group_lamp gl WHERE gl.group_id = s.group_id ORDER BY gl.device_id) AS "lampIds"
         FROM radar_group_radar gr JOIN radar_strategy s ON s.group_id = gr.group_id`,
    );
    const rules = new Map<number, RadarRule[]>();
    for (const { radarId, ...rule } of rows) rules.set(radarId, [...(rules.get(radarId) ?? []), rule]);
    return rules;
  }
}
