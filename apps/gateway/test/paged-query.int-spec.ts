import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@sc/database';
import { createTestDatabase, type TestDatabase } from '@sc/testing';
import { pagedQuery, Where } from '../src/common/sql';

/** Pages of a list whose count stops at a bound (the Wi-Fi session history), against PostgreSQL. */
describe('pagedQuery with a count cap', () => {
  let database: TestDatabase;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('paged');
    db = await new DataSource(dataSourceOptions(database.url)).initialize();
    await db.query(`CREATE TABLE paged_row (id int PRIMARY KEY, even boolean NOT NULL)`);
    await db.query(`INSERT INTO paged_row SELECT i, i % 2 = 0 FROM generate_series(1, 25) i`);
  });

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const page = (pageNum: number, pageSize: number, countCap?: number, where = new Where()) =>
    pagedQuery<{ id: number }>(db, {
      select: 'r.id',
      from: 'paged_row r',
      where,
      orderBy: 'r.id DESC',
      outerOrderBy: 'page.id DESC',
      pageNum,
      pageSize,
      countCap,
    });
  const ids = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => ({ id: from - i }));

  it('counts exactly up to the cap, and says "more" past it with a total that reaches past the page asked', async () => {
    expect(await page(1, 5)).toEqual({ list: ids(25, 21), total: 25 });
    // Exactly as many rows as the cap, or fewer: the exact total, no flag.
    expect(await page(1, 5, 25)).toEqual({ list: ids(25, 21), total: 25 });
    expect(await page(1, 5, 100)).toEqual({ list: ids(25, 21), total: 25 });
    // More than the cap: the cap as a lower bound.
    expect(await page(1, 5, 10)).toEqual({ list: ids(25, 21), total: 10, totalCapped: true });
    // A page past the cap: the bound moves to the page's end, so the page after it can still be asked.
    expect(await page(3, 5, 10)).toEqual({ list: ids(15, 11), total: 15, totalCapped: true });
    // The last page: the exact total again, however the cap is set.
    expect(await page(5, 5, 10)).toEqual({ list: ids(5, 1), total: 25 });
    // Past the end: an empty page with the exact total.
    expect(await page(7, 5, 10)).toEqual({ list: [], total: 25 });
    // The filter applies to the count as to the page.
    expect(await page(1, 4, 10, new Where().add('r.even = ?', true))).toEqual({
      list: [{ id: 24 }, { id: 22 }, { id: 20 }, { id: 18 }],
      total: 10,
      totalCapped: true,
    });
    expect(await page(1, 4, 12, new Where().add('r.even = ?', true))).toEqual({ list: [{ id: 24 }, { id: 22 }, { id: 20 }, { id: 18 }], total: 12 });
  });
});
