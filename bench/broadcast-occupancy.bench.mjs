// Occupancy push latency: TERMINALS simulated broadcast terminals (10,000) start and end programmes and calls by
// themselves at RATE changes per second over the fleet, and a socket.io client logged in as admin (the console's live
// terminal list) measures the time from each change's report on the terminal to its arrival in the browser, through
// the real path: terminal → MQTT broker → broadcast worker (stored, then announced) → Redis pub/sub → gateway (one
// push frame per family per 50 ms) → socket.io. Target: p99 under 150 ms, nothing lost. Then a rate sweep finds where
// p99 crosses the target.
//
//   npx nest build gateway && npx nest build worker-broadcast && npx nest build device-sim
//   npm run bench:broadcast-occupancy               # TERMINALS=1000 DURATION=20 SWEEP=200,400 for a short run
//
// It creates a database of its own (sc_bench_boccupancy_<hex>) with the terminals (codes B<HEX>-00001 …), starts the
// gateway, the broadcast worker and the simulator (`--family broadcast --control-stdin`: every terminal on a
// connection of its own; the benchmark sets the activity rate through the simulator's standard input), and measures
// windows: a warm-up, the main window (RATE for DURATION s), then each rate of SWEEP for STEP s (longer where needed for every terminal to take a turn) until p99 reaches the
// target. Each window is followed by SETTLE s without activity, so what it sent has arrived before the next one.
//
// The report time is the terminal's own: a terminal that starts something reports `playing.since`, set when it starts
// and publishes (the simulator's clock is this machine's). A terminal that ends something reports no time, so those
// changes are counted but not timed. Per window: changes sent (the simulator's count of states the broker took after
// a change of the terminal's own) against occupancy changes received on the socket; a plain MQTT subscriber to 50
// terminals measures the simulator + broker leg alone. At the end, each terminal's last occupancy seen on the socket
// must be the one stored. It removes everything it made (database, Redis keys, retained MQTT messages) and exits 1
// when a target is missed (the main window's p99 or any loss), 2 when it could not run. See docs/benchmarks.md.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BenchPlatform,
  ambientLoad,
  checkOpenFiles,
  checkPrerequisites,
  cpuBetween,
  cpuSnapshot,
  finish,
  fmt,
  log,
  memoryLine,
  percentile,
  processMemory,
  withClient,
} from './support/platform.mjs';

const env = process.env;
const list = (text) =>
  String(text)
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isFinite(n) && n > 0);
const settings = {
  terminals: Number(env.TERMINALS ?? 10_000),
  rate: Number(env.RATE ?? 500),
  durationSeconds: Number(env.DURATION ?? 60),
  warmupSeconds: Number(env.WARMUP ?? 5),
  sweep: env.SWEEP === '0' ? [] : list(env.SWEEP ?? '250,500,1000,2000,4000,8000'),
  stepSeconds: Number(env.STEP ?? 20),
  /** OVERLOAD=1: every rate of SWEEP, past the one where p99 crosses the target (overload: nothing lost, memory bounded). */
  pastTarget: env.OVERLOAD === '1',
  settleSeconds: Number(env.SETTLE ?? 3),
  targetP99Ms: Number(env.TARGET_P99_MS ?? 150),
  connectTimeoutSeconds: Number(env.CONNECT_TIMEOUT_SECONDS ?? 300),
};
const PROBED = 50;

/** The console's view (the terminal list): every occupancy change of this run's terminals goes to the open window. */
function watchTerminals(platform, state) {
  return platform.watchDeviceStates((frame, received) => {
    for (const change of frame.changes) {
      if (!change.deviceCode.startsWith(platform.codePrefix)) continue;
      const occupancy = change.changed?.occupancy;
      if (occupancy === undefined) continue;
      state.lastSeen.set(change.deviceCode, occupancy);
      const window = state.window;
      if (!window) {
        state.outside++;
        continue;
      }
      window.received++;
      const since = change.changed.playing?.since;
      if (occupancy !== 'idle' && since) window.latencies.push(received - Date.parse(since));
    }
  });
}

/**
 * The simulator + broker leg alone: a plain subscriber (the broadcast worker's account, which may read terminal
 * states) to the first PROBED terminals, timing each start from its `since` to arrival here.
 */
async function brokerProbe(platform, state) {
  // A heartbeat repeats the state with the start it had: only a start not seen before is timed.
  const seen = new Map();
  const codes = Array.from({ length: Math.min(PROBED, settings.terminals) }, (_, i) => platform.code(i + 1));
  return platform.subscribeDevices('worker-broadcast', codes, 'state', (code, payload, received) => {
    if (payload.length === 0) return;
    try {
      const since = JSON.parse(payload.toString()).playing?.since;
      if (!since || seen.get(code) === since) return;
      seen.set(code, since);
      state.window?.probe.push(received - Date.parse(since));
    } catch {
      // not a state
    }
  });
}

