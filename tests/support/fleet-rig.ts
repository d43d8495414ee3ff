import type { Browser } from 'playwright-core';
import type { FamilyName } from '@sc/contracts';
import type { ApiClient } from '@sc/testing';
import { launchBrowser } from './browser';
import { startSimulatorProcess, type RunningSimulator } from './device-sim-process';
import { dropRedisKeys, freePort, startGatewayProcess, type RunningGateway } from './gateway-process';
import {
  connectSocket,
  recordDispatchRows,
  signIn,
  startWorkerProcess,
  type DispatchRowLog,
  type RealtimeClient,
  type RunningWorker,
} from './pipeline';

/**
 * A fleet-scale browser test's platform: the built gateway (the devices fetch their files from its signed links, under
 * its own address), the family's worker and the device simulator as processes of their own, a browser, the
 * administrator's API client, and a socket client of the administrator's logging the family's pushed dispatch rows.
 */
export interface FleetRig {
  readonly gw: RunningGateway;
  readonly worker: RunningWorker;
  readonly sim: RunningSimulator;
  readonly browser: Browser;
  readonly admin: ApiClient;
  readonly socket: RealtimeClient;
  readonly pushed: DispatchRowLog;
}

export interface FleetRigOptions {
  family: FamilyName;
  /** The built worker's main.js. */
  worker: string;
  /** Gateway settings beyond its ports and media links (e.g. DISPATCH_TTL_SECONDS). */
  gatewayEnv?: NodeJS.ProcessEnv;
  /** Registers the fleet in the gateway's database, before the worker starts (it reads the devices it serves). */
  register(gw: RunningGateway, admin: ApiClient): Promise<void>;
  /** The simulator's arguments (`--family … --count … --prefix …`, latencies, failure rate, clock). */
  simulator(): string[];
  /** Resolves once every simulated device is online. */
  online(gw: RunningGateway): Promise<unknown>;
  /** What the test started itself, stopped before the rest (e.g. a fleet in the test's process). */
  stopFirst?(): Promise<unknown>;
}

/** Registers the file's beforeAll and afterAll for a FleetRig; call at the top of a describe block. */
export function fleetRig(options: FleetRigOptions): FleetRig {
  const rig = {} as { -readonly [K in keyof FleetRig]: FleetRig[K] };
  beforeAll(async () => {
    const port = await freePort();
    [rig.gw, rig.browser] = await Promise.all([
      startGatewayProcess({ PORT: String(port), MEDIA_LINK_BASE_URL: `http://127.0.0.1:${port}`, ...options.gatewayEnv }),
      launchBrowser(),
    ]);
    rig.admin = await signIn(rig.gw);
    await options.register(rig.gw, rig.admin);
    rig.worker = await startWorkerProcess(rig.gw, {}, options.worker);
    rig.sim = await startSimulatorProcess(options.simulator());
    await options.online(rig.gw);
    rig.socket = await connectSocket(rig.gw, rig.admin.token);
    rig.pushed = await recordDispatchRows(rig.socket, options.family);
  }, 150_000);

  afterAll(async () => {
    rig.socket?.close();
    await rig.browser?.close();
    await options.stopFirst?.();
    // The simulator empties its devices' retained states; the gateway's database (the devices with it) is dropped.
    await rig.sim?.stop();
    await rig.worker?.stop();
    await rig.gw?.stop();
    if (rig.gw?.env.REDIS_PREFIX) await dropRedisKeys(rig.gw.env.REDIS_PREFIX);
  }, 60_000);
  return rig;
}
