import type { DataSource } from 'typeorm';
import type { PageQuery, PageResult } from '@sc/contracts';

/** Escapes LIKE wildcards so a filter matches its text literally, in any case. */
export function likeContains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Escapes LIKE wildcards so a filter matches the start of a value literally (as written: the caller sets the case). */
export function likeStarts(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Collects `column = ?` style conditions with numbered parameters. */
export class Where {
  readonly params: unknown[] = [];
  private readonly conditions: string[] = [];

  /** Adds a condition whose `?` stands for `value`. */
  add(condition: string, value: unknown): this {
    this.params.push(value);
    this.conditions.push(condition.replace('?', `$${this.params.length}`));
    return this;
  }

  /** Adds a condition whose every `?` stands for the same `value`. */
  addSame(condition: string, value: unknown): this {
    this.params.push(value);
    this.conditions.push(condition.replaceAll('?', `$${this.params.length}`));
    return this;
  }

  /** Adds the condition only when the value was given. */
  addIf(given: unknown, condition: string, value: unknown = given): this {
    return given === undefined || given === null || given === '' ? this : this.add(condition, value);
  }

  toString(): string {
    return this.conditions.length ? `WHERE ${this.conditions.join(' AND ')}` : '';
  }
}

export interface PageSpec {
  /** Columns of a row of the page, over the `from` tables. */
  select: string;
  from: string;
  /** FROM clause for counting, when fewer tables suffice (defaults to `from`). */
  countFrom?: string;
  where: Where;
  /** Order inside the page query, and the same order over the page's column aliases. */
  orderBy: string;
  outerOrderBy: string;
  pageNum: number;
  pageSize: number;
}

/**
 * One page and the exact total of a filtered list, in one statement: both come from the same snapshot, over one
 * connection and one round trip. The LEFT JOIN keeps a single row carrying the total when the page is empty.
 */
export async function pagedQuery<T extends object>(db: DataSource, spec: PageSpec): Promise<PageResult<T>> {
  const { params } = spec.where;
  const rows: (T & { __total: number; __present: number | null })[] = await db.query(
    `SELECT page.*, total.n AS "__total"
       FROM (SELECT count(*)::int AS n FROM ${spec.countFrom ?? spec.from} ${spec.where}) total
       LEFT JOIN LATERAL (
         SELECT 1 AS "__present", ${spec.select} FROM ${spec.from} ${spec.where}
          ORDER BY ${spec.orderBy} LIMIT $${params.length + 1} OFFSET $${params.length + 2}
       ) page ON true
      ORDER BY ${spec.outerOrderBy}`,
    [...params, spec.pageSize, (spec.pageNum - 1) * spec.pageSize],
  );
  const total = rows[0]?.__total ?? 0;
  const list = rows[0]?.__present == null ? [] : rows.map(({ __total, __present, ...row }) => row as unknown as T);
  return { list, total };
}

/** A page of records newest first, by the id of the table aliased `alias` in `from`. */
export function newestFirstPage<T extends object>(
  db: DataSource,
  spec: { select: string; from: string; alias: string; where: Where },
  q: PageQuery,
): Promise<PageResult<T>> {
  const { alias, ...rest } = spec;
  return pagedQuery<T>(db, { ...rest, orderBy: `${alias}.id DESC`, outerOrderBy: 'page.id DESC', pageNum: q.pageNum, pageSize: q.pageSize });
}
