// Shared by the device benchmarks: a database of their own, the built gateway, the worker of the family measured (lamps:
// worker-lighting; broadcast terminals: worker-broadcast; LED screens: worker-led; floor screens: worker-signage;
// radars: worker-radar; alarm columns: worker-alarm) and
// the device simulator as separate processes on loopback, CPU and memory read from /proc, and clean-up of everything
// they made (database, Redis keys, retained MQTT messages, upload directory). Plain Node; only loopback addresses are
// ever contacted.
import Redis from 'ioredis';
import pg from 'pg';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { io } from 'socket.io-client';
import { freePort, projectBrokerUnlessGiven } from '../../scripts/broker.mjs';

export { freePort };
import { GATEWAY_NODE_FLAGS } from '../../scripts/lib.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const GATEWAY = join(ROOT, 'dist/apps/gateway/main.js');
export const DEVICE_SIM = join(ROOT, 'dist/apps/device-sim/main.js');

/** A device code of this run from a number `g` of generate_series and the prefix $1: `${prefix}00001`, as the simulator makes them. */
const CODE_SQL = `$1 || lpad(g::text, greatest(5, length(g::text)), '0')`;

/**
 * The device families a benchmark platform can be of: their registry rows (device type, the family's own table, from
 * a CTE `d` of the inserted devices' ids) or, for a family whose devices have records of their own (`deviceType`
 * null: floor screens), those records (numbers `g` from 1 to $2, codes from the prefix $1, region $3, names from $4);
 * the worker that serves them, and the simulator's arguments for `count` of them with this run's codes.
 */
export const FAMILIES = {
  lamp: {
    noun: 'lamp',
    deviceType: 1,
    table: 'lamp',
    worker: 'worker-lighting',
    rows: `INSERT INTO lamp (device_id) SELECT id FROM d`,
    // One MQTT connection per simulated gateway (50 lamps by default).
    fleetArgs: (count, prefix) => ['--count', String(count), '--prefix', prefix, '--multiplexed'],
    gatewayEnv: () => ({}),
  },
  broadcast: {
    noun: 'terminal',
    deviceType: 3,
    table: 'broadcast_terminal',
    worker: 'worker-broadcast',
    // A terminal's IP address is required; these are made up from its id (10.x.y.z), none is ever contacted.
    rows: `INSERT INTO broadcast_terminal (device_id, terminal_ip)
           SELECT id, '10.' || (id / 65536 % 256) || '.' || (id / 256 % 256) || '.' || (id % 256) FROM d`,
    // Terminals hang off no gateway: each has an MQTT connection of its own, as on the street.
    fleetArgs: (count, prefix) => ['--family', 'broadcast', '--count', String(count), '--prefix', prefix],
    // Terminals download their media from the links the gateway signs: under the address it listens on.
    gatewayEnv: (baseUrl) => ({ MEDIA_LINK_BASE_URL: baseUrl }),
  },
  led: {
    noun: 'screen',
    deviceType: 4,
    table: 'led_screen',
    worker: 'worker-led',
    // An IP address, a panel size and a time zone are required; made up like the terminals' (none is ever contacted).
    rows: `INSERT INTO led_screen (device_id, ip_address, width, height, time_zone)
           SELECT id, '10.' || (id / 65536 % 256) || '.' || (id / 256 % 256) || '.' || (id % 256), 640, 320, 'Asia/Shanghai' FROM d`,
    // Screens, like terminals, each have an MQTT connection of their own.
    fleetArgs: (count, prefix) => ['--family', 'led', '--count', String(count), '--prefix', prefix],
    // Screens fetch their files from the links the gateway signs.
    gatewayEnv: (baseUrl) => ({ MEDIA_LINK_BASE_URL: baseUrl }),
  },
  radar: {
    noun: 'radar',
    deviceType: 5,
    table: 'radar_terminal',
    worker: 'worker-radar',
    rows: `INSERT INTO radar_terminal (device_id) SELECT id FROM d`,
    // Radars, like terminals, each have an MQTT connection of their own; they detect at --radar-rate a minute.
    fleetArgs: (count, prefix) => ['--family', 'radar', '--count', String(count), '--prefix', prefix],
    gatewayEnv: () => ({}),
  },
  alarm: {
    noun: 'column',
    deviceType: 7,
    table: 'alarm_column',
    worker: 'worker-alarm',
    rows: `INSERT INTO alarm_column (device_id) SELECT id FROM d`,
    // Alarm columns, like terminals, each have an MQTT connection of their own; they are pressed at --activity-rate.
    fleetArgs: (count, prefix) => ['--family', 'alarm', '--count', String(count), '--prefix', prefix],
    gatewayEnv: () => ({}),
  },
  camera: {
    noun: 'camera',
    deviceType: 9,
    table: 'camera',
    worker: 'worker-video',
    // Open cameras (no login), their RTSP addresses set by the benchmark once it knows the simulator's port.
    rows: `INSERT INTO camera (device_id, vendor, category, sub_type) SELECT id, 3, 1, 2 FROM d`,
    // The registry's cameras alone, each a picture drawn by the simulator while watched.
    fleetArgs: () => ['--from-db', '--family', 'camera'],
    gatewayEnv: () => ({}),
  },
  signage: {
    noun: 'player',
    deviceType: null,
    table: 'signage_device',
    worker: 'worker-signage',
    // Records of their own, no registry row.
    rows: `INSERT INTO signage_device (code, name, region_id) SELECT ${CODE_SQL}, $4 || g, $3 FROM generate_series(1, $2::int) g`,
    // Floor screens, like terminals, each have an MQTT connection of their own.
    fleetArgs: (count, prefix) => ['--family', 'signage', '--count', String(count), '--prefix', prefix],
    // Players fetch their plans' materials from the links the gateway signs.
    gatewayEnv: (baseUrl) => ({ MEDIA_LINK_BASE_URL: baseUrl }),
  },
};

