// Shared by the page benchmarks (user-page, lamp-page): a database of their own, migrated and seeded with the built
// gateway; the gateway on free loopback ports with a Redis prefix of its own, signed in as the administrator; the
// reference answers' SQL and the check of the gateway's pages against them; autocannon runs with the CPU of the
// gateway, PostgreSQL, the load generator and the machine; the report, the verdict and the clean-up of everything a run
// made. Built on ./platform.mjs: its `services` (BENCH_DATABASE_SERVER, REDIS_URL, MQTT_URL; without MQTT_URL, a
// Mosquitto of the run's own with the shipped configuration where Mosquitto is installed), its BenchPlatform and its
// /proc readings. Plain Node; only loopback addresses are ever contacted.
import autocannon from 'autocannon';
import Redis from 'ioredis';
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  BenchPlatform,
  GATEWAY as PLATFORM_GATEWAY,
  ROOT,
  ambientLoad,
  assertLoopback,
  broker,
  cpuBetween,
  cpuSnapshot,
  fail,
  log,
  services,
  withClient,
} from './platform.mjs';

const env = process.env;

/** BENCH_GATEWAY runs another build (for example one made from an earlier revision) against the same data and load. */
export const GATEWAY = resolve(ROOT, env.BENCH_GATEWAY ?? 'dist/apps/gateway/main.js');

/** The knobs both page benchmarks read (the services' URLs are ./platform.mjs's `services`). */
export const pageSettings = {
  connections: Number(env.BENCH_CONNECTIONS ?? 50),
  warmupSeconds: Number(env.BENCH_WARMUP_SECONDS ?? 5),
  durationSeconds: Number(env.BENCH_DURATION_SECONDS ?? 20),
  targetRps: Number(env.BENCH_TARGET_RPS ?? 3000),
  targetP99Ms: Number(env.BENCH_TARGET_P99_MS ?? 50),
};

/** Seconds since a performance.now() reading, one decimal. */
export const secondsSince = (started) => ((performance.now() - started) / 1000).toFixed(1);

/** The platform's processes run dist/apps/gateway/main.js: a page benchmark runs GATEWAY (BENCH_GATEWAY) instead. */
const ownBuild = (args) => args.map((arg) => (arg === PLATFORM_GATEWAY ? GATEWAY : arg));

/** One page benchmark's run: its database, its Redis prefix and the gateway; `cleanup()` removes all of it. */
export class PageBench extends BenchPlatform {
  constructor({ dbName, redisPrefix }) {
    super('page');
    this.dbName = dbName;
    this.redisPrefix = redisPrefix;
  }

  serviceEnv(extra = {}) {
    return super.serviceEnv({ LOG_LEVEL: 'warn', ...extra });
  }

  runToEnd(name, args, extraEnv) {
    return super.runToEnd(name, ownBuild(args), extraEnv);
  }

  spawn(name, args, extraEnv) {
    return super.spawn(name, ownBuild(args), extraEnv);
  }

  /** Notes when the gateway answered its health check (before the sign-in). */
  async waitFor(name, child, ready, timeoutMs) {
    await super.waitFor(name, child, ready, timeoutMs);
    this.readyAt = performance.now();
  }

