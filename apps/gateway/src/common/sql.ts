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
  /**
   * Count at most this many rows (or up to the end of the page asked for, when it lies further): a list of millions of
   * rows answers a lower bound and `totalCapped` instead of reading every matching row for an exact total.
   */
  countCap?: number;
}

/**
 * One page and the total of a filtered list (exact, or bounded by `countCap`), in one statement: both come from the same snapshot, over one
 * connection and one round trip. The LEFT JOIN keeps a single row carrying the total when the page is empty.
 */
export async function pagedQuery<T extends object>(db: DataSource, spec: PageSpec): Promise<PageResult<T>> {
  const { params } = spec.where;
  const offset = (spec.pageNum - 1) * spec.pageSize;
  const countFrom = spec.countFrom ?? spec.from;
  // A bounded count reads at most one row more than the bound, which says whether more match. The matching rows are a
  // materialized CTE, planned as if all were read (PostgreSQL plans CTEs apart, for every row), and read lazily: a
  // LIMIT over a plain subquery would let the planner bet on finding the rows early in some index order, which a
  // wrong estimate of a narrow filter (one client's MAC) turns into a scan of the whole window.
  const bound = spec.countCap === undefined ? null : Math.max(spec.countCap, offset + spec.pageSize);
  const count =
    bound === null
      ? `SELECT count(*)::int AS n FROM ${countFrom} ${spec.where}`
      : `WITH matching AS MATERIALIZED (SELECT 1 FROM ${countFrom} ${spec.where})
         SELECT count(*)::int AS n FROM (SELECT 1 FROM matching LIMIT ${bound + 1}) counted`;
  const rows: (T & { __total: number; __present: number | null })[] = await db.query(
    `SELECT page.*, total.n AS "__total"
       FROM (${count}) total
       LEFT JOIN LATERAL (
         SELECT 1 AS "__present", ${spec.select} FROM ${spec.from} ${spec.where}
          ORDER BY ${spec.orderBy} LIMIT $${params.length + 1} OFFSET $${params.length + 2}
       ) page ON true
      ORDER BY ${spec.outerOrderBy}`,
    [...params, spec.pageSize, offset],
  );
  const counted = rows[0]?.__total ?? 0;
  const list = rows[0]?.__present == null ? [] : rows.map(({ __total, __present, ...row }) => row as unknown as T);
  return bound !== null && counted > bound ? { list, total: bound, totalCapped: true } : { list, total: counted };
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
