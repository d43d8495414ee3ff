// Fan-out: one command to LAMPS simulated lamps (50,000) through the real API, until every dispatch row is terminal;
// then start-up: the worker restarted with every lamp's state only in the broker (retained), until all are stored.
//
//   npx nest build gateway && npx nest build worker-lighting && npx nest build device-sim
//   npm run bench:lighting-fanout
//
// It creates a database of its own (sc_bench_fanout_<hex>), migrates it and loads the demo data with the built
// gateway, adds the lamps with SQL (codes B<HEX>-00001 …, in a region of their own), starts the gateway, the
// lighting worker and the device simulator (multiplexed: one MQTT connection per 50 lamps) as separate processes,
// each with this run's REDIS_PREFIX and intake group, waits until every lamp reported online, then sends RUNS
// commands one after another (on, off, dim 60, …) as admin with POST /api/light/lampControl {regionId} and polls
// the dispatch's rows every 100 ms until all are terminal. It prints a table, checks that every lamp applied each
// command exactly once, and removes everything it made (database, Redis keys, retained MQTT messages). Start-up: the
// worker is stopped, every lamp is marked offline in the database, and a new worker must read all the stored states.
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
  followDispatch,
  log,
  memoryLine,
  sendAttempts,
  sendAttemptsLine,
  withClient,
  workerCountersLine,
} from './support/platform.mjs';

