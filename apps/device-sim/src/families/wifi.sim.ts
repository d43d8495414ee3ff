import {
  AC_FAMILY,
  AP_FAMILY,
  type AcStateMessage,
  type ApClientEvent,
  type ApLoadMessage,
  type ApStateMessage,
  type CommandMessage,
  type WifiLoadMessage,
} from '@sc/contracts';
import {
  FleetRunner,
  loadSeeds,
  seedsOf,
  type DeviceFleet,
  type DeviceSource,
  type FamilyContext,
  type Random,
  type SimulatedFamily,
  type SimulationOptions,
} from '../kit';

// Wi-Fi: access controllers and the access points they manage, each on its own connection. Both report their load
// (CPU, memory and disk ratios, a slow random walk) on telemetry; an access point also reports its clients. Clients
// join and leave by themselves (the fleet's activity): a join picks an SSID of the city, an address and a signal, a
// leave ends the session; each is an `event` of the access point, sent on the next tick. A reboot is a restart: the
// device answers, drops off (its Last Will: the platform ends its clients' sessions), and its clients join again once
// it is back.

const SOFTWARE = { ac: 'V200R021C10', ap: 'V200R021C10SPC100' };
/** How long a reboot takes. */
export const WIFI_REBOOT_MS = 2000;
/** The SSIDs of the city's network. */
export const SSIDS = ['SmartCity-Free', 'SmartCity-Gov', 'SmartCity-IoT'] as const;
/** The clients an access point serves at most, and about how many it has on average. */
const MAX_CLIENTS = 60;
const AVERAGE_CLIENTS = 20;

export interface WifiLoad {
  cpuRatio: number;
  memoryRatio: number;
  diskRatio: number;
}

export interface SimClient {
  mac: string;
  ip: string;
  ssid: string;
  signal: number;
}

export interface ApState extends WifiLoad {
  clients: Map<string, SimClient>;
  /** Client events since the last tick, in order. */
  events: ApClientEvent[];
  /** A counter of the MACs it made, so they stay unique per access point. */
  made: number;
  /** The access point's own number, part of its clients' MACs and addresses. */
  index: number;
  reboots: number;
}

type RebootCommand = CommandMessage<'reboot', Record<string, never>>;

const round1 = (n: number) => Math.round(n * 10) / 10;
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

function initialLoad(random: Random): WifiLoad {
  return { cpuRatio: round1(10 + random() * 30), memoryRatio: round1(30 + random() * 30), diskRatio: round1(20 + random() * 40) };
}

/** The load a moment later: CPU moves most, the disk hardly. */
function drift(load: WifiLoad, random: Random): WifiLoad {
  return {
    cpuRatio: round1(clamp(load.cpuRatio + (random() - 0.5) * 10, 1, 99)),
    memoryRatio: round1(clamp(load.memoryRatio + (random() - 0.5) * 4, 5, 98)),
    diskRatio: round1(clamp(load.diskRatio + (random() - 0.5) * 0.4, 1, 99)),
  };
}

const hex = (n: number) => n.toString(16).toUpperCase().padStart(2, '0');

/** A client joins the access point now (queued as its `join` event). */
export function joinClient(ap: ApState, ctx: FamilyContext, client?: Partial<SimClient>): SimClient {
  const n = ap.made++;
  const made: SimClient = {
    mac:
      client?.mac?.toUpperCase() ?? `02:${hex(ap.index >> 8)}:${hex(ap.index & 255)}:${hex((n >> 16) & 255)}:${hex((n >> 8) & 255)}:${hex(n & 255)}`,
    ip: client?.ip ?? `10.${100 + (ap.index % 100)}.${(n >> 8) % 256}.${(n % 250) + 2}`,
    ssid: client?.ssid ?? SSIDS[Math.floor(ctx.random() * SSIDS.length)],
    signal: client?.signal ?? -Math.round(35 + ctx.random() * 50),
  };
  ap.clients.set(made.mac, made);
  ap.events.push({
    ts: new Date(ctx.clock()).toISOString(),
    kind: 'join',
    clientMac: made.mac,
    clientIp: made.ip,
    clientSsid: made.ssid,
    signalStrength: made.signal,
  });
  return made;
}

/** A client leaves (queued as its `leave` event); false when it was not there. */
export function leaveClient(ap: ApState, mac: string, ctx: FamilyContext): boolean {
  const client = ap.clients.get(mac.toUpperCase());
  if (!client) return false;
  ap.clients.delete(client.mac);
  ap.events.push({ ts: new Date(ctx.clock()).toISOString(), kind: 'leave', clientMac: client.mac, signalStrength: client.signal });
  return true;
}

/** Access controllers: their load, and a reboot. */
export function acFamily(): SimulatedFamily<WifiLoad & { reboots: number }, RebootCommand> {
  return {
    declaration: AC_FAMILY,
    initial: (_seed, ctx) => ({ ...initialLoad(ctx.random), reboots: 0 }),
    apply(_ac, _command, ctx) {
      ctx.restart(WIFI_REBOOT_MS, (s) => {
        s.reboots++;
      });
    },
    report: (ac): AcStateMessage => ({
      online: true,
      cpuRatio: ac.cpuRatio,
      memoryRatio: ac.memoryRatio,
      diskRatio: ac.diskRatio,
      softwareVersion: SOFTWARE.ac,
    }),
    telemetry(ac, _faults, now, random): WifiLoadMessage {
      Object.assign(ac, drift(ac, random));
      return { ts: now.toISOString(), cpuRatio: ac.cpuRatio, memoryRatio: ac.memoryRatio, diskRatio: ac.diskRatio };
    },
  };
}

