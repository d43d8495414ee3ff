import { StrategyMode, type DimmingLevel, type LampSchedule } from '@sc/contracts';
import { levelInPlan, nightOf, planNight, type NightPlan } from '@sc/schedule';

/**
 * The simulator's clock: real time by default; a start time and a speed (from the command line, or a test's
 * setClock) let a night pass in seconds. Lamps read their schedules by it, as a controller reads its own RTC.
 */
export class SimClock {
  private baseSim: number;
  private baseReal: number;

  constructor(
    start: Date | null = null,
    private speed = 1,
  ) {
    this.baseReal = Date.now();
    this.baseSim = start ? start.getTime() : this.baseReal;
  }

  now(): number {
    return this.baseSim + (Date.now() - this.baseReal) * this.speed;
  }

  set(at: Date, speed = this.speed): void {
    this.baseReal = Date.now();
    this.baseSim = at.getTime();
    this.speed = speed;
  }

  get rate(): number {
    return this.speed;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A schedule a lamp can run: its rules and a place with a usable time zone; anything less is a bad command. */
export function parseSchedule(params: Record<string, unknown>): LampSchedule | null {
  const { strategyId, rules, place } = params;
  if (typeof strategyId !== 'number' || !isRecord(rules) || !isRecord(place)) return null;
  if (typeof place.latitude !== 'number' || typeof place.longitude !== 'number' || typeof place.timeZone !== 'string') return null;
  if (typeof rules.mode !== 'number' || !isRecord(rules.modeData) || !Array.isArray(rules.periods)) return null;
  try {
    new Intl.DateTimeFormat('en', { timeZone: place.timeZone });
  } catch {
    return null;
  }
  return params as unknown as LampSchedule;
}

/** One lamp's stored schedule, with tonight's plan kept until the night turns, and its last radar event. */
export class ScheduleRunner {
  private plan: NightPlan | null = null;
  lastRadarAt: number | null = null;

  constructor(readonly schedule: LampSchedule) {}

  /** The level the schedule says at `now` (simulated milliseconds). */
  levelAt(now: number): DimmingLevel {
    const at = new Date(now);
    // Most calls fall in the night already planned: no time-zone arithmetic then (a fleet asks every second).
    if (!this.plan || at < this.plan.from || at >= this.plan.to) {
      this.plan = planNight(this.schedule.rules, this.schedule.place, nightOf(at, this.schedule.place.timeZone), false);
    }
    return levelInPlan(this.schedule.rules, this.plan, at, this.lastRadarAt === null ? null : new Date(this.lastRadarAt));
  }

  /** Whether an event of this radar concerns the lamp (a sensing schedule naming it). */
  listensTo(radarCode: string): boolean {
    const rules = this.schedule.rules;
    return rules.mode === StrategyMode.Sensing && rules.modeData.radarCodes.includes(radarCode);
  }
}
