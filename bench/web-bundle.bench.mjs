// Weighs the JavaScript each console route needs before it can render, from the production build's manifest:
// the entry chunk, the interface language's core catalogue, the split component of every route file on the way to
// the page and the page's translation namespaces (RouteEntry.namespaces), each with its static imports, gzipped. Dynamic imports that load later (the socket client, pinyin for the
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
  '/lampPole/poleManage': ['_auth', '_auth/_shell', '_auth/_shell/lampPole/poleManage'],
  '/smartLamp/equipmentManage': ['_auth', '_auth/_shell', '_auth/_shell/smartLamp/equipmentManage'],
  '/smartLamp/lampControl': ['_auth', '_auth/_shell', '_auth/_shell/smartLamp/lampControl'],
  '/smartLamp/lampStrategy': ['_auth', '_auth/_shell', '_auth/_shell/smartLamp/lampStrategy'],
  '/smartLamp/lightManage': ['_auth', '_auth/_shell', '_auth/_shell/smartLamp/lightManage'],
  '/smartLamp/lightStrategy': ['_auth', '_auth/_shell', '_auth/_shell/smartLamp/lightStrategy'],
  '/smartLamp/lampAlarm': ['_auth', '_auth/_shell', '_auth/_shell/smartLamp/lampAlarm'],
  '/smartLamp/energy': ['_auth', '_auth/_shell', '_auth/_shell/smartLamp/energy'],
  '/broadcastManage/terminalManagement': ['_auth', '_auth/_shell', '_auth/_shell/broadcastManage/terminalManagement'],
  '/floor-screen/device': ['_auth', '_auth/_shell', '_auth/_shell/floor-screen/device'],
  '/realVideo/equipment': ['_auth', '_auth/_shell', '_auth/_shell/realVideo/equipment'],
  '/realVideo/video': ['_auth', '_auth/_shell', '_auth/_shell/realVideo/video'],
  '/floor-screen/advert': ['_auth', '_auth/_shell', '_auth/_shell/floor-screen/advert'],
  '/floor-screen/ad-plan': ['_auth', '_auth/_shell', '_auth/_shell/floor-screen/ad-plan'],
  '/floor-screen/plays': ['_auth', '_auth/_shell', '_auth/_shell/floor-screen/plays'],
  '/floor-screen/log': ['_auth', '_auth/_shell', '_auth/_shell/floor-screen/log'],
  '/broadcastManage/terminalDetail': ['_auth', '_auth/_shell', '_auth/_shell/broadcastManage/terminalDetail'],
  '/broadcastManage/groupManagement': ['_auth', '_auth/_shell', '_auth/_shell/broadcastManage/groupManagement'],
  '/broadcastManage/groupManagementCreate': ['_auth', '_auth/_shell', '_auth/_shell/broadcastManage/groupManagementCreate'],
  '/broadcastManage/groupManagementEdit': ['_auth', '_auth/_shell', '_auth/_shell/broadcastManage/groupManagementEdit'],
  '/broadcastManage/mediaLibrary': ['_auth', '_auth/_shell', '_auth/_shell/broadcastManage/mediaLibrary'],
  '/broadcastManage/playList': ['_auth', '_auth/_shell', '_auth/_shell/broadcastManage/playList'],
  '/broadcastManage/broadcastTask': ['_auth', '_auth/_shell', '_auth/_shell/broadcastManage/broadcastTask'],
  '/broadcastManage/immediatelyBroadcastTask': ['_auth', '_auth/_shell', '_auth/_shell/broadcastManage/immediatelyBroadcastTask'],
  '/ledManage/ledEquipmentManage': ['_auth', '_auth/_shell', '_auth/_shell/ledManage/ledEquipmentManage'],
  '/ledManage/ledMediaLib': ['_auth', '_auth/_shell', '_auth/_shell/ledManage/ledMediaLib'],
  '/ledManage/ledRealTimePlay': ['_auth', '_auth/_shell', '_auth/_shell/ledManage/ledRealTimePlay'],
  '/ledManage/ledTaskManage': ['_auth', '_auth/_shell', '_auth/_shell/ledManage/ledTaskManage'],
  '/radarManage/radarTerminalManagement': ['_auth', '_auth/_shell', '_auth/_shell/radarManage/radarTerminalManagement'],
  '/radarManage/radarGroupManagement': ['_auth', '_auth/_shell', '_auth/_shell/radarManage/radarGroupManagement'],
  '/radarManage/radarStrategyManagement': ['_auth', '_auth/_shell', '_auth/_shell/radarManage/radarStrategyManagement'],
  '/radarManage/radarCreateGroup': ['_auth', '_auth/_shell', '_auth/_shell/radarManage/radarCreateGroup'],
  '/radarManage/radarEditGroup': ['_auth', '_auth/_shell', '_auth/_shell/radarManage/radarEditGroup'],
  '/wifiManage/acManage': ['_auth', '_auth/_shell', '_auth/_shell/wifiManage/acManage'],
  '/wifiManage/apManage': ['_auth', '_auth/_shell', '_auth/_shell/wifiManage/apManage'],
  '/wifiManage/terminalManage': ['_auth', '_auth/_shell', '_auth/_shell/wifiManage/terminalManage'],
  '/alarmManage/alarmManage': ['_auth', '_auth/_shell', '_auth/_shell/alarmManage/alarmManage'],
  '/alarmManage/userGroupManagement': ['_auth', '_auth/_shell', '_auth/_shell/alarmManage/userGroupManagement'],
  '/alarmManage/callLogQuery': ['_auth', '_auth/_shell', '_auth/_shell/alarmManage/callLogQuery'],
  '/alarmManage/equipmentInquiry': ['_auth', '_auth/_shell', '_auth/_shell/alarmManage/equipmentInquiry'],
  '/alarmManage/deviceAlarms': ['_auth', '_auth/_shell', '_auth/_shell/alarmManage/deviceAlarms'],
};