/** A family's devices as `t` of a FROM clause, with the column of their codes (the registry's, or their own records'). */
function familyDevices(name) {
  const family = FAMILIES[name];
  // The table name comes from FAMILIES, never from input.
  return family.deviceType === null
    ? { from: `${family.table} t`, code: 't.code' }
    : { from: `${family.table} t JOIN device d ON d.id = t.device_id`, code: 'd.code' };
}

export const workerPath = (family) => join(ROOT, `dist/apps/${FAMILIES[family].worker}/main.js`);
/** The lighting worker (the lamp benchmarks' worker). */
export const WORKER = workerPath('lamp');
export const PASSWORD = 'SmartCity@2026';

const env = process.env;
export const services = {
  serverUrl: env.BENCH_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  mqttUrl: env.MQTT_URL ?? 'mqtt://127.0.0.1:1883',
};

/**
 * The benchmarks measure the product with the broker it ships: Mosquitto with deploy/mosquitto/mosquitto.conf on a free
 * loopback port of the run's own (stopped when the run exits), unless MQTT_URL names another broker.
 */
export const broker = await projectBrokerUnlessGiven();
if (broker) services.mqttUrl = broker.url;

export const log = (line = '') => process.stdout.write(`${line}\n`);

export function fail(message) {
  process.stderr.write(`\n${message}\n\n`);
  process.exit(2);
}

/**
 * The environment's settings of a benchmark that publishes files to devices with connections of their own (LED tasks,
 * ad plans): RUNS (1), TARGET_SECONDS (optional: every publication terminal within it), ACK_LATENCY of the simulator
 * (`50-300` ms), MEDIA_KB of the large file (100), DOWNLOAD_CONCURRENCY (100: one simulator process plays every
 * device, real ones each have their own host), CONNECT_TIMEOUT_SECONDS and FOLLOW_TIMEOUT_SECONDS (300).
 */
export function publicationSettings() {
  return {
    runs: Number(env.RUNS ?? 1),
    targetSeconds: env.TARGET_SECONDS === undefined ? null : Number(env.TARGET_SECONDS),
    /** Optional: all terminal at most this many seconds past the simulator's own download time (the issues' 10 s). */
    targetOverDownloadSeconds: env.TARGET_OVER_DOWNLOAD_SECONDS === undefined ? null : Number(env.TARGET_OVER_DOWNLOAD_SECONDS),
    ackLatency: env.ACK_LATENCY ?? '50-300',
    mediaKb: Number(env.MEDIA_KB ?? 100),
    downloadConcurrency: Number(env.DOWNLOAD_CONCURRENCY ?? 100),
    connectTimeoutSeconds: Number(env.CONNECT_TIMEOUT_SECONDS ?? 300),
    followTimeoutSeconds: Number(env.FOLLOW_TIMEOUT_SECONDS ?? 300),
  };
}

/** These benchmarks send traffic to this machine only. */
export function assertLoopback(url, what) {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (!(host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)))
    fail(`${what} must be on this machine (loopback), not ${host}.`);
}

export function checkPrerequisites(family = 'lamp') {
  for (const file of [GATEWAY, workerPath(family), DEVICE_SIM]) {
    if (!existsSync(file))
      fail(
        `${file} is missing: build first with\n\n  npx nest build gateway && npx nest build ${FAMILIES[family].worker} && npx nest build device-sim`,
      );
  }
  assertLoopback(services.serverUrl, 'PostgreSQL');
  assertLoopback(services.redisUrl, 'Redis');
  assertLoopback(services.mqttUrl, 'MQTT');
}

/**
 * Fails unless this process may open `needed` files (sockets): the simulator and the broker inherit its limit, and a
 * fleet whose devices each have an MQTT connection (broadcast terminals) needs one socket per device in each.
 */
export function checkOpenFiles(needed, what) {
  const limit = Number(/^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? NaN);
  if (Number.isFinite(limit) && limit < needed)
    fail(`${what} needs about ${needed} open files per process, and this shell allows ${limit}: raise it first (ulimit -n ${needed}).`);
}

export async function withClient(url, run) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// CPU and memory from /proc (Linux): process.cpuUsage() only knows this process.

export const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process, in clock ticks; null once it is gone. */
export function processTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      ticks: Number(fields[11]) + Number(fields[12]),
      children: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return null;
  }
}

/** Resident memory in MB (VmRSS), and the peak (VmHWM). */
export function processMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return { rssMb: 0, peakMb: 0 };
  }
}

/**
 * The benchmark's own MQTT account on this run's broker (`svc/bench`: its raw floods under `bench/#`, and `$SYS`), or
 * none on a broker that takes anyone. Written as a fragment of the broker's access directory in Mosquitto's `$6$`
 * format; the gateway merges it with its own accounts when it starts, so call this before startGateway().
 */
