import type { Pool } from 'pg';
import type { DeviceType, FamilyDeclaration } from '@sc/contracts';
import type { DeviceCodeChange } from './device-code-changes';

/** Where a family's device records are: the registry (`device`, by type), or a table of its own with a `code` column. */
type Source = Pick<FamilyDeclaration, 'family' | 'deviceType' | 'table'>;

/**
 * Device code → record id of the served families' devices, loaded at start; codes are unique per family. A code not
 * found is looked up again at most once per `retryMs` (so a device added later is found, and a flood from an unknown
 * code costs one query per interval); concurrent misses are looked up together.
 *
 * Entries are dropped when the database announces that their code was added, changed or removed
 * (DeviceCodeChanges, `forget`): a device re-coded, or deleted and added again under its code, is found again under
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
  private readonly sources = new Map<string, Source>();
  /** The served family of each registry type. */
  private readonly familyOfType = new Map<DeviceType, string>();

  constructor(
    private readonly pool: Pool,
    families: readonly Source[],
    private readonly retryMs: number,
    private readonly lookupDelayMs = 10,
  ) {
    for (const family of families) {
      this.sources.set(family.family, family);
      if (family.deviceType !== null) this.familyOfType.set(family.deviceType, family.family);
    }
  }

  /** Loads every served device; answers how many there are. */
  async load(): Promise<number> {
    const epoch = this.epoch;
    const found: [string, number][] = [];
    const types = [...this.sources.values()].flatMap((s) => (s.deviceType === null ? [] : [s.deviceType]));
    if (types.length > 0) {
      const { rows } = await this.pool.query<{ id: number; code: string; type: DeviceType }>(
        'SELECT id, code, type FROM device WHERE type = ANY($1::smallint[])',
        [types],
      );
      for (const row of rows) found.push([keyOf(this.familyOfType.get(row.type)!, row.code), row.id]);
    }
    for (const source of this.sources.values()) {
      if (source.deviceType !== null) continue;
      const { rows } = await this.pool.query<{ id: number; code: string }>(`SELECT id, code FROM ${source.table}`);
      for (const row of rows) found.push([keyOf(source.family, row.code), row.id]);
    }
    if (epoch === this.epoch) for (const [key, id] of found) this.byCode.set(key, id);
    return found.length;
  }

  /**
   * The codes of every device of a family (for reading their stored states), read from the database: the cache holds
   * only what was loaded and looked up since the last change emptied it (a bulk import is announced as `*`, a lost
   * LISTEN connection clears everything), so devices that have not reported since would be missed. The cache is
   * filled with them on the way. While the database is unreachable, the cached codes.
   */
  async codes(family: string): Promise<string[]> {
    const source = this.sources.get(family);
    if (!source) return [];
    const epoch = this.epoch;
    try {
      const { rows } =
        source.deviceType === null
          ? await this.pool.query<{ id: number; code: string }>(`SELECT id, code FROM ${source.table}`)
          : await this.pool.query<{ id: number; code: string }>('SELECT id, code FROM device WHERE type = ANY($1::smallint[])', [
              [source.deviceType],
            ]);
      if (epoch === this.epoch) for (const row of rows) this.byCode.set(keyOf(family, row.code), row.id);
      return rows.map((row) => row.code);
    } catch {
      const prefix = `${family}/`;
      const out: string[] = [];
      for (const key of this.byCode.keys()) if (key.startsWith(prefix)) out.push(key.slice(prefix.length));
      return out;
    }
  }

  /** Drops what a change of device codes makes stale: the keys it names, or everything. */
  forget(change: DeviceCodeChange): void {
    this.epoch++;
    if (change === 'all') {
      this.byCode.clear();
      this.missedAt.clear();
      return;
    }
    for (const announced of change.keys) {
      const key = this.familyKey(announced);
      if (!key) continue;
      this.byCode.delete(key);
      this.missedAt.delete(key);
    }
  }

  get(family: string, code: string): number | undefined {
    return this.byCode.get(keyOf(family, code));
  }

  /** The id of a code not in the cache, or undefined when there is no such device of that family. */
  lookup(family: string, code: string): Promise<number | undefined> {
    const key = keyOf(family, code);
    const known = this.byCode.get(key);
    if (known !== undefined) return Promise.resolve(known);
    if (!this.sources.has(family)) return Promise.resolve(undefined);
    const missed = this.missedAt.get(key);
    if (missed !== undefined && Date.now() - missed < this.retryMs) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiting.set(key, [...(this.waiting.get(key) ?? []), resolve]);
      this.timer ??= setTimeout(() => void this.lookupWaiting(), this.lookupDelayMs);
    });
  }

  private async lookupWaiting(): Promise<void> {
    const waiting = this.waiting;
    this.waiting = new Map();
    this.timer = null;
    const epoch = this.epoch;
    const found = new Map<string, number>();
    try {
      const wanted = [...waiting.keys()].map(splitKey);
      const inRegistry = wanted.filter((w) => this.sources.get(w.family)?.deviceType != null);
      if (inRegistry.length > 0) {
        const { rows } = await this.pool.query<{ id: number; code: string; type: DeviceType }>(
          `SELECT d.id, d.code, d.type FROM device d JOIN unnest($1::smallint[], $2::text[]) AS k(type, code) ON d.type = k.type AND d.code = k.code`,
          [inRegistry.map((w) => this.sources.get(w.family)!.deviceType), inRegistry.map((w) => w.code)],
        );
        for (const row of rows) found.set(keyOf(this.familyOfType.get(row.type)!, row.code), row.id);
      }
      for (const source of this.sources.values()) {
        if (source.deviceType !== null) continue;
        const codes = wanted.filter((w) => w.family === source.family).map((w) => w.code);
        if (codes.length === 0) continue;
        const { rows } = await this.pool.query<{ id: number; code: string }>(`SELECT id, code FROM ${source.table} WHERE code = ANY($1::text[])`, [
          codes,
        ]);
        for (const row of rows) found.set(keyOf(source.family, row.code), row.id);
      }
    } catch {
      // The database is unreachable: treat the codes as unknown for now; the retry interval brings them back.
      found.clear();
    }
    const now = Date.now();
    const current = epoch === this.epoch;
    if (this.missedAt.size > 100_000) this.missedAt.clear();
    for (const [key, resolvers] of waiting) {
      const id = found.get(key);
      // When a code changed meanwhile, these callers get the answer but nothing is remembered.
      if (current && id === undefined) this.missedAt.set(key, now);
      else if (current && id !== undefined) {
        this.byCode.set(key, id);
        this.missedAt.delete(key);
      }
      for (const resolve of resolvers) resolve(id);
    }
  }

  /**
   * The cache key of an announced key: the registry announces `<device type>/<code>` (migration
   * 1732196000000-device-code-changes), tables of their own `<family>/<code>`.
   */
  private familyKey(announced: string): string | null {
    const slash = announced.indexOf('/');
    if (slash <= 0) return null;
    const head = announced.slice(0, slash);
    const code = announced.slice(slash + 1);
    if (!/^\d+$/.test(head)) return keyOf(head, code);
    const family = this.familyOfType.get(Number(head) as DeviceType);
    return family ? keyOf(family, code) : null;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const resolvers of this.waiting.values()) for (const resolve of resolvers) resolve(undefined);
    this.waiting.clear();
  }
}

/** Cache keys: the family and the code (codes are unique per family only). */
function keyOf(family: string, code: string): string {
  return `${family}/${code}`;
}

function splitKey(key: string): { family: string; code: string } {
  const slash = key.indexOf('/');
  return { family: key.slice(0, slash), code: key.slice(slash + 1) };
}
