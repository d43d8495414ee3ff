import {
  BROADCAST_FAMILY,
  TerminalOccupancy,
  type TerminalCommand,
  type TerminalDownload,
  type TerminalPlaying,
  type TerminalStateMessage,
  type TerminalTaskControlParams,
  type TerminalTaskParams,
} from '@sc/contracts';
import { immediateDone, onDemandDone, playingAt, windowAt, type HeldTask } from '@sc/schedule';
import {
  FleetRunner,
  fetchInTurn,
  slots,
  type Slots,
  loadSeeds,
  seedsOf,
  type DeviceContext,
  type DeviceFleet,
  type DeviceSource,
  type FamilyContext,
  type SimulatedFamily,
  type SimulationOptions,
} from '../kit';

// Broadcast terminals: IP speakers that play what they are sent (or a programme of their own) and carry intercom calls,
// each on its own connection; busy ("occupy") while they do, idle again when it ends or is stopped.

const HARDWARE = 'IPS-30W';
const SOFTWARE = '2.4.0';
const DEMO_TITLES = ['Morning announcement', 'Traffic advisory', 'Park closing notice', 'Weather alert', 'Background music'];

/** A broadcast task the terminal keeps: what it was sent, and whether its media are in. */
export interface KeptTask {
  params: TerminalTaskParams;
  held: HeldTask;
  /** Every medium downloaded and checked. */
  ready: boolean;
}

export interface TerminalState {
  occupancy: TerminalOccupancy;
  playing: TerminalPlaying | null;
  broadcastVolume: number;
  interphoneVolume: number;
  /** When what it plays ends, by its clock (ms); null while paused or when it plays until stopped. */
  endsAt: number | null;
  /** What was left of it when it was paused, ms. */
  leftMs: number | null;
  /** Whether what occupies it comes from its tasks (the programme) rather than a call or a title played on its own. */
  fromProgramme: boolean;
  /** Its tasks by id. */
  tasks: Map<string, KeptTask>;
  /** Tasks stopped by the console until then (ms by its clock): a scheduled one plays again in its next period. */
  stoppedUntil: Map<string, number>;
  /** Tasks the console paused (`taskControl`): paused whenever they play, until resumed. */
  pausedTasks: Set<string>;
  download: TerminalDownload | null;
  /**
   * The task whose download it reports: the last it was given (until cancelled). Its download is reported to the end
   * even when an immediate task's time to play ran out meanwhile (the terminal then forgets it without playing it).
   */
  downloading: KeptTask | null;
  /** Its clock's time zone (the last task's). */
  timeZone: string;
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
  terminal.fromProgramme = false;
}

function release(terminal: TerminalState): boolean {
  if (terminal.occupancy === TerminalOccupancy.Idle) return false;
  Object.assign(terminal, { occupancy: TerminalOccupancy.Idle, playing: null, endsAt: null, leftMs: null, fromProgramme: false });
  return true;
}

/**
 * Takes what its tasks say it plays now (unless a call or a title of its own occupies it): the task of the first
 * priority under way, medium by medium; an immediate broadcast that has played its list is forgotten. True when what
 * it reports changed.
 */
function followProgramme(terminal: TerminalState, now: number): boolean {
  let changed = false;
  for (const [id, kept] of terminal.tasks) {
    if (immediateDone(kept.held, new Date(now))) {
      terminal.tasks.delete(id);
      changed = true;
    } else if (onDemandDone(kept.held, new Date(now))) kept.held = { ...kept.held, playFrom: null };
  }
  for (const [id, until] of terminal.stoppedUntil) if (until <= now) terminal.stoppedUntil.delete(id);
  if (terminal.occupancy !== TerminalOccupancy.Idle && !terminal.fromProgramme) return changed;
  const playable = [...terminal.tasks.values()].filter((k) => k.ready && !terminal.stoppedUntil.has(k.held.taskId)).map((k) => k.held);
  const next = playingAt(playable, new Date(now), terminal.timeZone);
  if (!next) return release(terminal) || changed;
  const { params } = terminal.tasks.get(next.taskId)!;
  const media = params.items[next.item].title;
  const current = terminal.playing;
  if (terminal.fromProgramme && current?.taskId === next.taskId && current.media === media) return changed;
  terminal.occupancy = TerminalOccupancy.Task;
  terminal.playing = {
    title: params.title,
    taskId: params.taskId,
    since: new Date(now).toISOString(),
    paused: terminal.pausedTasks.has(next.taskId) || (current?.taskId === next.taskId && current.paused),
    media,
    priority: params.priority,
  };
  terminal.endsAt = null;
  terminal.leftMs = null;
  terminal.fromProgramme = true;
  if (params.volume !== undefined) terminal.broadcastVolume = params.volume;
  return true;
}

