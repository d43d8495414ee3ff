import type { Logger } from 'pino';
import type { Pool, PoolClient } from 'pg';
import { LED_FAMILY, daylightBrightness, type DaylightPhase, type SchedulePlace } from '@sc/contracts';
import { Periodic, commandLedger, inTransaction } from '@sc/device-runtime';
import { daylightPhaseAt } from '@sc/schedule';

/** Who the ledger names as the sender of the rule's dispatches. */
export const DAYLIGHT_SENDER = 'daylight rule';

/** How long screens have to take the rule's brightness (they are re-sent to until then; a later phase sends again). */
const DAYLIGHT_TTL_SECONDS = 30 * 60;

/** One advisory lock key for the rule: one replica applies it at a time. */
const DAYLIGHT_LOCK = 0x1ed_da71;

/** A screen under the rule, as stored. */
export interface RuledScreen {
  id: number;
  day: number;
  night: number;
  place: SchedulePlace;
  phase: DaylightPhase | null;
}

/** The screens whose phase changed since the rule last set them, by the brightness they now need. */
export function dueBrightness(screens: readonly RuledScreen[], now: Date): Map<number, { phase: DaylightPhase; ids: number[] }> {
  const due = new Map<number, { phase: DaylightPhase; ids: number[] }>();
  for (const screen of screens) {
    const phase = daylightPhaseAt(screen.place, now);
    if (phase === screen.phase) continue;
    const brightness = daylightBrightness({ dayBrightness: screen.day, nightBrightness: screen.night }, phase);
    // Two phases cannot need one brightness in one pass for different screens without being one dispatch each: key both.
    const key = brightness * 2 + (phase === 'day' ? 1 : 0);
    const entry = due.get(key) ?? { phase, ids: [] };
    entry.ids.push(screen.id);
    due.set(key, entry);
  }
  return due;
}

/**
 * The daylight brightness rule (docs/led-screens.md): every screen with a rule takes its day brightness at sunrise and
 * its night brightness at sunset, by the astronomical clock the lamps keep, at the place the rule was set for. Each
 * pass (every minute) finds the screens whose phase changed since the rule last set them and sends them their
 * brightness through the command ledger (one dispatch per brightness, shown in the console like any other), recording
 * the phase in the same transaction: a worker restarted or a replica beside it sends nothing twice.
 */
export class DaylightBrightness {
  private readonly periodic: Periodic<number>;

  constructor(
    private readonly pool: Pool,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.periodic = new Periodic(() => inTransaction(this.pool, (client) => this.apply(client)), logger, 'daylight brightness failed');
  }

  /** A pass now, then one every `intervalMs`. */
  start(intervalMs: number): void {
    this.periodic.start(intervalMs, { immediately: true });
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  /** One pass; answers how many screens were sent a brightness. */
  pass(): Promise<number> {
    return this.periodic.run();
  }

  private async apply(client: PoolClient): Promise<number> {
    const [{ locked }] = (await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [DAYLIGHT_LOCK])).rows;
    if (!locked) return 0;
    const { rows } = await client.query<RuledScreen>(
      `SELECT device_id AS id, daylight_day AS day, daylight_night AS night, daylight_place AS place, daylight_phase AS phase
         FROM led_screen WHERE daylight_day IS NOT NULL ORDER BY device_id`,
    );
    let sent = 0;
    for (const [key, { phase, ids }] of dueBrightness(rows, this.now())) {
      const brightness = Math.floor(key / 2);
      const dispatchId = await commandLedger.create(client, {
        family: LED_FAMILY,
        action: 'brightness',
        params: { brightness },
        createdBy: DAYLIGHT_SENDER,
        deviceIds: ids,
        ttlSeconds: DAYLIGHT_TTL_SECONDS,
      });
      await client.query(`UPDATE led_screen SET daylight_phase = $2 WHERE device_id = ANY($1::int[])`, [ids, phase]);
      this.logger.info({ dispatchId, phase, brightness, screens: ids.length }, 'daylight brightness sent');
      sent += ids.length;
    }
    return sent;
  }
}
