import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { Periodic } from '@sc/device-runtime';

/**
 * Keeps the month partitions of the session history ready: this month's and the next (the migration made the first
 * two), so sessions never land in the default partition while the worker runs; and forgets load samples older than a
 * week (the charts show the last day).
 */
export class SessionMonths {
  private readonly periodic: Periodic<void>;

  constructor(pool: Pool, logger: Logger) {
    this.periodic = new Periodic(
      async () => {
        await pool.query(`SELECT wifi_session_ensure_month(now()), wifi_session_ensure_month(now() + interval '1 month')`);
        await pool.query(`DELETE FROM wifi_load_sample WHERE minute < now() - interval '7 days'`);
      },
      logger,
      'session partitions failed',
    );
  }

  start(intervalMs: number): void {
    this.periodic.start(intervalMs, { immediately: true });
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }
}