  dropDatabase() {
    return withClient(services.serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${this.dbName} WITH (FORCE)`));
  }

  /** Drops any database left over under the name, creates, migrates and seeds it, then answers `load(client)` on it. */
  async prepare(load) {
    await this.dropDatabase();
    await this.createDatabase();
    return withClient(this.databaseUrl, load);
  }

  /** Starts the gateway, says where and after how long it serves, and signs in (`this.token`); answers the process. */
  async serve() {
    const started = performance.now();
    const gateway = await this.startGateway();
    log(`  gateway (pid ${gateway.pid}) serving on ${this.baseUrl} after ${((this.readyAt - started) / 1000).toFixed(1)} s`);
    return gateway;
  }

  /** The gateway's output so far (its last 200 kB). */
  get gatewayOutput() {
    return this.output('gateway');
  }

  cleanup() {
    this.cleaning ??= (async () => {
      await this.stop('gateway');
      const keep = env.BENCH_KEEP_DATABASE === '1';
      if (keep) log(`Kept ${this.dbName} (BENCH_KEEP_DATABASE=1)`);
      else await this.dropDatabase().catch((err) => log(`Could not drop ${this.dbName}: ${err.message}`));
      await deleteRedisKeys(this.redisPrefix).then(
        (removed) => log(`Cleaned up: removed ${removed} Redis key(s) under ${this.redisPrefix}${keep ? '' : `, dropped ${this.dbName}`}`),
        (err) => log(`Could not clean Redis keys under ${this.redisPrefix}: ${err.message}`),
      );
      if (this.uploadDir) rmSync(this.uploadDir, { recursive: true, force: true });
    })();
    return this.cleaning;
  }
}

/** Deletes every Redis key under `prefix`; answers how many there were. */
async function deleteRedisKeys(prefix) {
  const redis = new Redis(services.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let removed = 0;
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 1000 })) {
      if (keys.length) removed += await redis.del(...keys);
    }
    return removed;
  } finally {
    redis.disconnect();
  }
}

/**
 * Checks that the gateway is built and every service is on loopback, then runs `run(bench)`: a failure is reported
 * (with the gateway's last lines) as exit code 2. Whatever the run made is removed at the end, also after Ctrl-C.
 * `stack`: report a failure with its stack trace.
 */
export async function runPageBench({ dbName, redisPrefix, stack = false }, run) {
  if (!existsSync(GATEWAY)) fail(`${GATEWAY} is missing: build the gateway first with\n\n  npx nest build gateway`);
  assertLoopback(services.serverUrl, 'PostgreSQL');
  assertLoopback(services.redisUrl, 'Redis');
  assertLoopback(services.mqttUrl, 'MQTT');
  const bench = new PageBench({ dbName, redisPrefix });
  try {
    await run(bench);
  } catch (err) {
    const message = err instanceof Error ? (stack ? (err.stack ?? err.message) : err.message) : String(err);
    process.stderr.write(`\nBenchmark failed: ${message}\n`);
    const output = bench.gatewayOutput;
    if (output) process.stderr.write(`\nGateway output (last lines):\n${output.split('\n').slice(-30).join('\n')}\n`);
    process.exitCode = 2;
  } finally {
    await bench.cleanup();
    // The run's own Mosquitto (./platform.mjs starts it unless MQTT_URL names a broker), its directory included.
    await broker?.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// What a page must answer, computed independently of the gateway.

/** Conditions of a reference query: `add('col = ?', value)` numbers the parameters. */
export function sqlFilter() {
  const where = [];
  const params = [];
  return {
    params,
    add(sql, value) {
      params.push(value);
      where.push(sql.replaceAll('?', `$${params.length}`));
    },
    get sql() {
      return where.length ? `WHERE ${where.join(' AND ')}` : '';
    },
  };
}

/** The exact total of `FROM from filter` and the ids of the body's page in `order`. */
export async function referencePage(client, { from, id, order }, filter, body) {
  const total = (await client.query(`SELECT count(*)::int AS n FROM ${from} ${filter.sql}`, filter.params)).rows[0].n;
  const offset = (body.pageNum - 1) * body.pageSize;
  const page = await client.query(`SELECT ${id} FROM ${from} ${filter.sql} ORDER BY ${order} LIMIT ${body.pageSize} OFFSET ${offset}`, filter.params);
  return { total, ids: page.rows.map((r) => r.id) };
}

/**
 * Throws unless the gateway's `answer` to `body` is a 200 whose page has exactly the total and ids (in order) of
 * `want`; answers the page. `message`: show the envelope's message in the error too.
 */
export function checkPage(what, body, answer, want, { message = false } = {}) {
  const got = answer.body?.data;
  const ids = got?.list?.map((row) => row.id) ?? [];
  if (answer.status !== 200 || answer.body.code !== 200 || got.total !== want.total || JSON.stringify(ids) !== JSON.stringify(want.ids)) {
    const seen = { status: answer.status, code: answer.body?.code, ...(message ? { message: answer.body?.message } : {}), total: got?.total };
    throw new Error(
      `${what} answered ${JSON.stringify({ ...seen, ids: ids.slice(0, 5) })} for ${JSON.stringify(body)}, expected total ${want.total}, ids ${JSON.stringify(want.ids.slice(0, 5))}`,
    );
  }
  return got;
}

// ---------------------------------------------------------------------------------------------------------------
// Load.

export function cannon(opts) {
  return new Promise((ok, ko) => {
    autocannon(opts, (err, result) => (err ? ko(err) : ok(result)));
  });
}

/** Headers of the administrator's requests. */
export const authHeaders = (token) => ({ 'content-type': 'application/json', authorization: `Bearer ${token}` });

/** autocannon's options for `connections` signed-in connections to the gateway (add the requests). */
export function loadOptions(bench, connections) {
  return {
    url: bench.baseUrl,
    connections,
    headers: authHeaders(bench.token),
    // A 200 carrying an error envelope is an error too.
    verifyBody: (body) => typeof body === 'string' && body.startsWith('{"code":200,'),
  };
}

/** What else is running on the machine skews the numbers: says how busy it is without any load from here. */
export async function logAmbientLoad() {
  const ambient = await ambientLoad(2000);
  log(`  machine busy before the load: ${ambient.toFixed(0)} %${ambient > 15 ? ' (something else is running: expect lower numbers)' : ''}`);
}

export async function warmUp(options) {
  log(`Warm-up: ${pageSettings.warmupSeconds} s, ${options.connections} connections`);
  const warm = await cannon({ ...options, duration: pageSettings.warmupSeconds });
  log(`  ${Math.round(warm.requests.average)} requests/s during warm-up`);
}

/**
 * One measured autocannon run (`options.duration` seconds) with the CPU, in % of one core, of the gateway, of every
 * PostgreSQL process (parallel workers included), of this process (the load generator) and how busy the machine was.
 */
export async function measuredRun(gatewayPid, options) {
  const before = cpuSnapshot({ gateway: gatewayPid });
  const result = await cannon(options);
  const after = cpuSnapshot({ gateway: gatewayPid });
  const { gateway, postgres, bench, machineBusy } = cpuBetween(before, after);
  return {
    result,
    seconds: (after.at - before.at) / 1000,
    cpu: { gateway, postgres, loadGenerator: bench, machineBusy },
    errors: result.errors + result.timeouts + result.non2xx + result.mismatches,
    rps: result.requests.total / (result.duration || options.duration),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Report.

/** The report's rows of a measured run; `postgres` is the PostgreSQL CPU row's text. */
export function resultRows(m, postgres) {
  const lat = m.result.latency;
  return [
    ['requests', m.result.requests.total.toLocaleString('en-US')],
    ['requests/s', m.rps.toFixed(0)],
    ['latency p50', `${lat.p50} ms`],
    ['latency p90', `${lat.p90} ms`],
    ['latency p99', `${lat.p99} ms`],
    ['latency max', `${lat.max} ms`],
    [
      'errors',
      `${m.errors} (connection ${m.result.errors}, timeouts ${m.result.timeouts}, non-2xx ${m.result.non2xx}, error envelopes ${m.result.mismatches})`,
    ],
    ['gateway CPU', `${m.cpu.gateway.toFixed(0)} % of one core`],
    ['PostgreSQL CPU', postgres],
    ['load generator CPU', `${m.cpu.loadGenerator.toFixed(0)} % of one core`],
    ['machine busy', `${m.cpu.machineBusy.toFixed(0)} % of ${execFileSync('nproc').toString().trim()} cores`],
  ];
}

export function logRows(rows) {
  for (const [name, value] of rows) log(`  ${name.padEnd(20)} ${value}`);
}

/**
 * The verdict on the measured run `m`: at least BENCH_TARGET_RPS requests/s, p99 under BENCH_TARGET_P99_MS, no failed
 * request, no error logged by the gateway; `more`: further misses, `met`: what the success line adds. Sets the exit code.
 */
export function verdict(bench, m, { more = [], met = '' } = {}) {
  const { targetRps, targetP99Ms } = pageSettings;
  const missed = [];
  if (m.rps < targetRps) missed.push(`${m.rps.toFixed(0)} requests/s is below ${targetRps}`);
  if (!(m.result.latency.p99 < targetP99Ms)) missed.push(`p99 ${m.result.latency.p99} ms is not under ${targetP99Ms} ms`);
  if (m.errors > 0) missed.push(`${m.errors} request(s) failed`);
  missed.push(...more);
  if (bench.gatewayOutput.includes('"level":50')) missed.push('the gateway logged errors');
  log('');
  if (missed.length) log(`TARGETS MISSED: ${missed.join('; ')}`);
  else log(`Targets met: >= ${targetRps} requests/s, p99 < ${targetP99Ms} ms, no errors${met}`);
  process.exitCode = missed.length ? 1 : 0;
}
