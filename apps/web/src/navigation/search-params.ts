import { PAGE_SIZE_MAX } from '@sc/contracts';
import { PAGE_SIZES } from '@/components/page-sizes';

/**
 * Search-param readers for the system pages' routes. Every param is optional, so links without a query still type-check;
 * anything malformed (a hand-edited URL) is dropped instead of reaching the server.
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

export function readEnum<T extends string>(value: unknown, values: readonly T[]): T | undefined {
  return typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** A local day YYYY-MM-DD, or a local date-time YYYY-MM-DDTHH:mm when `withTime` (the formats of the browser's date inputs). */
export function readDate(value: unknown, withTime = false): string | undefined {
  if (typeof value !== 'string') return undefined;
  const pattern = withTime ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/ : /^\d{4}-\d{2}-\d{2}$/;
  return pattern.test(value) && !Number.isNaN(new Date(withTime ? value : `${value}T00:00`).getTime()) ? value : undefined;
}

export function readPage(search: Record<string, unknown>): PageSearch {
  const pageSize = readInt(search.pageSize, 1, PAGE_SIZE_MAX);
  return {
    pageNum: readInt(search.pageNum),
    pageSize: pageSize && (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : undefined,
  };
}

/** Page number and size with their defaults applied. */
export function paging(search: PageSearch): { pageNum: number; pageSize: number } {
  return { pageNum: search.pageNum ?? 1, pageSize: search.pageSize ?? DEFAULT_PAGE_SIZE };
}

/** The record a hidden detail or edit page shows (`?id=`), a positive id PostgreSQL's `int` holds. */
export function validateIdSearch(search: Record<string, unknown>): { id?: number } {
  return compact({ id: readInt(search.id, 1, 2_147_483_647) });
}

/** Drops empty values so the address bar only shows the filters in use. */
export function compact<T extends object>(search: T): T {
  return Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined && v !== null && v !== '')) as T;
}
