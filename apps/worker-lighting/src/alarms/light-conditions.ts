import { AlarmKind, type LampSchedule, type SchedulePlace } from '@sc/contracts';
import { isSunUp, levelInPlan, nightOf, planNight, type NightPlan } from '@sc/schedule';

/**
 * Places are judged to a twentieth of a degree (a few kilometres: sunset moves by seconds, far inside the grace time),
 * so a city of lamps with positions of their own shares a few suns and plans instead of computing one each.
 */
const STEPS_PER_DEGREE = 20;
function rounded(place: SchedulePlace): SchedulePlace {
  const snap = (degrees: number) => Math.round(degrees * STEPS_PER_DEGREE) / STEPS_PER_DEGREE;
  return { latitude: snap(place.latitude), longitude: snap(place.longitude), timeZone: place.timeZone };
}

/** Whether the sun is up at a place: outside the night's [sunset, sunrise) (midnight sun: always; polar night: never). */
export function sunIsUp(place: SchedulePlace, at: Date): boolean {
  return isSunUp(rounded(place), at);
}

/** What the check knows of one lamp. */
export interface LampLight {
  online: boolean;
  on: boolean;
  /** A dispatch is on its way: the reported state is about to change, so nothing is judged. */
  busy: boolean;
  place: SchedulePlace;
  /** The schedule the lamp runs (its job list), if one was distributed to it. */
  schedule: Pick<LampSchedule, 'rules' | 'place'> | null;
}

/**
 * Judges lamps' light conditions. One judge serves one pass over the fleet: the night plans of lamps sharing a
 * schedule and a place are computed once.
 */
export class LightJudge {
  private readonly plans = new Map<string, NightPlan>();
  private readonly suns = new Map<string, boolean>();
  private readonly nights = new Map<string, string>();
  private readonly rulesKeys = new WeakMap<object, string>();

  constructor(private readonly graceMs: number) {}

  /**
   * The light conditions a lamp is in now, or null when its state cannot be judged (offline, or a dispatch in
   * progress: the alarms it has stay as they are). Each condition must have held `graceMs` ago as well, so a lamp
   * switching at sunset or at a period's edge, and reporting a moment later, raises nothing.
   *
   * - day-burning: lit while the sun is up, and its schedule does not say lit;
   * - dark lamp: off while its schedule says lit.
   */
  conditions(lamp: LampLight, now: Date): Set<AlarmKind> | null {
    if (!lamp.online || lamp.busy) return null;
    const earlier = new Date(now.getTime() - this.graceMs);
    const found = new Set<AlarmKind>();
    const scheduledOn = (at: Date) => this.scheduledOn(lamp.schedule, at);
    const sunUp = (at: Date) => this.sunUp(lamp.place, at);
    if (lamp.on && sunUp(now) && sunUp(earlier) && !scheduledOn(now) && !scheduledOn(earlier)) found.add(AlarmKind.DayBurning);
    if (!lamp.on && lamp.schedule && scheduledOn(now) && scheduledOn(earlier)) found.add(AlarmKind.DarkLamp);
    return found;
  }

  private night(at: Date, timeZone: string): string {
    const key = `${timeZone}|${at.getTime()}`;
    let night = this.nights.get(key);
    if (night === undefined) this.nights.set(key, (night = nightOf(at, timeZone)));
    return night;
  }

  private sunUp(place: SchedulePlace, at: Date): boolean {
    const near = rounded(place);
    const key = `${near.latitude},${near.longitude},${near.timeZone}|${at.getTime()}`;
    let up = this.suns.get(key);
    if (up === undefined) this.suns.set(key, (up = sunIsUp(near, at)));
    return up;
  }

  private scheduledOn(schedule: LampLight['schedule'], at: Date): boolean {
    if (!schedule) return false;
    const place = rounded(schedule.place);
    const night = this.night(at, place.timeZone);
    let rules = this.rulesKeys.get(schedule.rules);
    if (rules === undefined) this.rulesKeys.set(schedule.rules, (rules = JSON.stringify(schedule.rules)));
    const key = `${rules}|${place.latitude},${place.longitude},${place.timeZone}|${night}`;
    let plan = this.plans.get(key);
    if (!plan) this.plans.set(key, (plan = planNight(schedule.rules, place, night, false)));
    return levelInPlan(schedule.rules, plan, at) > 0;
  }
}

/** One lamp judged on its own (see LightJudge.conditions). */
export function lightConditions(lamp: LampLight, now: Date, graceMs: number): Set<AlarmKind> | null {
  return new LightJudge(graceMs).conditions(lamp, now);
}
