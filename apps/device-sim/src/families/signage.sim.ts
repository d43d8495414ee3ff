import sharp from 'sharp';
import { adPlanWindowAt } from '@sc/schedule';
import {
  AdPlayMode,
  PublishType,
  SIGNAGE_FAMILY,
  ScreenOrientation,
  SignageScreenState,
  type CommandMessage,
  type SignageCurrentAd,
  type SignagePlayEvent,
  type SignagePublishParams,
  type SignageScreenshotParams,
  type SignageStateMessage,
  type SignageVolumeParams,
} from '@sc/contracts';
import {
  FleetRunner,
  fetchInTurn,
  slots,
  type DeviceContext,
  type Slots,
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
  | CommandMessage<'screenshot', SignageScreenshotParams>
  | CommandMessage<'publish', SignagePublishParams>;

/** An ad plan the player holds: ready once its files are in; where it is in its list, and how many runs it has played. */
interface KeptPlan {
  params: SignagePublishParams;
  ready: boolean;
  /** The next ad of its list. */
  position: number;
  /** Runs of its whole list played (a limited loop stops at playLimitCount). */
  listRuns: number;
  /** A limited loop rests until then between two runs of its list (ms of the player's clock). */
  restUntil: number;
}

/** The run of an ad under way. */
interface AdRun {
  planId: string;
  adIndex: number;
  ad: SignageCurrentAd;
  since: number;
  until: number;
}

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
  /** The ad plans it holds, in the order they came (appended ones after). */
  plans: Map<string, KeptPlan>;
  run: AdRun | null;
  /** With no ad under way: from when until when nothing could start (the next whole minute, or a plan's rest ending). */
  idle?: { from: number; until: number };
  /** Runs ended and not yet reported (proof of play), and how many it has reported. */
  plays: SignagePlayEvent[];
  playsReported: number;
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
export function signageFamily(activity = 0, options: { downloadConcurrency?: number } = {}): SimulatedFamily<SignageState, SignageCommand> {
  const slot = slots(options.downloadConcurrency ?? Infinity);
  return {
    declaration: SIGNAGE_FAMILY,
    downloads: slot.stats,
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
        plans: new Map(),
        run: null,
        plays: [],
        playsReported: 0,
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
        case 'publish':
          return publish(player, command.params, ctx, slot);
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
    // Without plans, the demo's players move from one demo ad to another; with plans, they play them.
    act: (player, ctx) => player.plans.size === 0 && nextAd(player, ctx),
    tick(player, ctx) {
      if (player.plans.size > 0 || player.run) return followPlans(player, ctx.clock(), true);
      return activity > 0 && ctx.random() < activity && nextAd(player, ctx);
    },
    takeEvents(player) {
      const plays = player.plays;
      player.plays = [];
      player.playsReported += plays.length;
      return plays;
    },
  };
}

/**
 * Keeps an ad plan as a player does: `clear` drops every plan; `replace` drops the others at once, `replaceAfterDownload`
 * once its files are in; its files are fetched (receipts as they come in, the fleet's downloads bounded by `slot`),
 * and the plan plays once every file is in and checked. A download that fails drops the plan (the ack says why).
 */
function publish(player: SignageState, params: SignagePublishParams, ctx: DeviceContext<SignageState>, slot: Slots): Promise<void> | undefined {
  const now = ctx.clock();
  if (params.publishType === PublishType.Clear) {
    player.plans.clear();
    followPlans(player, now);
    return undefined;
  }
  if (params.publishType === PublishType.Replace) player.plans.clear();
  const kept: KeptPlan = { params, ready: false, position: 0, listRuns: 0, restUntil: 0 };
  player.plans.delete(params.planId);
  player.plans.set(params.planId, kept);
  followPlans(player, now);
  const total = params.files.reduce((sum, file) => sum + file.bytes, 0);
  const files = params.files.map((file) => ({ label: `material ${file.materialId}`, url: file.url, bytes: file.bytes, sha256: file.sha256 }));
  return fetchInTurn(slot, files, (received) => ctx.receipt?.(received, total)).then(
    () => {
      if (player.plans.get(params.planId) !== kept) return;
      kept.ready = true;
      if (params.publishType === PublishType.ReplaceAfterDownload)
        for (const id of [...player.plans.keys()]) if (id !== params.planId) player.plans.delete(id);
      followPlans(player, ctx.clock());
    },
    (err: Error) => {
      if (player.plans.get(params.planId) === kept) player.plans.delete(params.planId);
      followPlans(player, ctx.clock());
      throw err;
    },
  );
}

/** Whether a plan may start a run of an ad at `now`: ready, in its days and hours, not resting, runs left. */
function playable(kept: KeptPlan, now: number): boolean {
  const { params } = kept;
  if (!kept.ready || params.ads.length === 0 || now < kept.restUntil) return false;
  // On demand plays when asked for at the screen, which a simulated player never is.
  if (params.playMode === AdPlayMode.OnDemand) return false;
  if (params.playMode === AdPlayMode.LimitedLoopInterval && kept.listRuns >= (params.playLimitCount ?? 1)) return false;
  return adPlanWindowAt(params.schedule, new Date(now), params.timeZone) !== null;
}

/** Ends the run under way at `at` (cut short when before its end), gathering it as a play; true when one ended. */
function endRun(player: SignageState, at: number): boolean {
  const run = player.run;
  if (!run) return false;
  const seconds = Math.round((Math.min(at, run.until) - run.since) / 1000);
  if (seconds >= 1) player.plays.push({ ts: new Date(run.since).toISOString(), planId: run.planId, adId: run.ad.id, seconds });
  const kept = player.plans.get(run.planId);
  if (kept && at >= run.until) {
    kept.position = (run.adIndex + 1) % kept.params.ads.length;
    if (kept.position === 0) {
      kept.listRuns++;
      if (kept.params.playMode === AdPlayMode.LimitedLoopInterval) kept.restUntil = at + (kept.params.playIntervalSeconds ?? 0) * 1000;
    }
  }
  player.run = null;
  return true;
}

/**
 * What the player shows at `now` by its plans: a run ends at its ad's total duration (or when its plan is dropped or
 * its hours end) and is gathered as a play; then the next plan in turn that may play starts its next ad. Answers
 * whether what it shows changed.
 */
export function followPlans(player: SignageState, now: number, onTick = false): boolean {
  // Plans' days and hours begin and end on whole minutes: a player playing nothing looks again on a clock tick only in
  // the next minute, or when a plan's rest ends (ten thousand idle players would otherwise spend a core every second).
  // A change to its plans always looks again.
  if (onTick && !player.run && player.idle && now >= player.idle.from && now < player.idle.until) return false;
  const changed = startOrEndRun(player, now);
  if (player.run) player.idle = undefined;
  else {
    let until = (Math.floor(now / 60_000) + 1) * 60_000;
    for (const kept of player.plans.values()) if (kept.restUntil > now && kept.restUntil < until) until = kept.restUntil;
    player.idle = { from: now, until };
  }
  return changed;
}

function startOrEndRun(player: SignageState, now: number): boolean {
  const run = player.run;
  const held = run ? player.plans.get(run.planId) : undefined;
  if (run && (now >= run.until || !held || !playable({ ...held, restUntil: 0, listRuns: 0 }, now))) endRun(player, now);
  if (!player.run) {
    const plans = [...player.plans.values()];
    // Plans take turns: the one after the plan that played last comes first.
    const after = run ? plans.findIndex((k) => k.params.planId === run.planId) + 1 : 0;
    for (let i = 0; i < plans.length; i++) {
      const kept = plans[(after + i) % plans.length];
      if (!playable(kept, now)) continue;
      const ad = kept.params.ads[kept.position];
      player.run = {
        planId: kept.params.planId,
        adIndex: kept.position,
        ad: { id: ad.adId, name: ad.name },
        since: now,
        until: now + ad.totalDuration * 1000,
      };
      break;
    }
  }
  const showing = player.run?.ad ?? null;
  if (showing?.id === player.currentAd?.id && showing?.name === player.currentAd?.name) return false;
  player.currentAd = showing;
  return true;
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
  /** Chance per second that a player without plans moves on to another demo ad (see signageFamily). Default 0. */
  activity?: number;
  /** Downloads under way at once over the fleet. Default unbounded. */
  downloadConcurrency?: number;
  /** The players' clock, for their plans: a start time (default now) and a speed (default 1). */
  clock?: { start?: Date; speed?: number };
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
  /** The plans it holds and whether each is ready to play (every file in). */
  plans: { planId: string; ready: boolean }[];
  currentAd: SignageCurrentAd | null;
  /** Runs of ads it has reported played. */
  playsReported: number;
}

export interface SignageFleet extends DeviceFleet {
  player(code: string): SignageSnapshot | undefined;
}

class SignagePlayers extends FleetRunner<SignageState, SignageCommand> implements SignageFleet {
  player(code: string): SignageSnapshot | undefined {
    const device = this.device(code);
    if (!device) return undefined;
    const { volume, muted, orientation, boots, screenshots, lastUpload, currentAd, playsReported } = device.state;
    const plans = [...device.state.plans.values()].map((kept) => ({ planId: kept.params.planId, ready: kept.ready }));
    return {
      code,
      online: device.online,
      volume,
      muted,
      orientation,
      boots,
      screenshots,
      lastUpload,
      applied: device.applied,
      plans,
      currentAd,
      playsReported,
    };
  }
}

/** Connects every player on a connection of its own and publishes its retained state. */
export async function startSignageFleet(options: SignageFleetOptions): Promise<SignageFleet> {
  const { seeds, registered } = await seedsOf(options.players, 'FS-', (url) =>
    loadOwnSeeds(url, SIGNAGE_FAMILY, ['name', 'orientation', 'volume', 'muted', 'serial_number']),
  );
  const runner = { ...options, devicesPerGateway: 1000, gatewayPrefix: 'FS-', registered };
  return new SignagePlayers(signageFamily(options.activity ?? 0, { downloadConcurrency: options.downloadConcurrency }), runner, seeds).run();
}
