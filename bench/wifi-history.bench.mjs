// Filtered pages of the Wi-Fi session history (POST /api/wifi/terminalHistoryPage) against the built gateway, with a
// history of SESSIONS_PER_DAY sessions a day for DAYS days in a database of its own.
//
//   npx nest build gateway && node bench/wifi-history.bench.mjs      # 100,000 a day for 30 days by default
//
// It creates the database sc_bench_wifi_<hex>, migrates and seeds it with the built gateway, adds ACCESS_POINTS access
// points under ten controllers in the seeded regions, and writes the history with SQL (the month partitions first, the
// rows a day at a time, the secondary indexes built after). It starts the gateway on free loopback ports, checks each
// kind of filtered page against independent SQL (total and row ids), measures each kind alone on one connection, then
// runs autocannon over a rotation of them (BENCH_CONNECTIONS, BENCH_DURATION_SECONDS; short by default) and removes
// everything it made. It exits 1 when the p99 target (BENCH_TARGET_P99_MS, default 100) is missed, 2 when it could not
// run. Only loopback addresses are contacted. See docs/benchmarks.md.
import { randomBytes } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { log, withClient } from './support/platform.mjs';
import * as page from './support/page-load.mjs';

const env = process.env;
const settings = {
  perDay: Number(env.SESSIONS_PER_DAY ?? 100_000),
  days: Number(env.DAYS ?? 30),
  aps: Number(env.ACCESS_POINTS ?? 500),
  clients: Number(env.CLIENTS ?? 200_000),
  alone: Number(env.ALONE ?? 30),
  connections: Number(env.BENCH_CONNECTIONS ?? 10),
  warmupSeconds: Number(env.BENCH_WARMUP_SECONDS ?? 3),
  durationSeconds: Number(env.BENCH_DURATION_SECONDS ?? 10),
  targetP99Ms: Number(env.BENCH_TARGET_P99_MS ?? 100),
};
const RUN = randomBytes(4).toString('hex');
const DB_NAME = `sc_bench_wifi_${RUN}`;
const REDIS_PREFIX = `bench:wifi:${RUN}:`;
const PATH = '/api/wifi/terminalHistoryPage';
const DAY_MS = 86_400_000;
const SSIDS = ['SmartCity-Free', 'SmartCity-Gov', 'SmartCity-IoT'];
/** The history page counts up to this many sessions, then answers "more than" (WIFI_HISTORY_COUNT_CAP). */
const COUNT_CAP = 10_000;

/** The history's time: it ends now and goes back `days` days. */
const NOW = Date.now();
const iso = (ms) => new Date(ms).toISOString();

