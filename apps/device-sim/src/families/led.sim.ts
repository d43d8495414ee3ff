import { LED_FAMILY, ScreenState, type LedCommand, type LedStateMessage } from '@sc/contracts';
import { FleetRunner, loadSeeds, seedsOf, type DeviceFleet, type DeviceSource, type SimulatedFamily, type SimulationOptions } from '../kit';

// LED screens: pole-mounted panels, each on its own connection, that take a brightness, a volume, bright or black,
// a reboot and a time sync, and report them (the kit's heartbeat sends their state again when they have been quiet).
// A reboot is a restart: the screen answers, drops off (its Last Will), and connects again with its settings.

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
}

/** The LED screen family's behaviour on the simulator kit. */
export function ledFamily(): SimulatedFamily<LedState, LedCommand> {
  return {
    declaration: LED_FAMILY,
    initial: (_seed, ctx) => ({
      brightness: 100,
      volume: 50,
      screen: ScreenState.Bright,
      timeZone: 'UTC',
      // Out of true by up to a minute until synchronised.
      clockOffsetMs: Math.round((ctx.random() - 0.5) * 120_000),
      reboots: 0,
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
      }
    },
    report: (screen, device): LedStateMessage => ({
      online: true,
      brightness: screen.brightness,
      volume: screen.volume,
      screen: screen.screen,
      timeZone: screen.timeZone,
      ipAddress: `10.30.${device.code.length % 250}.${(hash(device.code) % 250) + 1}`,
      hardwareVersion: HARDWARE,
      softwareVersion: SOFTWARE,
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
}

export interface LedSnapshot extends Omit<LedState, 'clockOffsetMs'> {
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
    const { clockOffsetMs: _offset, ...state } = device.state;
    return { code, online: device.online, applied: device.applied, ...state };
  }
}

/** Connects every screen on a connection of its own and publishes its retained state. */
export async function startLedFleet(options: LedFleetOptions): Promise<LedFleet> {
  const { seeds, registered } = await seedsOf(options.screens, 'LED-', (url) => loadSeeds(url, LED_FAMILY, { schedules: false, gateways: false }));
  return new LedScreens(ledFamily(), { ...options, devicesPerGateway: 1000, gatewayPrefix: 'LED-', registered }, seeds).run();
}