/** What a terminal answers to a play action on a task it does not hold. */
export const UNKNOWN_TASK = 'unknown task';

/**
 * Stops a task (the console's stop): a scheduled one waits for its next period, an immediate broadcast is over. If it
 * was playing, the terminal is idle until its programme says otherwise.
 */
function stopTask(terminal: TerminalState, kept: KeptTask, now: number): void {
  const { taskId, schedule } = kept.held;
  if (schedule) {
    const window = windowAt(schedule, new Date(now), terminal.timeZone);
    terminal.stoppedUntil.set(taskId, window ? window.end.getTime() : now);
    kept.held = { ...kept.held, playFrom: null };
  } else terminal.tasks.delete(taskId);
  if (terminal.fromProgramme && terminal.playing?.taskId === taskId) release(terminal);
}

/** Sets the pause of the task it plays now, if it plays `taskId` from its programme. */
function pausePlaying(terminal: TerminalState, taskId: string, paused: boolean): void {
  if (terminal.fromProgramme && terminal.playing?.taskId === taskId) terminal.playing = { ...terminal.playing, paused };
}

/** The console's play actions on one task the terminal holds (`taskControl`); a task it does not hold is refused. */
function controlTask(terminal: TerminalState, { taskId, action }: TerminalTaskControlParams, now: number): string | undefined {
  const kept = terminal.tasks.get(taskId);
  if (!kept) return UNKNOWN_TASK;
  switch (action) {
    case 'play':
      // Now, for one run of its list (an immediate broadcast starts again from the top).
      terminal.stoppedUntil.delete(taskId);
      kept.held = kept.held.schedule ? { ...kept.held, playFrom: new Date(now) } : { ...kept.held, receivedAt: new Date(now) };
      if (terminal.fromProgramme && terminal.playing?.taskId === taskId) release(terminal);
      break;
    case 'pause':
      terminal.pausedTasks.add(taskId);
      pausePlaying(terminal, taskId, true);
      break;
    case 'resume':
      terminal.pausedTasks.delete(taskId);
      pausePlaying(terminal, taskId, false);
      break;
    case 'stop':
      stopTask(terminal, kept, now);
      break;
  }
  followProgramme(terminal, now);
  return undefined;
}

/**
 * Downloads a task's media as a terminal does: each file from its signed link, checked against its size and checksum,
 * reporting how far it got; the task plays only once every file is in. `slot` bounds the fleet's downloads at once.
 */
