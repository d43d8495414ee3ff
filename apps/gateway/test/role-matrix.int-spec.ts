import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { buttonsOf, rolesOf, type Button, type Role } from '@sc/contracts';
import { AppModule, UploadAppModule } from '../src/app.module';
import { AccessCache } from '../src/auth/access-cache.service';
import { AUDIT_KEY, BUTTON_KEY, PUBLIC_KEY, ROLES_KEY } from '../src/common/decorators';
import { startTestGateway, type TestGateway } from './harness';

/**
 * The server-side permission matrix: every HTTP route of the gateway (console port and upload port) × {no token,
 * visitor, editor, admin}. What each caller may do is computed from the route's own declared metadata (@Public,
 * @RequireRoles, @RequireButton, read the way AuthGuard reads them) and the caller's roles and buttons as the seeded
 * groups give them; a short hand list taken from docs/permissions.md checks the same thing independently.
 *
 * Every call carries an empty body (`{}`, an empty multipart form on the upload port, no query string on GET), so
 * whatever validation refuses changes nothing.
 *
 * Never called by a signed-in caller (they end the caller's own session or change its password); they are still
 * called without a token, where they must answer 401:
 *   - GET  /api/user/logout
 *   - POST /api/user/modifyPassword
 * POST /api/user/updateUser could disable the caller itself, but only with an id and `enabled`; with `{}` it cannot.
 */
const SELF_ENDING = new Set(['GET /api/user/logout', 'POST /api/user/modifyPassword']);

/**
 * Public routes whose permission is a signature in their query string (signed media links, docs/broadcast-media.md):
 * called without one, they answer 403 to everyone, signed in or not.
 */
const SIGNED = new Set([
  'GET /api/broadcast/mediaFile',
  'GET /api/signage/material/file',
  'GET /api/signage/material/cover',
  'GET /api/led/mediaFile',
  'GET /api/led/mediaCover',
  'GET /api/signage/screenshot/image',
  'GET /api/video/hls',
  'GET /api/video/snapshot',
  'GET /api/alarm/recording',
  'PUT /api/signage/screenshot/upload',
  'POST /api/signage/screenshot/upload',
]);

type Who = 'none' | 'visitor' | 'editor' | 'admin';
const CALLERS: readonly Who[] = ['none', 'visitor', 'editor', 'admin'];

type Port = 'console' | 'upload';

interface Route {
  port: Port;
  method: string;
  path: string;
  /** `Controller.handler`, for the report. */
  handler: string;
  isPublic: boolean;
  roles?: Role[];
  button?: Button;
  audited: boolean;
}

interface Identity {
  token: string;
  roles: string[];
  buttons: string[];
}

interface Outcome {
  status: number;
  code: unknown;
}

const key = (r: { method: string; path: string }): string => `${r.method} ${r.path}`;

/** Whether the caller may pass the route's declared requirements (the rule AuthGuard applies). */
function mayCall(route: Route, who: Identity | null): boolean {
  if (route.isPublic) return true;
  if (!who) return false;
  if (route.roles && !who.roles.some((r) => route.roles!.includes(r as Role))) return false;
  if (route.button && !who.buttons.includes(route.button)) return false;
  return true;
}

type ModuleRef = Type<unknown> | { module: Type<unknown>; imports?: unknown[]; controllers?: Type<unknown>[] } | Promise<unknown>;

/** The controllers a module declares, following its imports (classes, dynamic modules, forward references, promises). */
async function declaredControllers(root: unknown): Promise<Set<Type<unknown>>> {
  const found = new Set<Type<unknown>>();
  const seen = new Set<unknown>();
  const visit = async (ref: unknown): Promise<void> => {
    let mod = ref as ModuleRef | { forwardRef?: () => unknown } | undefined;
    if (!mod || seen.has(mod)) return;
    seen.add(mod);
    if (mod instanceof Promise) return visit(await mod);
    if (typeof mod === 'object' && 'forwardRef' in mod && typeof mod.forwardRef === 'function') return visit(mod.forwardRef());
    const imports: unknown[] = [];
    const controllers: Type<unknown>[] = [];
    if (typeof mod === 'object' && 'module' in mod) {
      imports.push(...(mod.imports ?? []));
      controllers.push(...(mod.controllers ?? []));
      mod = mod.module;
    }
    if (typeof mod === 'function') {
      imports.push(...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, mod) as unknown[] | undefined) ?? []));
      controllers.push(...((Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, mod) as Type<unknown>[] | undefined) ?? []));
    }
    controllers.forEach((c) => found.add(c));
    for (const i of imports) await visit(i);
  };
  await visit(root);
  return found;
}

