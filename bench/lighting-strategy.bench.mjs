// Strategy distribution: a lighting strategy sent to 10,000 simulated lamps through the real API and ledger, until
// every dispatch row is terminal, and then until every lamp runs it.
//
//   npx nest build gateway && npx nest build worker-lighting && npx nest build device-sim
//   node bench/lighting-strategy.bench.mjs
//
// Like bench/lighting-fanout.bench.mjs: a database of its own (sc_bench_strategy_<hex>), the lamps added with SQL in a
// region of their own (given a position and a time zone), the gateway, the lighting worker and the device simulator
// (multiplexed) as separate processes. It saves a week strategy whose one period runs noon to noon at 60 % (so every
// lamp must be at 60 % whatever the clock says), then RUNS times: POST /api/light/strategyDistribute {id, regionId},
// polling the dispatch's rows every 100 ms until all are terminal, then the lamp rows until every lamp reported 60 %
// and status -4. Each command carries the lamp's own compiled schedule (a per-row parameter of the ledger).
// Exit 1 when a target is missed, 2 when it could not run. See docs/benchmarks.md.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BenchPlatform,
  ambientLoad,
  checkPrerequisites,
  cpuBetween,
  cpuSnapshot,
  finish,
  fmt,
  log,
  memoryLine,
  withClient,
} from './support/platform.mjs';

const env = process.env;
const settings = {
  lamps: Number(env.LAMPS ?? 10_000),
  runs: Number(env.RUNS ?? 2),
  targetSeconds: Number(env.TARGET_SECONDS ?? 15),
  ackLatency: env.ACK_LATENCY ?? '50-300',
  lampsPerGateway: Number(env.LAMPS_PER_GATEWAY ?? 50),
};
const TERMINAL = ['delivered', 'failed', 'expired'];
const LEVEL = 60;

async function countWhere(platform, condition, params = []) {
  return withClient(platform.databaseUrl, async (c) => {
    const { rows } = await c.query(
      `SELECT count(*)::int AS n FROM lamp l JOIN device d ON d.id = l.device_id WHERE d.code LIKE $1 AND ${condition}`,
      [`${platform.codePrefix}%`, ...params],
    );
    return rows[0].n;
  });
}

/** Polls the rows every 100 ms: when all were sent and all terminal; then when every lamp reported the schedule's level. */
async function follow(platform, client, dispatchId, strategyId, total, started) {
  const marks = { allSent: null, allTerminal: null, allRunning: null };
  let counts = {};
  const deadline = started + 75_000;
  while (performance.now() < deadline) {
    const { rows } = await client.query(`SELECT state, count(*)::int AS n FROM dispatch_item WHERE dispatch_id = $1 GROUP BY state`, [dispatchId]);
    const now = performance.now() - started;
    counts = Object.fromEntries(rows.map((r) => [r.state, r.n]));
    if (marks.allSent === null && (counts.queued ?? 0) === 0) marks.allSent = now;
    if (TERMINAL.reduce((n, s) => n + (counts[s] ?? 0), 0) === total) {
      marks.allTerminal = now;
      break;
    }
    await sleep(100);
  }
  let running = 0;
  while (performance.now() < deadline) {
    running = await countWhere(platform, `l.strategy_id = $2 AND l.status = -4 AND l.switch_state = 1 AND l.bri = $3`, [strategyId, LEVEL]);
    if (running === total) {
      marks.allRunning = performance.now() - started;
      break;
    }
    await sleep(100);
  }
  return { marks, counts, running };
}

