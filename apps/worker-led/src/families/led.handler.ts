import {
  LED_BOUNDS,
  LED_FAMILY,
  OnlineState,
  ScreenState,
  numberProblem,
  type LedCommand,
  type LedPlayParams,
  type LedPlaying,
  type LedStateMessage,
  type LedTaskParams,
} from '@sc/contracts';
import type { CommandBody, DeviceEvent, FamilyHandler, StoredFields } from '@sc/device-runtime';

/** What LED screens report: the declared payloads of LED_FAMILY. */
export type LedReports = { state: LedStateMessage };
export type LedEvent = DeviceEvent<LedReports>;
export type LedFields = StoredFields<typeof LED_FAMILY.family>;

const percentOf = (value: unknown, bounds: typeof LED_BOUNDS.brightness | typeof LED_BOUNDS.volume): number | null =>
  typeof value === 'number' && !numberProblem(value, bounds) ? value : null;

const isFile = (file: unknown): file is LedPlayParams['file'] => {
  const f = file as Partial<LedPlayParams['file']> | null;
  return typeof f?.url === 'string' && typeof f.sha256 === 'string' && Number.isInteger(f.bytes) && Number.isInteger(f.mediaId);
};

const isScreenState = (value: unknown): value is ScreenState => value === ScreenState.Bright || value === ScreenState.Black;

/** One LED command's type and params, each type with its own params. */
type LedCommandBody = { [T in LedCommand['type']]: Pick<Extract<LedCommand, { type: T }>, 'type' | 'params'> }[LedCommand['type']];

/** The command an LED dispatch sends; null for an action or params screens cannot run (the row fails). */
export function ledCommandOf(action: string, params: unknown): LedCommandBody | null {
  const p = (params && typeof params === 'object' ? params : {}) as Record<string, unknown>;
  switch (action) {
    case 'brightness': {
      const brightness = percentOf(p.brightness, LED_BOUNDS.brightness);
      return brightness === null ? null : { type: 'brightness', params: { brightness } };
    }
    case 'volume': {
      const volume = percentOf(p.volume, LED_BOUNDS.volume);
      return volume === null ? null : { type: 'volume', params: { volume } };
    }
    case 'screen':
      return isScreenState(p.screen) ? { type: 'screen', params: { state: p.screen } } : null;
    case 'reboot':
      return { type: 'reboot', params: {} };
    case 'syncTime':
      return typeof p.timeZone === 'string' && p.timeZone.length > 0 && typeof p.utc === 'string'
        ? { type: 'syncTime', params: { timeZone: p.timeZone, utc: p.utc } }
        : null;
    // The gateway builds these against their schemas, each screen's file link signed for it (the row's own params).
    case 'play':
      return isFile(p.file) ? { type: 'play', params: { file: p.file } } : null;
    case 'stopPlay':
      return { type: 'stopPlay', params: {} };
    case 'task':
      return Number.isInteger(p.taskId) &&
        isFile(p.file) &&
        typeof p.timeZone === 'string' &&
        Array.isArray(p.timePeriods) &&
        Array.isArray(p.taskPeriods)
        ? { type: 'task', params: p as LedTaskParams }
        : null;
    case 'forgetTask':
      return Number.isInteger(p.taskId) ? { type: 'forgetTask', params: { taskId: p.taskId as number } } : null;
    default:
      return null;
  }
}

/**
 * What an acknowledged command changed on the screen, recorded at once (its next report says the same): the command
 * its dispatch sent (a row whose params give none was never sent, so never acknowledged).
 */
function acknowledged(screen: LedFields, action: string, params: unknown): LedFields {
  const command = ledCommandOf(action, params);
  switch (command?.type) {
    case 'brightness':
      return { ...screen, brightness: command.params.brightness };
    case 'volume':
      return { ...screen, volume: command.params.volume };
    case 'screen':
      return { ...screen, screen: command.params.state };
    case 'syncTime':
      return { ...screen, clockZone: command.params.timeZone };
    default:
      return screen;
  }
}

/**
 * The screen after one event. Its reports are the truth of its brightness, volume, screen state and clock; an
 * acknowledged setting is recorded at once. A reboot changes nothing until the screen drops off and comes back.
 */
export function reduceLed(screen: LedFields, event: LedEvent): LedFields {
  switch (event.kind) {
    case 'report': {
      const s = event.report;
      return {
        ...screen,
        networkStatus: OnlineState.Online,
        brightness: s.brightness,
        volume: s.volume,
        screen: s.screen as ScreenState,
        clockZone: s.timeZone ?? screen.clockZone,
        hardwareVersion: s.hardwareVersion ?? screen.hardwareVersion,
        softwareVersion: s.softwareVersion ?? screen.softwareVersion,
        playing: s.playing === undefined ? screen.playing : (s.playing as LedPlaying | null),
        reportedAt: event.at,
      };
    }
    case 'offline':
      // An offline screen shows nothing the console knows of.
      return { ...screen, networkStatus: OnlineState.Offline, playing: null };
    case 'sending':
      return screen;
    case 'answered':
      return event.delivered ? acknowledged(screen, event.action, event.params) : screen;
  }
}

/** LED screens on the device runtime: their columns in `led_screen`, their settings and their commands. */
export const ledHandler: FamilyHandler<typeof LED_FAMILY.family, LedReports> = {
  declaration: LED_FAMILY,
  columns: {
    networkStatus: { column: 'network_status', type: 'smallint' },
    brightness: { column: 'brightness', type: 'smallint' },
    volume: { column: 'volume', type: 'smallint' },
    screen: { column: 'screen_state', type: 'smallint' },
    clockZone: { column: 'clock_zone', type: 'text' },
    hardwareVersion: { column: 'hardware_version', type: 'text' },
    softwareVersion: { column: 'software_version', type: 'text' },
    reportedAt: { column: 'reported_at', type: 'timestamptz' },
    playing: { column: 'playing', type: 'jsonb' },
  },
  reduce: reduceLed,
  command: ledCommandOf as (action: string, params: unknown) => CommandBody | null,
};
