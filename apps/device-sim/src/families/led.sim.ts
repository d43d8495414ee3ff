import { windowAt } from '@sc/schedule';
import {
  LED_FAMILY,
  LedPlayMode,
  ScreenState,
  ledTaskSchedules,
  type LedCommand,
  type LedPlayParams,
  type LedPlaying,
  type LedStateMessage,
  type LedTaskParams,
} from '@sc/contracts';
import {
  FleetRunner,
  fetchInTurn,
  loadSeeds,
  seedsOf,
  slots,
  type DeviceContext,
  type DeviceFleet,
  type DeviceSource,
  type Slots,
  type SimulatedFamily,
  type SimulationOptions,
} from '../kit';

// LED screens: pole-mounted panels, each on its own connection, that take a brightness, a volume, bright or black,
// a reboot and a time sync, and report them (the kit's heartbeat sends their state again when they have been quiet).
// A reboot is a restart: the screen answers, drops off (its Last Will), and connects again with its settings.
// Real-time play and tasks name a file: the screen fetches it from its signed link (receipts as it comes in), checks
// it, acks, and then shows it: a real-time play at once until another or stopPlay, its tasks in their periods by its
// clock (in the task's time zone). It reports what it shows (`playing`) whenever that changes.

const HARDWARE = 'LED-P4-OUT';
const SOFTWARE = '3.2.1';
/** How long a reboot takes: the screen is offline meanwhile, then comes back as it was set. */
export const REBOOT_MS = 2000;

export interface LedState {
  brightness: number;
  volume: number;
  screen: ScreenState;
  timeZone: string;
  /** Its clock's offset from the true time, ms (a sync sets it to what the platform sent). */
  clockOffsetMs: number;
  /** Restarts so far. */
  reboots: number;
  /** The medium pushed in real time (once its file is in), and when it began showing it. */
  realtime: { file: LedPlayParams['file']; since: number } | null;
  /** The tasks it holds, by task id, ready once their file is in. */
  tasks: Map<number, { params: LedTaskParams; ready: boolean; readyAt: number }>;
  playing: LedPlaying | null;
  /** The minute (since the epoch) of the screen's clock for which `playing` was last worked out. */
  followedMinute?: number;
}

/** Which held task plays at `now` (the first ready one in its periods, by task id), with when its period began. */
function taskAt(screen: LedState, now: number): { params: LedTaskParams; since: number } | null {
  const at = new Date(now);
  for (const id of [...screen.tasks.keys()].sort((a, b) => a - b)) {
    const kept = screen.tasks.get(id)!;
    if (!kept.ready) continue;
    for (const schedule of ledTaskSchedules(kept.params)) {
      const window = windowAt(schedule, at, kept.params.timeZone);
      if (!window) continue;
      // Synchronous: every screen at the same point, from the period's start; asynchronous: from when this one took it.
      const since = kept.params.playMode === LedPlayMode.Synchronous ? window.start.getTime() : Math.max(window.start.getTime(), kept.readyAt);
      return { params: kept.params, since };
    }
  }
  return null;
}

/**
 * What the screen shows at `now`: real-time play first, else a task in its periods; true when that changed. Periods
 * begin and end on whole minutes (HH:mm, dates), so a clock tick within the minute last worked out changes nothing and
 * is skipped (`onTick`): ten thousand screens holding tasks would otherwise spend a core on their schedules every
 * second. A change to the screen's tasks or real-time play always works it out again.
 */
export function followLed(screen: LedState, now: number, onTick = false): boolean {
  const minute = Math.floor(now / 60_000);
  if (onTick && screen.followedMinute === minute) return false;
  screen.followedMinute = minute;
  const task = screen.realtime ? null : taskAt(screen, now);
  const next: LedPlaying | null = screen.realtime
    ? {
        source: 'realtime',
        mediaId: screen.realtime.file.mediaId,
        name: screen.realtime.file.name,
        taskId: null,
        since: new Date(screen.realtime.since).toISOString(),
      }
    : task
      ? {
          source: 'task',
          mediaId: task.params.file.mediaId,
          name: task.params.file.name,
          taskId: task.params.taskId,
          since: new Date(task.since).toISOString(),
        }
      : null;
  const same = JSON.stringify(next) === JSON.stringify(screen.playing);
  screen.playing = next;
  return !same;
}

/** Fetches a command's file (receipts as it comes in, the fleet's downloads bounded by `slot`). */
function fetchFile(file: LedPlayParams['file'], ctx: DeviceContext<LedState>, slot: Slots): Promise<void> {
  const one = { label: `media ${file.mediaId}`, url: file.url, bytes: file.bytes, sha256: file.sha256 };
  return fetchInTurn(slot, [one], (received) => ctx.receipt?.(received, file.bytes));
}

