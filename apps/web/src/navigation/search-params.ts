import { PAGE_SIZES } from '@/components/page-sizes';

/**
 * Search-param readers for the pages' routes. Every param is optional, so links without a query still type-check;
 * anything malformed (a hand-edited URL) is dropped instead of reaching the server.
 *
 * A route's check runs in the entry (the router keeps validateSearch beside the route tree; only the page is split
 * off), so it is written as data for searchOf: limits and value lists written out and checked by the compiler against
 * @sc/contracts' types (`satisfies typeof TASK_NAME_MAX`, allOf), never a runtime value of @sc/contracts, which would
 * bring its modules into every page's first load. navigation/route-modules.spec.ts holds the route modules to this.
 */
export const DEFAULT_PAGE_SIZE = 20;

export interface PageSearch {
  pageNum?: number;
  pageSize?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id of the dispatch a page follows (a UUID), kept in its address so a reload shows it again. */
export function readDispatch(value: unknown): string | undefined {
  return typeof value === 'string' && UUID.test(value) ? value : undefined;
}

export function readInt(value: unknown, min = 1, max = 1_000_000): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

export function readText(value: unknown, max = 64): string | undefined {
  if (typeof value === 'number') value = String(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim().slice(0, max);
  return text || undefined;
}

/** A local day YYYY-MM-DD, or a local date-time YYYY-MM-DDTHH:mm when `withTime` (the formats of the browser's date inputs). */
export function readDate(value: unknown, withTime = false): string | undefined {
  if (typeof value !== 'string') return undefined;
  const pattern = withTime ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/ : /^\d{4}-\d{2}-\d{2}$/;
  return pattern.test(value) && !Number.isNaN(new Date(withTime ? value : `${value}T00:00`).getTime()) ? value : undefined;
}

/** One of the values; numbers also from their digits in the address (`?status=-5`). */
function readOneOf<T>(value: unknown, values: readonly T[]): T | undefined {
  const read = typeof values[0] === 'number' && typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  return (values as readonly unknown[]).includes(read) ? (read as T) : undefined;
}

/** A positive id PostgreSQL's `int` holds. */
const ID_MAX = 2_147_483_647;

/**
 * How searchOf reads one param, as data: 'int' (a positive integer), 'id' (a record's id), 'dispatch' (a dispatch's
 * UUID), 'date' or 'dateTime' (readDate), `{ text: max }` (trimmed, cut at max), `{ oneOf: values }`; or, for an odd
 * one, a function of the raw value.
 */
export type ParamReader<V> =
  | ([V] extends [number] ? 'int' | 'id' : never)
  | ([V] extends [string] ? 'dispatch' | 'date' | 'dateTime' | { text: number } : never)
  | { oneOf: readonly V[] }
  | ((value: unknown) => V | undefined);

/** A reader for every param of the search S. */
export type SearchReaders<S> = { [K in keyof S]-?: ParamReader<Exclude<S[K], undefined>> };

/** Any param's reader, whatever its value. */
type AnyReader = ParamReader<number> | ParamReader<string> | { oneOf: readonly unknown[] } | ((value: unknown) => unknown);

function readParam(value: unknown, reader: AnyReader): unknown {
  if (typeof reader === 'function') return reader(value);
  switch (reader) {
    case 'int':
      return readInt(value);
    case 'id':
      return readInt(value, 1, ID_MAX);
    case 'dispatch':
      return readDispatch(value);
    case 'date':
      return readDate(value);
    case 'dateTime':
      return readDate(value, true);
  }
  return 'text' in reader ? readText(value, reader.text) : readOneOf(value, reader.oneOf);
}

/** A route's validateSearch from its params' readers; empty and malformed params are dropped. */
export function searchOf<S extends object>(readers: SearchReaders<S>): (search: Record<string, unknown>) => S {
  const entries = Object.entries(readers) as [string, AnyReader][];
  return (search) => compact(Object.fromEntries(entries.map(([key, reader]) => [key, readParam(search[key], reader)]))) as S;
}

/**
 * Every value of T, written out for a search check: `allOf<TerminalStatus>()('online', 'offline', 'occupy')`. A value
 * missing or unknown fails to compile, so the list follows @sc/contracts without importing its enums at runtime. A
 * string enum's values are its strings, a numeric enum's its numbers.
 */
export function allOf<T extends string | number>() {
  return <const L extends readonly Written<T>[]>(
    ...values: L & ([Exclude<Written<T>, L[number]>] extends [never] ? unknown : { missing: Exclude<Written<T>, L[number]> })
  ): readonly T[] => values as readonly unknown[] as readonly T[];
}

/** How a value of T is written in source: a string enum member as its string, a numeric one as its number. */
type Written<T> = T extends string ? `${T}` : T extends number ? (`${T}` extends `${infer N extends number}` ? N : never) : never;

/** The page and page size of a paged list: spread into a list's readers. */
export const PAGED = { pageNum: 'int', pageSize: { oneOf: PAGE_SIZES } } as const;

/** Page number and size with their defaults applied. */
export function paging(search: PageSearch): { pageNum: number; pageSize: number } {
  return { pageNum: search.pageNum ?? 1, pageSize: search.pageSize ?? DEFAULT_PAGE_SIZE };
}

/** The record a hidden detail or edit page shows (`?id=`). */
export const validateIdSearch = searchOf<{ id?: number }>({ id: 'id' });

/** Drops empty values so the address bar only shows the filters in use. */
export function compact<T extends object>(search: T): T {
  return Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined && v !== null && v !== '')) as T;
}
