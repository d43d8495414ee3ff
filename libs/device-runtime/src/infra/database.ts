import { Pool, type PoolClient } from 'pg';

export function createPool(url: string, max = Number(process.env.DATABASE_POOL_SIZE ?? 10)): Pool {
  const pool = new Pool({ connectionString: url, max, connectionTimeoutMillis: 5000 });
  // An idle client losing its connection (a database restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return pool;
}

const RETRYABLE = new Set(['40P01', '40001']);

/**
 * Runs `work` in a transaction. A deadlock or serialization failure between replicas is retried a few times:
 * the work is written to be repeatable.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    // A client whose ROLLBACK failed has lost its connection: destroy it rather than hand it back to the pool.
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => (broken = true));
      if (attempt >= attempts || !RETRYABLE.has((err as { code?: string }).code ?? '')) throw err;
    } finally {
      client.release(broken);
    }
  }
}

/**
 * Whether a failed write may succeed as it is once the database is back or less busy: the connection failed, the
 * server is shutting down or full, or the transaction lost a deadlock or serialization race. Anything else (a value
 * the database refuses) fails again the same way.
 */
export function isTransientDatabaseError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  // pg's own connection failures carry no code, only their words; anything else without a code (a fault of the
  // program, a family's rule that throws) would fail again the same way.
  if (typeof code !== 'string') return err instanceof Error && PG_CONNECTION_FAILURE.test(err.message);
  if (/^E[A-Z]+$/.test(code)) return true; // Node socket errors: ECONNREFUSED, ECONNRESET, ETIMEDOUT…
  return code.startsWith('08') || code.startsWith('53') || code.startsWith('57P') || RETRYABLE.has(code) || code === '55P03';
}

/** How pg words a connection that failed, was lost, or could not be had from the pool in time. */
const PG_CONNECTION_FAILURE = /connection terminated|connection error|not queryable|timeout exceeded when trying to connect|connect(ion)? timeout/i;