export const benchLogin = (() => {
  const dir = env.MQTT_BROKER_ACCESS_DIR;
  if (!dir) return {};
  const username = 'svc/bench';
  const password = randomBytes(24).toString('hex');
  const salt = randomBytes(12);
  const hash = createHash('sha512').update(password).update(salt).digest();
  mkdirSync(join(dir, 'fragments'), { recursive: true });
  writeFileSync(join(dir, 'fragments', 'bench.passwd'), `${username}:$6$${salt.toString('base64')}$${hash.toString('base64')}\n`);
  writeFileSync(join(dir, 'fragments', 'bench.acl'), `user ${username}\ntopic readwrite bench/#\ntopic read $SYS/#\n`);
  return { username, password };
})();

/** `mosquitto_pub` / `mosquitto_sub` arguments for the benchmark's login. */
export const benchLoginArgs = () => (benchLogin.username ? ['-u', benchLogin.username, '-P', benchLogin.password] : []);

/**
 * The login of a platform service on this run's broker (none on a broker that takes anyone): the password the gateway
 * derives from the run's credential secret (`main.js mqtt-password`).
 */
export function serviceLogin(service) {
  if (!env.MQTT_CREDENTIAL_SECRET) return {};
  const username = `svc/${service}`;
  const result = spawnSync('node', [GATEWAY, 'mqtt-password', username], { env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`mqtt-password ${username}: ${result.stderr || result.stdout}`);
  return { username, password: result.stdout.trim() };
}

/**
 * CPU ticks of a process and of its children, running or ended (a service that runs ffmpeg processes): its own, those
 * of the children it has reaped (cutime, cstime) and those of its live children. Between two readings this is the
 * tree's work in between, whether a child ran throughout, started or ended.
 */
export function processTreeTicks(pid) {
  const all = (stat) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) };
  };
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const proc = all(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (Number(entry) === pid || proc.ppid === pid) total += proc.ticks;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** Ticks of every process whose name starts with `prefix` (PostgreSQL backends, the broker), reaped children included. */
export function ticksByName(prefix) {
  const out = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const p = processTicks(entry);
    if (p && p.comm.startsWith(prefix)) out.set(entry, p.ticks + p.children);
  }
  return out;
}

export function machineTicks() {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { total: cpu.reduce((a, b) => a + b, 0), idle: cpu[3] + (cpu[4] ?? 0) };
}

/** A CPU snapshot of named processes (pids), of PostgreSQL and Mosquitto, of this process and of the machine. */
export function cpuSnapshot(pids) {
  return {
    at: performance.now(),
    procs: Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, processTicks(pid)?.ticks ?? 0])),
    postgres: ticksByName('postgres'),
    mosquitto: ticksByName('mosquitto'),
    self: process.cpuUsage(),
    machine: machineTicks(),
  };
}

/** CPU between two snapshots, in % of one core (200 % = both cores of the benchmark machine). */
export function cpuBetween(a, b) {
  const seconds = (b.at - a.at) / 1000;
  const pct = (ticks) => (100 * ticks) / CLK_TCK / seconds;
  const sum = (before, after) => [...after].reduce((n, [pid, t]) => n + t - (before.get(pid) ?? 0), 0);
  const self = process.cpuUsage(a.self);
  const total = b.machine.total - a.machine.total;
  return {
    ...Object.fromEntries(Object.keys(b.procs).map((name) => [name, pct(b.procs[name] - a.procs[name])])),
    postgres: pct(sum(a.postgres, b.postgres)),
    mosquitto: pct(sum(a.mosquitto, b.mosquitto)),
    bench: ((self.user + self.system) / 1e6 / seconds) * 100,
    machineBusy: total > 0 ? (100 * (total - (b.machine.idle - a.machine.idle))) / total : 0,
  };
}

/** How busy the machine is with nothing of ours running: other work skews the numbers. */
export async function ambientLoad(ms = 2000) {
  const from = machineTicks();
  await sleep(ms);
  const to = machineTicks();
  return (100 * (to.total - from.total - (to.idle - from.idle))) / Math.max(1, to.total - from.total);
}

/** Measures and logs how busy the machine is before a load (ambientLoad); answers the percentage. */
export async function logAmbientLoad() {
  const ambient = await ambientLoad();
  log(`  machine busy before the load: ${ambient.toFixed(0)} %${ambient > 15 ? ' (something else is running: expect lower numbers)' : ''}`);
  return ambient;
}

/** A result table's CPU cells (cpuBetween of gateway, worker and fleet), in % of one core. */
export const cpuCells = (cpu) =>
  `${cpu.gateway.toFixed(0)} % | ${cpu.worker.toFixed(0)} % | ${cpu.fleet.toFixed(0)} % | ${cpu.postgres.toFixed(0)} % | ${cpu.mosquitto.toFixed(0)} % |`;

// ---------------------------------------------------------------------------------------------------------------
// The platform: a database, the gateway, the family's worker, the simulated fleet.

/**
 * Everything one benchmark run owns; `cleanup()` removes all of it, also after a failure or Ctrl-C. A platform is of
 * one device family (FAMILIES; lamps unless `family` says otherwise): its devices, its worker and its simulated fleet.
 */