const env = process.env;
const settings = {
  lamps: Number(env.LAMPS ?? 50_000),
  runs: Number(env.RUNS ?? 2),
  targetSeconds: Number(env.TARGET_SECONDS ?? 10),
  ackLatency: env.ACK_LATENCY ?? '50-300',
  lampsPerGateway: Number(env.LAMPS_PER_GATEWAY ?? 50),
};
const ACTIONS = [{ action: 'on' }, { action: 'off' }, { action: 'dim', level: 60 }];
async function main() {
  checkPrerequisites();
  const platform = new BenchPlatform('fanout');
  const results = [];
  const missed = [];
  try {
    log(
      `Fan-out: ${fmt(settings.lamps)} lamps, ${settings.runs} command(s), ack latency ${settings.ackLatency} ms, ${settings.lampsPerGateway} lamps per connection`,
    );
    let t = performance.now();
    await platform.createDatabase();
    const regionId = await platform.addLamps(settings.lamps);
    log(
      `  ${platform.dbName} ready with ${fmt(settings.lamps)} lamps (${platform.codePrefix}00001 …) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );

    const gateway = await platform.startGateway();
    const worker = await platform.startWorker();
    log(`  gateway pid ${gateway.pid} on ${platform.baseUrl}, worker pid ${worker.pid}, Redis prefix ${platform.redisPrefix}`);
    t = performance.now();
    const fleet = await platform.startFleet(settings.lamps, [
      '--telemetry-interval',
      '0',
      '--ack-latency',
      settings.ackLatency,
      '--lamps-per-gateway',
      String(settings.lampsPerGateway),
    ]);
    const online = await platform.waitOnline(settings.lamps);
    const startHealth = await platform.workerHealth();
    log(
      `  simulator pid ${fleet.pid}: ${fmt(settings.lamps)} lamps connected; ${fmt(online)} online in the database after ${((performance.now() - t) / 1000).toFixed(1)} s` +
        (online < settings.lamps
          ? ` (the other start-up states never reached the worker: worker received ${fmt(startHealth.counters.received)} messages)`
          : ''),
    );
    const ambient = await ambientLoad();
    log(`  machine busy before the load: ${ambient.toFixed(0)} %${ambient > 15 ? ' (something else is running: expect lower numbers)' : ''}`);

    const pids = { gateway: gateway.pid, worker: worker.pid, fleet: fleet.pid };
    for (let run = 1; run <= settings.runs; run++) {
      const command = ACTIONS[(run - 1) % ACTIONS.length];
      const before = cpuSnapshot(pids);
      const started = performance.now();
      const answer = await platform.post('/api/light/lampControl', { regionId, ...command });
      const apiMs = performance.now() - started;
      if (answer.body?.code !== 200) throw new Error(`lampControl answered ${answer.status} ${JSON.stringify(answer.body)}`);
      const { dispatchId } = answer.body.data;
      const followed = await withClient(platform.databaseUrl, (c) => followDispatch(c, dispatchId, settings.lamps, started));
      const cpu = cpuBetween(before, cpuSnapshot(pids));
      const seconds = followed.marks.allTerminal === null ? NaN : followed.marks.allTerminal / 1000;
      const result = { run, command, dispatchId, apiMs, ...followed, seconds, rate: settings.lamps / seconds, cpu };
      results.push(result);
      const c = followed.counts;
      log(
        `  run ${run} (${command.action}${command.level !== undefined ? ` ${command.level}` : ''}): API answered in ${apiMs.toFixed(0)} ms, ` +
          `first sent ${fmt(followed.marks.firstSent)} ms, all sent ${fmt(followed.marks.allSent)} ms, all terminal ${Number.isFinite(seconds) ? `${seconds.toFixed(2)} s` : 'NOT within 75 s'}` +
          ` → ${fmt(result.rate)} commands/s; delivered ${c.delivered ?? 0}, failed ${c.failed ?? 0}, expired ${c.expired ?? 0}, still open ${(c.queued ?? 0) + (c.sent ?? 0)}; batch ${followed.dispatch.status}`,
      );
      if (!(seconds <= settings.targetSeconds))
        missed.push(`run ${run}: ${Number.isFinite(seconds) ? `${seconds.toFixed(2)} s` : 'not terminal'} is over ${settings.targetSeconds} s`);
      if ((c.delivered ?? 0) !== settings.lamps) missed.push(`run ${run}: ${c.delivered ?? 0} of ${settings.lamps} delivered`);
      // Let the lamps' new retained states reach the database before the next command.
      await sleep(3000);
    }

    const memory = platform.memory();
    const health = await platform.workerHealth();

    // Start-up: a worker that starts while every lamp has long reported learns their states from the broker alone.
    await platform.stop('worker');
    await withClient(platform.databaseUrl, (c) => c.query(`UPDATE lamp SET network_status = 0, status = -5`));
    t = performance.now();
    await platform.startWorker();
    const restored = await platform.waitOnline(settings.lamps, 120_000);
    const startup = { seconds: (performance.now() - t) / 1000, restored };
    log(
      `  start-up: a new worker stored ${fmt(restored)} of ${fmt(settings.lamps)} stored (retained) lamp states in ${startup.seconds.toFixed(1)} s` +
        ` (process start included)`,
    );
    if (restored !== settings.lamps) missed.push(`start-up: ${fmt(settings.lamps - restored)} stored lamp states never reached the platform`);
    const fleetStats = await platform.stopFleet();
    const applied = await sendAttempts(platform.databaseUrl);
    // How long the answered rows took, from their (last) send to the stored ack: where re-sends come from.
    const ackTimes = await withClient(platform.databaseUrl, async (c) => {
      const { rows } = await c.query(
        `SELECT attempts = 1 AS first, count(*)::int AS n,
                percentile_cont(ARRAY[0.5, 0.9, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM updated_at - sent_at) * 1000) AS p
           FROM dispatch_item WHERE state = 'delivered' GROUP BY 1 ORDER BY 1 DESC`,
      );
      return rows;
    });
    const expectedApplied = results.reduce((n, r) => n + (r.counts.delivered ?? 0), 0);

    log('');
    log(
      `  | run | command | API ms | all sent ms | all terminal s | commands/s | delivered | gateway CPU | worker CPU | simulator CPU | PostgreSQL CPU | Mosquitto CPU |`,
    );
    for (const r of results) {
      log(
        `  | ${r.run} | ${r.command.action}${r.command.level !== undefined ? ` ${r.command.level}` : ''} | ${r.apiMs.toFixed(0)} | ${fmt(r.marks.allSent)} | ${r.seconds.toFixed(2)} | ${fmt(r.rate)} | ${r.counts.delivered ?? 0} | ` +
          `${r.cpu.gateway.toFixed(0)} % | ${r.cpu.worker.toFixed(0)} % | ${r.cpu.fleet.toFixed(0)} % | ${r.cpu.postgres.toFixed(0)} % | ${r.cpu.mosquitto.toFixed(0)} % |`,
      );
    }
    log('');
    log(sendAttemptsLine(applied));
    for (const a of ackTimes)
      log(
        `  send → stored ack (${a.first ? 'answered at the first send' : 'answered after a re-send, from the last send'}): ${fmt(a.n)} rows, ` +
          `p50 ${fmt(a.p[0])} ms, p90 ${fmt(a.p[1])} ms, p99 ${fmt(a.p[2])} ms`,
      );
    const perTenThousand = results.map((r) => ((r.seconds * 10_000) / settings.lamps).toFixed(2));
    log(`  cost per 10,000 lamps: ${perTenThousand.join(', ')} s (all terminal, divided by ${fmt(settings.lamps / 10_000)})`);
    log(
      `  simulator: ${fmt(fleetStats.commandsReceived)} commands received, ${fmt(fleetStats.commandsApplied)} applied, ${fmt(fleetStats.duplicatesIgnored)} redeliveries ignored, ` +
        `${fmt(fleetStats.acksSent)} acks, ${fmt(fleetStats.publishErrors)} publish errors`,
    );
    log(workerCountersLine(health.counters));
    log(memoryLine(memory));
    const resent = applied.filter((a) => a.attempts > 1).reduce((n, a) => n + a.n, 0);
    if (resent > 0) missed.push(`${fmt(resent)} row(s) needed a re-send (their acks were not stored within the ack time-out)`);
    if (fleetStats.commandsApplied !== expectedApplied)
      missed.push(`the lamps applied ${fleetStats.commandsApplied} commands, the ledger says ${expectedApplied} delivered`);
    platform.checkErrors(missed);
    finish(missed, `Target met: every run terminal within ${settings.targetSeconds} s, every command delivered and applied once`);
  } catch (err) {
    platform.reportFailure(err);
  } finally {
    await platform.cleanup();
  }
}

await main();