/**
 * Access points: their load and clients. Each act of the fleet's activity makes one client join or leave, the more
 * likely to leave the more clients it has (so it hovers around AVERAGE_CLIENTS); a client's signal moves now and then.
 */
export function apFamily(): SimulatedFamily<ApState, RebootCommand> {
  let next = 0;
  return {
    declaration: AP_FAMILY,
    initial: (_seed, ctx) => ({ ...initialLoad(ctx.random), clients: new Map(), events: [], made: 0, index: next++, reboots: 0 }),
    apply(_ap, _command, ctx) {
      ctx.restart(WIFI_REBOOT_MS, (s) => {
        s.reboots++;
      });
    },
    // Back online (first connection, reconnection, after a reboot): the platform ended its sessions, so the clients
    // around it join again, a few at first.
    connected(ap, ctx) {
      ap.clients.clear();
      ap.events = [];
      const joining = Math.floor(ctx.random() * AVERAGE_CLIENTS * 0.5);
      for (let i = 0; i < joining; i++) joinClient(ap, ctx);
    },
    act(ap, ctx) {
      const leave = ap.clients.size >= MAX_CLIENTS || (ap.clients.size > 0 && ctx.random() < ap.clients.size / (2 * AVERAGE_CLIENTS));
      if (leave) {
        const macs = [...ap.clients.keys()];
        leaveClient(ap, macs[Math.floor(ctx.random() * macs.length)], ctx);
      } else joinClient(ap, ctx);
      // The count goes with the next telemetry; the events go on the next tick.
      return false;
    },
    tick: () => false,
    takeEvents(ap) {
      const events = ap.events;
      ap.events = [];
      return events;
    },
    report: (ap): ApStateMessage => ({
      online: true,
      cpuRatio: ap.cpuRatio,
      memoryRatio: ap.memoryRatio,
      diskRatio: ap.diskRatio,
      clients: ap.clients.size,
      softwareVersion: SOFTWARE.ap,
    }),
    telemetry(ap, _faults, now, random): ApLoadMessage {
      Object.assign(ap, drift(ap, random));
      // Clients move about: one in ten has a new signal strength, sent with the next events.
      for (const client of ap.clients.values()) {
        if (random() >= 0.1) continue;
        client.signal = clamp(client.signal + Math.round((random() - 0.5) * 12), -95, -30);
        ap.events.push({ ts: now.toISOString(), kind: 'signal', clientMac: client.mac, signalStrength: client.signal });
      }
      return { ts: now.toISOString(), cpuRatio: ap.cpuRatio, memoryRatio: ap.memoryRatio, diskRatio: ap.diskRatio, clients: ap.clients.size };
    },
  };
}

export interface WifiFleetOptions extends Omit<SimulationOptions, 'individualConnections'> {
  /** Explicit codes, `count` generated codes (default prefixes 'AC-' and 'AP-'), or the registry's devices. */
  acs: DeviceSource;
  aps: DeviceSource;
}

export interface WifiFleet {
  readonly acs: DeviceFleet;
  readonly aps: DeviceFleet & {
    /** An access point's state now (its clients by MAC). */
    ap(code: string): (ApState & { online: boolean }) | undefined;
    /** A client joins an access point (deterministic tests); its event goes on the next tick. */
    join(code: string, client?: Partial<SimClient>): SimClient;
    leave(code: string, mac: string): boolean;
  };
  stop(options?: { clearRetained?: boolean }): Promise<void>;
}

class AccessPoints extends FleetRunner<ApState, RebootCommand> {
  constructor(
    family: SimulatedFamily<ApState, RebootCommand>,
    options: ConstructorParameters<typeof FleetRunner<ApState, RebootCommand>>[1],
    seeds: ConstructorParameters<typeof FleetRunner<ApState, RebootCommand>>[2],
    private readonly ctx: FamilyContext,
  ) {
    super(family, options, seeds);
  }

  ap(code: string): (ApState & { online: boolean }) | undefined {
    const device = this.device(code);
    return device && { ...device.state, online: device.online };
  }

  join(code: string, client?: Partial<SimClient>): SimClient {
    const device = this.device(code);
    if (!device) throw new Error(`device-sim: no access point ${code}`);
    return joinClient(device.state, this.ctx, client);
  }

  leave(code: string, mac: string): boolean {
    const device = this.device(code);
    return device ? leaveClient(device.state, mac, this.ctx) : false;
  }
}

/** Connects every access controller and access point on its own connection; the clients come and go at `activityPerSecond`. */
export async function startWifiFleet(options: WifiFleetOptions): Promise<WifiFleet> {
  const load = (family: typeof AC_FAMILY | typeof AP_FAMILY) => (url: string) => loadSeeds(url, family, { schedules: false, gateways: false });
  const acSeeds = await seedsOf(options.acs, 'AC-', load(AC_FAMILY));
  const apSeeds = await seedsOf(options.aps, 'AP-', load(AP_FAMILY));
  const random = options.random ?? Math.random;
  const ctx: FamilyContext = { random, clock: () => Date.now() };
  const acs = await new FleetRunner(
    acFamily(),
    { ...options, activityPerSecond: undefined, devicesPerGateway: 1000, gatewayPrefix: 'AC-', registered: acSeeds.registered },
    acSeeds.seeds,
  ).run();
  try {
    const aps = await new AccessPoints(
      apFamily(),
      { ...options, devicesPerGateway: 1000, gatewayPrefix: 'AP-', registered: apSeeds.registered },
      apSeeds.seeds,
      ctx,
    ).run();
    return {
      acs,
      aps,
      stop: async (o) => {
        await Promise.all([acs.stop(o), aps.stop(o)]);
      },
    };
  } catch (err) {
    await acs.stop();
    throw err;
  }
}