/** One window: `rate` changes per second for `seconds`, then SETTLE s without any; answers its figures. */
async function measure(platform, state, pids, label, rate, seconds) {
  const window = { label, rate, received: 0, latencies: [], probe: [] };
  const started = await platform.fleetCommand(`activity ${rate}`);
  state.window = window;
  const before = cpuSnapshot(pids);
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const stopped = await platform.fleetCommand('activity 0');
  const activeSeconds = (performance.now() - t0) / 1000;
  const cpu = cpuBetween(before, cpuSnapshot(pids));
  await sleep(settings.settleSeconds * 1000);
  // Counted when the broker took them: read again once the last publishes have been answered.
  const settled = await platform.fleetCommand('activity 0');
  state.window = null;
  const sorted = window.latencies.sort((a, b) => a - b);
  const probe = window.probe.sort((a, b) => a - b);
  const sent = settled.changesSent - started.changesSent;
  const result = {
    label,
    rate,
    seconds: activeSeconds,
    sent,
    sentRate: (stopped.changesSent - started.changesSent) / activeSeconds,
    received: window.received,
    lost: sent - window.received,
    timed: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1),
    probeP50: percentile(probe, 50),
    probeP99: percentile(probe, 99),
    cpu,
  };
  log(
    `  ${label.padEnd(9)} ${fmt(rate)}/s offered, ${fmt(result.sentRate)}/s sent: ${fmt(sent)} changes sent, ${fmt(result.received)} received` +
      `${result.lost !== 0 ? ` (${fmt(result.lost)} missing)` : ''}; ${fmt(result.timed)} starts timed: p50 ${fmt(result.p50)} ms, p90 ${fmt(result.p90)} ms, ` +
      `p99 ${fmt(result.p99)} ms, max ${fmt(result.max)} ms; broker leg p50 ${fmt(result.probeP50)} ms p99 ${fmt(result.probeP99)} ms; ` +
      `CPU gateway ${cpu.gateway.toFixed(0)} %, worker ${cpu.worker.toFixed(0)} %, simulator ${cpu.fleet.toFixed(0)} %, PostgreSQL ${cpu.postgres.toFixed(0)} %, Mosquitto ${cpu.mosquitto.toFixed(0)} %, machine ${cpu.machineBusy.toFixed(0)} % busy`,
  );
  return result;
}

/** Terminals whose last occupancy on the socket is not the one stored (a change that never reached the browser). */
async function divergent(platform, lastSeen) {
  return withClient(platform.databaseUrl, async (c) => {
    const { rows } = await c.query(`SELECT d.code, t.occupancy FROM broadcast_terminal t JOIN device d ON d.id = t.device_id WHERE d.code LIKE $1`, [
      `${platform.codePrefix}%`,
    ]);
    return rows.filter((r) => (lastSeen.get(r.code) ?? 'idle') !== r.occupancy).map((r) => r.code);
  });
}

