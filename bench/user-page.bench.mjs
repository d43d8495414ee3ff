// Load test of POST /api/user/userPage against the built gateway, with 100,000 users in a database of its own.
//
//   npx nest build gateway && npm run bench:user-page
//
// It creates the database sc_bench (dropping any left over), migrates and seeds it with the built gateway,
// loads the users with SQL, starts the gateway on free loopback ports with a Redis prefix of its own, checks
// that every request body of the rotation answers the exact total, runs autocannon (warm-up, then the measured
// run), prints the results and removes everything it made. It exits 1 when a target is missed.
// Only loopback addresses are ever contacted. See docs/benchmarks.md.
import autocannon from 'autocannon';
import Redis from 'ioredis';
import pg from 'pg';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { GATEWAY_NODE_FLAGS } from '../scripts/lib.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// BENCH_GATEWAY runs another build (for example one made from an earlier revision) against the same data and load.
const GATEWAY = resolve(ROOT, process.env.BENCH_GATEWAY ?? 'dist/apps/gateway/main.js');

const env = process.env;
const settings = {
  users: Number(env.BENCH_USERS ?? 100_000),
  connections: Number(env.BENCH_CONNECTIONS ?? 50),
  warmupSeconds: Number(env.BENCH_WARMUP_SECONDS ?? 5),
  durationSeconds: Number(env.BENCH_DURATION_SECONDS ?? 20),
  targetRps: Number(env.BENCH_TARGET_RPS ?? 3000),
  targetP99Ms: Number(env.BENCH_TARGET_P99_MS ?? 50),
  serverUrl: env.BENCH_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  mqttUrl: env.MQTT_URL ?? 'mqtt://127.0.0.1:1883',
};
const DB_NAME = 'sc_bench';
const REDIS_PREFIX = `bench:${randomBytes(4).toString('hex')}:`;
const PASSWORD = 'SmartCity@2026';
const CITIES = ['shenzhen', 'hangzhou', 'guangzhou', 'shanghai', 'beijing', 'chengdu', 'wuhan', 'nanjing', 'xian', 'suzhou', 'tianjin', 'chongqing'];

const log = (line) => process.stdout.write(`${line}\n`);

function fail(message) {
  process.stderr.write(`\n${message}\n\n`);
  process.exit(2);
}

/** This benchmark sends traffic to this machine only. */
function assertLoopback(url, what) {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (!(host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host))) {
    fail(`${what} must be on this machine (loopback), not ${host}.`);
  }
}

