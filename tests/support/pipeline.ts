import { spawn, type ChildProcess } from 'node:child_process';
import { ownChild } from './child-process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import {
  SOCKET_PATH,
  TERMINAL_ITEM_STATES,
  type ClientToServerEvents,
  DeviceFamily,
  DeviceType,
  DispatchItemState,
  type DeviceChange,
  type LampLiveFields,
  type FamilyName,
  type LiveTopic,
  type DispatchDetail,
  type DispatchProgressEvent,
  type DispatchRowChange,
  type LampControlRequest,
  type LampControlResult,
  type LampRow,
  OnlineState,
  type PageResult,
  type ServerToClientEvents,
  type TerminalRow,
} from '@sc/contracts';
import { ApiClient, waitFor, type TestDatabase } from '@sc/testing';
import { startFleet, type Fleet, type FleetOptions } from '../../apps/device-sim/src';
import { DEMO_PASSWORD } from '../../apps/gateway/src/demo/demo-data';
import type { CounterSnapshot } from '@sc/device-runtime';
import { ROOT, freePort, type RunningGateway } from './gateway-process';

export const WORKER = join(ROOT, 'dist', 'apps', 'worker-lighting', 'main.js');
/** The broadcast worker, built like the lighting worker. */
export const BROADCAST_WORKER = join(ROOT, 'dist', 'apps', 'worker-broadcast', 'main.js');
/** The LED screens' worker, built like the others. */
export const LED_WORKER = join(ROOT, 'dist', 'apps', 'worker-led', 'main.js');
export const RADAR_WORKER = join(ROOT, 'dist', 'apps', 'worker-radar', 'main.js');
/** The Wi-Fi worker (access controllers, access points, their clients). */
export const WIFI_WORKER = join(ROOT, 'dist', 'apps', 'worker-wifi', 'main.js');
/** The alarm columns' worker (presses, incidents, the calls' routing). */
export const ALARM_WORKER = join(ROOT, 'dist', 'apps', 'worker-alarm', 'main.js');
/** The video worker (the cameras' probe and their live streams). */
export const VIDEO_WORKER = join(ROOT, 'dist', 'apps', 'worker-video', 'main.js');
export const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';

export function assertWorkerBuilt(worker = WORKER): void {
  const name = worker.split(/[\\/]/).at(-2);
  if (!existsSync(worker)) throw new Error(`${worker} is missing: run \`npx nest build ${name}\` (npm test does it for you)`);
}

export interface WorkerHealth {
  status: string;
  mqtt: boolean;
  backlog: number;
  counters: CounterSnapshot;
}

