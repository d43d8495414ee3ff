// The MQTT broker's accounts at fleet scale (docs/security.md): for fleets of 10,000 to 400,000 lamps, fifty to a
// recorded lamp gateway that speaks for them, the platform's writer (`main.js broker-access`) makes the broker's
// password file and access list from the registry. Measured per size: the writer's full write at start (registry read,
// hashes, files), the files' sizes, Mosquitto's memory with them loaded, how long a reload of the files keeps connected
// clients waiting (a probe publishing to itself on one connection while the broker is sent SIGHUP), the time from a
// device added in the registry until the broker takes its login, and from a device deleted while connected until the
// broker drops it.
//
// Then, at BENCH_STORM_SIZE lamps, a change storm per rate of BENCH_STORM_RATES: for BENCH_STORM_SECONDS, devices are
// added, rotated (credential generation raised, as DeviceCredentials.renew does) and deleted in turn, each its own
// statement the way the gateway makes it. Measured: the writer's memory and rewrites, the delay from a change's commit
// until the broker takes it (a sample of each kind: an added device's login accepted, a rotated or deleted device's
// connection dropped), how long connected clients wait meanwhile, and at the end that every added device logs in,
// every deleted one is refused and every rotated one is refused its old password and takes its new one.
//
//   npx nest build gateway && npm run bench:broker-access
//
// BENCH_SIZES (default 10000,50000,100000; the maximum needs 200000,400000 too), BENCH_ROUNDS (default 5),
// BENCH_STORM_SIZE (default 100000; a size of BENCH_SIZES), BENCH_STORM_RATES (changes/s, default 50,200,1000; empty
// for none) and BENCH_STORM_SECONDS (default 30). It runs the project's broker on a free loopback port, creates its
// own database and drops it at the end. Only loopback addresses are ever contacted.
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt from 'mqtt';
import pg from 'pg';
import { loginTaken, startProbe } from './support/mqtt-check.mjs';
import {
  BenchPlatform,
  GATEWAY,
  ambientLoad,
  benchLogin,
  broker,
  checkPrerequisites,
  cpuBetween,
  cpuSnapshot,
  fail,
  fmt,
  log,
  percentile,
  processMemory,
  services,
  withClient,
} from './support/platform.mjs';

const list = (value, fallback) => (value ?? fallback).split(',').filter(Boolean).map(Number);
const SIZES = list(process.env.BENCH_SIZES, '10000,50000,100000');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const RELOADS = 3;
const STORM_SIZE = Number(process.env.BENCH_STORM_SIZE ?? 100000);
const STORM_RATES = list(process.env.BENCH_STORM_RATES, '50,200,1000');
const STORM_SECONDS = Number(process.env.BENCH_STORM_SECONDS ?? 30);
/** Sampled changes of each kind per storm (their delay is measured one by one). */
const STORM_SAMPLES = 100;
/** The bound a fleet must stay within: a change taken by the broker within 5 s, connected clients kept waiting ≤ 2 s. */
const BOUND_CHANGE_MS = 5000;
const BOUND_STALL_MS = 2000;
const PER_GATEWAY = 50;
const GIVE_UP_MS = 60_000;
const SECRET = process.env.MQTT_CREDENTIAL_SECRET;

/** A device account's password under this run's secret and its credential generation (the gateway's derivation). */
const passwordOf = (username, generation) => createHmac('sha256', SECRET).update(`${username}\n${generation}`).digest('hex');

