import {
  ALARM_FAMILY,
  AlarmLevel,
  type AlarmAnnounceParams,
  type AlarmEventMessage,
  type AlarmHangUpParams,
  type AlarmStateMessage,
  type AlarmTalkParams,
  type CommandMessage,
} from '@sc/contracts';
import {
  FleetRunner,
  loadSeeds,
  seedsOf,
  type DeviceContext,
  type DeviceFleet,
  type DeviceSource,
  type Random,
  type SimulatedFamily,
  type SimulationOptions,
  fetchInTurn,
  slots,
  type Slots,
} from '../kit';
import { VoiceLine, type VoiceLineStats } from '../kit/voice-line';

// One-key alarm columns: their state (address, versions, volume), a press of their button now and then (the fleet's
// activity), published on their `event` topic; a volume command sets their speaker, a reboot restarts them (they drop
// off, their Last Will goes, and they come back).

const HARDWARE = 'SOS-C3';
const SOFTWARE = '3.2.0';
/** How long a reboot takes. */
export const ALARM_REBOOT_MS = 2000;
/** The volume of a column that was never set. */
const DEFAULT_VOLUME = 60;

export interface AlarmColumnState {
  volume: number;
  /** Presses and voice answers not yet published, in order. */
  pending: AlarmEventMessage[];
  /** The call its intercom is on (its voice), if any. */
  line: VoiceLine | null;
  /** What each call it took heard and said, the last one last. */
  calls: VoiceLineStats[];
  /** What its speaker announces now (its media fetched and checked, or its text), until stopped. */
  announcement: { contentType: number; mode: string; titles: string[]; text: string | null } | null;
  reboots: number;
  readonly ipAddress: string;
}

type AlarmCommand =
  | CommandMessage<'reboot', Record<string, never>>
  | CommandMessage<'volume', { volume: number }>
  | CommandMessage<'announce', AlarmAnnounceParams>
  | CommandMessage<'stopAnnounce', Record<string, never>>
  | CommandMessage<'talk', AlarmTalkParams>
  | CommandMessage<'hangUp', AlarmHangUpParams>;

/** The column takes the platform's call: answers its offer (its `talk` event) and speaks; a call on already is hung up. */
function takeCall(lines: Set<VoiceLine>, column: AlarmColumnState, params: AlarmTalkParams, ctx: DeviceContext<AlarmColumnState>): void {
  // One call at a time: a line still open (another call, or this one offered again) is hung up first.
  if (column.line) void hangUp(lines, column);
  const line = new VoiceLine(params.callId, () => {
    // The platform's side went away without a hang-up (its worker stopped): the column hangs up and says so.
    if (column.line !== line) return;
    column.pending.push({ ts: new Date(ctx.clock()).toISOString(), kind: 'talkEnd', callId: params.callId, reason: 'line lost' });
    void hangUp(lines, column);
    ctx.events?.();
  });
  column.line = line;
  column.calls.push(line.stats);
  // What the last calls heard, for a test or a look; older ones are forgotten.
  if (column.calls.length > 20) column.calls.splice(0, column.calls.length - 20);
  lines.add(line);
  line
    .answer(params.sdp)
    .then((sdp) => column.pending.push({ ts: new Date(ctx.clock()).toISOString(), kind: 'talk', callId: params.callId, sdp }))
    .catch((err: Error) => {
      column.pending.push({ ts: new Date(ctx.clock()).toISOString(), kind: 'talkEnd', callId: params.callId, reason: err.message.slice(0, 200) });
      void hangUp(lines, column);
    })
    .finally(() => ctx.events?.());
}

/** Fetches an announcement's media (receipts as they come in), then plays it: ack once every file is in and checked. */
async function announce(column: AlarmColumnState, params: AlarmAnnounceParams, ctx: DeviceContext<AlarmColumnState>, slot: Slots): Promise<void> {
  const items = params.items ?? [];
  const files = items.map((item) => ({ label: `media ${item.mediaId}`, url: item.url, bytes: item.bytes, sha256: item.sha256 }));
  const total = files.reduce((sum, file) => sum + file.bytes, 0);
  if (files.length > 0) await fetchInTurn(slot, files, (received) => ctx.receipt?.(received, total));
  column.announcement = { contentType: params.contentType, mode: params.mode, titles: items.map((item) => item.title), text: params.text ?? null };
}