/** RouteEntry.namespaces of a path in the console's route table (apps/web/src/navigation/route-table.ts). */
const routeTable = readFileSync(join(root, 'apps/web/src/navigation/route-table.ts'), 'utf8');
function namespacesOf(path) {
  const at = routeTable.indexOf(`path: '${path}'`);
  if (at < 0) return [];
  const entry = routeTable.slice(at, routeTable.indexOf('}', at));
  const list = entry.match(/namespaces:\s*\[([^\]]*)\]/);
  return list ? [...list[1].matchAll(/'(\w+)'/g)].map((m) => m[1]) : [];
}

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

/**
 * The chunks holding a route file's split component. Usually the manifest names it `src/routes/<file>.tsx?tsr-split=
 * component`, but Rollup may merge it into a shared chunk under another name, so the chunks are found by their source
 * maps: every chunk outside the entry that contains code of the route file.
 */
const sourcesOf = new Map();
function chunkSources(key) {
  if (!sourcesOf.has(key)) {
    const map = join(dist, `${manifest[key].file}.map`);
    sourcesOf.set(key, existsSync(map) ? JSON.parse(readFileSync(map, 'utf8')).sources : []);
  }
  return sourcesOf.get(key);
}
/** The chunks outside the entry holding code of a source file (Rollup may have merged it into a shared chunk). */
function chunksHolding(suffix) {
  return Object.keys(manifest).filter(
    (key) => manifest[key].file.endsWith('.js') && !entryChunks.has(key) && chunkSources(key).some((s) => s.split('?')[0].endsWith(suffix)),
  );
}
function inEntry(suffix) {
  return [...entryChunks].some((key) => chunkSources(key).some((s) => s.split('?')[0].endsWith(suffix)));
}
function routeChunks(file) {
  const found = chunksHolding(`/src/routes/${file}.tsx`);
  if (found.length === 0 && !file.startsWith('_auth/_shell/') && file !== '_auth/_shell' && file !== '_auth' && file !== 'login')
    throw new Error(`no chunk holds src/routes/${file}.tsx`);
  return found;
}
const language = 'src/i18n/locales/en/core.ts';
const rows = [];
for (const [path, files] of Object.entries(ROUTES)) {
  const keys = new Set([...entryChunks, ...closure(language)]);
  for (const file of files) for (const key of routeChunks(file)) closure(key, keys);
  // The page's translation namespaces, which the router loads before it shows the page.
  if (namespacesOf(path).length > 0) closure('src/i18n/locales/en/namespaces.ts', keys);
  for (const ns of namespacesOf(path)) {
    const key = `src/i18n/locales/en/${ns}.ts`;
    const found = manifest[key] ? [key] : chunksHolding(`/${key}`);
    if (found.length === 0 && !inEntry(`/${key}`)) throw new Error(`no chunk for the namespace ${ns} of ${path}`);
    for (const k of found) closure(k, keys);
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