export class BenchPlatform {
  constructor(label, { family = 'lamp' } = {}) {
    if (!FAMILIES[family]) throw new Error(`no benchmark family ${family}: ${Object.keys(FAMILIES).join(', ')}`);
    this.family = family;
    const tag = randomBytes(3).toString('hex');
    this.dbName = `sc_bench_${label}_${tag}`;
    this.redisPrefix = `bench:${label}:${tag}:`;
    /** Device codes of this run: `${codePrefix}00001`, … as the simulator generates them. */
    this.codePrefix = `B${tag.toUpperCase()}-`;
    this.intakeGroup = `bench-${label}-${tag}`;
    this.children = new Map();
    this.outputs = new Map();
    this.retainedTopics = new Set();
    this.uploadDir = null;
    this.cleaning = null;
    for (const signal of ['SIGINT', 'SIGTERM']) {
      process.once(signal, () => {
        log(`\n${signal}: stopping`);
        void this.cleanup().finally(() => process.exit(130));
      });
    }
  }

  /** The code of this run's `n`th device (1 …), as the simulator and addDevices make them. */
  code(n) {
    return `${this.codePrefix}${String(n).padStart(5, '0')}`;
  }

  get databaseUrl() {
    const url = new URL(services.serverUrl);
    url.pathname = `/${this.dbName}`;
    return url.toString();
  }

  serviceEnv(extra = {}) {
    return {
      ...env,
      DATABASE_URL: this.databaseUrl,
      REDIS_URL: services.redisUrl,
      MQTT_URL: services.mqttUrl,
      REDIS_PREFIX: this.redisPrefix,
      INTAKE_GROUP: this.intakeGroup,
      LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'warn',
      LOG_FORMAT: 'json',
      ...extra,
    };
  }

  /** Creates the database, migrates it and loads the demo data (the admin account) with the built gateway. */
  async createDatabase() {
    await withClient(services.serverUrl, (c) => c.query(`CREATE DATABASE ${this.dbName}`));
    for (const command of ['migrate', 'seed-demo']) await this.runToEnd('gateway', [GATEWAY, command]);
  }

