import type { Pool } from 'pg';
import { DeviceType } from '@sc/contracts';

/**
 * Device code → device id of the single lamps in the registry, loaded at start. A code not found is looked up again
 * at most once per `retryMs` (so a lamp added later is found, and a flood from an unknown code costs one query per
 * interval); concurrent misses are looked up together.
 */
export class KnownDevices {
  private readonly byCode = new Map<string, number>();
  private readonly missedAt = new Map<string, number>();
  private waiting = new Map<string, ((id: number | undefined) => void)[]>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly retryMs: number,
    private readonly lookupDelayMs = 10,
  ) {}

  async load(): Promise<number> {
    const { rows } = await this.pool.query<{ id: number; code: string }>('SELECT id, code FROM device WHERE type = $1', [DeviceType.SingleLamp]);
    for (const row of rows) this.byCode.set(row.code, row.id);
    return rows.length;
  }

  get(code: string): number | undefined {
    return this.byCode.get(code);
  }

  /** The id of a code not in the cache, or undefined when the registry has no such lamp. */
  lookup(code: string): Promise<number | undefined> {
    const known = this.byCode.get(code);
    if (known !== undefined) return Promise.resolve(known);
    const missed = this.missedAt.get(code);
    if (missed !== undefined && Date.now() - missed < this.retryMs) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiting.set(code, [...(this.waiting.get(code) ?? []), resolve]);
      this.timer ??= setTimeout(() => void this.lookupWaiting(), this.lookupDelayMs);
    });
  }

  private async lookupWaiting(): Promise<void> {
    const waiting = this.waiting;
    this.waiting = new Map();
    this.timer = null;
    let found = new Map<string, number>();
    try {
      const { rows } = await this.pool.query<{ id: number; code: string }>('SELECT id, code FROM device WHERE type = $1 AND code = ANY($2::text[])', [
        DeviceType.SingleLamp,
        [...waiting.keys()],
      ]);
      found = new Map(rows.map((row) => [row.code, row.id]));
    } catch {
      // The database is unreachable: treat the codes as unknown for now; the retry interval brings them back.
    }
    const now = Date.now();
    if (this.missedAt.size > 100_000) this.missedAt.clear();
    for (const [code, resolvers] of waiting) {
      const id = found.get(code);
      if (id === undefined) this.missedAt.set(code, now);
      else {
        this.byCode.set(code, id);
        this.missedAt.delete(code);
      }
      for (const resolve of resolvers) resolve(id);
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const resolvers of this.waiting.values()) for (const resolve of resolvers) resolve(undefined);
    this.waiting.clear();
  }
}