/** The LED screen family's behaviour on the simulator kit. */
export function ledFamily(options: { downloadConcurrency?: number } = {}): SimulatedFamily<LedState, LedCommand> {
  const slot = slots(options.downloadConcurrency ?? Infinity);
  return {
    declaration: LED_FAMILY,
    downloads: slot.stats,
    initial: (_seed, ctx) => ({
      brightness: 100,
      volume: 50,
      screen: ScreenState.Bright,
      timeZone: 'UTC',
      // Out of true by up to a minute until synchronised.
      clockOffsetMs: Math.round((ctx.random() - 0.5) * 120_000),
      reboots: 0,
      realtime: null,
      tasks: new Map(),
      playing: null,
    }),
    apply(screen, command, ctx) {
      switch (command.type) {
        case 'brightness':
          screen.brightness = command.params.brightness;
          break;
        case 'volume':
          screen.volume = command.params.volume;
          break;
        case 'screen':
          screen.screen = command.params.state;
          break;
        case 'syncTime':
          screen.timeZone = command.params.timeZone;
          // Its clock now keeps the platform's time.
          screen.clockOffsetMs = 0;
          break;
        case 'reboot':
          // It acknowledges, drops off, and reports again once it is up: brightness, volume, bright or black, time
          // zone and clock survive a restart.
          ctx.restart(REBOOT_MS, (s) => {
            s.reboots++;
          });
          break;
        case 'play': {
          const file = command.params.file;
          return fetchFile(file, ctx, slot).then(() => {
            screen.realtime = { file, since: ctx.clock() };
            followLed(screen, ctx.clock());
          });
        }
        case 'stopPlay':
          screen.realtime = null;
          followLed(screen, ctx.clock());
          break;
        case 'task': {
          const params = command.params;
          const kept = { params, ready: false, readyAt: 0 };
          screen.tasks.set(params.taskId, kept);
          followLed(screen, ctx.clock());
          return fetchFile(params.file, ctx, slot).then(
            () => {
              kept.ready = true;
              kept.readyAt = ctx.clock();
              followLed(screen, ctx.clock());
            },
            (err: Error) => {
              if (screen.tasks.get(params.taskId) === kept) screen.tasks.delete(params.taskId);
              throw err;
            },
          );
        }
        case 'forgetTask':
          screen.tasks.delete(command.params.taskId);
          followLed(screen, ctx.clock());
          break;
      }
    },
    tick: (screen, ctx) => followLed(screen, ctx.clock(), true),
    report: (screen, device): LedStateMessage => ({
      online: true,
      brightness: screen.brightness,
      volume: screen.volume,
      screen: screen.screen,
      timeZone: screen.timeZone,
      ipAddress: `10.30.${device.code.length % 250}.${(hash(device.code) % 250) + 1}`,
      hardwareVersion: HARDWARE,
      softwareVersion: SOFTWARE,
      playing: screen.playing,
    }),
  };
}

function hash(text: string): number {
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h;
}

/** Screens always have connections of their own. */
export interface LedFleetOptions extends Omit<SimulationOptions, 'individualConnections'> {
  /** Explicit codes, `count` generated codes (default prefix 'LED-'), or the registry's screens. */
  screens: DeviceSource;
  /** Downloads under way at once over the fleet (unbounded by default). */
  downloadConcurrency?: number;
}

export interface LedSnapshot extends Omit<LedState, 'clockOffsetMs' | 'tasks' | 'realtime'> {
  code: string;
  online: boolean;
  /** Commands applied so far (never more than once per id). */
  applied: number;
}

export interface LedFleet extends DeviceFleet {
  screen(code: string): LedSnapshot | undefined;
}

class LedScreens extends FleetRunner<LedState, LedCommand> implements LedFleet {
  screen(code: string): LedSnapshot | undefined {
    const device = this.device(code);
    if (!device) return undefined;
    const { clockOffsetMs: _offset, tasks: _tasks, realtime: _realtime, ...state } = device.state;
    return { code, online: device.online, applied: device.applied, ...state };
  }
}

/** Connects every screen on a connection of its own and publishes its retained state. */
export async function startLedFleet(options: LedFleetOptions): Promise<LedFleet> {
  const { seeds, registered } = await seedsOf(options.screens, 'LED-', (url) => loadSeeds(url, LED_FAMILY, { schedules: false, gateways: false }));
  return new LedScreens(
    ledFamily({ downloadConcurrency: options.downloadConcurrency }),
    { ...options, devicesPerGateway: 1000, gatewayPrefix: 'LED-', registered },
    seeds,
  ).run();
}