/** Access points under ten controllers, in the seeded regions; then the history, a day at a time. */
async function load(client) {
  const regions = (await client.query(`SELECT id FROM region ORDER BY id`)).rows.map((r) => r.id);
  const acs = (
    await client.query(
      `INSERT INTO device (type, code, name, region_id) SELECT 8, 'BAC-' || i, 'Bench AC ' || i, ($1::int[])[1 + i % cardinality($1::int[])]
         FROM generate_series(1, 10) i RETURNING id`,
      [regions],
    )
  ).rows.map((r) => r.id);
  await client.query(
    `INSERT INTO wifi_ac (device_id, dev_mac) SELECT id, '58:2A:F7:F0:00:' || lpad(upper(to_hex(n::int)), 2, '0') FROM unnest($1::int[]) WITH ORDINALITY AS t(id, n)`,
    [acs],
  );
  const aps = (
    await client.query(
      `INSERT INTO device (type, code, name, region_id) SELECT 6, 'BAP-' || i, 'Bench AP ' || i, ($1::int[])[1 + i % cardinality($1::int[])]
         FROM generate_series(1, $2::int) i RETURNING id`,
      [regions, settings.aps],
    )
  ).rows.map((r) => r.id);
  await client.query(
    `INSERT INTO wifi_ap (device_id, dev_mac, ac_id)
     SELECT id, '58:2A:F7:F1:' || lpad(upper(to_hex((n / 256)::int)), 2, '0') || ':' || lpad(upper(to_hex((n % 256)::int)), 2, '0'), ($2::int[])[1 + n % 10]
       FROM unnest($1::int[]) WITH ORDINALITY AS t(id, n)`,
    [aps, acs],
  );
  for (let d = settings.days; d >= -1; d -= 28) await client.query(`SELECT wifi_session_ensure_month($1)`, [iso(NOW - d * DAY_MS)]);
  await client.query(`SELECT wifi_session_ensure_month($1)`, [iso(NOW)]);
  // Rows first, indexes after: the way a bulk load is fastest (the worker writes with the indexes in place).
  const indexes = (
    await client.query(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'wifi_session' AND indexname <> 'wifi_session_pkey'`)
  ).rows;
  await client.query(`DROP INDEX ${indexes.map((i) => i.indexname).join(', ')}`);
  const started = performance.now();
  for (let day = 0; day < settings.days; day++) {
    const end = NOW - day * DAY_MS;
    await client.query(
      `INSERT INTO wifi_session (ap_id, ac_id, region_id, client_mac, client_ip, client_ssid, signal_strength, on_line_date, off_line_date, duration)
       SELECT ap.device_id, ap.ac_id, d.region_id,
              '02:00:' || lpad(upper(to_hex((c >> 16) & 255)), 2, '0') || ':' || lpad(upper(to_hex((c >> 8) & 255)), 2, '0') || ':'
                || lpad(upper(to_hex(c & 255)), 2, '0') || ':01',
              '10.' || (c % 200) || '.' || ((c >> 8) % 250) || '.' || (c % 250 + 2),
              ($2::text[])[1 + g % 3], -35 - (h % 55),
              off - make_interval(secs => dur), off, dur
         FROM (SELECT g, (g * 7919) % $5 AS c, (g * 2654435761) % 1000003 AS h,
                      to_timestamp($3 / 1000.0) - make_interval(secs => (g::float8 * 86400 / $4)) AS off,
                      (30 + (g * 48271) % 5400)::int AS dur
                 FROM generate_series(0::bigint, $4 - 1) g) s
         JOIN wifi_ap ap ON ap.device_id = ($1::int[])[1 + (h % cardinality($1::int[]))] JOIN device d ON d.id = ap.device_id`,
      [aps, SSIDS, end, settings.perDay, settings.clients],
    );
    if (day % 10 === 9) log(`  ${((day + 1) * settings.perDay).toLocaleString('en-US')} sessions written (${page.secondsSince(started)} s)`);
  }
  // pg_indexes writes a partitioned table's index as `ON ONLY` (the parent alone): made again here on every partition.
  for (const index of indexes) await client.query(index.indexdef.replace(' ON ONLY ', ' ON '));
  // As autovacuum leaves a month that is no longer written: its pages all visible, so counts read the indexes only.
  await client.query(`VACUUM (ANALYZE) wifi_session`);
  log(`  history and indexes ready in ${page.secondsSince(started)} s`);
  const mac = (await client.query(`SELECT client_mac FROM wifi_session WHERE off_line_date > now() - interval '1 day' LIMIT 1`)).rows[0].client_mac;
  const region = (await client.query(`SELECT region_id FROM device WHERE id = $1`, [aps[0]])).rows[0].region_id;
  return { aps, acs, mac, region };
}

/** The kinds of filtered page operators open, each with its window. */
function bodies({ aps, acs, mac, region }) {
  const day = (back, days = 1) => ({ from: iso(NOW - (back + days) * DAY_MS), to: iso(NOW - back * DAY_MS + 60_000) });
  return [
    ['last day, no filter', { ...day(0), pageNum: 1, pageSize: 20 }],
    ['last day, one access point', { ...day(0), apId: aps[7], pageNum: 1, pageSize: 20 }],
    ['last 7 days, one controller', { ...day(0, 7), acId: acs[3], pageNum: 1, pageSize: 20 }],
    ['a day 10 days ago, one SSID', { ...day(10), clientSsid: SSIDS[1], pageNum: 1, pageSize: 50 }],
    ['30 days, one client (its MAC)', { ...day(0, settings.days), client: mac, pageNum: 1, pageSize: 20 }],
    ['last day, a region', { ...day(0), regionId: region, pageNum: 1, pageSize: 20 }],
    ['last day, an IP from its start', { ...day(0), client: '10.42.', pageNum: 1, pageSize: 20 }],
    ['7 days, a MAC from its start', { ...day(0, 7), client: mac.slice(0, 11).toLowerCase(), pageNum: 1, pageSize: 20 }],
    ['last day, page 50', { ...day(0), pageNum: 50, pageSize: 20 }],
    ['last day, at least 30 minutes', { ...day(0), minDuration: 1800, pageNum: 1, pageSize: 20 }],
  ];
}

/** What a page must answer, by independent SQL: the total and the ids (bigint, as text) of the page. */
async function expected(client, body) {
  const f = page.sqlFilter();
  f.add(`off_line_date >= ?`, body.from);
  f.add(`off_line_date < ?`, body.to);
  if (body.apId) f.add(`ap_id = ?`, body.apId);
  if (body.acId) f.add(`ap_id IN (SELECT device_id FROM wifi_ap WHERE ac_id = ?)`, body.acId);
  if (body.clientSsid) f.add(`client_ssid = ?`, body.clientSsid);
  if (body.client) f.add(`(starts_with(client_mac, upper(?)) OR starts_with(client_ip, lower(?)))`, body.client);
  if (body.regionId)
    f.add(
      `ap_id IN (SELECT id FROM device WHERE type = 6 AND region_id IN (WITH RECURSIVE below AS (SELECT id FROM region WHERE id = ?
         UNION ALL SELECT r.id FROM region r JOIN below b ON r.parent_id = b.id) SELECT id FROM below))`,
      body.regionId,
    );
  if (body.minDuration) f.add(`duration >= ?`, body.minDuration);
  const want = await page.referencePage(client, { from: 'wifi_session', id: 'id', order: 'off_line_date DESC, id DESC' }, f, body);
  // The count stops at the cap, or at the end of the page asked for when that lies further.
  const bound = Math.max(COUNT_CAP, body.pageNum * body.pageSize);
  return { ...want, exact: want.total, total: Math.min(want.total, bound), capped: want.total > bound };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

await page.runPageBench({ dbName: DB_NAME, redisPrefix: REDIS_PREFIX }, async (bench) => {
  const total = settings.perDay * settings.days;
  log(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB`);
  log(
    `Preparing ${DB_NAME}: ${settings.aps} access points, ${total.toLocaleString('en-US')} sessions (${settings.perDay.toLocaleString('en-US')} a day for ${settings.days} days)`,
  );
  const started = performance.now();
  const data = await bench.prepare(load);
  log(`  database ready in ${page.secondsSince(started)} s`);
  const gateway = await bench.serve();
  const kinds = bodies(data);

  // Each kind answers exactly what the database holds, before any load.
  const matching = new Map();
  await withClient(bench.databaseUrl, async (client) => {
    for (const [name, body] of kinds) {
      const want = await expected(client, body);
      const got = page.checkPage(name, body, await bench.post(PATH, body), want);
      if (Boolean(got.totalCapped) !== want.capped) throw new Error(`${name}: totalCapped ${got.totalCapped}, expected ${want.capped}`);
      matching.set(name, want.exact);
      log(
        `  checked: ${name} (${want.exact.toLocaleString('en-US')} sessions${want.capped ? `, counted to ${want.total.toLocaleString('en-US')}` : ''})`,
      );
    }
  });

  log('');
  log(`Each kind alone, one connection, ${settings.alone} requests:`);
  log('| page | sessions in it | p50 ms | p99 ms |');
  log('| --- | ---: | ---: | ---: |');
  for (const [name, body] of kinds) {
    const times = [];
    for (let i = 0; i < settings.alone; i++) {
      const t0 = performance.now();
      await bench.post(PATH, body);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    log(`| ${name} | ${matching.get(name).toLocaleString('en-US')} | ${pct(times, 50).toFixed(1)} | ${pct(times, 99).toFixed(1)} |`);
  }

  const requests = kinds.map(([, body]) => ({ method: 'POST', path: PATH, body: JSON.stringify(body) }));
  const common = { ...page.loadOptions(bench, settings.connections), requests };
  await page.logAmbientLoad();
  log(`Warm-up: ${settings.warmupSeconds} s`);
  await page.cannon({ ...common, duration: settings.warmupSeconds });
  log(`Measuring: ${settings.durationSeconds} s, ${settings.connections} connections, the ${kinds.length} kinds in rotation`);
  const m = await page.measuredRun(gateway.pid, { ...common, duration: settings.durationSeconds });
  log('');
  page.logRows(page.resultRows(m, `${m.cpu.postgres.toFixed(0)} % of one core`));
  const missed = [];
  if (!(m.result.latency.p99 < settings.targetP99Ms)) missed.push(`p99 ${m.result.latency.p99} ms is not under ${settings.targetP99Ms} ms`);
  if (m.errors > 0) missed.push(`${m.errors} request(s) failed`);
  log('');
  log(
    missed.length
      ? `TARGETS MISSED: ${missed.join('; ')}`
      : `Target met: p99 < ${settings.targetP99Ms} ms under ${settings.connections} connections, no errors`,
  );
  process.exitCode = missed.length ? 1 : 0;
});