async function main() {
  checkPrerequisites();
  const platform = new BenchPlatform('strategy');
  const results = [];
  const missed = [];
  try {
    log(
      `Strategy distribution: ${fmt(settings.lamps)} lamps, ${settings.runs} run(s), ack latency ${settings.ackLatency} ms, ${settings.lampsPerGateway} lamps per connection`,
    );
    await platform.createDatabase();
    const regionId = await platform.addLamps(settings.lamps);
    await withClient(platform.databaseUrl, (c) =>
      c.query(`UPDATE region SET latitude = 22.54, longitude = 114.06, time_zone = 'Asia/Shanghai' WHERE id = $1`, [regionId]),
    );
    const gateway = await platform.startGateway();
    const worker = await platform.startWorker();
    const fleet = await platform.startFleet(settings.lamps, [
      '--telemetry-interval',
      '0',
      '--ack-latency',
      settings.ackLatency,
      '--lamps-per-gateway',
      String(settings.lampsPerGateway),
    ]);
    const online = await platform.waitOnline(settings.lamps);
    log(
      `  ${platform.dbName}: ${fmt(online)} of ${fmt(settings.lamps)} lamps online; gateway pid ${gateway.pid}, worker pid ${worker.pid}, simulator pid ${fleet.pid}`,
    );
    const ambient = await ambientLoad();
    log(`  machine busy before the load: ${ambient.toFixed(0)} %${ambient > 15 ? ' (something else is running: expect lower numbers)' : ''}`);

    const saved = await platform.post('/api/light/strategyAddOrEdit', {
      name: 'Bench all day',
      mode: 2,
      modeData: { weekdays: [] },
      periods: [{ start: '12:00', end: '12:00', level: LEVEL }],
    });
    if (saved.body?.code !== 200) throw new Error(`strategyAddOrEdit answered ${saved.status} ${JSON.stringify(saved.body)}`);
    const strategyId = saved.body.data.id;

    const pids = { gateway: gateway.pid, worker: worker.pid, fleet: fleet.pid };
    for (let run = 1; run <= settings.runs; run++) {
      const before = cpuSnapshot(pids);
      const started = performance.now();
      const answer = await platform.post('/api/light/strategyDistribute', { id: strategyId, regionId });
      const apiMs = performance.now() - started;
      if (answer.body?.code !== 200) throw new Error(`strategyDistribute answered ${answer.status} ${JSON.stringify(answer.body)}`);
      const { dispatchId } = answer.body.data;
      const followed = await withClient(platform.databaseUrl, (c) => follow(platform, c, dispatchId, strategyId, settings.lamps, started));
      const cpu = cpuBetween(before, cpuSnapshot(pids));
      const seconds = followed.marks.allTerminal === null ? NaN : followed.marks.allTerminal / 1000;
      results.push({ run, apiMs, ...followed, seconds, cpu });
      const c = followed.counts;
      log(
        `  run ${run}: API answered in ${apiMs.toFixed(0)} ms, all sent ${fmt(followed.marks.allSent)} ms, all terminal ${Number.isFinite(seconds) ? `${seconds.toFixed(2)} s` : 'NOT within 75 s'}, ` +
          `every lamp reported its schedule's ${LEVEL} % at ${followed.marks.allRunning === null ? `NOT (${fmt(followed.running)})` : `${(followed.marks.allRunning / 1000).toFixed(2)} s`}; ` +
          `delivered ${c.delivered ?? 0}, failed ${c.failed ?? 0}, expired ${c.expired ?? 0}`,
      );
      if (!(seconds <= settings.targetSeconds))
        missed.push(`run ${run}: ${Number.isFinite(seconds) ? `${seconds.toFixed(2)} s` : 'not terminal'} is over ${settings.targetSeconds} s`);
      if ((c.delivered ?? 0) !== settings.lamps) missed.push(`run ${run}: ${c.delivered ?? 0} of ${settings.lamps} delivered`);
      if (followed.marks.allRunning === null) missed.push(`run ${run}: ${followed.running} of ${settings.lamps} lamps run the schedule`);
      await sleep(2000);
    }

    const memory = platform.memory();
    const fleetStats = await platform.stopFleet();
    log('');
    log(
      `  | run | API ms | all sent ms | all terminal s | all running s | delivered | gateway CPU | worker CPU | simulator CPU | PostgreSQL CPU | Mosquitto CPU |`,
    );
    for (const r of results) {
      log(
        `  | ${r.run} | ${r.apiMs.toFixed(0)} | ${fmt(r.marks.allSent)} | ${r.seconds.toFixed(2)} | ${r.marks.allRunning === null ? '—' : (r.marks.allRunning / 1000).toFixed(2)} | ${r.counts.delivered ?? 0} | ` +
          `${r.cpu.gateway.toFixed(0)} % | ${r.cpu.worker.toFixed(0)} % | ${r.cpu.fleet.toFixed(0)} % | ${r.cpu.postgres.toFixed(0)} % | ${r.cpu.mosquitto.toFixed(0)} % |`,
      );
    }
    log('');
    log(
      `  simulator: ${fmt(fleetStats.commandsReceived)} commands received, ${fmt(fleetStats.commandsApplied)} applied, ${fmt(fleetStats.commandsRejected)} rejected`,
    );
    log(memoryLine(memory));
    platform.checkErrors(missed);
    finish(missed, `Target met: every run terminal within ${settings.targetSeconds} s, every lamp running the schedule`);
  } catch (err) {
    platform.reportFailure(err);
  } finally {
    await platform.cleanup();
  }
}

await main();
