import { Client } from 'pg';

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
}

/** The server refused the credentials (as opposed to not answering at all). */
export function isAuthenticationFailure(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === '28P01' || code === '28000';
}

/**
 * Creates the database named in the URL when it does not exist yet. It connects to that database first, so a role
 * that may not open the server's `postgres` database works as long as its own database exists.
 */
export async function ensureDatabase(url: string): Promise<boolean> {
  const target = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await target.connect();
    return false;
  } catch (err) {
    if ((err as { code?: string }).code !== '3D000') throw err;
  } finally {
    await target.end().catch(() => undefined);
  }
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${databaseName(url).replace(/"/g, '""')}"`);
    return true;
  } finally {
    await client.end();
  }
}
