// Load test of POST /api/user/userPage against the built gateway, with 100,000 users in a database of its own.
//
//   npx nest build gateway && npm run bench:user-page
//
// It creates the database sc_bench (dropping any left over), migrates and seeds it with the built gateway,
// loads the users with SQL, starts the gateway on free loopback ports with a Redis prefix of its own, checks
// that every request body of the rotation answers the exact total, runs autocannon (warm-up, then the measured
// run), prints the results and removes everything it made. It exits 1 when a target is missed.
// Only loopback addresses are ever contacted. See docs/benchmarks.md.
import { randomBytes } from 'node:crypto';
import { log, withClient } from './support/platform.mjs';
import * as page from './support/page-load.mjs';

// BENCH_CONNECTIONS, BENCH_WARMUP_SECONDS, BENCH_DURATION_SECONDS, BENCH_TARGET_RPS, BENCH_TARGET_P99_MS: see pageSettings in support/page-load.mjs.
const settings = {
  users: Number(process.env.BENCH_USERS ?? 100_000),
  ...page.pageSettings,
};
const DB_NAME = 'sc_bench';
const REDIS_PREFIX = `bench:${randomBytes(4).toString('hex')}:`;
const CITIES = ['shenzhen', 'hangzhou', 'guangzhou', 'shanghai', 'beijing', 'chengdu', 'wuhan', 'nanjing', 'xian', 'suzhou', 'tianjin', 'chongqing'];

// ---------------------------------------------------------------------------------------------------------------
// Data

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
  const filter = page.sqlFilter();
  if (body.username) filter.add(`strpos(lower(username), ?) > 0`, body.username.trim().toLowerCase());
  if (body.groupId !== undefined) filter.add(`group_id = ?`, body.groupId);
  if (body.enabled !== undefined) filter.add(`enabled = ?`, body.enabled);
  if (body.lastLoginFrom) filter.add(`last_login_at >= ?`, body.lastLoginFrom);
  if (body.lastLoginTo) filter.add(`last_login_at <= ?`, body.lastLoginTo);
  return page.referencePage(client, { from: 'sys_user', id: 'id', order: 'id DESC' }, filter, body);
}

await page.runPageBench({ dbName: DB_NAME, redisPrefix: REDIS_PREFIX }, async (bench) => {
  log(`Preparing ${DB_NAME} with ${settings.users.toLocaleString('en-US')} users`);
  const started = performance.now();
  const groups = await bench.prepare(loadUsers);
  log(`  database ready in ${page.secondsSince(started)} s`);
  const gateway = await bench.serve();

  // Every body must answer exactly what the database holds, before any load.
  const groupIds = EXTRA_GROUPS.map(([name]) => groups.find((g) => g.group_name === name).id);
  const [shenzhen, hangzhou, maintenance, nightShift, auditors] = groupIds;
  const visitors = groups.find((g) => g.group_name === 'Visitors').id;
  const editors = groups.find((g) => g.group_name === 'Editors').id;
  const rotation = bodies([shenzhen, hangzhou, maintenance, nightShift, visitors, editors, auditors]);
  await withClient(bench.databaseUrl, async (client) => {
    for (const body of rotation) page.checkPage('userPage', body, await bench.post('/api/user/userPage', body), await expected(client, body));
  });
  log(`  ${rotation.length} request bodies checked: exact totals and pages`);

  const requests = rotation.map((body) => ({ method: 'POST', path: '/api/user/userPage', body: JSON.stringify(body) }));
  const common = { ...page.loadOptions(bench, settings.connections), requests };
  await page.logAmbientLoad();
  await page.warmUp(common);

  log(`Measuring: ${settings.durationSeconds} s, ${settings.connections} connections, ${rotation.length} rotating bodies`);
  const m = await page.measuredRun(gateway.pid, { ...common, duration: settings.durationSeconds });
  const { cpu } = m;
  const lat = m.result.latency;
  log('');
  page.logRows(page.resultRows(m, `${cpu.postgres.toFixed(0)} % of one core`));
  log('');
  log(
    `| ${m.rps.toFixed(0)} | ${lat.p50} | ${lat.p90} | ${lat.p99} | ${m.errors} | ${cpu.gateway.toFixed(0)} % | ${cpu.postgres.toFixed(0)} % | ${cpu.loadGenerator.toFixed(0)} % |`,
  );
  page.verdict(bench, m);
});
