/**
 * The simulator's clock: real time by default; a start time and a speed (from the command line, or a test's
 * setClock) let a night pass in seconds, and a test may drive it by hand with a clock of its own. Devices read their
 * schedules by it, as a controller reads its own RTC.
 */
export class SimClock {
  private baseSim: number;
  private baseReal: number;

  constructor(
    start: Date | null = null,
    private speed = 1,
    private read?: () => Date,
  ) {
    this.baseReal = Date.now();
    this.baseSim = start ? start.getTime() : this.baseReal;
  }

  now(): number {
    return this.read ? this.read().getTime() : this.baseSim + (Date.now() - this.baseReal) * this.speed;
  }

  /** Moves the clock; from then on it runs by itself, even if it followed a caller's clock. */
  set(at: Date, speed = this.speed): void {
    this.read = undefined;
    this.baseReal = Date.now();
    this.baseSim = at.getTime();
    this.speed = speed;
  }

  get rate(): number {
    return this.speed;
  }
}
