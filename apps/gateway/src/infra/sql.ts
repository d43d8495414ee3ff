import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import type { SqlExecutor } from '@sc/device-runtime';

/**
 * The device runtime's ledger speaks to a pg-style connection: rows and a row count for every statement. TypeORM's
 * plain `query` answers UPDATEs as `[rows, count]` instead, so statements go through the query runner's structured
 * result: the transaction's own runner inside a transaction, else a runner of the data source's pool.
 */
export function sqlOf(db: EntityManager | DataSource): SqlExecutor {
  return {
    async query<R>(text: string, values?: unknown[]) {
      const own = 'queryRunner' in db ? (db.queryRunner as QueryRunner | undefined) : undefined;
      const runner = own ?? (db as DataSource).createQueryRunner?.() ?? (db as EntityManager).connection.createQueryRunner();
      try {
        const result = await runner.query(text, values, true);
        return { rows: result.records as R[], rowCount: result.affected ?? null };
      } finally {
        if (!own) await runner.release();
      }
    },
  };
}