export interface RunningWorker {
  readonly process: ChildProcess;
  readonly healthUrl: string;
  output(): string;
  health(): Promise<WorkerHealth>;
  /** Sends the signal and waits for the exit (SIGKILL: no clean-up at all, as a crash). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts a built worker (the lighting worker unless told) beside a gateway process: the gateway's database and Redis prefix, an MQTT intake
 * group of its own (so workers of other test files never take this file's device traffic), and GET /health on a free
 * port. Resolves once /health answers with MQTT connected.
 */
export async function startWorkerProcess(gw: RunningGateway, extraEnv: NodeJS.ProcessEnv = {}, worker = WORKER): Promise<RunningWorker> {
  assertWorkerBuilt(worker);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: gw.env.DATABASE_URL,
    REDIS_PREFIX: gw.env.REDIS_PREFIX,
    INTAKE_GROUP: `e2e-${String(gw.env.REDIS_PREFIX).replace(/\W/g, '')}`,
    WORKER_HEALTH_PORT: String(port),
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    ...extraEnv,
  };
  const child = spawn(process.execPath, [worker], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const stopChild = ownChild(child);
  const healthUrl = `http://127.0.0.1:${port}/health`;
  const health = async () => (await (await fetch(healthUrl)).json()) as WorkerHealth;
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}`);
      return (await health()).mqtt ? true : undefined;
    }, 45_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`worker did not start: ${String(err)}\n${output}`);
  }
  return {
    process: child,
    healthUrl,
    output: () => output,
    health,
    stop: stopChild,
  };
}

/** Lamp codes no other test file (nor the demo fleet's LAMP-00001…) uses: MQTT topics are shared by everyone on the broker. */
export function uniqueCodePrefix(label = 'E'): string {
  return `${label}${randomBytes(3).toString('hex').toUpperCase()}-`;
}

export interface InsertedDevices {
  ids: number[];
  codes: string[];
  idByCode: Map<string, number>;
  regionId: number | null;
}
export type InsertedLamps = InsertedDevices;

/** A new region for inserted devices: its name, and the time zone its devices' clocks keep (none: the installation's). */
export interface NewRegion {
  name: string;
  timeZone?: string;
}

/** The family's own row of each device just inserted (the CTE `d`), by family. */
const FAMILY_ROWS = {
  lamp: { type: DeviceType.SingleLamp, noun: 'lamp', rows: `INSERT INTO lamp (device_id) SELECT id FROM d` },
  // A terminal's IP address is required: made up from its id (10.x.y.z), never contacted.
  broadcast: {
    type: DeviceType.Broadcast,
    noun: 'terminal',
    rows: `INSERT INTO broadcast_terminal (device_id, terminal_ip)
           SELECT id, '10.' || (id / 65536 % 256) || '.' || (id / 256 % 256) || '.' || (id % 256) FROM d`,
  },
  // An LED screen's IP address, panel size and time zone are required: the IP made up as a terminal's, a 640 × 320
  // panel, the installation's zone.
  led: {
    type: DeviceType.LedScreen,
    noun: 'screen',
    rows: `INSERT INTO led_screen (device_id, ip_address, width, height, time_zone)
           SELECT id, '10.' || (id / 65536 % 256) || '.' || (id / 256 % 256) || '.' || (id % 256), 640, 320, 'Asia/Shanghai' FROM d`,
  },
} as const;

/**
 * Registers `count` devices of a family straight in the test database (thousands in a moment, where the API adds one
 * at a time), named `<prefix><noun> <n>` with codes `<prefix>00001…`, the codes the simulator generates for `--count
 * N --prefix <prefix>`; with `region`, in a new region.
 */
export async function insertDevices(
  db: TestDatabase,
  family: keyof typeof FAMILY_ROWS,
  count: number,
  prefix: string,
  region?: string | NewRegion,
): Promise<InsertedDevices> {
  const { type, noun, rows: familyRows } = FAMILY_ROWS[family];
  let regionId: number | null = null;
  if (region) {
    const { name, timeZone } = typeof region === 'string' ? { name: region, timeZone: undefined } : region;
    const [row] = await db.query<{ id: number }>(`INSERT INTO region (region_name, parent_id, time_zone) VALUES ($1, NULL, $2) RETURNING id`, [
      name,
      timeZone ?? null,
    ]);
    regionId = row.id;
  }
  const rows = await db.query<{ id: number; code: string }>(
    `WITH d AS (INSERT INTO device (type, code, name, region_id)
                SELECT $4, $1::text || lpad(g::text, 5, '0'), $1::text || $5::text || ' ' || g, $3 FROM generate_series(1, $2) g RETURNING id, code)
     , f AS (${familyRows})
     SELECT id, code FROM d ORDER BY code`,
    [prefix, count, regionId, type, noun],
  );
  return { ids: rows.map((r) => r.id), codes: rows.map((r) => r.code), idByCode: new Map(rows.map((r) => [r.code, r.id])), regionId };
}

/**
 * Registers `count` floor screens (records of their own, not in the device registry) straight in the test database,
 * portrait, in a new group `group`: codes `<prefix>00001…` as the simulator generates them for `--family signage
 * --count N --prefix <prefix>`, named `<prefix>player <n>`; `from` 0 adds `<prefix>00000` first (the lowest id), a
 * player no simulator of that count speaks for. Answers the players in id order and the group's id.
 */
export async function insertFloorScreens(
  db: TestDatabase,
  count: number,
  prefix: string,
  group: string,
  from = 1,
): Promise<InsertedDevices & { groupId: number }> {
  const [{ id: groupId }] = await db.query<{ id: number }>(`INSERT INTO signage_group (name) VALUES ($1) RETURNING id`, [group]);
  const rows = await db.query<{ id: number; code: string }>(
    `INSERT INTO signage_device (code, name, group_id, orientation)
     SELECT $1::text || lpad(g::text, 5, '0'), $1::text || 'player ' || g, $4, '9:16' FROM generate_series($3::int, $2::int) g
     ORDER BY g RETURNING id, code`,
    [prefix, count, from, groupId],
  );
  rows.sort((a, b) => a.id - b.id);
  return { ids: rows.map((r) => r.id), codes: rows.map((r) => r.code), idByCode: new Map(rows.map((r) => [r.code, r.id])), regionId: null, groupId };
}

/** `count` single lamps (device type 1 and a lamp row), named `<prefix>lamp <n>` (see insertDevices). */
export function insertLamps(db: TestDatabase, count: number, prefix: string, region?: string): Promise<InsertedLamps> {
  return insertDevices(db, 'lamp', count, prefix, region);
}

/** A simulated fleet for these codes with quick, test-friendly defaults (no telemetry unless asked). */
export function fleetFor(codes: readonly string[], options: Partial<FleetOptions> = {}): Promise<Fleet> {
  return startFleet({ mqttUrl: MQTT_URL, lamps: codes, ackLatencyMs: { min: 20, max: 150 }, telemetryIntervalMs: 0, ...options });
}

export async function signIn(gw: RunningGateway, username = 'admin'): Promise<ApiClient> {
  return gw.client().login(username, DEMO_PASSWORD);
}

/**
 * Adds broadcast terminals (`codes[i]` named `names[i]`, IPs from `ipBase`.1 on) and the broadcast groups given by
 * name with the indexes of their terminals; answers the terminals' device ids.
 */
export async function addTerminalsAndGroups(
  admin: ApiClient,
  terminals: { codes: readonly string[]; names: readonly string[]; ipBase: string },
  groups: Record<string, readonly number[]> = {},
): Promise<number[]> {
  const ids: number[] = [];
  for (const [i, code] of terminals.codes.entries()) {
    const answer = await admin.post<{ id: number }>('/api/broadcast/terminalAddOrEdit', {
      terminalName: terminals.names[i],
      terminalId: code,
      terminalIP: `${terminals.ipBase}.${i + 1}`,
    });
    expect(answer.status).toBe(200);
    ids.push(answer.body.data.id);
  }
  for (const [groupName, members] of Object.entries(groups))
    expect((await admin.post('/api/broadcast/groupAddOrEdit', { groupName, terminalIds: members.map((i) => ids[i]) })).body).toMatchObject({
      code: 200,
    });
  return ids;
}

/** Waits until the `count` broadcast terminals whose name or ID holds `search` are all online. */
export async function terminalsOnline(api: ApiClient, search: string, count: number): Promise<void> {
  await waitFor(async () => {
    const { list } = (await api.post<PageResult<TerminalRow>>('/api/broadcast/terminalPage', { pageNum: 1, pageSize: 100, terminalName: search }))
      .body.data;
    return list.length === count && list.every((t) => t.networkStatus === OnlineState.Online) ? true : undefined;
  }, 15_000);
}

export type RealtimeClient = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A socket.io client authenticated with the token at the handshake, as the browser connects; resolves once accepted. */
export async function connectSocket(gw: RunningGateway, token: string): Promise<RealtimeClient> {
  const socket: RealtimeClient = io(gw.baseUrl, { path: SOCKET_PATH, transports: ['websocket'], auth: { token }, reconnectionDelay: 200 });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket.io did not connect')), 10_000);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('connect_error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
  return socket;
}

/**
 * One device's change as a socket received it (a DeviceStateChanged event carries the changes of a push frame); typed
 * with the lamp's fields, which these tests look at.
 */
export type DeviceChangeSeen = Omit<DeviceChange, 'changed'> & { family: FamilyName; changed: Partial<LampLiveFields> };

/** Everything a socket receives, with the time it arrived: device changes one by one. */
export interface SocketLog {
  DeviceStateChanged: { at: number; event: DeviceChangeSeen }[];
  DispatchProgress: { at: number; event: DispatchProgressEvent }[];
}

/**
 * Watches the lamp pages' feeds (device states and dispatches of `families`), as the console's lamp pages do, and
 * logs what arrives. A socket whose roles may not see a family is not refused: it simply receives nothing.
 */
export function recordSocket(socket: RealtimeClient, families: readonly FamilyName[] = [DeviceFamily.Lamp]): SocketLog {
  const log: SocketLog = { DeviceStateChanged: [], DispatchProgress: [] };
  socket.on('DeviceStateChanged', (event) => {
    const at = Date.now();
    for (const change of event.changes) log.DeviceStateChanged.push({ at, event: { family: event.family, ...change } as DeviceChangeSeen });
  });
  socket.on('DispatchProgress', (event) => log.DispatchProgress.push({ at: Date.now(), event }));
  socket.emit('watch', feeds(families));
  // A reconnected socket watches again (the server forgets a socket's feeds with it).
  socket.io.on('reconnect', () => socket.emit('watch', feeds(families)));
  return log;
}

/** Asks for live feeds as a page does; resolves with the feeds the socket now receives (its roles decide). */
export function watch(socket: RealtimeClient, topics: LiveTopic[]): Promise<LiveTopic[]> {
  return new Promise((resolve) => socket.emit('watch', topics, resolve));
}

/** Every row of a family's dispatches a socket was pushed (DispatchRowsChanged): by dispatch, then device, in arrival order. */
export type DispatchRowLog = Map<string, Map<number, DispatchRowChange[]>>;

/** Watches the pushed rows of one family's dispatches, as a receive-status page does, and logs them; resolves once joined. */
export async function recordDispatchRows(socket: RealtimeClient, family: FamilyName): Promise<DispatchRowLog> {
  const log: DispatchRowLog = new Map();
  socket.on('DispatchRowsChanged', (event) => {
    if (event.family !== family) return;
    let byDevice = log.get(event.dispatchId);
    if (!byDevice) log.set(event.dispatchId, (byDevice = new Map()));
    for (const row of event.rows) {
      const rows = byDevice.get(row.deviceId);
      if (rows) rows.push(row);
      else byDevice.set(row.deviceId, [row]);
    }
  });
  const topics = await watch(socket, [{ event: 'DispatchRowsChanged', family }]);
  if (!topics.some((topic) => topic.event === 'DispatchRowsChanged' && topic.family === family))
    throw new Error(`the socket may not watch DispatchRowsChanged of ${family}`);
  return log;
}

/** Waits until every one of `ids` has a row of the dispatch pushed to the socket whose last state `ended` says is final. */
export function untilPushedEnded(
  log: DispatchRowLog,
  dispatchId: string,
  ids: readonly number[],
  ended: (row: DispatchRowChange) => boolean,
  timeoutMs = 60_000,
): Promise<boolean> {
  return waitFor(
    () => {
      const rows = log.get(dispatchId);
      const done = ids.filter((id) => {
        const last = rows?.get(id)?.at(-1);
        return last !== undefined && ended(last);
      }).length;
      if (done !== ids.length) throw new Error(`${done} of ${ids.length} rows of dispatch ${dispatchId} pushed ended`);
      return true;
    },
    timeoutMs,
    250,
  );
}

/** Whether a row's statuses, in the order shown, ever went back (`step`: how far each status is along the way). */
export function goesBack<S extends string>(statuses: readonly S[], step: Readonly<Record<S, number>>): boolean {
  return statuses.some((status, i) => i > 0 && step[status] < step[statuses[i - 1]]);
}

/** Waits until `sql` (a count of rows, as `n`) answers `count`: e.g. a simulated fleet's devices online. */
export function untilCounted(db: TestDatabase, what: string, sql: string, params: unknown[], count: number, timeoutMs = 45_000): Promise<boolean> {
  return waitFor(
    async () => {
      const [{ n }] = await db.query<{ n: number }>(sql, params);
      if (n !== count) throw new Error(`${n} of ${count} ${what}`);
      return true;
    },
    timeoutMs,
    250,
  );
}

/** A dispatch's ledger row as a retry is checked against it. */
export interface LedgerRow {
  deviceId: number;
  state: DispatchItemState;
  commandId: string;
  attempts: number;
  updatedAt: string;
}

/** The ledger rows of a dispatch, in device id order. */
export async function ledgerRows(db: TestDatabase, dispatchId: string): Promise<LedgerRow[]> {
  const rows = await db.query<Omit<LedgerRow, 'updatedAt'> & { updatedAt: Date }>(
    `SELECT device_id AS "deviceId", state, command_id AS "commandId", attempts, updated_at AS "updatedAt"
       FROM dispatch_item WHERE dispatch_id = $1 ORDER BY device_id`,
    [dispatchId],
  );
  return rows.map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() }));
}

/** Waits until no ledger row of the dispatch is open (queued or sent); answers its rows. */
export function untilLedgerClosed(db: TestDatabase, dispatchId: string, timeoutMs = 30_000): Promise<LedgerRow[]> {
  return waitFor(
    async () => {
      const rows = await ledgerRows(db, dispatchId);
      const open = rows.filter((row) => !TERMINAL_ITEM_STATES.includes(row.state)).length;
      if (open > 0) throw new Error(`${open} rows of dispatch ${dispatchId} still open`);
      return rows;
    },
    timeoutMs,
    250,
  );
}

/**
 * Checks what a retry of a dispatch's failed rows did to its ledger: every row that was not delivered `before` was sent
 * again (a new command id), and every delivered row is as it was.
 */
export function expectRetriedOnly(before: readonly LedgerRow[], after: readonly LedgerRow[]): void {
  const was = new Map(before.map((row) => [row.deviceId, row]));
  const retried = (row: LedgerRow) => was.get(row.deviceId)?.state !== DispatchItemState.Delivered;
  expect(after.filter((row) => retried(row) && row.commandId === was.get(row.deviceId)!.commandId).map((row) => row.deviceId)).toEqual([]);
  expect(after.filter((row) => !retried(row))).toEqual(before.filter((row) => row.state === DispatchItemState.Delivered));
}

function feeds(families: readonly FamilyName[]): LiveTopic[] {
  return families.flatMap((family) => [
    { event: 'DeviceStateChanged' as const, family },
    { event: 'DispatchProgress' as const, family },
  ]);
}

export async function control(api: ApiClient, request: LampControlRequest): Promise<string> {
  const answer = await api.post<LampControlResult>('/api/light/lampControl', request);
  if (answer.status !== 200) throw new Error(`lampControl: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data.dispatchId;
}