function databaseUrl(name) {
  const url = new URL(settings.serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function freePort() {
  return new Promise((ok, ko) => {
    const server = createServer();
    server.once('error', ko);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });
}

function gatewayEnv(extra = {}) {
  return {
    ...env,
    DATABASE_URL: databaseUrl(DB_NAME),
    REDIS_URL: settings.redisUrl,
    MQTT_URL: settings.mqttUrl,
    REDIS_PREFIX,
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    ...extra,
  };
}

function runGateway(command) {
  return new Promise((ok, ko) => {
    const child = spawn(process.execPath, [GATEWAY, command], { cwd: ROOT, env: gatewayEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', ko);
    child.on('exit', (code) => (code === 0 ? ok(output) : ko(new Error(`gateway ${command} exited with ${code}:\n${output}`))));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Data

async function withClient(url, run) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function dropDatabase() {
  await withClient(settings.serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`));
}

const EXTRA_GROUPS = [
  ['Shenzhen operators', ['Home', 'editor']],
  ['Hangzhou operators', ['Home', 'editor']],
  ['Maintenance crew', ['editor']],
  ['Night shift', ['Home', 'visit']],
  ['Auditors', ['visit']],
];

async function loadUsers(client) {
  for (const [name, menu] of EXTRA_GROUPS) {
    await client.query(`INSERT INTO sys_group (group_name, permission_menu, remark) VALUES ($1, $2, 'benchmark')`, [name, menu]);
  }
  const groups = (await client.query(`SELECT id, group_name FROM sys_group ORDER BY id`)).rows;
  const id = (name) => groups.find((g) => g.group_name === name).id;
  // Shares of the user base, cumulative percent: most are field operators of the two big cities.
  const shares = [
    [30, id('Shenzhen operators')],
    [55, id('Hangzhou operators')],
    [70, id('Maintenance crew')],
    [80, id('Night shift')],
    [88, id('Visitors')],
    [97, id('Editors')],
    [99.9, id('Auditors')],
    [100, id('Administrators')],
  ];
  const groupCase = `CASE ${shares.map(([upTo, gid]) => `WHEN r.g < ${upTo} THEN ${gid}`).join(' ')} END`;
  await client.query(`SELECT setseed(0.2026)`);
  await client.query(
    `INSERT INTO sys_user (username, password_hash, group_id, enabled, introduction, last_login_at, created_at, updated_at)
     SELECT 'op-' || ($1::text[])[1 + i % ${CITIES.length}] || '-' || i,
            (SELECT password_hash FROM sys_user WHERE username = 'admin'),
            ${groupCase},
            r.e >= 0.08,
            'Field operator, ' || initcap(($1::text[])[1 + i % ${CITIES.length}]),
            CASE WHEN r.l < 0.12 THEN NULL ELSE now() - (r.l ^ 3) * interval '365 days' END,
            now() - interval '400 days' - r.c * interval '330 days',
            now() - r.c * interval '30 days'
       FROM generate_series(1, $2::int) AS i,
            LATERAL (SELECT random() * 100 AS g, random() AS e, random() AS l, random() AS c, i AS keep) AS r`,
    [CITIES, settings.users],
  );
  // What autovacuum would have done on a table that has been in use for a while.
  await client.query(`VACUUM (ANALYZE) sys_user`);
  await client.query(`ANALYZE`);
  return groups;
}

// ---------------------------------------------------------------------------------------------------------------
// Request bodies: what an administrator does on the user page.

function bodies(groupIds) {
  const day = 86_400_000;
  const now = Date.now();
  const iso = (msAgo) => new Date(now - msAgo).toISOString();
  const [shenzhen, hangzhou, maintenance, nightShift, visitors, editors, auditors] = groupIds;
  const list = [
    // Opening the page, then paging through.
    { pageNum: 1, pageSize: 20 },
    { pageNum: 2, pageSize: 20 },
    { pageNum: 7, pageSize: 20 },
    { pageNum: 1, pageSize: 50 },
    // Looking someone up by part of the name.
    { pageNum: 1, pageSize: 20, username: 'op-shenzhen-4821' },
    { pageNum: 1, pageSize: 20, username: 'wuhan-77' },
    { pageNum: 1, pageSize: 20, username: 'Hangzhou' },
    { pageNum: 3, pageSize: 20, username: 'nanjing' },
    { pageNum: 1, pageSize: 20, username: '1234' },
    { pageNum: 1, pageSize: 20, username: 'op-xian-9' },
    { pageNum: 1, pageSize: 20, username: 'chongqing-5' },
    { pageNum: 1, pageSize: 20, username: 'OP-BEIJING-100' },
    // One group at a time.
    { pageNum: 1, pageSize: 20, groupId: shenzhen },
    { pageNum: 2, pageSize: 20, groupId: hangzhou },
    { pageNum: 1, pageSize: 20, groupId: maintenance },
    { pageNum: 1, pageSize: 20, groupId: auditors },
    { pageNum: 1, pageSize: 20, groupId: editors, enabled: true },
    { pageNum: 1, pageSize: 20, groupId: visitors, enabled: false },
    // Disabled accounts, accounts active lately, accounts dormant for months.
    { pageNum: 1, pageSize: 20, enabled: false },
    { pageNum: 2, pageSize: 20, enabled: false },
    { pageNum: 1, pageSize: 20, enabled: true, lastLoginFrom: iso(7 * day) },
    { pageNum: 1, pageSize: 20, lastLoginFrom: iso(day) },
    { pageNum: 1, pageSize: 20, lastLoginTo: iso(180 * day) },
    { pageNum: 1, pageSize: 20, lastLoginFrom: iso(60 * day), lastLoginTo: iso(30 * day) },
    // Combinations.
    { pageNum: 1, pageSize: 20, username: 'shenzhen', groupId: shenzhen, enabled: true },
    { pageNum: 1, pageSize: 20, username: 'suzhou', lastLoginFrom: iso(30 * day) },
    { pageNum: 1, pageSize: 20, groupId: nightShift, lastLoginFrom: iso(14 * day) },
    { pageNum: 1, pageSize: 20, groupId: hangzhou, enabled: false, lastLoginTo: iso(90 * day) },
    { pageNum: 1, pageSize: 20, username: 'op-tianjin', enabled: true, lastLoginFrom: iso(3 * day) },
    { pageNum: 1, pageSize: 20, username: 'nobody-like-this' },
    { pageNum: 12, pageSize: 20, groupId: maintenance, enabled: true },
    { pageNum: 1, pageSize: 100, enabled: false, lastLoginFrom: iso(365 * day) },
  ];
  return list;
}

/** What the page must answer for a body, computed here independently of the gateway. */
async function expected(client, body) {
  const where = [];
  const params = [];
  const add = (sql, value) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (body.username) add(`strpos(lower(username), ?) > 0`, body.username.trim().toLowerCase());
  if (body.groupId !== undefined) add(`group_id = ?`, body.groupId);
  if (body.enabled !== undefined) add(`enabled = ?`, body.enabled);
  if (body.lastLoginFrom) add(`last_login_at >= ?`, body.lastLoginFrom);
  if (body.lastLoginTo) add(`last_login_at <= ?`, body.lastLoginTo);
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = (await client.query(`SELECT count(*)::int AS n FROM sys_user ${filter}`, params)).rows[0].n;
  const ids = (
    await client.query(
      `SELECT id FROM sys_user ${filter} ORDER BY id DESC LIMIT ${body.pageSize} OFFSET ${(body.pageNum - 1) * body.pageSize}`,
      params,
    )
  ).rows.map((r) => r.id);
  return { total, ids };
}

// ---------------------------------------------------------------------------------------------------------------
// CPU accounting from /proc (Linux).

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time of a process (utime + stime) and of its children that have exited and been reaped (cutime + cstime). */
function processTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      ticks: Number(fields[11]) + Number(fields[12]),
      children: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return null;
  }
}

/**
 * Every PostgreSQL process. Parallel query workers come and go within the run: their time shows up in the
 * postmaster's reaped-children counters, so those are counted too.
 */
function postgresTicks() {
  const out = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const p = processTicks(entry);
    if (p && p.comm.startsWith('postgres')) out.set(entry, p.ticks + p.children);
  }
  return out;
}

function machineTicks() {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = cpu[3] + (cpu[4] ?? 0);
  return { total: cpu.reduce((a, b) => a + b, 0), idle };
}

function cpuSnapshot(gatewayPid) {
  return {
    at: performance.now(),
    gateway: processTicks(gatewayPid)?.ticks ?? 0,
    postgres: postgresTicks(),
    loadGenerator: process.cpuUsage(),
    machine: machineTicks(),
  };
}

function cpuBetween(a, b) {
  const seconds = (b.at - a.at) / 1000;
  const pct = (ticks) => (100 * ticks) / CLK_TCK / seconds;
  let pgTicks = 0;
  for (const [pid, ticks] of b.postgres) pgTicks += ticks - (a.postgres.get(pid) ?? 0);
  const lg = process.cpuUsage(a.loadGenerator);
  const total = b.machine.total - a.machine.total;
  return {
    gateway: pct(b.gateway - a.gateway),
    postgres: pct(pgTicks),
    loadGenerator: ((lg.user + lg.system) / 1e6 / seconds) * 100,
    machineBusy: total > 0 ? (100 * (total - (b.machine.idle - a.machine.idle))) / total : 0,
  };
}

// ---------------------------------------------------------------------------------------------------------------

async function post(baseUrl, path, body, token) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function waitUntilServing(baseUrl, child, output) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`the gateway did not answer within 60 s:\n${output()}`);
}

function cannon(opts) {
  return new Promise((ok, ko) => {
    autocannon(opts, (err, result) => (err ? ko(err) : ok(result)));
  });
}

async function main() {
  if (!existsSync(GATEWAY)) fail(`${GATEWAY} is missing: build the gateway first with\n\n  npx nest build gateway`);
  assertLoopback(settings.serverUrl, 'PostgreSQL');
  assertLoopback(settings.redisUrl, 'Redis');
  assertLoopback(settings.mqttUrl, 'MQTT');

  let gateway = null;
  let gatewayOutput = '';
  let uploadDir = null;
  let cleaning = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      if (gateway && gateway.exitCode === null && gateway.signalCode === null) {
        const exited = new Promise((ok) => gateway.once('exit', ok));
        gateway.kill('SIGTERM');
        const stopped = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
        if (!stopped) {
          gateway.kill('SIGKILL');
          await exited;
        }
      }
      if (env.BENCH_KEEP_DATABASE === '1') log(`Kept ${DB_NAME} (BENCH_KEEP_DATABASE=1)`);
      else await dropDatabase().catch((err) => log(`Could not drop ${DB_NAME}: ${err.message}`));
      const redis = new Redis(settings.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await redis.connect();
        let cursor = '0';
        let removed = 0;
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${REDIS_PREFIX}*`, 'COUNT', 1000);
          if (keys.length) removed += await redis.del(...keys);
          cursor = next;
        } while (cursor !== '0');
        log(`Cleaned up: removed ${removed} Redis key(s) under ${REDIS_PREFIX}${env.BENCH_KEEP_DATABASE === '1' ? '' : `, dropped ${DB_NAME}`}`);
      } catch (err) {
        log(`Could not clean Redis keys under ${REDIS_PREFIX}: ${err.message}`);
      } finally {
        redis.disconnect();
      }
      if (uploadDir) rmSync(uploadDir, { recursive: true, force: true });
    })());
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      log(`\n${signal}: stopping`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    log(`Preparing ${DB_NAME} with ${settings.users.toLocaleString('en-US')} users`);
    let started = performance.now();
    await dropDatabase();
    await withClient(settings.serverUrl, (c) => c.query(`CREATE DATABASE ${DB_NAME}`));
    await runGateway('migrate');
    await runGateway('seed-demo');
    const groups = await withClient(databaseUrl(DB_NAME), loadUsers);
    log(`  database ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const [port, uploadPort] = [await freePort(), await freePort()];
    uploadDir = mkdtempSync(join(tmpdir(), 'sc-bench-'));
    const baseUrl = `http://127.0.0.1:${port}`;
    gateway = spawn(process.execPath, [...GATEWAY_NODE_FLAGS, GATEWAY, 'serve'], {
      cwd: ROOT,
      env: gatewayEnv({
        HOST: '127.0.0.1',
        PORT: String(port),
        UPLOAD_PORT: String(uploadPort),
        UPLOAD_DIR: uploadDir,
        WEB_DIST: join(uploadDir, 'no-web'),
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (d) => (gatewayOutput = (gatewayOutput + d).slice(-20_000));
    gateway.stdout.on('data', keep);
    gateway.stderr.on('data', keep);
    started = performance.now();
    await waitUntilServing(baseUrl, gateway, () => gatewayOutput);
    log(`  gateway (pid ${gateway.pid}) serving on ${baseUrl} after ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const login = await post(baseUrl, '/api/user/login', { username: 'admin', password: PASSWORD });
    if (login.body?.code !== 200) throw new Error(`admin login failed: ${JSON.stringify(login.body)}`);
    const token = login.body.data.token;

    // Every body must answer exactly what the database holds, before any load.
    const groupIds = EXTRA_GROUPS.map(([name]) => groups.find((g) => g.group_name === name).id);
    const [shenzhen, hangzhou, maintenance, nightShift, auditors] = groupIds;
    const visitors = groups.find((g) => g.group_name === 'Visitors').id;
    const editors = groups.find((g) => g.group_name === 'Editors').id;
    const rotation = bodies([shenzhen, hangzhou, maintenance, nightShift, visitors, editors, auditors]);
    await withClient(databaseUrl(DB_NAME), async (client) => {
      for (const body of rotation) {
        const answer = await post(baseUrl, '/api/user/userPage', body, token);
        const want = await expected(client, body);
        const got = answer.body?.data;
        const ids = got?.list?.map((u) => u.id) ?? [];
        if (answer.status !== 200 || answer.body.code !== 200 || got.total !== want.total || JSON.stringify(ids) !== JSON.stringify(want.ids)) {
          throw new Error(
            `userPage answered ${JSON.stringify({ status: answer.status, code: answer.body?.code, total: got?.total, ids: ids.slice(0, 5) })} for ${JSON.stringify(body)}, expected total ${want.total}, ids ${JSON.stringify(want.ids.slice(0, 5))}`,
          );
        }
      }
    });
    log(`  ${rotation.length} request bodies checked: exact totals and pages`);

    const requests = rotation.map((body) => ({ method: 'POST', path: '/api/user/userPage', body: JSON.stringify(body) }));
    const common = {
      url: baseUrl,
      connections: settings.connections,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      requests,
      // A 200 carrying an error envelope is an error too.
      verifyBody: (body) => typeof body === 'string' && body.startsWith('{"code":200,'),
    };
    // What else is running on the machine skews the numbers: say how busy it is without any load from here.
    const idleFrom = machineTicks();
    await sleep(2000);
    const idleTo = machineTicks();
    const ambient = (100 * (idleTo.total - idleFrom.total - (idleTo.idle - idleFrom.idle))) / Math.max(1, idleTo.total - idleFrom.total);
    log(`  machine busy before the load: ${ambient.toFixed(0)} %${ambient > 15 ? ' (something else is running: expect lower numbers)' : ''}`);

    log(`Warm-up: ${settings.warmupSeconds} s, ${settings.connections} connections`);
    const warm = await cannon({ ...common, duration: settings.warmupSeconds });
    log(`  ${Math.round(warm.requests.average)} requests/s during warm-up`);

    log(`Measuring: ${settings.durationSeconds} s, ${settings.connections} connections, ${rotation.length} rotating bodies`);
    const before = cpuSnapshot(gateway.pid);
    const result = await cannon({ ...common, duration: settings.durationSeconds });
    const cpu = cpuBetween(before, cpuSnapshot(gateway.pid));

    const errors = result.errors + result.timeouts + result.non2xx + result.mismatches;
    const rps = result.requests.total / (result.duration || settings.durationSeconds);
    const lat = result.latency;
    const rows = [
      ['requests', result.requests.total.toLocaleString('en-US')],
      ['requests/s', rps.toFixed(0)],
      ['latency p50', `${lat.p50} ms`],
      ['latency p90', `${lat.p90} ms`],
      ['latency p99', `${lat.p99} ms`],
      ['latency max', `${lat.max} ms`],
      [
        'errors',
        `${errors} (connection ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}, error envelopes ${result.mismatches})`,
      ],
      ['gateway CPU', `${cpu.gateway.toFixed(0)} % of one core`],
      ['PostgreSQL CPU', `${cpu.postgres.toFixed(0)} % of one core`],
      ['load generator CPU', `${cpu.loadGenerator.toFixed(0)} % of one core`],
      ['machine busy', `${cpu.machineBusy.toFixed(0)} % of ${execFileSync('nproc').toString().trim()} cores`],
    ];
    log('');
    for (const [name, value] of rows) log(`  ${name.padEnd(20)} ${value}`);
    log('');
    log(
      `| ${rps.toFixed(0)} | ${lat.p50} | ${lat.p90} | ${lat.p99} | ${errors} | ${cpu.gateway.toFixed(0)} % | ${cpu.postgres.toFixed(0)} % | ${cpu.loadGenerator.toFixed(0)} % |`,
    );

    const missed = [];
    if (rps < settings.targetRps) missed.push(`${rps.toFixed(0)} requests/s is below ${settings.targetRps}`);
    if (!(lat.p99 < settings.targetP99Ms)) missed.push(`p99 ${lat.p99} ms is not under ${settings.targetP99Ms} ms`);
    if (errors > 0) missed.push(`${errors} request(s) failed`);
    if (gatewayOutput.includes('"level":50')) missed.push('the gateway logged errors');
    log('');
    if (missed.length) log(`TARGETS MISSED: ${missed.join('; ')}`);
    else log(`Targets met: >= ${settings.targetRps} requests/s, p99 < ${settings.targetP99Ms} ms, no errors`);
    process.exitCode = missed.length ? 1 : 0;
  } catch (err) {
    process.stderr.write(`\nBenchmark failed: ${err instanceof Error ? err.message : String(err)}\n`);
    if (gatewayOutput) process.stderr.write(`\nGateway output (last lines):\n${gatewayOutput.split('\n').slice(-30).join('\n')}\n`);
    process.exitCode = 2;
  } finally {
    await cleanup();
  }
}

await main();