  /**
   * What a fan-out benchmark starts with: its database with `count` devices (`noun`, for the log) in one region, then
   * the gateway and the family's worker; answers the region id and the two processes.
   */
  async prepare(count, noun) {
    const t = performance.now();
    await this.createDatabase();
    const regionId = await this.addDevices(count);
    log(`  ${this.dbName} ready with ${fmt(count)} ${noun} (${this.codePrefix}00001 …) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const gateway = await this.startGateway();
    const worker = await this.startWorker();
    log(`  gateway pid ${gateway.pid} on ${this.baseUrl}, worker pid ${worker.pid}, Redis prefix ${this.redisPrefix}`);
    return { regionId, gateway, worker };
  }

  /**
   * `count` devices of the platform's family (registry row + the family's row, or the family's own record) with the
   * simulator's codes, in one region of their own; returns the region id.
   */
  async addDevices(count) {
    const family = FAMILIES[this.family];
    return withClient(this.databaseUrl, async (c) => {
      // Only this run's devices of the family are known: the demo's codes may be spoken for by another simulator on the broker.
      if (family.deviceType === null) await c.query(`DELETE FROM ${family.table}`);
      else await c.query(`DELETE FROM device WHERE type = $1`, [family.deviceType]);
      const {
        rows: [region],
      } = await c.query(`INSERT INTO region (region_name, remark) VALUES ($1, 'benchmark') RETURNING id`, [`Bench ${this.codePrefix}`]);
      if (family.deviceType === null) await c.query(family.rows, [this.codePrefix, count, region.id, `bench ${family.noun} `]);
      else
        await c.query(
          `WITH d AS (INSERT INTO device (type, code, name, region_id)
                      SELECT $4, ${CODE_SQL}, $5 || g, $3 FROM generate_series(1, $2::int) g RETURNING id)
           ${family.rows}`,
          [this.codePrefix, count, region.id, family.deviceType, `bench ${family.noun} `],
        );
      await c.query(`ANALYZE`);
      return region.id;
    });
  }

  /** `count` lamps with the simulator's codes in a region of their own (a lamp platform's devices); returns the region id. */
  addLamps(count) {
    if (this.family !== 'lamp') throw new Error(`addLamps on a ${this.family} platform: use addDevices`);
    return this.addDevices(count);
  }

  /**
   * Waits until every device of this run is online in the database, or until the count has not moved for 3 s: a
   * broker that drops part of the start-up burst (Mosquitto's max_queued_messages) leaves some devices unreported,
   * which the run says. Answers how many are online.
   */
  async waitOnline(count, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    let online = -1;
    let since = Date.now();
    while (Date.now() < deadline) {
      const now = await withClient(this.databaseUrl, async (c) => {
        const devices = familyDevices(this.family);
        const { rows } = await c.query(`SELECT count(*)::int AS n FROM ${devices.from} WHERE ${devices.code} LIKE $1 AND t.network_status = 1`, [
          `${this.codePrefix}%`,
        ]);
        return rows[0].n;
      });
      if (now >= count) return now;
      if (now !== online) [online, since] = [now, Date.now()];
      else if (Date.now() - since > 3000) return online;
      await sleep(250);
    }
    return online;
  }

  runToEnd(name, args, extraEnv = {}) {
    return new Promise((ok, ko) => {
      const child = spawn(process.execPath, args, { cwd: ROOT, env: this.serviceEnv(extraEnv), stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('error', ko);
      child.on('exit', (code) => (code === 0 ? ok(output) : ko(new Error(`${name} ${args.slice(1).join(' ')} exited with ${code}:\n${output}`))));
    });
  }

  /**
   * A long-running child; its output is kept (last 200 kB) for errors and for the simulator's final counters, and
   * written whole to BENCH_LOG_DIR/<name>.log when that is set.
   */
  spawn(name, args, extraEnv = {}, { stdin = 'ignore' } = {}) {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: this.serviceEnv(extraEnv), stdio: [stdin, 'pipe', 'pipe'] });
    this.outputs.set(name, '');
    const file = env.BENCH_LOG_DIR ? join(env.BENCH_LOG_DIR, `${name}.log`) : null;
    if (file) mkdirSync(env.BENCH_LOG_DIR, { recursive: true });
    const keep = (d) => {
      this.outputs.set(name, (this.outputs.get(name) + d).slice(-200_000));
      if (file) appendFileSync(file, d);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    this.children.set(name, child);
    return child;
  }

  output(name) {
    return this.outputs.get(name) ?? '';
  }

  /** A run that could not go on: why, and the last lines of every service it started; exit code 2. */
  reportFailure(err) {
    process.stderr.write(`\nBenchmark failed: ${err instanceof Error ? err.message : String(err)}\n`);
    for (const name of this.outputs.keys()) {
      const out = this.output(name);
      if (out) process.stderr.write(`\n${name} output (last lines):\n${out.split('\n').slice(-15).join('\n')}\n`);
    }
    process.exitCode = 2;
  }

  /** A missed target for each of the services that logged errors. */
  checkErrors(missed, names = ['gateway', 'worker']) {
    for (const name of names)
      if (this.errors(name).length) missed.push(`the ${name} logged ${this.errors(name).length} error(s): ${this.errors(name)[0]}`);
  }

  /** Memory (RSS now and peak) of the gateway, the worker and the simulator. */
  memory() {
    const of = (name) => processMemory(this.children.get(name)?.pid);
    return { gateway: of('gateway'), worker: of('worker'), fleet: of('fleet') };
  }

  /** Error-level (50+) log lines of a service. */
  errors(name) {
    return this.output(name)
      .split('\n')
      .filter((line) => /"level":(5|6)\d/.test(line));
  }

  async startGateway() {
    const [port, uploadPort] = [await freePort(), await freePort()];
    this.uploadDir = mkdtempSync(join(tmpdir(), 'sc-bench-'));
    this.baseUrl = `http://127.0.0.1:${port}`;
    this.uploadUrl = `http://127.0.0.1:${uploadPort}`;
    const child = this.spawn('gateway', [...GATEWAY_NODE_FLAGS, GATEWAY, 'serve'], {
      HOST: '127.0.0.1',
      PORT: String(port),
      UPLOAD_PORT: String(uploadPort),
      UPLOAD_DIR: this.uploadDir,
      WEB_DIST: join(this.uploadDir, 'no-web'),
      ...FAMILIES[this.family].gatewayEnv(this.baseUrl),
    });
    await this.waitFor('gateway', child, async () => (await fetch(`${this.baseUrl}/api/health`)).ok);
    const login = await this.post('/api/user/login', { username: 'admin', password: PASSWORD });
    if (login.body?.code !== 200) throw new Error(`admin login failed: ${JSON.stringify(login.body)}`);
    this.token = login.body.data.token;
    return child;
  }

  async startWorker(extraEnv = {}) {
    const healthPort = await freePort();
    this.workerHealthUrl = `http://127.0.0.1:${healthPort}/health`;
    const child = this.spawn('worker', [workerPath(this.family)], { WORKER_HEALTH_PORT: String(healthPort), ...extraEnv });
    await this.waitFor('worker', child, async () => (await fetch(this.workerHealthUrl)).ok);
    return child;
  }

  /**
   * The console's live view of one feed of the platform's family: a socket.io client with the admin's token at the
   * handshake (websocket transport, no other message), watching `event` of the family as the console's pages ask for
   * it (DeviceStateChanged: the device pages; DispatchRowsChanged: a publication's receive status); `onFrame(frame,
   * receivedAtMs)` gets every frame.
   */
  async watchFeed(event, onFrame) {
    const socket = io(this.baseUrl, { path: '/socket.io', auth: { token: this.token }, transports: ['websocket'], reconnection: false });
    await new Promise((ok, ko) => {
      socket.once('connect', ok);
      socket.once('connect_error', ko);
    });
    socket.on(event, (frame) => onFrame(frame, Date.now()));
    await new Promise((ok) => socket.emit('watch', [{ event, family: this.family }], ok));
    return socket;
  }

  /** The device pages' live view of the platform's family (watchFeed of DeviceStateChanged). */
  watchDeviceStates(onFrame) {
    return this.watchFeed('DeviceStateChanged', onFrame);
  }

  /**
   * A plain MQTT subscriber (QoS 0) to one channel of some of this run's devices (`codes`), logged in as the platform
   * `service` whose account may read it (serviceLogin): what the devices send, timed as it leaves the broker, as the
   * family's worker hears it. `onMessage(code, payload, receivedAtMs)` gets every message; answers the client.
   */
  async subscribeDevices(service, codes, channel, onMessage) {
    const client = await mqtt.connectAsync(services.mqttUrl, { reconnectPeriod: 0, ...serviceLogin(service) });
    client.on('message', (topic, payload) => onMessage(topic.split('/')[3], payload, Date.now()));
    // The platform's families are named as their topics are (city/v1/{family}/{code}/{channel}).
    await client.subscribeAsync(
      codes.map((code) => `city/v1/${this.family}/${code}/${channel}`),
      { qos: 0 },
    );
    return client;
  }

  /** The worker's counters; a refused or reset connection is retried for 5 s before it counts as a failure. */
  async workerHealth() {
    const worker = this.children.get('worker');
    for (let attempt = 1; ; attempt++) {
      try {
        // eslint-disable-next-line no-undef -- a Node global the lint configuration does not list
        const res = await fetch(this.workerHealthUrl, { signal: AbortSignal.timeout(5000) });
        return await res.json();
      } catch (err) {
        if (worker && worker.exitCode !== null) throw new Error(`the worker exited with ${worker.exitCode}:\n${this.output('worker').slice(-3000)}`);
        if (attempt >= 10) throw new Error(`GET ${this.workerHealthUrl}: ${err.cause?.message ?? err.message}`);
        await sleep(500);
      }
    }
  }

  /**
   * The simulator CLI for `count` devices of the platform's family with this run's codes; resolves once it logged
   * that the fleet is connected (within `timeoutMs`). With `control`, the simulator takes commands (fleetCommand).
   */
  async startFleet(count, args = [], { timeoutMs = 120_000, control = false } = {}) {
    const child = this.spawn(
      'fleet',
      [DEVICE_SIM, ...FAMILIES[this.family].fleetArgs(count, this.codePrefix), '--clear-retained', ...(control ? ['--control-stdin'] : []), ...args],
      { LOG_LEVEL: 'info' },
      { stdin: control ? 'pipe' : 'ignore' },
    );
    await this.waitFor('fleet', child, async () => this.output('fleet').includes('device-sim fleet connected'), timeoutMs);
    return child;
  }

  /**
   * The simulator for `count` devices that each have an MQTT connection of their own (ack latency, downloads at once
   * and so on in `args`), started and followed until every one is online in the database, both logged; devices left
   * offline go to `missed`. Then logs how busy the machine is before the load. Answers the simulator's process.
   */
  async startFleetOnline(count, args, { connectTimeoutSeconds, missed, control = false }) {
    const noun = FAMILIES[this.family].noun;
    const t = performance.now();
    const fleet = await this.startFleet(count, args, { timeoutMs: connectTimeoutSeconds * 1000, control });
    const connectedS = (performance.now() - t) / 1000;
    const online = await this.waitOnline(count, 120_000);
    log(
      `  simulator pid ${fleet.pid}: ${fmt(count)} ${noun}s connected (one MQTT connection each) in ${connectedS.toFixed(1)} s, ` +
        `simulator RSS ${processMemory(fleet.pid).rssMb.toFixed(0)} MB; ${fmt(online)} online in the database after ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    if (online < count) missed.push(`start-up: only ${fmt(online)} of ${fmt(count)} ${noun}s online`);
    await logAmbientLoad();
    return fleet;
  }

  /**
   * Sends the simulator (started with `control`) a command such as `activity 500`; answers its reply, the fleet's
   * counters when it took the command.
   */
  async fleetCommand(line) {
    const child = this.children.get('fleet');
    let heard = '';
    const reply = new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`the simulator did not answer '${line}' within 10 s`)), 10_000);
      const listen = (d) => {
        heard += d;
        // Whole lines only: a chunk may end inside one.
        const found = heard
          .split('\n')
          .slice(0, -1)
          .find((l) => l.includes('device-sim activity') || l.includes('device-sim command refused'));
        if (found) done(null, JSON.parse(found));
      };
      const done = (err, value) => {
        clearTimeout(timer);
        child.stdout.off('data', listen);
        if (err) reject(err);
        else resolve(value);
      };
      child.stdout.on('data', listen);
    });
    child.stdin.write(`${line}\n`);
    const answer = await reply;
    if (answer.msg !== 'device-sim activity') throw new Error(`the simulator refused '${line}': ${answer.err}`);
    return answer;
  }

  /**
   * The simulator's downloads so far (started with `control`): how many ended, and the milliseconds during which at
   * least one was under way. Read before and after a publication, they give the time its downloads took
   * (downloadShare).
   */
  async fleetDownloads() {
    const stats = await this.fleetCommand('stats');
    return {
      done: stats.downloadsDone ?? 0,
      failed: stats.downloadsFailed ?? 0,
      busyMs: stats.downloadBusyMs ?? 0,
      workMs: stats.downloadWorkMs ?? 0,
    };
  }

  /** Stops the simulator with SIGTERM (a clean disconnect, no Last Will) and answers its final counters. */
  async stopFleet() {
    const child = this.children.get('fleet');
    await this.stop('fleet');
    const line = this.output('fleet')
      .split('\n')
      .find((l) => l.includes('device-sim fleet stopped'));
    if (!line) throw new Error(`the simulator (pid ${child?.pid}) did not report its counters:\n${this.output('fleet').slice(-2000)}`);
    return JSON.parse(line);
  }

  async waitFor(name, child, ready, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${this.output(name).slice(-3000)}`);
      try {
        if (await ready()) return;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error(`${name} was not ready within ${timeoutMs / 1000} s:\n${this.output(name).slice(-3000)}`);
  }

  /** A multipart upload on the upload port as admin; answers the data of its envelope, or throws with the answer. */
  async upload(path, form) {
    const res = await fetch(`${this.uploadUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${this.token}` }, body: form });
    const body = await res.json();
    if (body?.code !== 200) throw new Error(`${path} answered ${res.status} ${JSON.stringify(body)}`);
    return body.data;
  }

