import type { Pool } from 'pg';
import { DeviceType } from '@sc/contracts';
import type { DeviceCodeChange } from './device-code-changes';

/**
 * Device code → device id of the registry's devices of the served types (single lamps, strip lights), loaded at
 * start; codes are unique per type. A code not found is looked up again
 * at most once per `retryMs` (so a lamp added later is found, and a flood from an unknown code costs one query per
 * interval); concurrent misses are looked up together.
 *
 * Entries are dropped when the database announces that their code was added, changed or removed
 * (DeviceCodeChanges, `forget`): a lamp re-coded, or deleted and added again under its code, is found again under
 * its current record. A lookup that was in flight while an announcement arrived answers its own callers but is not
 * kept, so a read from before the change cannot come back into the cache.
 */
export class KnownDevices {
  private readonly byCode = new Map<string, number>();
  private readonly missedAt = new Map<string, number>();
  private waiting = new Map<string, ((id: number | undefined) => void)[]>();
  private timer: NodeJS.Timeout | null = null;
  /** Moves on every announced change. */
  private epoch = 0;

  constructor(
    private readonly pool: Pool,
    private readonly retryMs: number,
    private readonly lookupDelayMs = 10,
    private readonly types: readonly DeviceType[] = [DeviceType.SingleLamp],
  ) {}

  async load(): Promise<number> {
    const epoch = this.epoch;
    const { rows } = await this.pool.query<{ id: number; code: string; type: DeviceType }>(
      'SELECT id, code, type FROM device WHERE type = ANY($1::smallint[])',
      [this.types],
    );
    if (epoch === this.epoch) for (const row of rows) this.byCode.set(keyOf(row.code, row.type), row.id);
    return rows.length;
  }

  /** Drops what a change of device codes makes stale: the keys it names, or everything. */
  forget(change: DeviceCodeChange): void {
    this.epoch++;
    if (change === 'all') {
      this.byCode.clear();
      this.missedAt.clear();
      return;
    }
    for (const key of change.keys) {
      this.byCode.delete(key);
      this.missedAt.delete(key);
    }
  }

  get(code: string, type = DeviceType.SingleLamp): number | undefined {
    return this.byCode.get(keyOf(code, type));
  }

  /** The id of a code not in the cache, or undefined when the registry has no such device of that type. */
  lookup(code: string, type = DeviceType.SingleLamp): Promise<number | undefined> {
    code = keyOf(code, type);
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
    const epoch = this.epoch;
    let found = new Map<string, number>();
    try {
      const keys = [...waiting.keys()].map(splitKey);
      const { rows } = await this.pool.query<{ id: number; code: string; type: DeviceType }>(
        `SELECT d.id, d.code, d.type FROM device d JOIN unnest($1::smallint[], $2::text[]) AS k(type, code) ON d.type = k.type AND d.code = k.code`,
        [keys.map((k) => k.type), keys.map((k) => k.code)],
      );
      found = new Map(rows.map((row) => [keyOf(row.code, row.type), row.id]));
    } catch {
      // The database is unreachable: treat the codes as unknown for now; the retry interval brings them back.
    }
    const now = Date.now();
    const current = epoch === this.epoch;
    if (this.missedAt.size > 100_000) this.missedAt.clear();
    for (const [code, resolvers] of waiting) {
      const id = found.get(code);
      // When a code changed meanwhile, these callers get the answer but nothing is remembered.
      if (current && id === undefined) this.missedAt.set(code, now);
      else if (current && id !== undefined) {
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

/** Cache keys: the type and the code (codes are unique per device type only). */
function keyOf(code: string, type: DeviceType): string {
  return `${type}/${code}`;
}

function splitKey(key: string): { type: DeviceType; code: string } {
  const slash = key.indexOf('/');
  return { type: Number(key.slice(0, slash)) as DeviceType, code: key.slice(slash + 1) };
}
