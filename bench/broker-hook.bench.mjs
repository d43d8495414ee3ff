// The broker hook that an EMQX cluster asks at each login (docs/security.md): `main.js broker-access` with
// MQTT_HOOK_PORT and no access directory, over a registry of 10,000 / 100,000 lamps. Measured per size: the hook's
// start (registry read), its memory, and logins answered as EMQX sends them (HTTP/1.1 keep-alive, BENCH_CONNECTIONS at
// once, 1 in 10 with a wrong password) for BENCH_SECONDS: answers/s, latency, the hook's CPU. Every answer is checked:
// a good login must be allowed with its access list, a wrong one denied. Then an overload: twice the connections, and
// the memory must stay where it was.
//
//   npx nest build gateway && npm run bench:broker-hook
//
// BENCH_SIZES (default 10000,100000), BENCH_CONNECTIONS (default 64), BENCH_SECONDS (default 15). Loopback only; the
// database is created and dropped by the benchmark.
import { createHmac, randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BenchPlatform,
  GATEWAY,
  ambientLoad,
  checkPrerequisites,
  cpuBetween,
  cpuSnapshot,
  fail,
  fmt,
  freePort,
  log,
  percentile,
  processMemory,
  withClient,
} from './support/platform.mjs';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const TOKEN = randomBytes(24).toString('hex');
const SECRET = process.env.MQTT_CREDENTIAL_SECRET ?? randomBytes(32).toString('hex');
const passwordOf = (username, generation) => createHmac('sha256', SECRET).update(`${username}\n${generation}`).digest('hex');

/** One login asked as EMQX asks it; answers [ms, answer]. */
function ask(agent, port, body) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mqtt/authenticate',
        method: 'POST',
        agent,
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}`, 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          try {
            resolve([ms, res.statusCode, JSON.parse(text)]);
          } catch (err) {
            reject(err);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `connections` loops asking logins of `lamps` for `seconds`; every answer checked. */
async function drive(port, lamps, connections, seconds) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  let wrong = 0;
  let errors = 0;
  let next = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const lamp = lamps[next++ % lamps.length];
        const bad = next % 10 === 0;
        const username = `lamp/${lamp.code}`;
        const body = JSON.stringify({ username, password: bad ? 'guess' : passwordOf(username, lamp.generation), clientid: lamp.code });
        try {
          const [ms, status, answer] = await ask(agent, port, body);
          latencies.push(ms);
          const right = status === 200 && (bad ? answer.result === 'deny' : answer.result === 'allow' && Array.isArray(answer.acl));
          if (!right) wrong++;
        } catch {
          errors++;
        }
      }
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { answers: latencies.length, wrong, errors, latencies };
}

async function main() {
  checkPrerequisites();
  log(`Broker hook: ${SIZES.join(', ')} lamps, ${CONNECTIONS} connections for ${SECONDS} s (overload: ${CONNECTIONS * 2})`);
  log(`Machine busy before: ${fmt(await ambientLoad())} %`);
  const rows = [];
  let failed = false;
  for (const size of SIZES) {
    const platform = new BenchPlatform('hook');
    try {
      await platform.createDatabase();
      await platform.addLamps(size);
      const lamps = (
        await withClient(platform.databaseUrl, (c) =>
          c.query(`SELECT code, mqtt_generation AS generation FROM device WHERE type = 1 ORDER BY random()`),
        )
      ).rows;
      const port = await freePort();
      const started = Date.now();
      const hook = platform.spawn('gateway', [GATEWAY, 'broker-access'], {
        MQTT_BROKER_ACCESS_DIR: '',
        MQTT_CREDENTIAL_SECRET: SECRET,
        MQTT_HOOK_PORT: String(port),
        MQTT_HOOK_HOST: '127.0.0.1',
        MQTT_HOOK_TOKEN: TOKEN,
      });
      await platform.waitFor('gateway', hook, async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, 120_000);
      const startMs = Date.now() - started;
      const idle = processMemory(hook.pid);
      await drive(port, lamps, CONNECTIONS, 2); // warm-up
      for (const [connections, kind] of [
        [CONNECTIONS, 'load'],
        [CONNECTIONS * 2, 'overload'],
      ]) {
        const before = cpuSnapshot({ hook: hook.pid });
        const run = await drive(port, lamps, connections, SECONDS);
        const cpu = cpuBetween(before, cpuSnapshot({ hook: hook.pid }));
        const rss = processMemory(hook.pid);
        const row = {
          size,
          kind,
          connections,
          startMs,
          perSecond: run.answers / SECONDS,
          p50: percentile(run.latencies, 50),
          p99: percentile(run.latencies, 99),
          max: run.latencies.at(-1),
          wrong: run.wrong,
          errors: run.errors,
          cpu: cpu.hook,
          busy: cpu.machineBusy,
          bench: cpu.bench,
          idleRss: idle.rssMb,
          rss: rss.rssMb,
        };
        rows.push(row);
        if (row.wrong > 0 || row.errors > 0) failed = true;
        log(
          `${fmt(size)} lamps, ${kind} (${connections}): ${fmt(row.perSecond)} logins/s, p50 ${fmt(row.p50, 1)} ms, p99 ${fmt(row.p99, 1)} ms, ` +
            `max ${fmt(row.max, 1)} ms, wrong ${row.wrong}, errors ${row.errors}, hook CPU ${fmt(row.cpu)} %, load generator ${fmt(row.bench)} %, machine ${fmt(row.busy)} %, ` +
            `RSS ${fmt(row.idleRss)} → ${fmt(row.rss)} MB, start ${fmt(startMs)} ms`,
        );
      }
    } finally {
      await platform.cleanup();
    }
    await sleep(500);
  }
  log(
    '\n| Lamps | Connections | Start, ms | Logins/s | p50 ms | p99 ms | max ms | Wrong | Errors | Hook CPU | Load gen. | Machine | RSS idle → after, MB |',
  );
  log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows)
    log(
      `| ${fmt(r.size)} | ${r.connections} | ${fmt(r.startMs)} | ${fmt(r.perSecond)} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${fmt(r.max, 1)} | ${r.wrong} | ${r.errors} | ${fmt(r.cpu)} % | ${fmt(r.bench)} % | ${fmt(r.busy)} % | ${fmt(r.idleRss)} → ${fmt(r.rss)} |`,
    );
  if (failed) fail('Some answers were wrong or failed.');
}

main().catch((err) => fail(err.stack ?? String(err)));