  async post(path, body) {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  }

  async stop(name) {
    const child = this.children.get(name);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((ok) => child.once('exit', ok));
    child.kill('SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), sleep(25_000).then(() => false)]);
    if (!stopped) {
      child.kill('SIGKILL');
      await exited;
    }
  }

  cleanup() {
    this.cleaning ??= (async () => {
      // The simulator empties its devices' retained states as it stops (--clear-retained): only a device may write them.
      for (const name of ['fleet', 'worker', 'gateway']) await this.stop(name).catch(() => undefined);
      if (env.BENCH_KEEP_DATABASE === '1') log(`Kept ${this.dbName} (BENCH_KEEP_DATABASE=1)`);
      else
        await withClient(services.serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${this.dbName} WITH (FORCE)`)).catch((err) =>
          log(`Could not drop ${this.dbName}: ${err.message}`),
        );
      const redis = new Redis(services.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await redis.connect();
        let cursor = '0';
        let removed = 0;
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${this.redisPrefix}*`, 'COUNT', 1000);
          if (keys.length) removed += await redis.del(...keys);
          cursor = next;
        } while (cursor !== '0');
        log(`Cleaned up: removed ${removed} Redis key(s) under ${this.redisPrefix}, dropped ${this.dbName}`);
      } catch (err) {
        log(`Could not clean Redis keys under ${this.redisPrefix}: ${err.message}`);
      } finally {
        redis.disconnect();
      }
      if (this.uploadDir) rmSync(this.uploadDir, { recursive: true, force: true });
    })();
    return this.cleaning;
  }
}

