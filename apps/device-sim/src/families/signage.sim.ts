import sharp from 'sharp';
import {
  SIGNAGE_FAMILY,
  ScreenOrientation,
  SignageScreenState,
  type CommandMessage,
  type SignageCurrentAd,
  type SignageScreenshotParams,
  type SignageStateMessage,
  type SignageVolumeParams,
} from '@sc/contracts';
import {
  FleetRunner,
  loadOwnSeeds,
  seedsOf,
  type DeviceFleet,
  type DeviceSource,
  type FamilyContext,
  type SimulatedFamily,
  type SimulationOptions,
} from '../kit';

// Floor screens: advertising players on their own connections. They play an ad, keep a volume (kept while muted),
// restart when told (away a few seconds), and upload a picture of their screen to the link a screenshot command gives.

const SOFTWARE = '3.8.2';
/** How long a reboot keeps a player away, ms. */
export const REBOOT_DOWN_MS = 4000;
/** The ads the demo players show (the ads of the demo data, once there are ads). */
export const DEMO_ADS: readonly SignageCurrentAd[] = [
  { id: 1, name: 'Spring sale' },
  { id: 2, name: 'Metro safety' },
  { id: 3, name: 'City marathon' },
  { id: 4, name: 'Museum night' },
];
/** The picture size of each orientation (half of 1080p: a screenshot is a preview, not a capture of every pixel). */
const FRAME: Readonly<Record<ScreenOrientation, { width: number; height: number; resolution: string }>> = {
  [ScreenOrientation.Portrait]: { width: 540, height: 960, resolution: '1080x1920' },
  [ScreenOrientation.Landscape]: { width: 960, height: 540, resolution: '1920x1080' },
};

export type SignageCommand =
  | CommandMessage<'volume', SignageVolumeParams>
  | CommandMessage<'mute', Record<string, never>>
  | CommandMessage<'unmute', Record<string, never>>
  | CommandMessage<'reboot', Record<string, never>>
  | CommandMessage<'screenshot', SignageScreenshotParams>;

