import type { CommandMessage, FamilyDeclaration, FaultCode } from '@sc/contracts';
import type { CommandBody } from './commands';
import type { DownloadStats } from './downloads';
import type { DeviceSeed } from './plan';

export type Random = () => number;

/** What a family's behaviour may ask of the fleet it runs in. */
export interface FamilyContext {
  /** Source of every random draw (a test may make it deterministic). */
  readonly random: Random;
  /** The simulated time, in milliseconds: the clock devices run their schedules by. */
  clock(): number;
}

/** The context of one device, as it comes online. */
export interface DeviceContext<State> extends FamilyContext {
  /** Runs `change` on the device's state after `ms` (not once the fleet stops); when it answers true the state is reported. */
  after(ms: number, change: (state: State) => boolean): void;
  /** Reports the device's state now (work of its own, such as a download, changed it), if it is online. */
  report(): void;
  /** Publishes now the events the device has gathered (SimulatedFamily.takeEvents), if it is online: an answer it worked out. */
  events?(): void;
  /**
   * While the files of the command being applied come in (its apply answered a promise): bytes so far of the total,
   * sent as a `downloading` receipt. The family decides how often (every few hundred kilobytes, say).
   */
  receipt?(received: number, total: number): void;
  /**
   * Restarts the device once it has answered the command being applied: it drops off (its Last Will, or its gateway
   * reporting it gone), is away `downMs`, then connects again with `restarted` applied to its state and reports it.
   */
  restart(downMs: number, restarted?: (state: State) => void): void;
}

/** What the kit tells a family about the device it reports for. */
export interface DeviceInfo {
  readonly code: string;
  readonly gatewayId: string;
}

/**
 * A device family's behaviour, which is all a family adds to the kit (kit/fleet.ts): the kit connects, answers and
 * de-duplicates commands, injects faults and failures, takes devices offline, and publishes what the family reports.
 * `State` is one device's state, which the family changes in place.
 */
export interface SimulatedFamily<State, C extends CommandMessage = CommandMessage, Heard = unknown> {
  /** The family's declaration in libs/contracts: its MQTT family and the commands (and their params schemas) it takes. */
  readonly declaration: FamilyDeclaration;
  /**
   * The gateways its devices hang off: their declaration and their retained `state` for `devices` devices. A family
   * without one (broadcast terminals) connects each device on its own.
   */
  readonly gateway?: { readonly declaration: FamilyDeclaration; state(devices: number): object };
  /** A device's state when the simulation starts; a seed's schedule is there only if the family would accept it as a command. */
  initial(seed: DeviceSeed, ctx: FamilyContext): State;
  /** What the declared params schemas cannot say; a command it refuses is answered 'bad command'. */
  accepts?(command: CommandBody<C>): boolean;
  /** How its devices' downloads went so far, for a family whose commands name files to fetch (shown in the fleet's counters). */
  downloads?(): DownloadStats;
  /**
   * Applies a valid, live command (once per id). The device then acks and reports its state, as after any applied
   * command; work the command starts (a download) reports through `ctx` as it goes. A command the device's state
   * rules out (a task it does not hold) is refused by answering why: the ack says so, and nothing may have changed.
   * A command declared with receipts may answer a promise instead: the kit sends `received`, the family sends
   * `downloading` receipts through `ctx.receipt` as its files come in, and the ack follows when the promise settles
   * (ok, or not ok with the reason it resolves to or fails with). A re-send meanwhile gets the last receipt again.
   */
  apply(state: State, command: C, ctx: DeviceContext<State>): void | string | Promise<void | string>;
  /** The retained `state` payload of an online device. */
  report(state: State, device: DeviceInfo): object;
  /** One `telemetry` reading, taken `now`; a family without telemetry reports its state on its heartbeat instead. */
  telemetry?(state: State, faults: ReadonlySet<FaultCode>, now: Date, random: Random): object;
  /**
   * A change the device makes by itself, not through a command (a terminal starts or ends a programme): the fleet
   * asks its online devices in turn at its activity rate (SimulationOptions.activityPerSecond); true when the state
   * changed (it is then reported at once).
   */
  act?(state: State, ctx: FamilyContext): boolean;
  /** Every schedule tick and clock change, for each online device: true when its state changed (it is then reported). */
  tick?(state: State, ctx: FamilyContext): boolean;
  /**
   * The `event` payloads the device has gathered since it was last asked (a player's runs of its ads), taken away:
   * the kit publishes them after each tick, in order.
   */
  takeEvents?(state: State): object[];
  /** When the fleet stops: ends what the family runs beside its devices' messages (a call's media). */
  stopped?(): Promise<void>;
  /** Each time the device comes online (connects, reconnects, is brought back), before its state is reported. */
  connected?(state: State, ctx: DeviceContext<State>): void;
  /**
   * Topics the family's devices listen to besides their commands, on one connection per fleet: `read` turns a
   * message into what `hear` gets (null ignores it); `hear` answers per online device whether its state changed.
   */
  readonly listens?: {
    readonly topics: readonly string[];
    read(topic: string, payload: Buffer): Heard | null;
    hear(state: State, heard: Heard, ctx: FamilyContext): boolean;
  };
}