const TERMINAL_STATES = ['delivered', 'failed', 'expired'];

/**
 * Polls a dispatch's tally every 100 ms (for at most `timeoutMs` from `started`); answers when the first row was sent,
 * when none was queued, and when all were terminal (ms from `started`), the last counts, and the batch's status.
 */
export async function followDispatch(client, dispatchId, total, started, timeoutMs = 75_000) {
  const marks = { firstSent: null, allSent: null, allTerminal: null, finishedAt: null };
  let counts = {};
  const deadline = started + timeoutMs;
  while (performance.now() < deadline) {
    // The ledger's own tally (what the worker's progress reads): counting 50,000 rows ten times a second would load
    // PostgreSQL with the benchmark's own work.
    const { rows } = await client.query(
      `SELECT sum(queued)::int AS queued, sum(sent)::int AS sent, sum(delivered)::int AS delivered, sum(failed)::int AS failed,
              sum(expired)::int AS expired
         FROM dispatch_tally WHERE dispatch_id = $1`,
      [dispatchId],
    );
    const now = performance.now() - started;
    counts = rows[0] ?? {};
    const queued = counts.queued ?? 0;
    const terminal = TERMINAL_STATES.reduce((n, s) => n + (counts[s] ?? 0), 0);
    if (marks.firstSent === null && queued < total) marks.firstSent = now;
    if (marks.allSent === null && queued === 0) marks.allSent = now;
    if (terminal === total) {
      marks.allTerminal = now;
      break;
    }
    await sleep(100);
  }
  // The batch status follows its rows (coalesced progress): wait briefly for finished_at.
  let d;
  for (let i = 0; i < 30; i++) {
    ({
      rows: [d],
    } = await client.query(`SELECT status, finished_at FROM dispatch WHERE id = $1`, [dispatchId]));
    if (d.finished_at || marks.allTerminal === null) break;
    await sleep(100);
  }
  return { marks, counts, dispatch: d };
}

/**
 * Polls a dispatch's rows every 250 ms until every device has said it received the command (a receipt) or its row is
 * terminal (an ack may overtake the receipt); answers the ms from `started`, or null at the time-out.
 */
export async function followReceived(client, dispatchId, total, started, timeoutMs) {
  while (performance.now() < started + timeoutMs) {
    const { rows } = await client.query(
      `SELECT count(*)::int AS n FROM dispatch_item i
        WHERE i.dispatch_id = $1
          AND (i.state IN ('delivered', 'failed', 'expired')
               OR EXISTS (SELECT 1 FROM dispatch_receipt r WHERE r.dispatch_id = i.dispatch_id AND r.device_id = i.device_id))`,
      [dispatchId],
    );
    if (rows[0].n >= total) return performance.now() - started;
    await sleep(250);
  }
  return null;
}

/** The memory line of a run's report (see BenchPlatform.memory), with the machine's cores. */
export function memoryLine(memory) {
  const mb = ({ rssMb, peakMb }) => `${rssMb.toFixed(0)} / ${peakMb.toFixed(0)} MB`;
  return (
    `  memory (RSS at the end, peak): gateway ${mb(memory.gateway)}, worker ${mb(memory.worker)}, simulator ${mb(memory.fleet)}; ` +
    `${execFileSync('nproc').toString().trim()} cores, CPU in % of one core`
  );
}

/** The verdict: the missed targets (exit code 1) or what was met (0). */
export function finish(missed, met) {
  log('');
  if (missed.length) log(`TARGETS MISSED: ${missed.join('; ')}`);
  else log(met);
  process.exitCode = missed.length ? 1 : 0;
}

/**
 * How long the delivered rows (of one dispatch, else all) took from their send to their stored ack, as a line after
 * `label` (null: none delivered).
 */
export async function ackTimesLine(databaseUrl, { dispatchId = null, label = 'send → stored ack' } = {}) {
  const { n, p } = await withClient(databaseUrl, async (c) => {
    const { rows } = await c.query(
      `SELECT count(*)::int AS n,
              percentile_cont(ARRAY[0.5, 0.9, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM updated_at - sent_at) * 1000) AS p
         FROM dispatch_item WHERE state = 'delivered' AND ($1::uuid IS NULL OR dispatch_id = $1::uuid)`,
      [dispatchId],
    );
    return rows[0];
  });
  return n > 0 ? `  ${label}: ${fmt(n)} rows, p50 ${fmt(p[0])} ms, p90 ${fmt(p[1])} ms, p99 ${fmt(p[2])} ms` : null;
}

