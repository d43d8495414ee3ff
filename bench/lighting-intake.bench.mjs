// Intake and push latency: DEVICES simulated lamps (20,000) each sending one telemetry reading per second (QoS 1) for
// DURATION seconds, through the broker, the lighting worker (batched writes, acknowledged once stored) and the
// gateway's bus → socket.io forwarder (one push per family per frame). DEVICES above the platform's maximum measures
// overload: memory must stay bounded and nothing the worker acknowledged may be missing.
//
//   npx nest build gateway && npx nest build worker-lighting && npx nest build device-sim
//   npm run bench:lighting-intake                 # 5 minutes; DURATION=60 for a short run
//
// It creates a database of its own (sc_bench_intake_<hex>) with the lamps (codes B<HEX>-00001 …), starts the gateway
// and the lighting worker as separate processes with this run's REDIS_PREFIX and intake group, and connects a
// socket.io client as admin. Then:
// 1. Raw broker rate: mosquitto_pub floods RAW_MESSAGES QoS 1 messages of the telemetry's size into 4 mosquitto_sub
//    in one shared-subscription group (the worker's topology); delivered messages per second.
// 2. Starts the simulator (multiplexed, one connection per 50 lamps), WARMUP s, then DURATION s measured: CPU and
//    memory of the gateway, the worker, the simulator, PostgreSQL and Mosquitto, and the latency from each
//    reading's `ts` (set by the simulator when it publishes) to the socket client receiving the DeviceStateChanged
//    that carries it.
// 3. Stops the simulator (it reports what the broker acknowledged), waits for the worker to finish, and compares:
//    messages the simulator sent = messages the worker accepted (GET /health), no write errors.
// It removes everything it made (database, Redis keys, retained MQTT messages) and exits 1 when a target is missed.
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import mqtt from 'mqtt';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  percentile,
  processMemory,
  services,
  serviceLogin,
  benchLoginArgs,
  withClient,
} from './support/platform.mjs';

const env = process.env;
const settings = {
  devices: Number(env.DEVICES ?? 20_000),
  durationSeconds: Number(env.DURATION ?? 300),
  warmupSeconds: Number(env.WARMUP ?? 10),
  rawMessages: Number(env.RAW_MESSAGES ?? 100_000),
  targetP99Ms: Number(env.TARGET_P99_MS ?? 150),
  intakeConnections: env.INTAKE_CONNECTIONS,
};

