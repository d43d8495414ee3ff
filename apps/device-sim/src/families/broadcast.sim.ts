import { BROADCAST_FAMILY, TerminalOccupancy, type TerminalCommand, type TerminalPlaying, type TerminalStateMessage } from '@sc/contracts';
import { FleetRunner, loadSeeds, type DeviceFleet, type DeviceSeed, type FamilyContext, type SimulatedFamily, type SimulationOptions } from '../kit';

// Broadcast terminals: IP speakers that play what they are sent (or a programme of their own) and carry intercom calls,
// each on its own connection; busy ("occupy") while they do, idle again when it ends or is stopped.

const HARDWARE = 'IPS-30W';
const SOFTWARE = '2.4.0';
const DEMO_TITLES = ['Morning announcement', 'Traffic advisory', 'Park closing notice', 'Weather alert', 'Background music'];

export interface TerminalState {
  occupancy: TerminalOccupancy;
  playing: TerminalPlaying | null;
  broadcastVolume: number;
  interphoneVolume: number;
  /** When what it plays ends, by its clock (ms); null while paused or when it plays until stopped. */
  endsAt: number | null;
  /** What was left of it when it was paused, ms. */
  leftMs: number | null;
}

/** What occupies a terminal: a programme or a call, for `seconds` (until stopped without). */
export interface Occupation {
  occupancy: TerminalOccupancy.Task | TerminalOccupancy.Intercom;
  title: string;
  taskId?: string;
  seconds?: number;
}

function occupy(terminal: TerminalState, what: Occupation, now: number): void {
  terminal.occupancy = what.occupancy;
  terminal.playing = { title: what.title, taskId: what.taskId ?? null, since: new Date(now).toISOString(), paused: false };
  terminal.endsAt = what.seconds ? now + what.seconds * 1000 : null;
  terminal.leftMs = null;
}

function release(terminal: TerminalState): boolean {
  if (terminal.occupancy === TerminalOccupancy.Idle) return false;
  Object.assign(terminal, { occupancy: TerminalOccupancy.Idle, playing: null, endsAt: null, leftMs: null });
  return true;
}

/** A programme or a call of the demo: mostly programmes, now and then a call, 20 s to 3 min. */
function demoOccupation({ random }: FamilyContext): Occupation {
  const call = random() < 0.2;
  return {
    occupancy: call ? TerminalOccupancy.Intercom : TerminalOccupancy.Task,
    title: call ? `Call ${8000 + Math.floor(random() * 100)}` : DEMO_TITLES[Math.floor(random() * DEMO_TITLES.length)],
    seconds: 20 + Math.floor(random() * 160),
  };
}

/**
 * The terminal family's behaviour. `activity` is the chance, per second, that an idle terminal starts a programme or
 * takes a call by itself (the demo's street life; 0 in tests, which occupy terminals themselves).
 */
export function broadcastFamily(activity = 0): SimulatedFamily<TerminalState, TerminalCommand> {
  return {
    declaration: BROADCAST_FAMILY,
    initial(_seed, ctx) {
      const terminal: TerminalState = {
        occupancy: TerminalOccupancy.Idle,
        playing: null,
        broadcastVolume: 50,
        interphoneVolume: 50,
        endsAt: null,
        leftMs: null,
      };
      // A demo starts with about a third of its terminals busy.
      if (activity > 0 && ctx.random() < 0.3) occupy(terminal, demoOccupation(ctx), ctx.clock());
      return terminal;
    },
    apply(terminal, command, { clock }) {
      const now = clock();
      switch (command.type) {
        case 'volume':
          Object.assign(terminal, command.params);
          break;
        case 'play':
          occupy(
            terminal,
            {
              occupancy: TerminalOccupancy.Task,
              title: command.params.title,
              taskId: command.params.taskId,
              seconds: command.params.durationSeconds,
            },
            now,
          );
          break;
        case 'pause':
          if (terminal.playing && !terminal.playing.paused) {
            terminal.playing = { ...terminal.playing, paused: true };
            terminal.leftMs = terminal.endsAt === null ? null : Math.max(0, terminal.endsAt - now);
            terminal.endsAt = null;
          }
          break;
        case 'resume':
          if (terminal.playing?.paused) {
            terminal.playing = { ...terminal.playing, paused: false };
            terminal.endsAt = terminal.leftMs === null ? null : now + terminal.leftMs;
            terminal.leftMs = null;
          }
          break;
        case 'stop':
          release(terminal);
          break;
      }
    },
    report: (terminal): TerminalStateMessage => ({
      online: true,
      occupancy: terminal.occupancy,
      playing: terminal.playing,
      broadcastVolume: terminal.broadcastVolume,
      interphoneVolume: terminal.interphoneVolume,
      hardwareVersion: HARDWARE,
      softwareVersion: SOFTWARE,
    }),
    // What it plays ends on time; an idle demo terminal may start something.
    tick(terminal, ctx) {
      const now = ctx.clock();
      if (terminal.endsAt !== null && now >= terminal.endsAt) return release(terminal);
      if (terminal.occupancy !== TerminalOccupancy.Idle || activity <= 0 || ctx.random() >= activity) return false;
      occupy(terminal, demoOccupation(ctx), now);
      return true;
    },
  };
}

export interface BroadcastFleetOptions extends Omit<SimulationOptions, 'individualConnections'> {
  /** Explicit codes, or the registry's terminals. */
  terminals: readonly (string | DeviceSeed)[] | { databaseUrl: string };
  /** Chance per second that an idle terminal starts something by itself (see broadcastFamily). Default 0. */
  activity?: number;
}

export interface TerminalSnapshot {
  code: string;
  online: boolean;
  occupancy: TerminalOccupancy;
  playing: TerminalPlaying | null;
  broadcastVolume: number;
  interphoneVolume: number;
  /** Commands applied so far (never more than once per id). */
  applied: number;
}

export interface BroadcastFleet extends DeviceFleet {
  terminal(code: string): TerminalSnapshot | undefined;
  /** The terminal starts a programme or takes a call by itself, and reports it. */
  occupy(code: string, what: Occupation): Promise<void>;
  /** What it plays or carries ends, and it reports itself idle. */
  release(code: string): Promise<void>;
}

class BroadcastTerminals extends FleetRunner<TerminalState, TerminalCommand> implements BroadcastFleet {
  terminal(code: string): TerminalSnapshot | undefined {
    const device = this.device(code);
    if (!device) return undefined;
    const { occupancy, playing, broadcastVolume, interphoneVolume } = device.state;
    return { code, online: device.online, occupancy, playing, broadcastVolume, interphoneVolume, applied: device.applied };
  }

  occupy(code: string, what: Occupation): Promise<void> {
    return this.update(code, (terminal, { clock }) => {
      occupy(terminal, what, clock());
      return true;
    });
  }

  release(code: string): Promise<void> {
    return this.update(code, release);
  }
}

/** Connects every terminal on a connection of its own and publishes its retained state. */
export async function startBroadcastFleet(options: BroadcastFleetOptions): Promise<BroadcastFleet> {
  const source = options.terminals;
  const seeds =
    'databaseUrl' in source
      ? await loadSeeds(source.databaseUrl, BROADCAST_FAMILY, { schedules: false, gateways: false })
      : source.map((s) => (typeof s === 'string' ? { code: s } : s));
  const runner = { ...options, devicesPerGateway: 1000, gatewayPrefix: 'BC-', registered: 'databaseUrl' in source };
  return new BroadcastTerminals(broadcastFamily(options.activity ?? 0), runner, seeds).run();
}
