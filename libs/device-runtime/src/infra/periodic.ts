import type { Logger } from 'pino';

/**
 * Work a worker repeats on a timer (the silence sweep, the LED screens' daylight brightness): one run at a time (a
 * run asked for while one is under way answers that one), a failed run logged and tried again at the next tick, and a
 * stop that waits for the run in hand.
 */
export class Periodic<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<T> | null = null;

  constructor(
    private readonly work: () => Promise<T>,
    private readonly logger: Logger,
    /** How a failure is logged ('silence sweep failed'). */
    private readonly failure: string,
  ) {}

  /** Runs every `intervalMs` (and at once with `immediately`). */
  start(intervalMs: number, { immediately = false } = {}): void {
    const tick = () => void this.run().catch((err: Error) => this.logger.warn({ err: err.message }, this.failure));
    if (immediately) tick();
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** One run now, or the one under way. */
  run(): Promise<T> {
    this.running ??= this.work().finally(() => (this.running = null));
    return this.running;
  }
}
