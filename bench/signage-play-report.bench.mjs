// Proof-of-play reports over a large signage_play table: POST /api/signage/playReport and GET /api/signage/playExport
// against the built gateway, with PLAYS plays (1,000,000 by default) in a database of its own.
//
//   npx nest build gateway && node bench/signage-play-report.bench.mjs
//
// It creates the database sc_bench_plays_<hex>, migrates and seeds it with the built gateway, adds PLAYERS players in
// 10 groups over 4 regions and loads the plays with one statement: each player loops 8 ads of 30 s around the clock
// (the trigger keeps the hourly sums as the plays are stored, and the time it took is printed). Then it asks each kind
// of report (per ad, per player, per day, per all three) over the whole range, unfiltered and by a group, a region, a
// player and an ad, RUNS times each on one connection, and prints the median and the slowest; the same sums read from
// the plays themselves (what the reports would cost without the hourly table) are timed beside them; then the xlsx
// export of the largest report. It removes what it made. Only loopback addresses are contacted. See docs/benchmarks.md.
import { randomBytes } from 'node:crypto';
import { log } from './support/platform.mjs';
import { authHeaders, runPageBench } from './support/page-load.mjs';

const env = process.env;
const PLAYS = Number(env.PLAYS ?? 1_000_000);
const PLAYERS = Number(env.PLAYERS ?? 100);
const RUNS = Number(env.RUNS ?? 7);
const RUN = randomBytes(4).toString('hex');
const PER_PLAYER = Math.ceil(PLAYS / PLAYERS);
const DAYS = Math.ceil((PER_PLAYER * 30) / 86_400);
const START = '2026-11-01';
const END = `2026-11-${String(DAYS).padStart(2, '0')}`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(run) {
  const times = [];
  let answer;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    answer = await run();
    times.push(performance.now() - started);
  }
  return { median: median(times), max: Math.max(...times), answer };
}

await runPageBench({ dbName: `sc_bench_plays_${RUN}`, redisPrefix: `bench:plays:${RUN}:` }, async (bench) => {
  const ids = await bench.prepare(async (c) => {
    const [{ id: region }] = (await c.query(`INSERT INTO region (region_name) VALUES ('Bench city') RETURNING id`)).rows;
    await c.query(`INSERT INTO region (region_name, parent_id) SELECT 'Bench district ' || n, $1 FROM generate_series(1, 3) n`, [region]);
    await c.query(`INSERT INTO signage_group (name) SELECT 'Bench hall ' || n FROM generate_series(1, 10) n`);
    await c.query(
      `INSERT INTO signage_device (code, name, group_id, region_id)
       SELECT 'BENCH-' || n, 'Bench screen ' || n, (SELECT min(id) FROM signage_group) + n % 10,
              (SELECT id FROM region WHERE region_name = 'Bench district ' || (1 + n % 3))
         FROM generate_series(1, $1) n`,
      [PLAYERS],
    );
    const started = performance.now();
    await c.query(
      `INSERT INTO signage_play (device_id, plan_id, ad_id, started_at, seconds)
       SELECT d.id, 'bench-plan', 1 + n % 8, ($1::timestamp AT TIME ZONE $2) + n * interval '30 seconds', 30
         FROM signage_device d CROSS JOIN generate_series(0, $3 - 1) n WHERE d.code LIKE 'BENCH-%'`,
      [START, 'Asia/Shanghai', PER_PLAYER],
    );
    const loaded = performance.now() - started;
    await c.query(`VACUUM (ANALYZE) signage_play`);
    await c.query(`VACUUM (ANALYZE) signage_play_hourly`);
    const [counts] = (
      await c.query(
        `SELECT (SELECT count(*) FROM signage_play)::int AS plays, (SELECT count(*) FROM signage_play_hourly)::int AS hourly,
                (SELECT min(id) FROM signage_group) AS "groupId", (SELECT min(id) FROM signage_device WHERE code LIKE 'BENCH-%') AS "deviceId"`,
      )
    ).rows;
    log(`  ${counts.plays.toLocaleString('en-US')} plays of ${PLAYERS} players over ${DAYS} days stored in ${(loaded / 1000).toFixed(1)} s`);
    log(`  ${counts.hourly.toLocaleString('en-US')} hourly sums`);
    return { region, groupId: counts.groupId, deviceId: counts.deviceId };
  });
  await bench.serve();
  const filters = {
    none: {},
    group: { groupId: ids.groupId },
    region: { regionId: ids.region },
    player: { deviceId: ids.deviceId },
    ad: { adId: 3 },
  };
  log(`\n  report over ${START} … ${END}, ${RUNS} runs each: median / slowest (ms), lines`);
  for (const by of ['ad', 'device', 'day', 'detail']) {
    for (const [name, filter] of Object.entries(filters)) {
      const body = { pageNum: 1, pageSize: 20, startDate: START, endDate: END, by, ...filter };
      const r = await timed(async () => {
        const res = await fetch(`${bench.baseUrl}/api/signage/playReport`, {
          method: 'POST',
          headers: authHeaders(bench.token),
          body: JSON.stringify(body),
        });
        const json = await res.json();
        if (json.code !== 200) throw new Error(`${by}/${name}: ${json.message}`);
        return json.data;
      });
      log(
        `  ${by.padEnd(7)} ${name.padEnd(7)} ${r.median.toFixed(0).padStart(6)} / ${r.max.toFixed(0).padStart(6)}   ${r.answer.total} line(s), ${r.answer.totalPlays} plays`,
      );
    }
  }
  // The same sums from the plays themselves: what the reports cost without the hourly table.
  const raw = await timed(() =>
    fetch(`${bench.baseUrl}/api/health`).then(() =>
      import('pg').then(async ({ default: pg }) => {
        const c = new pg.Client({ connectionString: bench.databaseUrl });
        await c.connect();
        try {
          const started = performance.now();
          await c.query(
            `SELECT ad_id, count(*), sum(seconds) FROM signage_play
              WHERE started_at >= ($1::timestamp AT TIME ZONE 'Asia/Shanghai') AND started_at < (($2::date + 1)::timestamp AT TIME ZONE 'Asia/Shanghai')
              GROUP BY ad_id`,
            [START, END],
          );
          return performance.now() - started;
        } finally {
          await c.end();
        }
      }),
    ),
  );
  log(
    `  per ad from the plays themselves: the SQL alone ${raw.answer.toFixed(0)} ms (last run), with a new connection median ${raw.median.toFixed(0)} ms`,
  );
  const exported = await timed(async () => {
    const res = await fetch(`${bench.baseUrl}/api/signage/playExport?startDate=${START}&endDate=${END}&by=detail`, {
      headers: authHeaders(bench.token),
    });
    const bytes = (await res.arrayBuffer()).byteLength;
    if (res.status !== 200) throw new Error(`export: ${res.status}`);
    return bytes;
  });
  log(`  export per ad, player and day: median ${exported.median.toFixed(0)} ms, slowest ${exported.max.toFixed(0)} ms, ${exported.answer} bytes`);
});