async function main() {
  checkPrerequisites('broadcast');
  checkOpenFiles(settings.terminals + 1000, `${fmt(settings.terminals)} terminals`);
  const platform = new BenchPlatform('boccupancy', { family: 'broadcast' });
  const missed = [];
  const state = { window: null, outside: 0, lastSeen: new Map() };
  let socket = null;
  let probe = null;
  try {
    log(
      `Occupancy push latency: ${fmt(settings.terminals)} terminals, ${fmt(settings.rate)} changes/s for ${settings.durationSeconds} s (warm-up ${settings.warmupSeconds} s), ` +
        `then a sweep over ${settings.sweep.map((r) => fmt(r)).join(', ') || 'no rates'} changes/s for ${settings.stepSeconds} s each; target p99 < ${settings.targetP99Ms} ms`,
    );
    const { gateway, worker } = await platform.prepare(settings.terminals, 'terminals');
    socket = await watchTerminals(platform, state);
    let t = performance.now();
    const fleet = await platform.startFleet(settings.terminals, [], { timeoutMs: settings.connectTimeoutSeconds * 1000, control: true });
    const online = await platform.waitOnline(settings.terminals, 120_000);
    log(
      `  simulator pid ${fleet.pid}: ${fmt(settings.terminals)} terminals connected (one MQTT connection each), ${fmt(online)} online in the database after ` +
        `${((performance.now() - t) / 1000).toFixed(1)} s; simulator RSS ${processMemory(fleet.pid).rssMb.toFixed(0)} MB`,
    );
    if (online < settings.terminals) missed.push(`start-up: only ${fmt(online)} of ${fmt(settings.terminals)} terminals online`);
    probe = await brokerProbe(platform, state);
    const ambient = await ambientLoad();
    log(`  machine busy before the load: ${ambient.toFixed(0)} %${ambient > 15 ? ' (something else is running: expect lower numbers)' : ''}`);

    const pids = { gateway: gateway.pid, worker: worker.pid, fleet: fleet.pid };
    if (settings.warmupSeconds > 0) await measure(platform, state, pids, 'warm-up', settings.rate, settings.warmupSeconds);
    const main = await measure(platform, state, pids, 'main', settings.rate, settings.durationSeconds);
    const sweep = [];
    for (const rate of settings.sweep) {
      // At least one turn of every terminal: a shorter window at a low rate would hold only the ends of what the
      // window before it started (ends carry no time of the terminal's), and no start to time.
      const step = await measure(platform, state, pids, 'sweep', rate, Math.max(settings.stepSeconds, Math.ceil(settings.terminals / rate)));
      sweep.push(step);
      if (step.timed === 0) missed.push(`sweep at ${fmt(rate)}/s: no start was timed`);
      if (!(step.p99 < settings.targetP99Ms) && !settings.pastTarget) break;
    }
    const memory = platform.memory();
    const off = await divergent(platform, state.lastSeen);
    const fleetStats = await platform.stopFleet();

    log('');
    log(
      `  | window | offered/s | sent/s | sent | received | missing | timed | p50 ms | p90 ms | p99 ms | max ms | broker leg p99 ms | gateway | worker | simulator | PostgreSQL | Mosquitto |`,
    );
    for (const r of [main, ...sweep])
      log(
        `  | ${r.label} | ${fmt(r.rate)} | ${fmt(r.sentRate)} | ${fmt(r.sent)} | ${fmt(r.received)} | ${fmt(r.lost)} | ${fmt(r.timed)} | ${fmt(r.p50)} | ${fmt(r.p90)} | ${fmt(r.p99)} | ${fmt(r.max)} | ${fmt(r.probeP99)} | ` +
          `${r.cpu.gateway.toFixed(0)} % | ${r.cpu.worker.toFixed(0)} % | ${r.cpu.fleet.toFixed(0)} % | ${r.cpu.postgres.toFixed(0)} % | ${r.cpu.mosquitto.toFixed(0)} % |`,
      );
    log('');
    const crossing = sweep.find((r) => !(r.p99 < settings.targetP99Ms));
    const under = sweep.filter((r) => r.p99 < settings.targetP99Ms).at(-1);
    if (settings.sweep.length === 0) log('  sweep: not run (SWEEP=0)');
    else if (crossing)
      log(
        `  sweep: p99 crosses ${settings.targetP99Ms} ms between ${under ? `${fmt(under.rate)}/s (p99 ${fmt(under.p99)} ms)` : 'the start'} and ${fmt(crossing.rate)}/s (p99 ${fmt(crossing.p99)} ms)`,
      );
    else log(`  sweep: p99 stayed under ${settings.targetP99Ms} ms up to ${fmt(sweep.at(-1).rate)}/s, the highest rate tried`);
    log(
      `  simulator: ${fmt(fleetStats.changesSent)} changes of the terminals' own sent, ${fmt(fleetStats.statesSent)} states in all (heartbeats included), ${fmt(fleetStats.publishErrors)} publish errors`,
    );
    log(`  changes received outside the windows (later than ${settings.settleSeconds} s after the activity stopped): ${fmt(state.outside)}`);
    log(
      `  terminals whose last occupancy in the browser is not the stored one: ${fmt(off.length)}${off.length ? ` (${off.slice(0, 5).join(', ')} …)` : ''}`,
    );
    log(memoryLine(memory));

    if (!(main.p99 < settings.targetP99Ms))
      missed.push(`p99 ${fmt(main.p99)} ms at ${fmt(settings.rate)} changes/s is not under ${settings.targetP99Ms} ms`);
    if (main.timed === 0) missed.push('no change was timed in the main window');
    for (const r of [main, ...sweep])
      if (r.lost !== 0) missed.push(`${r.label} at ${fmt(r.rate)}/s: ${fmt(r.sent)} changes sent, ${fmt(r.received)} received`);
    if (state.outside > 0) missed.push(`${fmt(state.outside)} change(s) arrived after their window had settled`);
    if (off.length > 0) missed.push(`${fmt(off.length)} terminal(s) show another occupancy in the browser than stored`);
    if (fleetStats.publishErrors > 0) missed.push(`${fmt(fleetStats.publishErrors)} publish error(s) in the simulator`);
    platform.checkErrors(missed);
    finish(missed, `Targets met: p99 ${fmt(main.p99)} ms < ${settings.targetP99Ms} ms at ${fmt(settings.rate)} changes/s, every change received`);
  } catch (err) {
    platform.reportFailure(err);
  } finally {
    socket?.close();
    await probe?.endAsync().catch(() => undefined);
    await platform.cleanup();
  }
}

await main();
