import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { runMigrations } from '@sc/database';
import { BrokerAccessDir, platformFragmentName } from '@sc/messaging/broker-access';

/** The server the tests use; each test file gets a database of its own on it. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_SERVER ?? process.env.DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  name: string;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** Creates a fresh, migrated database so tests never touch the demo data or each other. */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const name = `sc_${label.replace(/\W/g, '_').slice(0, 20)}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const admin = new Client({ connectionString: TEST_SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  await runMigrations(url.toString());
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  return {
    url: url.toString(),
    name,
    query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
    drop: async () => {
      await client.end();
      const dropper = new Client({ connectionString: TEST_SERVER_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
      await forgetBrokerAccounts(url.toString());
    },
  };
}

/**
 * Takes the accounts a gateway on this database granted out of the tests' broker: the platform keeps its fragment
 * when it stops (its devices stay able to log in across a restart), so without this every test database of a run
 * would stay in the broker's files, and each reload and restart of the shared broker would read all of them.
 */
async function forgetBrokerAccounts(databaseUrl: string): Promise<void> {
  const dir = process.env.MQTT_BROKER_ACCESS_DIR;
  if (!dir) return;
  const access = new BrokerAccessDir(dir, { pidFile: process.env.MQTT_BROKER_PID_FILE });
  await access.remove(platformFragmentName(databaseUrl)).catch(() => undefined);
  await access.close();
}

export function uniquePrefix(label = 'test'): string {
  return `${label}:${randomBytes(4).toString('hex')}:`;
}