export interface SignageState {
  name: string;
  orientation: ScreenOrientation;
  volume: number;
  muted: boolean;
  screenState: SignageScreenState;
  currentAd: SignageCurrentAd | null;
  serialNumber: string;
  /** Times it has started (a reboot adds one). */
  boots: number;
  /** Screenshots uploaded, and the last upload's answer (HTTP status, or the error). */
  screenshots: number;
  lastUpload: string | null;
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The SVG of what the player shows at `at`: its name, the ad it plays (or none), and the time. */
export function screenSvg(state: SignageState, at: Date): { svg: string; width: number; height: number } {
  const { width, height } = FRAME[state.orientation];
  const hue = ((state.currentAd?.id ?? 0) * 67) % 360;
  const background =
    state.screenState === SignageScreenState.Black ? '#000' : state.screenState === SignageScreenState.Bright ? '#fff' : `hsl(${hue},55%,35%)`;
  const ad = state.currentAd ? state.currentAd.name : 'No ad';
  const size = Math.round(width / 14);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect width="100%" height="100%" fill="${background}"/>
  <rect x="${width * 0.08}" y="${height * 0.3}" width="${width * 0.84}" height="${height * 0.4}" rx="16" fill="rgba(255,255,255,0.15)"/>
  <text x="50%" y="${height * 0.5}" font-family="sans-serif" font-size="${size * 1.4}" fill="#fff" text-anchor="middle">${escapeXml(ad)}</text>
  <text x="50%" y="${height * 0.12}" font-family="sans-serif" font-size="${size}" fill="#fff" text-anchor="middle">${escapeXml(state.name)}</text>
  <text x="50%" y="${height * 0.92}" font-family="monospace" font-size="${size * 0.8}" fill="#fff" text-anchor="middle">${at.toISOString().slice(0, 19).replace('T', ' ')} UTC</text>
</svg>`;
  return { svg, width, height };
}

/** A JPEG of what the player shows at `at`. */
export async function composeScreenshot(state: SignageState, at: Date): Promise<{ jpeg: Buffer; width: number; height: number }> {
  const { svg, width, height } = screenSvg(state, at);
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 70 }).toBuffer();
  return { jpeg, width, height };
}

/** Uploads the player's screenshot to the signed link; answers the HTTP status or why it could not. */
export async function uploadScreenshot(state: SignageState, params: SignageScreenshotParams, at: Date): Promise<string> {
  try {
    const { jpeg } = await composeScreenshot(state, at);
    const answer = await fetch(params.url, { method: 'PUT', body: new Uint8Array(jpeg), headers: { 'content-type': 'image/jpeg' } });
    return String(answer.status);
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * The floor-screen family's behaviour. `activity` is the chance per second that a player moves on to another ad by
 * itself (the demo's rotation; 0 in tests).
 */
export function signageFamily(activity = 0): SimulatedFamily<SignageState, SignageCommand> {
  return {
    declaration: SIGNAGE_FAMILY,
    initial(seed, ctx) {
      const record = seed.record ?? {};
      const orientation =
        record.orientation === ScreenOrientation.Landscape || record.orientation === ScreenOrientation.Portrait
          ? record.orientation
          : ctx.random() < 0.5
            ? ScreenOrientation.Portrait
            : ScreenOrientation.Landscape;
      return {
        name: typeof record.name === 'string' ? record.name : seed.code,
        orientation,
        volume: typeof record.volume === 'number' ? record.volume : 50,
        muted: record.muted === true,
        screenState: SignageScreenState.Normal,
        currentAd: activity > 0 ? DEMO_ADS[Math.floor(ctx.random() * DEMO_ADS.length)] : null,
        serialNumber: typeof record.serial_number === 'string' && record.serial_number ? record.serial_number : `SN-${seed.code}`,
        boots: 1,
        screenshots: 0,
        lastUpload: null,
      };
    },
    apply(player, command, ctx) {
      switch (command.type) {
        case 'volume':
          player.volume = command.params.volume;
          break;
        case 'mute':
          player.muted = true;
          break;
        case 'unmute':
          player.muted = false;
          break;
        case 'reboot':
          // It acks, drops off, and reports again once it is up (volume and mute survive a restart).
          ctx.restart(REBOOT_DOWN_MS, (state) => {
            state.boots++;
          });
          break;
        case 'screenshot': {
          const frozen = { ...player };
          void uploadScreenshot(frozen, command.params, new Date(ctx.clock())).then((answer) => {
            player.screenshots++;
            player.lastUpload = answer;
          });
          break;
        }
      }
    },
    report: (player): SignageStateMessage => ({
      online: true,
      volume: player.volume,
      muted: player.muted,
      screenState: player.screenState,
      orientation: player.orientation,
      resolution: FRAME[player.orientation].resolution,
      currentAd: player.currentAd,
      serialNumber: player.serialNumber,
      softwareVersion: SOFTWARE,
    }),
    act: (player, ctx) => nextAd(player, ctx),
    tick(player, ctx) {
      return activity > 0 && ctx.random() < activity && nextAd(player, ctx);
    },
  };
}

/** The player moves on to another demo ad. */
function nextAd(player: SignageState, ctx: FamilyContext): boolean {
  const others = DEMO_ADS.filter((ad) => ad.id !== player.currentAd?.id);
  player.currentAd = others[Math.floor(ctx.random() * others.length)];
  return true;
}

export interface SignageFleetOptions extends Omit<SimulationOptions, 'individualConnections'> {
  /** Explicit codes, `count` generated codes (default prefix 'FS-'), or the registry's floor screens. */
  players: DeviceSource;
  /** Chance per second that a player moves on to another ad (see signageFamily). Default 0. */
  activity?: number;
}

export interface SignageSnapshot {
  code: string;
  online: boolean;
  volume: number;
  muted: boolean;
  orientation: ScreenOrientation;
  boots: number;
  screenshots: number;
  lastUpload: string | null;
  applied: number;
}

export interface SignageFleet extends DeviceFleet {
  player(code: string): SignageSnapshot | undefined;
}

class SignagePlayers extends FleetRunner<SignageState, SignageCommand> implements SignageFleet {
  player(code: string): SignageSnapshot | undefined {
    const device = this.device(code);
    if (!device) return undefined;
    const { volume, muted, orientation, boots, screenshots, lastUpload } = device.state;
    return { code, online: device.online, volume, muted, orientation, boots, screenshots, lastUpload, applied: device.applied };
  }
}

/** Connects every player on a connection of its own and publishes its retained state. */
export async function startSignageFleet(options: SignageFleetOptions): Promise<SignageFleet> {
  const { seeds, registered } = await seedsOf(options.players, 'FS-', (url) =>
    loadOwnSeeds(url, SIGNAGE_FAMILY, ['name', 'orientation', 'volume', 'muted', 'serial_number']),
  );
  const runner = { ...options, devicesPerGateway: 1000, gatewayPrefix: 'FS-', registered };
  return new SignagePlayers(signageFamily(options.activity ?? 0), runner, seeds).run();
}