const joinPath = (...parts: string[]): string => `/${parts.join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');

/** The routes of these controllers under the global prefix `api`, with the metadata the guard reads. */
function routesOf(port: Port, controllers: Iterable<Type<unknown>>): Route[] {
  const reflector = new Reflector();
  const scanner = new MetadataScanner();
  const routes: Route[] = [];
  for (const controller of controllers) {
    const prefixes = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined].flat().map((p) => p ?? '');
    const proto = controller.prototype as Record<string, (...args: unknown[]) => unknown>;
    for (const name of scanner.getAllMethodNames(proto)) {
      const handler = proto[name];
      const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (paths === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
      const targets = [handler, controller];
      for (const prefix of prefixes) {
        for (const path of [paths].flat()) {
          routes.push({
            port,
            method,
            path: joinPath('api', prefix, path),
            handler: `${controller.name}.${name}`,
            isPublic: reflector.getAllAndOverride<boolean | undefined>(PUBLIC_KEY, targets) === true,
            roles: reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, targets),
            button: reflector.getAllAndOverride<Button | undefined>(BUTTON_KEY, targets),
            audited: reflector.get<string | undefined>(AUDIT_KEY, handler) !== undefined,
          });
        }
      }
    }
  }
  return routes;
}

/** One call with an empty body: `{}` as JSON on the console port, an empty multipart form on the upload port. */
async function send(gw: TestGateway, route: Route, token: string): Promise<Outcome> {
  const headers = new Headers({ 'Accept-Language': 'en-US' });
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let body: string | FormData | undefined;
  if (route.method !== 'GET' && route.method !== 'HEAD' && route.method !== 'DELETE') {
    if (route.port === 'upload') {
      body = new FormData();
    } else {
      headers.set('Content-Type', 'application/json');
      body = '{}';
    }
  }
  const base = route.port === 'upload' ? gw.uploadUrl : gw.baseUrl;
  const res = await fetch(`${base}${route.path}`, { method: route.method, headers, body });
  const text = await res.text();
  let code: unknown;
  try {
    code = (JSON.parse(text) as { code?: unknown }).code;
  } catch {
    code = undefined;
  }
  return { status: res.status, code };
}

/** What the caller's answer should look like, or null when it does. */
function problem(outcome: Outcome, allowed: boolean, who: Who, route?: { method: string; path: string }): string | null {
  if (route && SIGNED.has(key(route))) return outcome.status === 403 && outcome.code === 403 ? null : '403 without a signature';
  if (allowed) return outcome.status === 401 || outcome.status === 403 ? 'allowed (not 401/403)' : null;
  if (who === 'none') return outcome.status === 401 && outcome.code === -1 ? null : '401 with code -1';
  return outcome.status === 403 && outcome.code === 403 ? null : '403 with code 403';
}

/**
 * Independent of the metadata reading: routes and who may call them, copied from docs/permissions.md.
 * `upload` marks the calls of the upload port (:8888).
 */
const DOCUMENTED: { route: string; upload?: boolean; allowed: Who[] }[] = [
  { route: 'GET /api/health', allowed: ['none', 'visitor', 'editor', 'admin'] },
  { route: 'POST /api/user/login', allowed: ['none', 'visitor', 'editor', 'admin'] },
  { route: 'GET /api/user/info', allowed: ['visitor', 'editor', 'admin'] },
  { route: 'POST /api/user/userPage', allowed: ['admin'] },
  { route: 'GET /api/user/permissionMenu', allowed: ['admin'] },
  { route: 'POST /api/log/operationPage', allowed: ['admin'] },
  { route: 'POST /api/log/modulePage', allowed: ['editor', 'admin'] },
  { route: 'GET /api/bi/area/queryAreaTree', allowed: ['visitor', 'editor', 'admin'] },
  { route: 'POST /api/bi/area/add', allowed: ['editor', 'admin'] },
  { route: 'GET /api/bi/area/del', allowed: ['editor', 'admin'] },
  { route: 'POST /api/light/lampPage', allowed: ['admin'] },
  { route: 'POST /api/light/lampEditMqtt', allowed: ['admin'] },
  { route: 'POST /api/mqtt/renew', allowed: ['admin'] },
  { route: 'GET /api/dispatch/detail', allowed: ['visitor', 'editor', 'admin'] },
  { route: 'POST /api/broadcast/terminalPage', allowed: ['visitor', 'editor', 'admin'] },
  { route: 'GET /api/broadcast/terminalDel', allowed: ['editor', 'admin'] },
  { route: 'POST /api/broadcast/terminalVolume', allowed: ['editor', 'admin'] },
  { route: 'GET /api/broadcast/groupOptions', allowed: ['visitor', 'editor', 'admin'] },
  { route: 'GET /api/broadcast/groupDel', allowed: ['editor', 'admin'] },
  { route: 'POST /api/broadcast/mediaPage', allowed: ['visitor', 'editor', 'admin'] },
  { route: 'POST /api/signage/plan/page', allowed: ['editor', 'admin'] },
  { route: 'POST /api/signage/plan/publish', allowed: ['editor', 'admin'] },
  { route: 'POST /api/signage/plan/delete', allowed: ['editor', 'admin'] },
  { route: 'POST /api/broadcast/mediaUpload', upload: true, allowed: ['editor', 'admin'] },
  { route: 'POST /api/broadcast/mediaRename', allowed: ['editor', 'admin'] },
  { route: 'GET /api/broadcast/mediaDel', allowed: ['editor', 'admin'] },
  { route: 'POST /api/broadcast/mediaAudit', allowed: ['admin'] },
  { route: 'GET /api/broadcast/mediaPreview', allowed: ['visitor', 'editor', 'admin'] },
  { route: 'POST /api/broadcast/playlistPage', allowed: ['visitor', 'editor', 'admin'] },
  { route: 'GET /api/broadcast/playlistDel', allowed: ['editor', 'admin'] },
  { route: 'POST /api/broadcast/taskPage', allowed: ['visitor', 'editor', 'admin'] },
  { route: 'GET /api/broadcast/taskDetail', allowed: ['visitor', 'editor', 'admin'] },
  { route: 'POST /api/broadcast/taskTerminalPage', allowed: ['visitor', 'editor', 'admin'] },
  { route: 'POST /api/broadcast/taskAddOrEdit', allowed: ['editor', 'admin'] },
  { route: 'GET /api/broadcast/taskDel', allowed: ['editor', 'admin'] },
  { route: 'POST /api/broadcast/taskControl', allowed: ['editor', 'admin'] },
  { route: 'POST /api/lamp/polePage', allowed: ['visitor', 'admin'] },
  { route: 'GET /api/lamp/lampExport', allowed: ['visitor', 'admin'] },
  { route: 'POST /api/lamp/poleAddOrEdit', allowed: ['admin'] },
  { route: 'GET /api/light/lightTemplate', allowed: ['admin'] },
  { route: 'GET /api/imports/uploadTarget', allowed: ['visitor', 'editor', 'admin'] },
  { route: 'GET /api/imports/report', allowed: ['editor', 'admin'] },
  { route: 'POST /api/files/inspect', upload: true, allowed: ['editor', 'admin'] },
  { route: 'POST /api/lamp/lampImport', upload: true, allowed: ['admin'] },
  { route: 'POST /api/broadcast/terminalImport', upload: true, allowed: ['editor', 'admin'] },
  { route: 'GET /api/broadcast/terminalTemplate', allowed: ['editor', 'admin'] },
  { route: 'GET /api/broadcast/terminalExport', allowed: ['visitor', 'editor', 'admin'] },
  { route: 'POST /api/led/ledPage', allowed: ['editor', 'admin'] },
  { route: 'GET /api/led/ledExport', allowed: ['editor', 'admin'] },
  { route: 'POST /api/led/ledAddOrEdit', allowed: ['editor', 'admin'] },
  { route: 'GET /api/led/ledDel', allowed: ['editor', 'admin'] },
  { route: 'POST /api/led/ledBrightness', allowed: ['editor', 'admin'] },
  { route: 'POST /api/led/ledReboot', allowed: ['editor', 'admin'] },
  { route: 'POST /api/led/ledDaylight', allowed: ['editor', 'admin'] },
  { route: 'POST /api/led/mediaPage', allowed: ['editor', 'admin'] },
  { route: 'POST /api/led/mediaUpload', upload: true, allowed: ['editor', 'admin'] },
  { route: 'POST /api/led/mediaDel', allowed: ['editor', 'admin'] },
  { route: 'POST /api/led/realTimePlay', allowed: ['editor', 'admin'] },
  { route: 'POST /api/led/realTimeStop', allowed: ['editor', 'admin'] },
  { route: 'POST /api/led/taskPage', allowed: ['editor', 'admin'] },
  { route: 'POST /api/led/taskScreens', allowed: ['editor', 'admin'] },
  { route: 'POST /api/led/taskAddOrEdit', allowed: ['editor', 'admin'] },
  { route: 'POST /api/led/taskDel', allowed: ['editor', 'admin'] },
  { route: 'POST /api/led/taskPublish', allowed: ['editor', 'admin'] },
  { route: 'POST /api/radar/radarPage', allowed: ['editor', 'admin'] },
  { route: 'POST /api/radar/radarAddOrEdit', allowed: ['editor', 'admin'] },
  { route: 'GET /api/radar/radarDel', allowed: ['editor', 'admin'] },
  { route: 'GET /api/radar/radarExport', allowed: ['editor', 'admin'] },
  { route: 'POST /api/radar/radarImport', upload: true, allowed: ['editor', 'admin'] },
  { route: 'POST /api/radar/groupAddOrEdit', allowed: ['editor', 'admin'] },
  { route: 'GET /api/radar/groupDel', allowed: ['editor', 'admin'] },
  { route: 'POST /api/radar/strategyAddOrEdit', allowed: ['editor', 'admin'] },
  { route: 'GET /api/radar/strategyDel', allowed: ['editor', 'admin'] },
  { route: 'POST /api/wifi/acPage', allowed: ['editor', 'admin'] },
  { route: 'POST /api/wifi/apPage', allowed: ['editor', 'admin'] },
  { route: 'GET /api/wifi/apExport', allowed: ['editor', 'admin'] },
  { route: 'POST /api/wifi/acAddOrEdit', allowed: ['editor', 'admin'] },
  { route: 'GET /api/wifi/apDel', allowed: ['editor', 'admin'] },
  { route: 'POST /api/wifi/acReboot', allowed: ['editor', 'admin'] },
  { route: 'POST /api/wifi/apReboot', allowed: ['editor', 'admin'] },
  { route: 'POST /api/wifi/terminalOnlinePage', allowed: ['editor', 'admin'] },
  { route: 'POST /api/wifi/terminalHistoryPage', allowed: ['editor', 'admin'] },
  { route: 'GET /api/wifi/terminalHistoryExport', allowed: ['editor', 'admin'] },
  { route: 'POST /api/wifi/loadSeries', allowed: ['editor', 'admin'] },
  { route: 'POST /api/wifi/clientSeries', allowed: ['editor', 'admin'] },
  { route: 'POST /api/wifi/regionClientSeries', allowed: ['editor', 'admin'] },
  { route: 'GET /api/wifi/regionClientsExport', allowed: ['editor', 'admin'] },
  { route: 'POST /api/wifi/acImport', upload: true, allowed: ['editor', 'admin'] },
  { route: 'POST /api/wifi/apImport', upload: true, allowed: ['editor', 'admin'] },
  { route: 'GET /api/wifi/acTemplate', allowed: ['editor', 'admin'] },
  { route: 'GET /api/wifi/apTemplate', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/columnPage', allowed: ['editor', 'admin'] },
  { route: 'GET /api/alarm/columnDetail', allowed: ['editor', 'admin'] },
  { route: 'GET /api/alarm/columnExport', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/columnAddOrEdit', allowed: ['editor', 'admin'] },
  { route: 'GET /api/alarm/columnDel', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/columnReboot', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/columnVolume', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/columnImport', upload: true, allowed: ['editor', 'admin'] },
  { route: 'GET /api/alarm/columnTemplate', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/groupPage', allowed: ['editor', 'admin'] },
  { route: 'GET /api/alarm/agentCandidates', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/groupAddOrEdit', allowed: ['editor', 'admin'] },
  { route: 'GET /api/alarm/groupDel', allowed: ['editor', 'admin'] },
  { route: 'GET /api/alarm/agentMe', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/agentMode', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/incidentPage', allowed: ['editor', 'admin'] },
  { route: 'GET /api/alarm/incidentDetail', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/callPage', allowed: ['editor', 'admin'] },
  { route: 'GET /api/alarm/callExport', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/incidentAnswer', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/incidentReject', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/incidentHangUp', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/incidentAcknowledge', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/incidentNote', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/incidentLevel', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/incidentClose', allowed: ['editor', 'admin'] },
  { route: 'GET /api/alarm/incidentNearby', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/incidentRespond', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarm/endpointPage', allowed: ['editor', 'admin'] },
  { route: 'GET /api/alarms/families', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarms/page', allowed: ['editor', 'admin'] },
  { route: 'GET /api/alarms/summary', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarms/acknowledge', allowed: ['editor', 'admin'] },
  { route: 'POST /api/alarms/clear', allowed: ['editor', 'admin'] },
  { route: 'POST /api/signage/playReport', allowed: ['editor', 'admin'] },
  { route: 'GET /api/signage/playExport', allowed: ['editor', 'admin'] },
];

describe('role matrix over every route', () => {
  let gw: TestGateway;
  let routes: Route[];
  const ids: Partial<Record<Who, Identity>> = {};

  beforeAll(async () => {
    gw = await startTestGateway();
    const accessCache = gw.app.get(AccessCache);
    const consoleControllers = await declaredControllers(AppModule.forRoot(gw.config, accessCache));
    const uploadControllers = await declaredControllers(UploadAppModule.forRoot(gw.config, accessCache));
    // The console application as it runs must hold exactly the controllers its module declares.
    const running = new Set<Type<unknown>>();
    for (const mod of gw.app.get(ModulesContainer).values()) {
      for (const wrapper of mod.controllers.values()) running.add(wrapper.metatype as Type<unknown>);
    }
    expect([...running].map((c) => c.name).sort()).toEqual([...consoleControllers].map((c) => c.name).sort());
    routes = [...routesOf('console', running), ...routesOf('upload', uploadControllers)];

    // Each caller's roles and buttons from its seeded group, as the session service derives them.
    for (const username of ['visitor', 'editor', 'admin'] as const) {
      const [group] = await gw.db.query<{ is_admin: boolean; permission_menu: string[] }>(
        `SELECT g.is_admin, g.permission_menu FROM sys_user u JOIN sys_group g ON g.id = u.group_id WHERE u.username = $1`,
        [username],
      );
      const roles = rolesOf(group.is_admin, group.permission_menu);
      ids[username] = { token: (await gw.signedIn(username)).token, roles, buttons: buttonsOf(roles) };
    }
  });
  afterAll(() => gw?.close());

  const identity = (who: Who): Identity | null => (who === 'none' ? null : ids[who]!);

  it('enumerates every route once, the OpenAPI document included, with the roles and buttons of the seed', async () => {
    expect(routes.length).toBeGreaterThanOrEqual(60);
    const keys = routes.map((r) => `${r.port} ${key(r)}`);
    expect(keys.length).toBe(new Set(keys).size);
    expect(routes.filter((r) => r.port === 'upload').length).toBeGreaterThanOrEqual(5);
    // Every operation of the console's OpenAPI document is among the enumerated console routes, and the reverse.
    const docs = (await (await fetch(`${gw.baseUrl}/api/docs-json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(docs.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(
      routes
        .filter((r) => r.port === 'console')
        .map(key)
        .sort(),
    );
    // The skipped routes still exist (a stale name would skip nothing).
    for (const skipped of SELF_ENDING) expect(keys).toContain(`console ${skipped}`);
    // The identities match what the server itself reports.
    for (const who of ['visitor', 'editor', 'admin'] as const) {
      const res = await fetch(`${gw.baseUrl}/api/user/info`, { headers: { Authorization: `Bearer ${ids[who]!.token}` } });
      const info = ((await res.json()) as { data: { roles: string[]; buttons: string[] } }).data;
      expect({ who, roles: info.roles, buttons: info.buttons }).toEqual({ who, roles: ids[who]!.roles, buttons: ids[who]!.buttons });
    }
    // The matrix is not trivial: each signed-in role is refused somewhere and let through somewhere.
    for (const who of ['visitor', 'editor'] as const) {
      expect(routes.some((r) => !mayCall(r, identity(who)))).toBe(true);
      expect(routes.some((r) => mayCall(r, identity(who)))).toBe(true);
    }
    expect(routes.every((r) => mayCall(r, identity('admin')))).toBe(true);
  });

  it('answers every route × caller as its declared metadata says, with 0 unexpected 2xx', async () => {
    const started = Date.now();
    const mismatches: string[] = [];
    const unexpected2xx: string[] = [];
    const serverErrors: string[] = [];
    const acceptedEmpty: string[] = [];
    let calls = 0;
    // Administrators last: a state-changing call that accepted an empty body cannot then affect the others.
    for (const who of CALLERS) {
      const id = identity(who);
      for (const route of routes) {
        if (who !== 'none' && SELF_ENDING.has(key(route))) continue;
        const outcome = await send(gw, route, id?.token ?? '');
        calls++;
        const allowed = mayCall(route, id);
        const line = `${route.port === 'upload' ? ':upload ' : ''}${key(route)} as ${who}: ${outcome.status} (code ${String(outcome.code)})`;
        const expected = problem(outcome, allowed, who, route);
        if (expected) mismatches.push(`${line}, expected ${expected}`);
        if (!allowed && outcome.status >= 200 && outcome.status < 300) unexpected2xx.push(line);
        if (allowed && outcome.status >= 500) serverErrors.push(line);
        if (allowed && route.audited && who !== 'none' && outcome.status < 300) acceptedEmpty.push(line);
      }
    }
    process.stdout.write(
      `role matrix: ${routes.length} routes × ${CALLERS.length} callers (${calls} calls, ${SELF_ENDING.size} self-ending routes only without a token) ` +
        `in ${Date.now() - started} ms, ${unexpected2xx.length} unexpected 2xx, ${mismatches.length} mismatches\n`,
    );
    if (serverErrors.length) process.stdout.write(`role matrix: 5xx on an allowed call with an empty body:\n  ${serverErrors.join('\n  ')}\n`);
    if (acceptedEmpty.length) process.stdout.write(`role matrix: audited calls that accepted an empty body:\n  ${acceptedEmpty.join('\n  ')}\n`);
    expect({ unexpected2xx, mismatches }).toEqual({ unexpected2xx: [], mismatches: [] });
    // No call of the matrix ended a caller's session.
    for (const who of ['visitor', 'editor', 'admin'] as const) {
      const res = await fetch(`${gw.baseUrl}/api/user/info`, { headers: { Authorization: `Bearer ${ids[who]!.token}` } });
      expect({ who, status: res.status }).toEqual({ who, status: 200 });
    }
  }, 60_000);

  it('agrees with the hand list of docs/permissions.md, call by call', async () => {
    const problems: string[] = [];
    for (const doc of DOCUMENTED) {
      const port: Port = doc.upload ? 'upload' : 'console';
      const route = routes.find((r) => r.port === port && key(r) === doc.route);
      if (!route) {
        problems.push(`${port} ${doc.route}: not found by the enumeration`);
        continue;
      }
      for (const who of CALLERS) {
        const allowed = doc.allowed.includes(who);
        if (mayCall(route, identity(who)) !== allowed) problems.push(`${doc.route} as ${who}: metadata says ${!allowed}, docs say ${allowed}`);
        const outcome = await send(gw, route, identity(who)?.token ?? '');
        const expected = problem(outcome, allowed, who, route);
        if (expected) problems.push(`${doc.route} as ${who}: ${outcome.status} (code ${String(outcome.code)}), expected ${expected}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