/** One QoS 1 flood through the broker with the worker's topology: 2 publishers, 4 subscribers sharing a group. */
async function rawBrokerRate(tag, messages) {
  const port = new URL(services.mqttUrl).port || '1883';
  const host = new URL(services.mqttUrl).hostname;
  const dir = mkdtempSync(join(tmpdir(), 'sc-bench-raw-'));
  const line = JSON.stringify({ ts: new Date().toISOString(), voltage: 224.1, current: 0.412, power: 88.2, powerFactor: 0.95, signal: -78 });
  const file = join(dir, 'flood.txt');
  const publishers = 2;
  writeFileSync(file, `${line}\n`.repeat(Math.ceil(messages / publishers)));
  const total = Math.ceil(messages / publishers) * publishers;
  const topic = `bench/${tag}/raw`;
  let delivered = 0;
  let last = 0;
  const subs = Array.from({ length: 4 }, () => {
    const sub = spawn('mosquitto_sub', ['-h', host, '-p', port, ...benchLoginArgs(), '-q', '1', '-t', `$share/${tag}/${topic}`], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    sub.stdout.on('data', (d) => {
      for (let i = 0; i < d.length; i++) if (d[i] === 10) delivered++;
      last = performance.now();
    });
    return sub;
  });
  try {
    await sleep(500);
    const started = performance.now();
    await Promise.all(
      Array.from(
        { length: publishers },
        () =>
          new Promise((ok, ko) => {
            const pub = spawn('mosquitto_pub', ['-h', host, '-p', port, ...benchLoginArgs(), '-q', '1', '-l', '-t', topic], {
              stdio: ['pipe', 'ignore', 'pipe'],
            });
            pub.on('exit', (code) => (code === 0 ? ok() : ko(new Error(`mosquitto_pub exited with ${code}`))));
            createReadStream(file).pipe(pub.stdin);
          }),
      ),
    );
    const published = performance.now() - started;
    // Wait until the subscribers have everything, or nothing has come for 2 s.
    while (delivered < total && performance.now() - last < 2000) await sleep(50);
    const seconds = (last - started) / 1000;
    return { total, delivered, seconds, rate: delivered / seconds, publishRate: total / (published / 1000), bytes: line.length };
  } finally {
    for (const sub of subs) sub.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The broker's own count of messages it dropped (all clients, not only ours): $SYS, retained, updated every 10 s. */
function brokerDrops() {
  const url = new URL(services.mqttUrl);
  return new Promise((ok) => {
    const sub = spawn(
      'mosquitto_sub',
      ['-h', url.hostname, '-p', url.port || '1883', ...benchLoginArgs(), '-C', '1', '-W', '3', '-t', '$SYS/broker/publish/messages/dropped'],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    let out = '';
    sub.stdout.on('data', (d) => (out += d));
    sub.on('exit', () => ok(out.trim() === '' ? null : Number(out.trim())));
    sub.on('error', () => ok(null));
  });
}

/**
 * The broker leg alone: a plain QoS 1 subscriber to the telemetry of the first `lamps` lamps (one simulated gateway),
 * measuring `ts` → delivery here, so the platform's share of the push latency can be told from the simulator's and
 * the broker's. It logs in with the lighting worker's account, which may read lamp telemetry.
 */
async function brokerProbe(codePrefix, lamps) {
  const client = await mqtt.connectAsync(services.mqttUrl, { reconnectPeriod: 0, ...serviceLogin('worker-lighting') });
  const probe = { client, samples: [], measuring: false };
  client.on('message', (_topic, payload) => {
    const received = Date.now();
    if (!probe.measuring) return;
    try {
      probe.samples.push(received - Date.parse(JSON.parse(payload.toString()).ts));
    } catch {
      // not a reading
    }
  });
  const topics = Array.from({ length: lamps }, (_, i) => `city/v1/lamp/${codePrefix}${String(i + 1).padStart(5, '0')}/telemetry`);
  await client.subscribeAsync(topics, { qos: 1 });
  return probe;
}

async function main() {
  checkPrerequisites();
  const platform = new BenchPlatform('intake');
  const missed = [];
  let socket = null;
  let probe = null;
  try {
    log(
      `Intake: ${fmt(settings.devices)} lamps × 1 telemetry reading/s (QoS 1), warm-up ${settings.warmupSeconds} s, measured ${settings.durationSeconds} s`,
    );
    let t = performance.now();
    await platform.createDatabase();
    await platform.addLamps(settings.devices);
    log(
      `  ${platform.dbName} ready with ${fmt(settings.devices)} lamps (${platform.codePrefix}00001 …) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    const gateway = await platform.startGateway();
    const worker = await platform.startWorker(settings.intakeConnections ? { INTAKE_CONNECTIONS: settings.intakeConnections } : {});
    log(
      `  gateway pid ${gateway.pid} on ${platform.baseUrl}, worker pid ${worker.pid}, Redis prefix ${platform.redisPrefix}, intake group ${platform.intakeGroup}`,
    );

    // The browser's view: an authenticated admin socket, no extra message needed.
    const latencies = [];
    const seen = { events: 0, telemetry: 0, measuring: false };
    // The lamp pages' feed, as the console asks for it.
    socket = await platform.watchDeviceStates((frame, received) => {
      for (const e of frame.changes) {
        if (!e.deviceCode.startsWith(platform.codePrefix)) continue;
        seen.events++;
        const ts = e.changed?.telemetry?.ts;
        if (!ts) continue;
        seen.telemetry++;
        if (seen.measuring) latencies.push(received - Date.parse(ts));
      }
    });

    const ambient = await ambientLoad();
    log(`  machine busy before the load: ${ambient.toFixed(0)} %${ambient > 15 ? ' (something else is running: expect lower numbers)' : ''}`);

    log(`Raw broker rate: ${fmt(settings.rawMessages)} QoS 1 messages, 2 × mosquitto_pub → 4 × mosquitto_sub in one shared group`);
    const raw = await rawBrokerRate(platform.intakeGroup, settings.rawMessages);
    log(
      `  ${fmt(raw.delivered)} of ${fmt(raw.total)} delivered in ${raw.seconds.toFixed(2)} s: ${fmt(raw.rate)} messages/s delivered ` +
        `(published at ${fmt(raw.publishRate)}/s, ${raw.bytes} bytes each${raw.delivered < raw.total ? `; the broker dropped ${fmt(raw.total - raw.delivered)}` : ''})`,
    );

    probe = await brokerProbe(platform.codePrefix, 50);
    // $SYS counts every drop of the whole broker, refreshed every 10 s: read before the devices start and again at the end.
    const drops0 = await brokerDrops();
    t = performance.now();
    const fleet = await platform.startFleet(settings.devices, ['--telemetry-interval', '1']);
    log(
      `  simulator pid ${fleet.pid}: ${fmt(settings.devices)} lamps connected in ${((performance.now() - t) / 1000).toFixed(1)} s; warming up ${settings.warmupSeconds} s`,
    );
    await sleep(settings.warmupSeconds * 1000);

    const pids = { gateway: gateway.pid, worker: worker.pid, fleet: fleet.pid };
    const health0 = await platform.workerHealth();
    const before = cpuSnapshot(pids);
    seen.measuring = true;
    probe.measuring = true;
    const events0 = seen.telemetry;
    const peak = { gateway: 0, worker: 0, fleet: 0 };
    /** Worker RSS every window, to see whether it grows over the run. */
    const workerRss = [processMemory(worker.pid).rssMb];
    let prev = { at: performance.now(), accepted: health0.counters.accepted, events: seen.telemetry, n: 0 };
    const end = performance.now() + settings.durationSeconds * 1000;
    while (performance.now() < end) {
      await sleep(Math.min(10_000, end - performance.now()));
      const h = await platform.workerHealth();
      const now = performance.now();
      const s = (now - prev.at) / 1000;
      for (const [name, pid] of Object.entries(pids)) peak[name] = Math.max(peak[name], processMemory(pid).rssMb);
      workerRss.push(processMemory(worker.pid).rssMb);
      const window = latencies.slice(prev.n).sort((a, b) => a - b);
      log(
        `  ${((now - end) / 1000 + settings.durationSeconds).toFixed(0).padStart(4)} s: worker accepted ${fmt((h.counters.accepted - prev.accepted) / s)}/s, ` +
          `socket ${fmt((seen.telemetry - prev.events) / s)} readings/s, latency p50 ${percentile(window, 50)} ms p99 ${percentile(window, 99)} ms, ` +
          `RSS gateway ${processMemory(gateway.pid).rssMb.toFixed(0)} MB worker ${processMemory(worker.pid).rssMb.toFixed(0)} MB, ` +
          `backlog ${fmt(h.backlog ?? 0)}`,
      );
      prev = { at: now, accepted: h.counters.accepted, events: seen.telemetry, n: latencies.length };
    }
    seen.measuring = false;
    probe.measuring = false;
    const cpu = cpuBetween(before, cpuSnapshot(pids));
    const health1 = await platform.workerHealth();
    const memory = { gateway: processMemory(gateway.pid), worker: processMemory(worker.pid), fleet: processMemory(fleet.pid) };
    const drops1 = await brokerDrops();
    const windowRate = (health1.counters.accepted - health0.counters.accepted) / settings.durationSeconds;
    const socketRate = (seen.telemetry - events0) / settings.durationSeconds;

    // Accounting: stop the devices, let the worker finish, compare.
    const fleetStats = await platform.stopFleet();
    const sent = fleetStats.statesSent + fleetStats.telemetrySent + fleetStats.acksSent + fleetStats.eventsSent;
    let health = await platform.workerHealth();
    // Under overload the broker holds what the worker has not taken yet: wait until the worker has stored it all.
    for (let still = 0, last = -1; still < 6 && health.counters.written < sent;) {
      await sleep(500);
      health = await platform.workerHealth();
      still = health.counters.written === last ? still + 1 : 0;
      last = health.counters.written;
    }
    await sleep(1000);
    const stored = await withClient(platform.databaseUrl, async (c) => {
      const { rows } = await c.query(
        `SELECT count(*)::int AS reported, count(*) FILTER (WHERE l.telemetry IS NOT NULL)::int AS with_telemetry
           FROM lamp l JOIN device d ON d.id = l.device_id WHERE d.code LIKE $1 AND l.reported_at > now() - interval '30 seconds'`,
        [`${platform.codePrefix}%`],
      );
      return rows[0];
    });
    await sleep(11_000);
    const dropsEnd = await brokerDrops();
    const c = health.counters;
    const brokerDropped = drops0 !== null && dropsEnd !== null ? dropsEnd - drops0 : 0;
    // What the broker acknowledged to the devices and then dropped (its queue for the worker full) never reached the
    // worker; everything else must be stored.
    const lost = sent - c.written - brokerDropped;
    const half = Math.floor(workerRss.length / 2);
    const rssGrowth = workerRss.length > 3 ? Math.max(...workerRss.slice(half)) - Math.max(...workerRss.slice(1, half + 1)) : 0;
    const sorted = latencies.sort((a, b) => a - b);
    const leg = probe.samples.sort((a, b) => a - b);
    const lat = {
      n: sorted.length,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1],
    };

    log('');
    const rows = [
      ['offered', `${fmt(settings.devices)} readings/s`],
      ['worker accepted', `${fmt(windowRate)} messages/s in the measured window`],
      ['socket received', `${fmt(socketRate)} readings/s (DeviceStateChanged with telemetry)`],
      ['raw broker', `${fmt(raw.rate)} messages/s delivered; platform / raw = ${(windowRate / raw.rate).toFixed(2)}`],
      [
        'sent by the devices',
        `${fmt(sent)} (states ${fmt(fleetStats.statesSent)}, telemetry ${fmt(fleetStats.telemetrySent)}, acks ${fmt(fleetStats.acksSent)}), ${fmt(fleetStats.publishErrors)} publish errors`,
      ],
      [
        'accepted by worker',
        `${fmt(c.accepted)}; received ${fmt(c.received)} (other traffic on the broker rejected: ${JSON.stringify(c.rejected)}), write errors ${fmt(c.writeErrors)}`,
      ],
      ['stored', `${fmt(c.written)} (acknowledged to the broker once stored)`],
      ['lost', `${fmt(lost)} (sent − stored − dropped by the broker)`],
      [
        'worker RSS series',
        `${workerRss.map((v) => v.toFixed(0)).join(' → ')} MB (growth from the first to the second half: ${rssGrowth.toFixed(0)} MB)`,
      ],
      ['lamps reported', `${fmt(stored.reported)} of ${fmt(settings.devices)} in the last 30 s (${fmt(stored.with_telemetry)} with telemetry)`],
      [
        'socket events',
        `${fmt(seen.telemetry)} telemetry changes pushed for ${fmt(fleetStats.telemetrySent)} readings (${((100 * seen.telemetry) / Math.max(1, fleetStats.telemetrySent)).toFixed(1)} %)`,
      ],
      ['push latency', `p50 ${lat.p50} ms, p90 ${lat.p90} ms, p99 ${lat.p99} ms, max ${lat.max} ms over ${fmt(lat.n)} readings`],
      [
        'broker leg',
        `p50 ${percentile(leg, 50)} ms, p99 ${percentile(leg, 99)} ms over ${fmt(leg.length)} readings (simulator → broker → a plain QoS 1 subscriber, 50 lamps)`,
      ],
      [
        'CPU (% of one core)',
        `gateway ${cpu.gateway.toFixed(0)} %, worker ${cpu.worker.toFixed(0)} %, simulator ${cpu.fleet.toFixed(0)} %, PostgreSQL ${cpu.postgres.toFixed(0)} %, Mosquitto ${cpu.mosquitto.toFixed(0)} %, this process ${cpu.bench.toFixed(0)} %; machine ${cpu.machineBusy.toFixed(0)} % busy`,
      ],
      [
        'RSS (end / peak)',
        `gateway ${memory.gateway.rssMb.toFixed(0)} / ${Math.max(peak.gateway, memory.gateway.peakMb).toFixed(0)} MB, worker ${memory.worker.rssMb.toFixed(0)} / ${Math.max(peak.worker, memory.worker.peakMb).toFixed(0)} MB, simulator ${memory.fleet.rssMb.toFixed(0)} / ${memory.fleet.peakMb.toFixed(0)} MB`,
      ],
      [
        'broker drops',
        drops0 !== null && drops1 !== null && dropsEnd !== null
          ? `${fmt(drops1 - drops0)} in the window, ${fmt(brokerDropped)} from the devices' start to the end ($SYS, the whole broker: every client of every run on it)`
          : 'n/a',
      ],
    ];
    for (const [name, value] of rows) log(`  ${name.padEnd(20)} ${value}`);
    log('');
    log(
      `| ${settings.durationSeconds} s | ${fmt(windowRate)} | ${fmt(raw.rate)} | ${(windowRate / raw.rate).toFixed(2)} | ${fmt(sent)} | ${fmt(c.accepted)} | ${fmt(lost)} | ${lat.p50} | ${lat.p99} | ` +
        `${cpu.gateway.toFixed(0)} % | ${cpu.worker.toFixed(0)} % | ${cpu.postgres.toFixed(0)} % | ${cpu.mosquitto.toFixed(0)} % | ${memory.gateway.rssMb.toFixed(0)} MB | ${memory.worker.rssMb.toFixed(0)} MB |`,
    );

    if (lost !== 0) missed.push(`${fmt(lost)} message(s) sent by the devices were neither stored nor dropped by the broker`);
    if (c.writeErrors > 0) missed.push(`${c.writeErrors} message(s) not written`);
    if (!(lat.p99 < settings.targetP99Ms)) missed.push(`push latency p99 ${lat.p99} ms is not under ${settings.targetP99Ms} ms`);
    platform.checkErrors(missed);
    finish(missed, `Targets met: every message accounted for, push latency p99 < ${settings.targetP99Ms} ms`);
  } catch (err) {
    platform.reportFailure(err);
  } finally {
    socket?.close();
    await probe?.client.endAsync().catch(() => undefined);
    await platform.cleanup();
  }
}

await main();
