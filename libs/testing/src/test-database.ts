import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

function databaseUrl(name: string): string {
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Held while a template is looked for or built (the server's advisory locks are shared by every test process). */
const TEMPLATE_LOCK = 0x5c_7e_57;

/** What a test database can be copied from, beside the migrations (e.g. the demo data, tests/support/gateway-process.ts). */
export interface DatabaseTemplate {
  /** What the contents come from (digits, letters, underscores; at most 24): a new key builds a new template. */
  key: string;
  /** How long an unused template is kept (others' templates are dropped once past it). */
  keepMs: number;
  /** Fills a new, migrated database as every copy must start. */
  fill(url: string): Promise<void>;
}

/** The migrations as they are now: a changed or added migration builds new templates. */
function migrationsDigest(): string {
  const dir = join(__dirname, '../../database/src/migrations');
  const digest = createHash('sha256');
  for (const file of readdirSync(dir).sort()) digest.update(file).update(readFileSync(join(dir, file)));
  return digest.digest('hex').slice(0, 16);
}

/** A template migrated and nothing more, kept a day once unused (another branch's or an older checkout's). */
const MIGRATED: DatabaseTemplate = { key: '', keepMs: 24 * 3600_000, fill: async () => undefined };

/**
 * The name of a database to copy test databases from, built once for every test file of every run (a copy is made in
 * a fraction of the time migrating and filling take): migrated to the project's migrations as they are now, then
 * filled by the template. Each use writes, as the template's comment, the time after which it may be dropped.
 */
async function templateOf(admin: Client, template: DatabaseTemplate): Promise<string> {
  const name = `sc_template_${migrationsDigest()}${template.key ? `_${template.key}` : ''}`.toLowerCase();
  const keep = async (db: string) => admin.query(`COMMENT ON DATABASE ${db} IS '${new Date(Date.now() + template.keepMs).toISOString()}'`);
  await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
  try {
    const found = await admin.query<{ datname: string; until: string | null }>(
      `SELECT datname, shobj_description(oid, 'pg_database') AS until FROM pg_database WHERE datname LIKE 'sc\\_template\\_%'`,
    );
    for (const old of found.rows) {
      if (old.datname === name || Date.now() < Date.parse(old.until ?? '')) continue;
      await admin.query(`ALTER DATABASE ${old.datname} IS_TEMPLATE false`).catch(() => undefined);
      await admin.query(`DROP DATABASE IF EXISTS ${old.datname} WITH (FORCE)`).catch(() => undefined);
    }
    if (found.rows.some((row) => row.datname === name)) {
      await keep(name);
      return name;
    }
    const building = `${name}_new`;
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    if (template === MIGRATED) {
      await admin.query(`CREATE DATABASE ${building}`);
      await runMigrations(databaseUrl(building));
    } else {
      // The session's advisory locks count: the migrated template is found or built under the same lock.
      await admin.query(`CREATE DATABASE ${building} TEMPLATE ${await templateOf(admin, MIGRATED)}`);
      await template.fill(databaseUrl(building));
    }
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    await admin.query(`ALTER DATABASE ${name} IS_TEMPLATE true`);
    await keep(name);
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
  }
}

/**
 * Creates a fresh, migrated database so tests never touch the demo data or each other, filled by `template` when
 * given (copied from a database filled once).
 */
export async function createTestDatabase(label = 'test', template: DatabaseTemplate = MIGRATED): Promise<TestDatabase> {
  const name = `sc_${label.replace(/\W/g, '_').slice(0, 20)}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const admin = new Client({ connectionString: TEST_SERVER_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await templateOf(admin, template)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl(name));
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
