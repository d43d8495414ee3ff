import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { ownChild } from './child-process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Redis from 'ioredis';
import { ApiClient, createTestDatabase, uniquePrefix, waitFor, type DatabaseTemplate, type TestDatabase } from '@sc/testing';

export const ROOT = resolve(__dirname, '..', '..');
export const GATEWAY = join(ROOT, 'dist', 'apps', 'gateway', 'main.js');

export function assertBuilt(): void {
  if (!existsSync(GATEWAY)) throw new Error(`${GATEWAY} is missing: run \`npx nest build gateway\` (npm test does it for you)`);
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one gateway command (migrate, seed-demo, check, ...) to completion. */
export function gatewayCommand(args: string[], env: NodeJS.ProcessEnv): CommandResult {
  const r = spawnSync(process.execPath, [GATEWAY, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_FORMAT: 'json', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The demo data as `seed-demo` loads it, loaded once into a template each gateway's database is copied from: keyed by
 * the built gateway, the settings it is seeded with, and the hour (the demo's energy and alarms are dated from now).
 */
function demoTemplate(env: NodeJS.ProcessEnv): DatabaseTemplate {
  const { DATABASE_URL: _database, REDIS_PREFIX: _prefix, PORT: _port, UPLOAD_PORT: _uploadPort, UPLOAD_DIR: _uploads, ...settings } = env;
  const digest = createHash('sha256')
    .update(readFileSync(GATEWAY))
    .update(JSON.stringify(Object.entries(settings).sort()));
  const hour = new Date().toISOString().slice(0, 13).replace(/\D/g, '');
  return {
    key: `demo_${digest.digest('hex').slice(0, 8)}_${hour}`,
    keepMs: 2 * 3600_000,
    fill: (url) =>
      new Promise((done, fail) =>
        execFile(
          process.execPath,
          [GATEWAY, 'seed-demo'],
          { cwd: ROOT, env: { ...process.env, LOG_FORMAT: 'json', ...env, DATABASE_URL: url }, timeout: 120_000 },
          (error, _stdout, stderr) => (error ? fail(new Error(`seed-demo failed: ${stderr}`)) : done()),
        ),
      ),
  };
}

export interface RunningGateway {
  baseUrl: string;
  uploadUrl: string;
  env: NodeJS.ProcessEnv;
  db: TestDatabase;
  process: ChildProcess;
  output: () => string;
  client(language?: string): ApiClient;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the built gateway as its own process on free ports, with its own database (demo data loaded) and Redis prefix. */
export async function startGatewayProcess(extraEnv: NodeJS.ProcessEnv = {}): Promise<RunningGateway> {
  assertBuilt();
  const [port, uploadPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    REDIS_PREFIX: uniquePrefix('e2e'),
    PORT: String(port),
    UPLOAD_PORT: String(uploadPort),
    HOST: '127.0.0.1',
    UPLOAD_DIR: mkdtempSync(join(tmpdir(), 'sc-e2e-uploads-')),
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  const db = await createTestDatabase('e2e', demoTemplate(env));
  env.DATABASE_URL = db.url;
  const child = spawn(process.execPath, [GATEWAY, 'serve'], {
    cwd: ROOT,
    env: { ...process.env, LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const stopChild = ownChild(child);
  // `extraEnv` may choose the port (a test that must know the address before start-up, e.g. for MEDIA_LINK_BASE_URL).
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  try {
    // Generous: with two test files at a time on a two-core machine, a start-up may wait its turn for the CPU.
    await waitFor(async () => ((await fetch(`${baseUrl}/api/health`)).ok ? true : undefined), 45_000, 100);
  } catch (err) {
    child.kill('SIGKILL');
    await db.drop();
    throw new Error(`gateway did not start: ${String(err)}\n${output}`);
  }
  return {
    baseUrl,
    uploadUrl: `http://127.0.0.1:${env.UPLOAD_PORT}`,
    env,
    db,
    process: child,
    output: () => output,
    client: (language = 'en-US') => new ApiClient(baseUrl, language),
    stop: async (signal = 'SIGTERM') => {
      const code = await stopChild(signal);
      await db.drop();
      return code;
    },
  };
}

/**
 * Deletes every Redis key under a test's prefix (its queues, streams and caches), once the services that used them
 * have stopped.
 */
export async function dropRedisKeys(prefix: string): Promise<number> {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  let removed = 0;
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) removed += await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return removed;
}