/**
 * The simulator's final counters as a line, after adding to `missed` what they refuse: the devices applied other than
 * what the ledger says it delivered (`delivered` over the runs), or not every one of the `devices` applied each of the
 * `sent` commands exactly once. `noun` names the devices ('terminal', 'screen'), `what` the commands ('task').
 */
export function fleetAppliedLine(fleetStats, { noun, what = 'task', sent, devices, delivered, missed }) {
  const perDevice = Object.entries(fleetStats.appliedPerDevice ?? {})
    .map(([applied, n]) => `${fmt(Number(n))} applied ${applied}`)
    .join(', ');
  if (fleetStats.commandsApplied !== delivered)
    missed.push(`the ${noun}s applied ${fleetStats.commandsApplied} ${what}s, the ledger says ${delivered} delivered`);
  const once = fleetStats.appliedPerDevice ?? {};
  if (Object.keys(once).length !== 1 || once[sent] !== devices)
    missed.push(`not every ${noun} applied each of the ${sent} ${what}(s) exactly once: ${perDevice}`);
  return (
    `  simulator: ${fmt(fleetStats.commandsReceived)} commands received, ${fmt(fleetStats.commandsApplied)} applied (${noun}s: ${perDevice}), ` +
    `${fmt(fleetStats.duplicatesIgnored)} redeliveries ignored, ${fmt(fleetStats.acksSent)} acks, ${fmt(fleetStats.statesSent)} states, ${fmt(fleetStats.publishErrors)} publish errors`
  );
}

/**
 * A publication's time apart from its downloads, from the simulator's downloads between two readings
 * (fleetDownloads): `busySeconds`, the time some were under way; `workSeconds`, their durations added up, over the
 * simulator's bound of downloads at once (`concurrency`): the time the downloads need at that bound, whenever they
 * start. The download time is the smaller of the two, so that a platform slow to hand out its commands (downloads
 * trickling in, rarely at the bound) cannot hide in it; `overSeconds` is how far past it every row was terminal (the
 * platform's own share). Misses go to `missed` when `targetOverSeconds` is set.
 */
export function downloadShare(before, after, terminalSeconds, { concurrency, label, targetOverSeconds, missed }) {
  const share = {
    downloads: after.done - before.done,
    failedDownloads: after.failed - before.failed,
    busySeconds: (after.busyMs - before.busyMs) / 1000,
    workSeconds: (after.workMs - before.workMs) / 1000 / concurrency,
  };
  share.downloadSeconds = Math.min(share.busySeconds, share.workSeconds);
  share.overSeconds = terminalSeconds - share.downloadSeconds;
  if (targetOverSeconds !== null && !(share.overSeconds <= targetOverSeconds))
    missed.push(
      `${label}: all terminal ${Number.isFinite(share.overSeconds) ? `${share.overSeconds.toFixed(2)} s` : 'never'} past the download time, over ${targetOverSeconds} s`,
    );
  return share;
}

export const downloadShareLine = (share) =>
  `    simulator downloads: ${fmt(share.downloads)} done, ${fmt(share.failedDownloads)} failed, under way for ${share.busySeconds.toFixed(2)} s, ` +
  `${share.workSeconds.toFixed(2)} s of work at the bound; ` +
  `all terminal ${share.overSeconds.toFixed(2)} s past the download time`;

/** How many ledger rows took how many sends (more than 1: re-sent after the ack time-out), in the run's database. */
export async function sendAttempts(databaseUrl) {
  return withClient(databaseUrl, async (c) => {
    const { rows } = await c.query(`SELECT attempts, count(*)::int AS n FROM dispatch_item GROUP BY attempts ORDER BY attempts`);
    return rows;
  });
}

export const sendAttemptsLine = (attempts) =>
  `  send attempts per row: ${attempts.map((a) => `${a.attempts} → ${fmt(a.n)}`).join(', ')} (more than 1: re-sent after the ack timeout)`;

/** The worker's counters (GET /health) as the fan-out benchmarks print them. */
export const workerCountersLine = (cnt) =>
  `  worker: ${fmt(cnt.commandsPublished)} commands published, ${fmt(cnt.commandsResent)} re-sent, ${fmt(cnt.acks)} acks, ${fmt(cnt.acksIgnored)} ignored, ${fmt(cnt.expired)} expired, ` +
  `${fmt(cnt.writeErrors)} write errors; accepted ${fmt(cnt.accepted)} of ${fmt(cnt.received)} messages`;

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const fmt = (n, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : String(n);

/** Logs a latency's samples (count, p50, p95, p99, max) under `label`, indented by `indent`; answers the p99. */
export function latencySummary(label, samples, indent = '  ') {
  const sorted = [...samples].sort((a, b) => a - b);
  log(
    `${indent}${label}: ${fmt(sorted.length)} samples, p50 ${fmt(percentile(sorted, 50))} ms, p95 ${fmt(percentile(sorted, 95))} ms, ` +
      `p99 ${fmt(percentile(sorted, 99))} ms, max ${fmt(sorted.at(-1) ?? NaN)} ms`,
  );
  return percentile(sorted, 99);
}