async function download(terminal: TerminalState, kept: KeptTask, ctx: DeviceContext<TerminalState>, slot: Slots): Promise<void> {
  const { params } = kept;
  const total = params.items.reduce((sum, item) => sum + item.bytes, 0);
  const progress: TerminalDownload = { taskId: params.taskId, received: 0, total, done: false };
  terminal.downloading = kept;
  const show = () => {
    if (terminal.downloading !== kept) return;
    terminal.download = { ...progress };
    ctx.report();
  };
  show();
  try {
    const files = params.items.map((item) => ({ label: item.title, url: item.url, bytes: item.bytes, sha256: item.sha256 }));
    await fetchInTurn(slot, files, (received) => {
      progress.received = received;
      show();
    });
    progress.received = total;
    progress.done = true;
    kept.ready = true;
    followProgramme(terminal, ctx.clock());
  } catch (err) {
    progress.error = (err as Error).message.slice(0, 200);
  }
  show();
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
 * takes a call by itself (the demo's street life; 0 in tests, which occupy terminals themselves). `downloadConcurrency`
 * bounds the downloads under way at once over the fleet (default unbounded): one process simulating thousands of
 * terminals would otherwise open a socket per terminal at once, where real terminals each have their own host.
 */
export function broadcastFamily(activity = 0, options: { downloadConcurrency?: number } = {}): SimulatedFamily<TerminalState, TerminalCommand> {
  const slot = slots(options.downloadConcurrency ?? Infinity);
  return {
    declaration: BROADCAST_FAMILY,
    downloads: slot.stats,
    initial(_seed, ctx) {
      const terminal: TerminalState = {
        occupancy: TerminalOccupancy.Idle,
        playing: null,
        broadcastVolume: 50,
        interphoneVolume: 50,
        endsAt: null,
        leftMs: null,
        fromProgramme: false,
        tasks: new Map(),
        stoppedUntil: new Map(),
        pausedTasks: new Set(),
        download: null,
        downloading: null,
        timeZone: 'UTC',
      };
      // A demo starts with about a third of its terminals busy.
      if (activity > 0 && ctx.random() < 0.3) occupy(terminal, demoOccupation(ctx), ctx.clock());
      return terminal;
    },
    apply(terminal, command, ctx) {
      const now = ctx.clock();
      switch (command.type) {
        case 'task': {
          const params = command.params;
          const held: HeldTask = {
            taskId: params.taskId,
            priority: params.priority,
            mode: params.mode,
            durationsMs: params.items.map((item) => item.durationMs),
            schedule: params.schedule,
            receivedAt: new Date(now),
          };
          const kept: KeptTask = { params, held, ready: false };
          terminal.tasks.set(params.taskId, kept);
          terminal.stoppedUntil.delete(params.taskId);
          terminal.pausedTasks.delete(params.taskId);
          terminal.timeZone = params.timeZone;
          void download(terminal, kept, ctx, slot);
          break;
        }
        case 'cancelTask':
          if (terminal.downloading?.params.taskId === command.params.taskId) terminal.downloading = null;
          terminal.tasks.delete(command.params.taskId);
          terminal.stoppedUntil.delete(command.params.taskId);
          terminal.pausedTasks.delete(command.params.taskId);
          if (terminal.fromProgramme && terminal.playing?.taskId === command.params.taskId) release(terminal);
          followProgramme(terminal, now);
          break;
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
          // A task paused on its own is resumed too.
          if (terminal.playing?.taskId) terminal.pausedTasks.delete(terminal.playing.taskId);
          if (terminal.playing?.paused) {
            terminal.playing = { ...terminal.playing, paused: false };
            terminal.endsAt = terminal.leftMs === null ? null : now + terminal.leftMs;
            terminal.leftMs = null;
          }
          break;
        case 'stop': {
          // A task it was playing waits for its next period (an immediate broadcast is over).
          const taskId = terminal.fromProgramme ? terminal.playing?.taskId : null;
          const kept = taskId ? terminal.tasks.get(taskId) : undefined;
          if (kept) stopTask(terminal, kept, now);
          release(terminal);
          break;
        }
        case 'taskControl':
          return controlTask(terminal, command.params, now);
      }
    },
    report: (terminal): TerminalStateMessage => ({
      online: true,
      occupancy: terminal.occupancy,
      playing: terminal.playing,
      broadcastVolume: terminal.broadcastVolume,
      interphoneVolume: terminal.interphoneVolume,
      tasks: [...terminal.tasks.keys()],
      download: terminal.download,
      hardwareVersion: HARDWARE,
      softwareVersion: SOFTWARE,
    }),
    // At the fleet's activity rate (a benchmark's): an idle terminal starts a programme or takes a call until its next
    // turn, which ends it; one busy with its tasks is left to them.
    act(terminal, ctx) {
      if (terminal.fromProgramme) return false;
      if (terminal.occupancy !== TerminalOccupancy.Idle) return release(terminal);
      occupy(terminal, { ...demoOccupation(ctx), seconds: undefined }, ctx.clock());
      return true;
    },
    // What it plays ends on time, its tasks play by its clock; an idle demo terminal may start something.
    tick(terminal, ctx) {
      const now = ctx.clock();
      if (terminal.endsAt !== null && now >= terminal.endsAt) {
        release(terminal);
        followProgramme(terminal, now);
        return true;
      }
      if (followProgramme(terminal, now)) return true;
      if (terminal.occupancy !== TerminalOccupancy.Idle || activity <= 0 || ctx.random() >= activity) return false;
      occupy(terminal, demoOccupation(ctx), now);
      return true;
    },
  };
}

/** Terminals always have connections of their own: they hang off no gateway, and the devices' listener knows each by its login. */
export interface BroadcastFleetOptions extends Omit<SimulationOptions, 'individualConnections'> {
  /** Explicit codes, `count` generated codes (default prefix 'BC-'), or the registry's terminals. */
  terminals: DeviceSource;
  /** Chance per second that an idle terminal starts something by itself (see broadcastFamily). Default 0. */
  activity?: number;
  /** Downloads under way at once over the fleet (see broadcastFamily). Default unbounded. */
  downloadConcurrency?: number;
  /** The terminals' clock, for their schedules: a start time (default now) and a speed (default 1). */
  clock?: { start?: Date; speed?: number };
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
  const { seeds, registered } = await seedsOf(options.terminals, 'BC-', (url) =>
    loadSeeds(url, BROADCAST_FAMILY, { schedules: false, gateways: false }),
  );
  const runner = { ...options, devicesPerGateway: 1000, gatewayPrefix: 'BC-', registered };
  const family = broadcastFamily(options.activity ?? 0, { downloadConcurrency: options.downloadConcurrency });
  return new BroadcastTerminals(family, runner, seeds).run();
}
