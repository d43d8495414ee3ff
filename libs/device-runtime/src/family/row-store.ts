import type { PoolClient } from 'pg';
import type { FamilyName } from '@sc/contracts';
import type { AnyFamilyHandler, ColumnSpec, DeviceEvent, RowChange } from './family-handler';

type Fields = Record<string, unknown>;

/** A stored value as the family's fields hold it: timestamps as ISO strings, everything else as pg returns it. */
function fromDb(value: unknown, type: ColumnSpec['type']): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'timestamptz') return value instanceof Date ? value.toISOString() : String(value);
  return value;
}

/** A field's value as one element of the unnest() array of its column. */
function toDb(value: unknown, type: ColumnSpec['type']): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'jsonb') return JSON.stringify(value);
  if (type === 'smallint[]') return `{${(value as number[]).join(',')}}`;
  return value;
}

/**
 * Equal values, JSON ones by content: PostgreSQL hands jsonb objects back with their keys in its own order (shorter
 * keys first), so an object a device reports again unchanged must not differ from the stored one by key order alone.
 * Array order counts; a key holding undefined is no key (as in JSON).
 */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((value, i) => same(value, b[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x).filter((key) => x[key] !== undefined);
  if (keys.length !== Object.keys(y).filter((key) => y[key] !== undefined).length) return false;
  return keys.every((key) => Object.hasOwn(y, key) && same(x[key], y[key]));
}

/** Only the fields whose values differ. */
export function changedFields<T extends Fields>(before: T, after: T): Partial<T> {
  const changed: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) if (!same(before[key], after[key])) changed[key] = after[key];
  return changed;
}

/**
 * A family's stored fields, changed for many devices with two statements inside the caller's transaction: the rows
 * are locked in key order (so concurrent writers cannot deadlock on them), the family's reducer computes the new
 * fields, and one UPDATE from unnest() writes every row that changed. Both statements are built once from the
 * handler's columns.
 */
export class RowStore {
  readonly family: FamilyName;
  private readonly select: string;
  private readonly update: string;
  private readonly fields: [field: string, spec: ColumnSpec][];

  constructor(private readonly handler: AnyFamilyHandler) {
    const { declaration } = handler;
    this.family = declaration.family;
    this.fields = Object.entries(handler.columns as Record<string, ColumnSpec>);
    const inRegistry = declaration.deviceType !== null;
    const key = inRegistry ? 'device_id' : 'id';
    // Every row by its key, through the primary key: the code by a lookup per row rather than a join, which the planner
    // may otherwise answer by hashing the whole registry for a batch of a thousand.
    const code = inRegistry ? '(SELECT d.code FROM device d WHERE d.id = f.device_id)' : 'f.code';
    const cols = this.fields.map(([field, spec]) => `f.${spec.column} AS "${field}"`).join(', ');
    this.select = `SELECT f.${key} AS "recordId", ${code} AS "deviceCode", ${cols} FROM ${declaration.table} f
                    WHERE f.${key} = ANY($1::int[]) ORDER BY f.${key} FOR UPDATE OF f`;
    const sets = this.fields.map(([, spec]) => `${spec.column} = u.${spec.column}`).join(', ');
    const arrays = this.fields.map(([, spec], i) => `$${i + 2}::${spec.type === 'smallint[]' ? 'text' : spec.type}[]`).join(', ');
    const names = this.fields.map(([, spec]) => spec.column).join(', ');
    const casts = this.fields
      .map(([, spec]) => (spec.type === 'smallint[]' ? `${spec.column}::smallint[] AS ${spec.column}` : spec.column))
      .join(', ');
    // `= ANY` on the key keeps the rows found through the primary key: joined to unnest() alone, the planner hashes
    // the whole table for a batch of a thousand (five times the cost at 50,000 devices).
    this.update = `UPDATE ${declaration.table} f SET ${sets}
                     FROM (SELECT id, ${casts} FROM unnest($1::int[], ${arrays}) AS t(id, ${names})) u
                    WHERE f.${key} = u.id AND f.${key} = ANY($1::int[])`;
  }

  /** A silence the device has broken: it reported after the sweep found it silent (between the sweep's read and now). */
  private heardSince(fields: Fields, event: DeviceEvent): boolean {
    if (event.kind !== 'offline' || event.silentSince === undefined) return false;
    const reportedAt = fields.reportedAt;
    return typeof reportedAt === 'string' && Date.parse(reportedAt) > Date.parse(event.silentSince);
  }

  /** Applies each device's events in order; answers the devices whose fields changed. */
  async apply(client: PoolClient, events: ReadonlyMap<number, readonly DeviceEvent[]>): Promise<RowChange[]> {
    if (events.size === 0) return [];
    const { rows } = await client.query<Fields & { recordId: number; deviceCode: string }>(this.select, [[...events.keys()]]);
    const changes: RowChange[] = [];
    const updated: Fields[] = [];
    const ids: number[] = [];
    for (const row of rows) {
      const before: Fields = {};
      for (const [field, spec] of this.fields) before[field] = fromDb(row[field], spec.type);
      const after = (events.get(row.recordId) ?? []).reduce<Fields>(
        (fields, event) => (this.heardSince(fields, event) ? fields : (this.handler.reduce(fields, event) as Fields)),
        before,
      );
      const changed = changedFields(before, after);
      if (Object.keys(changed).length === 0) continue;
      updated.push(after);
      const derive = this.handler.derive as ((fields: Fields) => Fields) | undefined;
      if (derive) {
        const derivedBefore = derive(before);
        Object.assign(changed, changedFields(derivedBefore, derive(after)));
        Object.assign(before, derivedBefore);
      }
      changes.push({ recordId: row.recordId, deviceCode: row.deviceCode, before, changed } as RowChange);
      ids.push(row.recordId);
    }
    if (updated.length > 0) {
      await client.query(this.update, [ids, ...this.fields.map(([field, spec]) => updated.map((fields) => toDb(fields[field], spec.type)))]);
    }
    return changes;
  }
}