async function hangUp(lines: Set<VoiceLine>, column: AlarmColumnState, callId?: string): Promise<void> {
  const line = column.line;
  if (!line || (callId && line.stats.callId !== callId)) return;
  column.line = null;
  lines.delete(line);
  await line.hangUp();
}

/** The level of a press: mostly the first (someone asking for help), seldom the third. */
export function drawLevel(random: Random): AlarmLevel {
  const r = random();
  return r < 0.7 ? AlarmLevel.One : r < 0.93 ? AlarmLevel.Two : AlarmLevel.Three;
}

/** The alarm column family's behaviour. */
export function alarmFamily(): SimulatedFamily<AlarmColumnState, AlarmCommand> {
  let next = 0;
  // The calls its columns are on, hung up when the fleet stops.
  const lines = new Set<VoiceLine>();
  // The fleet's announcement downloads, a few at once.
  const slot = slots(8);
  return {
    declaration: ALARM_FAMILY,
    initial: () => {
      const n = next++;
      return {
        volume: DEFAULT_VOLUME,
        pending: [],
        line: null,
        calls: [],
        announcement: null,
        reboots: 0,
        ipAddress: `10.40.${Math.floor(n / 250) + 1}.${(n % 250) + 2}`,
      };
    },
    apply(column, command, ctx) {
      if (command.type === 'talk') return takeCall(lines, column, command.params, ctx);
      if (command.type === 'announce') return announce(column, command.params, ctx, slot);
      if (command.type === 'stopAnnounce') {
        column.announcement = null;
        return;
      }
      if (command.type === 'hangUp') return void hangUp(lines, column, command.params.callId);
      if (command.type === 'reboot') {
        void hangUp(lines, column);
        ctx.restart(ALARM_REBOOT_MS, (s) => {
          s.reboots++;
          s.announcement = null;
        });
        return;
      }
      column.volume = command.params.volume;
    },
    // Someone presses the button (the fleet's activity); the press goes out with the next events.
    act(column, ctx) {
      column.pending.push({ ts: new Date(ctx.clock()).toISOString(), kind: 'press', level: drawLevel(ctx.random) });
      return false;
    },
    async stopped() {
      await Promise.all([...lines].map((line) => line.hangUp()));
      lines.clear();
    },
    takeEvents(column) {
      return column.pending.splice(0);
    },
    report: (column): AlarmStateMessage => ({ online: true, swver: SOFTWARE, hwver: HARDWARE, ipAddress: column.ipAddress, volume: column.volume }),
  };
}

/** Alarm columns have connections of their own. */
export interface AlarmFleetOptions extends Omit<SimulationOptions, 'individualConnections'> {
  /** Explicit codes, `count` generated codes (default prefix 'ALARM-'), or the registry's columns. */
  columns: DeviceSource;
}

export interface AlarmFleet extends DeviceFleet {
  /** Someone presses the column's button now: published at once on its `event` topic. */
  press(code: string, level?: AlarmLevel, at?: Date): Promise<void>;
  /** A column's state now. */
  column(code: string): (AlarmColumnState & { online: boolean }) | undefined;
}

class AlarmColumns extends FleetRunner<AlarmColumnState, AlarmCommand> implements AlarmFleet {
  press(code: string, level = AlarmLevel.One, at = new Date()): Promise<void> {
    return this.emit(code, (column) => column.pending.push({ ts: at.toISOString(), kind: 'press', level }));
  }

  column(code: string): (AlarmColumnState & { online: boolean }) | undefined {
    const device = this.device(code);
    return device && { ...device.state, online: device.online };
  }
}

/** Connects every alarm column on a connection of its own and publishes its retained state; presses at `activityPerSecond` over the fleet. */
export async function startAlarmFleet(options: AlarmFleetOptions): Promise<AlarmFleet> {
  const { seeds, registered } = await seedsOf(options.columns, 'ALARM-', (url) =>
    loadSeeds(url, ALARM_FAMILY, { schedules: false, gateways: false }),
  );
  return new AlarmColumns(alarmFamily(), { ...options, devicesPerGateway: 1000, gatewayPrefix: 'ALARM-GW-', registered }, seeds).run();
}
