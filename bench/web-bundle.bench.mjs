// Weighs the JavaScript each console route needs before it can render, from the production build's manifest:
// the entry chunk, the interface language, and the split component of every route file on the way to the page,
// each with its static imports, gzipped. Dynamic imports that load later (the socket client, pinyin for the
// search, other languages) are not part of a route's initial load.
//
//   npm run bench:web-bundle            (builds apps/web first when it is missing)
//   WEB_DIST=/path/to/dist node bench/web-bundle.bench.mjs
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { cpus, totalmem } from 'node:os';

const root = resolve(import.meta.dirname, '..');
const dist = resolve(process.env.WEB_DIST ?? join(root, 'apps/web/dist'));
const LIMIT_KB = 250;

if (!existsSync(join(dist, '.vite/manifest.json'))) {
  const built = spawnSync('npm', ['run', 'build', '--workspace', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

/** Route files from the root down to each page (TanStack file routes in apps/web/src/routes). */
const ROUTES = {
  '/login': ['login'],
  '/entry': ['_auth', '_auth/entry'],
  '/regionManage/regionManage': ['_auth', '_auth/_shell', '_auth/_shell/regionManage/regionManage'],
  '/systemSetting/userManage': ['_auth', '_auth/_shell', '_auth/_shell/systemSetting/userManage'],
  '/systemSetting/permission': ['_auth', '_auth/_shell', '_auth/_shell/systemSetting/permission'],
  '/systemSetting/log': ['_auth', '_auth/_shell', '_auth/_shell/systemSetting/log'],
  '/profile/inforManage': ['_auth', '_auth/_shell', '_auth/_shell/profile/inforManage'],
  '/smartLamp/equipmentManage': ['_auth', '_auth/_shell', '_auth/_shell/smartLamp/equipmentManage'],
  '/smartLamp/lampControl': ['_auth', '_auth/_shell', '_auth/_shell/smartLamp/lampControl'],
};

const gzipped = new Map();
function gzipKb(file) {
  if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024);
  return gzipped.get(file);
}

/** A manifest key with every chunk it imports statically. */
function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return seen;
  seen.add(key);
  for (const imported of chunk.imports ?? []) closure(imported, seen);
  return seen;
}

const entryChunks = closure('index.html');
const language = 'src/i18n/locales/en/index.ts';
const rows = [];
for (const [path, files] of Object.entries(ROUTES)) {
  const keys = new Set([...entryChunks, ...closure(language)]);
  for (const file of files) {
    const key = Object.keys(manifest).find((k) => k === `src/routes/${file}.tsx?tsr-split=component`);
    if (key) closure(key, keys);
  }
  const jsFiles = [...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  const kb = jsFiles.reduce((sum, f) => sum + gzipKb(f), 0);
  rows.push({ path, chunks: jsFiles.length, kb });
}

const entryKb = [...entryChunks].map((k) => manifest[k].file).reduce((s, f) => s + gzipKb(f), 0);
console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
console.log(`Entry (framework, router, Mantine, shared code): ${entryKb.toFixed(1)} kB gzipped`);
console.log('\n| Route | JS chunks | Initial JS, gzipped | Limit |');
console.log('|---|---:|---:|---:|');
for (const row of rows) console.log(`| ${row.path} | ${row.chunks} | ${row.kb.toFixed(1)} kB | ${LIMIT_KB} kB |`);
const worst = Math.max(...rows.map((r) => r.kb));
console.log(`\nLargest initial route: ${worst.toFixed(1)} kB gzipped (${worst <= LIMIT_KB ? 'within' : 'OVER'} the ${LIMIT_KB} kB target)`);
process.exitCode = worst <= LIMIT_KB ? 0 : 1;
