// Helpers shared by the start and test scripts. Plain Node, no dependencies: they run before `npm ci`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Node flags of the gateway process. A larger young generation lets V8 collect the many short-lived objects of
 * request handling with fewer pauses: about +15 % requests/s on the user-page benchmark (docs/benchmarks.md).
 */
export const GATEWAY_NODE_FLAGS = ['--max-semi-space-size=64'];

export function say(line) {
  process.stdout.write(`\x1b[36m▸\x1b[0m ${line}\n`);
}

export function fail(message, code = 1) {
  process.stderr.write(`\n${message}\n\n`);
  process.exit(code);
}

export function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) fail(`Node.js 20.19 or newer is needed (this is ${process.versions.node}).`);
}

/** Runs a command in the repository, output shown, and stops the script when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...options.env } });
  if (result.status !== 0) {
    if (options.allowFailure) return result.status ?? 1;
    fail(`${[command, ...args].join(' ')} failed (exit ${result.status ?? result.signal}).`, result.status ?? 1);
  }
  return 0;
}

/**
 * Runs several commands side by side, each one's output held and shown whole when it ends (so the lines do not mix),
 * and stops the script when any failed.
 */
export async function runTogether(commands) {
  const results = await Promise.all(
    commands.map(
      ([command, args]) =>
        new Promise((resolve) => {
          const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          child.on('error', (error) => resolve({ command, args, status: 1, output: [Buffer.from(String(error))] }));
          child.on('close', (status, signal) => resolve({ command, args, status: status ?? signal, output }));
        }),
    ),
  );
  for (const { output } of results) process.stdout.write(Buffer.concat(output));
  const failed = results.find((r) => r.status !== 0);
  if (failed)
    fail(`${[failed.command, ...failed.args].join(' ')} failed (exit ${failed.status}).`, typeof failed.status === 'number' ? failed.status : 1);
}

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/**
 * Installs the locked dependencies when they are missing or older than the lock file.
 * `npm install` rather than `npm ci`: some registry mirrors lack other platforms' optional native builds
 * (for example macOS builds of @swc/core), which npm ci reports as a lock file out of sync. With a lock file
 * present, `npm install` installs exactly the locked versions and leaves the lock file as it is.
 */
export function ensureDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(join(root, 'package-lock.json')).mtimeMs) return;
  say('Installing dependencies…');
  run('npm', ['install', '--no-audit', '--no-fund']);
}

/** The Node services, each built by Nest into dist/apps/<name>/main.js. */
export const SERVICES = [
  'gateway',
  'worker-lighting',
  'worker-broadcast',
  'worker-signage',
  'worker-led',
  'worker-radar',
  'worker-wifi',
  'worker-alarm',
  'worker-video',
  'device-sim',
];

/** Builds the services and the web app if any of their sources is newer than the last build. */
export function ensureBuilt({ force = false } = {}) {
  const shared = Math.max(newestMtime(join(root, 'libs')), statSync(join(root, 'package-lock.json')).mtimeMs);
  for (const service of SERVICES) {
    if (!existsSync(join(root, 'apps', service))) continue;
    const out = join(root, 'dist', 'apps', service, 'main.js');
    if (force || !existsSync(out) || statSync(out).mtimeMs < Math.max(shared, newestMtime(join(root, 'apps', service)))) {
      say(`Building ${service}…`);
      run('npx', ['nest', 'build', service]);
    }
  }
  const web = join(root, 'apps', 'web');
  if (existsSync(join(web, 'package.json'))) {
    const webOut = join(web, 'dist', 'index.html');
    const webSources = Math.max(newestMtime(web), newestMtime(join(root, 'libs')));
    if (force || !existsSync(webOut) || statSync(webOut).mtimeMs < webSources) {
      say('Building the web console…');
      run('npm', ['run', 'build', '--workspace', 'apps/web']);
    }
  }
}

/** Starts a long-running child with output shown; returns the child. */
export function start(command, args, env = {}) {
  return spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
}
