// The MQTT broker's accounts at fleet scale (docs/security.md): for fleets of 10,000, 50,000 and 100,000 lamps, fifty
// to a lamp gateway that speaks for them, the platform's writer (`main.js broker-access`) makes the broker's password
// file and access list from the registry. Measured per size: the writer's full write at start (registry read, hashes,
// files), the files' sizes, Mosquitto's memory with them loaded, the time from a device added in the registry until
// the broker takes its login, and from a device deleted while connected until the broker drops it.
//
//   npx nest build gateway && npm run bench:broker-access
//
// BENCH_SIZES (default 10000,50000,100000) and BENCH_ROUNDS (default 5). It runs the project's broker on a free loopback
// port, creates its own database and drops it at the end. Only loopback addresses are ever contacted.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt from 'mqtt';
import {
  BenchPlatform,
  GATEWAY,
  broker,
  checkPrerequisites,
  fail,
  fmt,
  log,
  percentile,
  processMemory,
  services,
  withClient,
} from './support/platform.mjs';

const SIZES = (process.env.BENCH_SIZES ?? '10000,50000,100000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PER_GATEWAY = 50;
const GIVE_UP_MS = 30_000;

/** A device account's password under this run's secret (the gateway's own derivation). */
function passwordOf(username) {
  const result = spawnSync('node', [GATEWAY, 'mqtt-password', username], { env: process.env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`mqtt-password ${username}: ${result.stderr || result.stdout}`);
  return result.stdout.trim();
}

/** Milliseconds from `started` until the broker takes the login (tried every 10 ms). */
async function loginAccepted(username, password, started) {
  for (;;) {
    try {
      const client = await mqtt.connectAsync(services.mqttUrl, { username, password, reconnectPeriod: 0, connectTimeout: 2000 });
      await client.endAsync(true);
      return Date.now() - started;
    } catch {
      if (Date.now() - started > GIVE_UP_MS) throw new Error(`${username} not accepted within ${GIVE_UP_MS} ms`);
      await sleep(10);
    }
  }
}

async function main() {
  checkPrerequisites();
  if (!broker) fail('This benchmark needs the project broker: Mosquitto installed and MQTT_URL unset.');
  const platform = new BenchPlatform('access');
  const prefix = platform.codePrefix;
  const rows = [];
  try {
    await platform.createDatabase();
    let have = 0;
    for (const size of SIZES) {
      // The fleet grows to `size` lamps, each bound to the lamp gateway of its fifty.
      await withClient(platform.databaseUrl, (c) =>
        c.query(
          `WITH d AS (INSERT INTO device (type, code, name) SELECT 1, $1 || lpad(g::text, 6, '0'), 'bench lamp' FROM generate_series($2::int, $3::int) g RETURNING id, code)
           INSERT INTO lamp (device_id, gateway_id)
           SELECT id, $1 || 'GW' || lpad(((substring(code FROM length($1) + 1)::int - 1) / ${PER_GATEWAY} + 1)::text, 5, '0') FROM d`,
          [prefix, have + 1, size],
        ),
      );
      have = size;
      const started = Date.now();
      const writer = platform.spawn('access', [GATEWAY, 'broker-access'], { LOG_LEVEL: 'info' });
      await platform.waitFor('access', writer, async () => /MQTT broker accounts written/.test(platform.output('access')), 120_000);
      const startMs = Date.now() - started;
      const written = /Broker accounts written: (\d+) \((\d+) ms\)/.exec(platform.output('access'));
      await sleep(1500);
      const memory = processMemory(Number(readFileSync(broker.pidFile, 'utf8').trim()));

      const added = [];
      const dropped = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const code = `${prefix}NEW${size}-${round}`;
        const username = `lamp/${code}`;
        const password = passwordOf(username);
        const t0 = Date.now();
        await withClient(platform.databaseUrl, async (c) => {
          const { rows: ids } = await c.query(`INSERT INTO device (type, code, name) VALUES (1, $1, 'bench lamp') RETURNING id`, [code]);
          await c.query(`INSERT INTO lamp (device_id) VALUES ($1)`, [ids[0].id]);
        });
        added.push(await loginAccepted(username, password, t0));

        const device = await mqtt.connectAsync(services.mqttUrl, { username, password, reconnectPeriod: 0 });
        const closed = new Promise((resolve) => device.once('close', resolve));
        const t1 = Date.now();
        await withClient(platform.databaseUrl, (c) => c.query(`DELETE FROM device WHERE code = $1`, [code]));
        await Promise.race([closed, sleep(GIVE_UP_MS).then(() => Promise.reject(new Error(`${username} not dropped within ${GIVE_UP_MS} ms`)))]);
        dropped.push(Date.now() - t1);
      }
      await platform.stop('access');
      platform.outputs.set('access', '');
      added.sort((a, b) => a - b);
      dropped.sort((a, b) => a - b);
      rows.push({
        size,
        accounts: Number(written?.[1] ?? NaN),
        writeMs: Number(written?.[2] ?? NaN),
        startMs,
        passwordsMb: statSync(join(broker.accessDir, 'passwords')).size / 1048576,
        aclMb: statSync(join(broker.accessDir, 'acl')).size / 1048576,
        brokerMb: memory.rssMb,
        added,
        dropped,
      });
      log(`${size} lamps: ${rows.at(-1).accounts} accounts written in ${rows.at(-1).writeMs} ms; login after add p50 ${percentile(added, 50)} ms`);
    }
  } finally {
    await platform.stop('access');
    await platform.cleanup();
  }

  log('');
  log(
    `| Lamps   | Accounts | Full write, ms | Writer start, ms | passwords / acl, MB | Mosquitto RSS, MB | Added → login taken, ms (p50 / max) | Deleted → dropped, ms (p50 / max) |`,
  );
  log(
    `| ------: | -------: | -------------: | ---------------: | ------------------: | ----------------: | ----------------------------------: | --------------------------------: |`,
  );
  for (const r of rows)
    log(
      `| ${fmt(r.size)} | ${fmt(r.accounts)} | ${fmt(r.writeMs)} | ${fmt(r.startMs)} | ${fmt(r.passwordsMb, 1)} / ${fmt(r.aclMb, 1)} | ${fmt(r.brokerMb)} | ${percentile(r.added, 50)} / ${r.added.at(-1)} | ${percentile(r.dropped, 50)} / ${r.dropped.at(-1)} |`,
    );
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`broker-access benchmark failed: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