/** The gateway's own derivation (`main.js mqtt-password`), to check passwordOf against. */
function gatewayPassword(username, generation) {
  const result = spawnSync('node', [GATEWAY, 'mqtt-password', username, String(generation)], { env: process.env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`mqtt-password ${username}: ${result.stderr || result.stdout}`);
  return result.stdout.trim();
}

const ADD_LAMP = `WITH d AS (INSERT INTO device (type, code, name) VALUES (1, $1, 'bench lamp') RETURNING id, mqtt_generation),
                     l AS (INSERT INTO lamp (device_id) SELECT id FROM d)
                  SELECT id, mqtt_generation AS generation FROM d`;
// DeviceCredentials.renew for a lamp (nextGeneration in apps/gateway/src/broker-access/device-credentials.service.ts).
const ROTATE = `UPDATE device SET mqtt_generation = nextval('mqtt_credential_seq') WHERE id = $1 AND type = 1 RETURNING code, mqtt_generation AS generation`;
const DELETE = `DELETE FROM device WHERE id = $1`;

/** Milliseconds from `started` until the broker takes the login (tried every `everyMs`). */
async function loginAccepted(username, password, started, everyMs = 10) {
  for (;;) {
    if (await loginTaken(services.mqttUrl, username, password).catch(() => false)) return Date.now() - started;
    if (Date.now() - started > GIVE_UP_MS) throw new Error(`${username} not accepted within ${GIVE_UP_MS} ms`);
    await sleep(everyMs);
  }
}

/** A connected device; `closed` answers when the broker dropped it. */
async function connectedDevice(username, password) {
  const client = await mqtt.connectAsync(services.mqttUrl, { username, password, reconnectPeriod: 0, connectTimeout: 10_000 });
  const closed = new Promise((resolve) => client.once('close', () => resolve(Date.now())));
  return { client, closed };
}

const brokerPid = () => Number(readFileSync(broker.pidFile, 'utf8').trim());

/** Writes of the writer as it logs them (`Broker accounts written: n (ms)`), with the time each was logged. */
function followWrites(writer) {
  const writes = [];
  let rest = '';
  writer.stdout.on('data', (d) => {
    const lines = (rest + d).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      const m = /Broker accounts written: (\d+) \((\d+) ms\)/.exec(line);
      if (m) writes.push({ at: Date.now(), accounts: Number(m[1]), ms: Number(m[2]) });
    }
  });
  return writes;
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function eachLimited(items, concurrency, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/**
 * `rate` changes a second for `seconds` at the writer's current fleet: add, rotate, delete, add, … Answers the measured
 * figures; throws nothing for a change not taken (it is counted as lost).
 */
async function storm(platform, writer, writes, probe, rate, seconds) {
  const prefix = platform.codePrefix;
  const total = Math.round(rate * seconds);
  const perKind = Math.ceil(total / 3);
  const every = Math.max(1, Math.ceil(perKind / STORM_SAMPLES));
  // Rotated and deleted lamps come from the fleet (never the same lamp twice in one storm).
  const { rows: targets } = await withClient(platform.databaseUrl, (c) =>
    c.query(`SELECT id, code, mqtt_generation AS generation FROM device WHERE type = 1 AND code ~ $1 ORDER BY random() LIMIT $2`, [
      `^${prefix}[0-9]+$`,
      2 * perKind,
    ]),
  );
  const changes = [];
  for (let i = 0; i < total; i++) {
    const kind = ['add', 'rotate', 'delete'][i % 3];
    const n = Math.floor(i / 3);
    const change = { kind, sampled: n % every === 0, due: (i * 1000) / rate };
    if (kind === 'add') change.code = `${prefix}S${rate}-${n}`;
    else Object.assign(change, targets[kind === 'rotate' ? 2 * n : 2 * n + 1]);
    change.username = `lamp/${change.code}`;
    changes.push(change);
  }
  // The sampled rotated and deleted lamps are connected before the storm: the broker drops them when it takes the change.
  await eachLimited(
    changes.filter((c) => c.sampled && c.kind !== 'add'),
    10,
    async (c) => {
      c.device = await connectedDevice(c.username, passwordOf(c.username, c.generation));
    },
  );

  const pool = new pg.Pool({ connectionString: platform.databaseUrl, max: 8 });
  const writesBefore = writes.length;
  const memory = [];
  const writerPid = writer.pid;
  const sampleMemory = setInterval(() => memory.push(processMemory(writerPid).rssMb), 250);
  const rssBefore = processMemory(writerPid).rssMb;
  const delays = { add: [], rotate: [], delete: [] };
  const waiting = [];
  const cpuFrom = cpuSnapshot({ writer: writerPid });
  const started = Date.now();
  let failed = 0;
  const apply = async (c) => {
    try {
      if (c.kind === 'add') {
        const { rows } = await pool.query(ADD_LAMP, [c.code]);
        c.generation = rows[0].generation;
      } else if (c.kind === 'rotate') {
        const { rows } = await pool.query(ROTATE, [c.id]);
        c.oldGeneration = c.generation;
        c.generation = rows[0].generation;
      } else await pool.query(DELETE, [c.id]);
      c.committed = Date.now();
    } catch (err) {
      failed++;
      c.error = err.message;
      return;
    }
    if (!c.sampled) return;
    if (c.kind === 'add')
      waiting.push(
        loginAccepted(c.username, passwordOf(c.username, c.generation), c.committed, 50).then(
          (ms) => delays.add.push(ms),
          () => (c.notTaken = true),
        ),
      );
    else
      waiting.push(
        Promise.race([c.device.closed, sleep(GIVE_UP_MS).then(() => null)]).then((at) =>
          at === null ? (c.notTaken = true) : delays[c.kind].push(at - c.committed),
        ),
      );
  };
  // Each change is sent when it is due (the pool queues what PostgreSQL does not take at once).
  const inFlight = [];
  for (const c of changes) {
    const wait = started + c.due - Date.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(apply(c));
  }
  await Promise.all(inFlight);
  const lastCommit = Math.max(...changes.map((c) => c.committed ?? 0));
  const cpu = cpuBetween(cpuFrom, cpuSnapshot({ writer: writerPid }));
  await Promise.all(waiting);
  const settled = Date.now();
  clearInterval(sampleMemory);
  await pool.end();

  // Nothing lost: every change holds at the broker within 30 s of the storm's end.
  const wrong = [];
  await eachLimited(
    changes.filter((c) => c.committed),
    16,
    async (c) => {
      const expect = [];
      if (c.kind !== 'delete') expect.push([c.generation, true]);
      if (c.kind !== 'add') expect.push([c.kind === 'rotate' ? c.oldGeneration : c.generation, false]);
      for (const [generation, taken] of expect) {
        for (;;) {
          const answer = await loginTaken(services.mqttUrl, c.username, passwordOf(c.username, generation)).catch(() => null);
          if (answer === taken) break;
          if (Date.now() - settled > GIVE_UP_MS) {
            wrong.push(`${c.kind} ${c.username}: ${taken ? 'refused' : 'still taken'}`);
            break;
          }
          await sleep(200);
        }
      }
    },
  );
  for (const c of changes) await c.device?.client.endAsync(true).catch(() => undefined);
  const stormWrites = writes.slice(writesBefore).filter((w) => w.at <= settled);
  const stalls = probe.between(started, settled).map((s) => s.ms);
  stalls.sort((a, b) => a - b);
  for (const kind of Object.keys(delays)) delays[kind].sort((a, b) => a - b);
  const all = [...delays.add, ...delays.rotate, ...delays.delete].sort((a, b) => a - b);
  return {
    rate,
    achieved: (changes.filter((c) => c.committed).length * 1000) / Math.max(1, lastCommit - started),
    changes: changes.length,
    failed,
    notTaken: changes.filter((c) => c.notTaken).length,
    samples: all.length,
    writes: stormWrites.length,
    writeMs: stormWrites.map((w) => w.ms).sort((a, b) => a - b),
    delays,
    all,
    rssBefore,
    rssPeak: Math.max(rssBefore, ...memory),
    rssEnd: processMemory(writerPid).rssMb,
    cpu,
    probeMax: stalls.at(-1) ?? 0,
    probeP99: percentile(stalls, 99),
    stalledShare: stalls.filter((ms) => ms > 100).reduce((a, b) => a + b, 0) / Math.max(1, settled - started),
    probeConnected: probe.connected,
    wrong,
  };
}

async function main() {
  checkPrerequisites();
  if (!broker) fail('This benchmark needs the project broker: Mosquitto installed and MQTT_URL unset.');
  if (gatewayPassword('lamp/CHECK', 1234) !== passwordOf('lamp/CHECK', 1234)) fail('The password derivation differs from the gateway’s.');
  const platform = new BenchPlatform('access');
  const prefix = platform.codePrefix;
  const rows = [];
  const storms = [];
  try {
    await platform.createDatabase();
    let have = 0;
    for (const size of SIZES) {
      // The fleet grows to `size` lamps, each bound to the recorded lamp gateway of its fifty.
      await withClient(platform.databaseUrl, async (c) => {
        await c.query(
          `WITH d AS (INSERT INTO device (type, code, name) SELECT 1, $1 || lpad(g::text, 6, '0'), 'bench lamp' FROM generate_series($2::int, $3::int) g RETURNING id, code)
           INSERT INTO lamp (device_id, gateway_id)
           SELECT id, $1 || 'GW' || lpad(((substring(code FROM length($1) + 1)::int - 1) / ${PER_GATEWAY} + 1)::text, 5, '0') FROM d`,
          [prefix, have + 1, size],
        );
        await c.query(
          `INSERT INTO lamp_gateway (code, name)
           SELECT $1 || 'GW' || lpad(g::text, 5, '0'), 'bench gateway' FROM generate_series(1, ($2::int - 1) / ${PER_GATEWAY} + 1) g
           WHERE NOT EXISTS (SELECT 1 FROM lamp_gateway WHERE code = $1 || 'GW' || lpad(g::text, 5, '0'))`,
          [prefix, size],
        );
        await c.query('ANALYZE');
      });
      have = size;
      const busy = await ambientLoad();
      const started = Date.now();
      const writer = platform.spawn('access', [GATEWAY, 'broker-access'], { LOG_LEVEL: 'info' });
      const writes = followWrites(writer);
      await platform.waitFor('access', writer, async () => /MQTT broker accounts written/.test(platform.output('access')), 300_000);
      const startMs = Date.now() - started;
      const written = /Broker accounts written: (\d+) \((\d+) ms\)/.exec(platform.output('access'));
      await sleep(1500);
      const memory = processMemory(brokerPid());
      const writerMb = processMemory(writer.pid).rssMb;

      // How long a reload keeps connected clients waiting: the probe's round trips with no reload, then around SIGHUPs.
      // First the writer's own reloads at start end (3 s without a wait over 250 ms, at most a minute).
      const probe = await startProbe(services.mqttUrl, benchLogin);
      for (const until = Date.now() + 60_000; Date.now() < until; await sleep(500)) {
        if (Date.now() - probe.startedAt > 3000 && probe.maxBetween(Date.now() - 3000, Date.now()) < 250) break;
      }
      const quietMs = probe.maxBetween(Date.now() - 3000, Date.now());
      const reloads = [];
      for (let i = 0; i < RELOADS; i++) {
        const t = Date.now();
        process.kill(brokerPid(), 'SIGHUP');
        await sleep(Math.max(3000, 2 * (reloads.at(-1) ?? 0) + 1000));
        reloads.push(probe.maxBetween(t, Date.now()));
      }
      log(`${size} lamps: written in ${written?.[2]} ms, writer up in ${startMs} ms; probe ${quietMs} ms quiet, ${reloads.join(' / ')} ms on reload`);

      const added = [];
      const dropped = [];
      const roundsFrom = Date.now();
      for (let round = 1; round <= ROUNDS; round++) {
        const code = `${prefix}NEW${size}-${round}`;
        const username = `lamp/${code}`;
        const t0 = Date.now();
        const { rows: ids } = await withClient(platform.databaseUrl, (c) => c.query(ADD_LAMP, [code]));
        const password = passwordOf(username, ids[0].generation);
        // Past GIVE_UP_MS a round counts as never (the bound is far behind), and the fleet is measured on.
        const addedMs = await loginAccepted(username, password, t0).catch(() => Infinity);
        added.push(addedMs);
        if (addedMs === Infinity) continue;

        const device = await connectedDevice(username, password);
        const t1 = Date.now();
        await withClient(platform.databaseUrl, (c) => c.query(DELETE, [ids[0].id]));
        const at = await Promise.race([device.closed, sleep(GIVE_UP_MS).then(() => null)]);
        dropped.push(at === null ? Infinity : at - t1);
        await device.client.endAsync(true);
      }
      const roundsStallMs = probe.maxBetween(roundsFrom, Date.now());

      if (size === STORM_SIZE) {
        for (const rate of STORM_RATES) {
          const stormBusy = await ambientLoad();
          log(`${size} lamps: storm of ${rate} changes/s for ${STORM_SECONDS} s (machine ${fmt(stormBusy)} % busy before)`);
          storms.push({ size, busy: stormBusy, ...(await storm(platform, writer, writes, probe, rate, STORM_SECONDS)) });
          const s = storms.at(-1);
          log(
            `  ${s.writes} rewrites, change → taken p50 ${percentile(s.all, 50)} ms, max ${s.all.at(-1)} ms; writer RSS peak ${fmt(s.rssPeak)} MB; ${s.wrong.length} wrong`,
          );
          await sleep(3000);
        }
      }
      await probe.stop();
      await platform.stop('access');
      platform.outputs.set('access', '');
      added.sort((a, b) => a - b);
      dropped.sort((a, b) => a - b);
      rows.push({
        size,
        busy,
        accounts: Number(written?.[1] ?? NaN),
        writeMs: Number(written?.[2] ?? NaN),
        startMs,
        passwordsMb: statSync(join(broker.accessDir, 'passwords')).size / 1048576,
        aclMb: statSync(join(broker.accessDir, 'acl')).size / 1048576,
        brokerMb: memory.rssMb,
        writerMb,
        quietMs,
        reloads,
        roundsStallMs,
        added,
        dropped,
      });
      const r = rows.at(-1);
      log(
        `${size} lamps: ${r.accounts} accounts written in ${r.writeMs} ms; reload stall ${reloads.join(' / ')} ms; login after add p50 ${percentile(added, 50)} ms`,
      );
    }
  } finally {
    await platform.stop('access');
    await platform.cleanup();
  }

  log('');
  log(`Bound: a change taken within ${fmt(BOUND_CHANGE_MS)} ms, connected clients kept waiting at most ${fmt(BOUND_STALL_MS)} ms.`);
  log('');
  log(
    `| Lamps (machine busy before) | Accounts | Full write, ms | Writer start, ms | Writer RSS, MB | passwords / acl, MB | Mosquitto RSS, MB | Reload stall, ms (quiet / 3 SIGHUPs) | Added → login taken, ms (p50 / max) | Deleted → dropped, ms (p50 / max) | Within bound |`,
  );
  log(
    `| --------------------------: | -------: | -------------: | ---------------: | -------------: | ------------------: | ----------------: | -----------------------------------: | ----------------------------------: | --------------------------------: | :----------: |`,
  );
  for (const r of rows) {
    const within = Math.max(r.added.at(-1), r.dropped.at(-1)) <= BOUND_CHANGE_MS && Math.max(...r.reloads, r.roundsStallMs) <= BOUND_STALL_MS;
    log(
      `| ${fmt(r.size)} (${fmt(r.busy)} %) | ${fmt(r.accounts)} | ${fmt(r.writeMs)} | ${fmt(r.startMs)} | ${fmt(r.writerMb)} | ${fmt(r.passwordsMb, 1)} / ${fmt(r.aclMb, 1)} | ${fmt(r.brokerMb)} | ${r.quietMs} / ${r.reloads.join(', ')} | ${percentile(r.added, 50)} / ${r.added.at(-1)} | ${percentile(r.dropped, 50)} / ${r.dropped.at(-1)} | ${within ? 'yes' : 'no'} |`,
    );
  }
  if (storms.length === 0) process.exit(0);
  log('');
  log(
    `| Lamps | Changes/s offered / done (busy before) | Changes | Rewrites | Write, ms (p50 / max) | Change → taken, ms (p50 / p99 / max; n) | added / rotated / deleted, ms (p99) | Writer RSS, MB (before / peak / end) | CPU writer / Mosquitto / PostgreSQL, % | Probe wait, ms (p99 / max; time stalled) | Lost |`,
  );
  log(
    `| ----: | -------------------------------------: | ------: | -------: | --------------------: | --------------------------------------: | ----------------------------------: | -----------------------------------: | -------------------------------------: | ---------------------------------------: | ---: |`,
  );
  for (const s of storms) {
    log(
      `| ${fmt(s.size)} | ${fmt(s.rate)} / ${fmt(s.achieved)} (${fmt(s.busy)} %) | ${fmt(s.changes)} | ${s.writes} | ${percentile(s.writeMs, 50)} / ${s.writeMs.at(-1)} | ${percentile(s.all, 50)} / ${percentile(s.all, 99)} / ${s.all.at(-1)}; ${s.samples} | ${percentile(s.delays.add, 99)} / ${percentile(s.delays.rotate, 99)} / ${percentile(s.delays.delete, 99)} | ${fmt(s.rssBefore)} / ${fmt(s.rssPeak)} / ${fmt(s.rssEnd)} | ${fmt(s.cpu.writer)} / ${fmt(s.cpu.mosquitto)} / ${fmt(s.cpu.postgres)} | ${s.probeP99} / ${s.probeMax}; ${fmt(100 * s.stalledShare)} % | ${s.wrong.length} |`,
    );
  }
  for (const s of storms) {
    if (!s.probeConnected) log(`${s.rate}/s: the probe's connection was dropped`);
    for (const line of s.wrong.slice(0, 10)) log(`${s.rate}/s wrong: ${line}`);
    if (s.failed) log(`${s.rate}/s: ${s.failed} changes failed in PostgreSQL`);
    if (s.notTaken) log(`${s.rate}/s: ${s.notTaken} sampled changes not taken within ${GIVE_UP_MS} ms`);
  }
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`broker-access benchmark failed: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