export async function dispatchDetail(api: ApiClient, id: string): Promise<DispatchDetail> {
  const answer = await api.get<DispatchDetail>(`/api/dispatch/detail?id=${id}`);
  if (answer.status !== 200) throw new Error(`dispatch detail: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** Waits until every row of the dispatch is terminal (delivered, failed or expired); answers the detail. */
export async function waitForDispatchDone(api: ApiClient, id: string, timeoutMs = 30_000): Promise<DispatchDetail> {
  return waitFor(
    async () => {
      const detail = await dispatchDetail(api, id);
      return detail.items.every((item) => TERMINAL_ITEM_STATES.includes(item.state)) && detail.status !== 'toBeSent' ? detail : undefined;
    },
    timeoutMs,
    200,
  );
}

export async function lampPage(api: ApiClient, query: Record<string, unknown>): Promise<PageResult<LampRow>> {
  const answer = await api.post<PageResult<LampRow>>('/api/light/lampPage', query);
  if (answer.status !== 200) throw new Error(`lampPage: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** How many dispatch_item rows are in each state (straight from the ledger). */
export async function itemStates(db: TestDatabase, dispatchId: string): Promise<Record<string, number>> {
  const rows = await db.query<{ state: string; n: number }>(
    `SELECT state, count(*)::int AS n FROM dispatch_item WHERE dispatch_id = $1 GROUP BY state`,
    [dispatchId],
  );
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
