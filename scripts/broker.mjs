// The project's MQTT broker: Mosquitto run with the shipped configuration (deploy/mosquitto/mosquitto.conf) on a
// loopback port of its own, for `npm start`, `npm test` and the benchmarks. The shipped settings (in-flight window,
// bounded queue) decide whether bursts such as 50,000 devices coming online at once reach the platform, so the
// console is run and measured with them rather than with whatever broker the machine has. Plain Node, no dependencies.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const SHIPPED_BROKER_CONF = join(root, 'deploy', 'mosquitto', 'mosquitto.conf');

/** Whether Mosquitto is installed here (without it, the scripts use the broker at MQTT_URL or 127.0.0.1:1883). */
export function mosquittoInstalled() {
  return spawnSync('mosquitto', ['-h'], { stdio: 'ignore' }).error === undefined;
}

/** Whether something accepts TCP connections on the port (127.0.0.1). */
export function portAnswers(port, timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(timeoutMs, () => done(false));
  });
}

/** A loopback port nobody listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The shipped configuration with its listeners replaced by one on 127.0.0.1:`port`, and its pid file and access files
 * (accounts and access list, made by the platform: docs/security.md) in a directory of its own: everything else
 * (anonymous clients refused, limits, persistence) is used as shipped. The access files start empty: nobody logs in
 * until the platform's writer has made them.
 */
export function brokerConfig(port, devicePort) {
  // A directory of its own, writable by the user Mosquitto drops to when started as root.
  const dir = mkdtempSync(join(tmpdir(), 'sc-mosquitto-'));
  chmodSync(dir, 0o777);
  const shipped = readFileSync(SHIPPED_BROKER_CONF, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(listener|port|bind_address|pid_file|password_file|acl_file|use_username_as_clientid)\b/.test(line));
  const pidFile = join(dir, 'mosquitto.pid');
  const confFile = join(dir, 'mosquitto.conf');
  const accessDir = join(dir, 'access');
  mkdirSync(accessDir, { mode: 0o777 });
  chmodSync(accessDir, 0o777);
  for (const file of ['passwords', 'acl']) writeFileSync(join(accessDir, file), '', { mode: 0o644 });
  writeFileSync(
    confFile,
    [
      `# Made from ${SHIPPED_BROKER_CONF} by scripts/broker.mjs`,
      `listener ${port} 127.0.0.1`,
      // The devices' listener, as shipped: a client's id is its username there.
      ...(devicePort ? [`listener ${devicePort} 127.0.0.1`, 'use_username_as_clientid true'] : []),
      `pid_file ${pidFile}`,
      `password_file ${join(accessDir, 'passwords')}`,
      `acl_file ${join(accessDir, 'acl')}`,
      ...shipped,
    ].join('\n'),
  );
  return { dir, confFile, pidFile, accessDir };
}

/**
 * Starts Mosquitto with the shipped configuration on `port` (a free one when not given) and waits until it accepts
 * connections. Answers its URL, its configuration and pid files (for a test that restarts it) and `stop()`.
 */
export async function startProjectBroker({ port, devicePort, quiet = true } = {}) {
  const chosen = port ?? (await freePort());
  const forDevices = devicePort ?? (await freePort());
  for (const [taken, name] of [
    [chosen, 'MQTT_PORT'],
    [forDevices, 'MQTT_DEVICE_PORT'],
  ]) {
    if (await portAnswers(taken)) {
      throw new Error(
        `Port ${taken} is already taken: stop what listens there, or set ${name} to another port (or MQTT_URL to a broker of your own).`,
      );
    }
  }
  const { dir, confFile, pidFile, accessDir } = brokerConfig(chosen, forDevices);
  const child = spawn('mosquitto', ['-c', confFile], { stdio: quiet ? 'ignore' : 'inherit' });
  // Not a reason for the script to stay alive: it is stopped with the script (below).
  child.unref();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let failure;
  child.once('error', (error) => (failure = error));
  const deadline = Date.now() + 10_000;
  while (!(await portAnswers(chosen))) {
    if (failure) throw new Error(`Mosquitto could not be started (${failure.message}); install it (Debian: apt-get install mosquitto).`);
    if (child.exitCode !== null) throw new Error(`Mosquitto exited with ${child.exitCode} on start (configuration ${confFile}).`);
    if (Date.now() > deadline) throw new Error(`Mosquitto did not answer on 127.0.0.1:${chosen} within 10 s.`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // A test that restarts the broker starts it again as a daemon of its own: every Mosquitto on this configuration
  // goes with the script (also one still starting, before it has written its pid file).
  const killDaemon = () => {
    if (existsSync(pidFile)) {
      const pid = Number(readFileSync(pidFile, 'utf8').trim());
      if (pid > 0 && pid !== child.pid) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    }
    spawnSync('pkill', ['-TERM', '-f', `mosquitto -d -c ${confFile}`], { stdio: 'ignore' });
  };
  // A script that stops early (process.exit) takes its broker with it.
  const onExit = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    killDaemon();
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  return {
    port: chosen,
    url: `mqtt://127.0.0.1:${chosen}`,
    /** The devices' listener (a client's id is its username there). */
    deviceUrl: `mqtt://127.0.0.1:${forDevices}`,
    confFile,
    pidFile,
    accessDir,
    /** Stops the broker, also when a test has restarted it as a daemon of its own (found by its pid file). */
    async stop() {
      process.off('exit', onExit);
      if (child.exitCode === null) {
        child.ref();
        child.kill('SIGTERM');
        await exited;
      }
      killDaemon();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The broker a script's services use: when MQTT_URL names none and Mosquitto is installed, the project's broker is
 * started (on `port`, and `devicePort` for the devices' listener, free ones when not given) and MQTT_URL,
 * MQTT_DEVICE_URL, MQTT_BROKER_CONF, MQTT_BROKER_PID_FILE and
 * MQTT_BROKER_ACCESS_DIR are set for the script and its children, with a credential secret of this run
 * (MQTT_CREDENTIAL_SECRET) from which the gateway makes the broker's accounts and the simulator logs its devices in.
 * Answers the started broker, or null when MQTT_URL (or 127.0.0.1:1883) is used.
 */
export async function projectBrokerUnlessGiven({ port, devicePort } = {}) {
  if (process.env.MQTT_URL || !mosquittoInstalled()) return null;
  const broker = await startProjectBroker({ port, devicePort });
  Object.assign(process.env, {
    MQTT_URL: broker.url,
    MQTT_DEVICE_URL: broker.deviceUrl,
    MQTT_BROKER_CONF: broker.confFile,
    MQTT_BROKER_PID_FILE: broker.pidFile,
    MQTT_BROKER_ACCESS_DIR: broker.accessDir,
    MQTT_CREDENTIAL_SECRET: process.env.MQTT_CREDENTIAL_SECRET || randomBytes(32).toString('base64url'),
  });
  return broker;
}
