import {
  NUMBER_BOUNDS,
  OnlineState,
  SIGNAGE_FAMILY,
  numberProblem,
  type SignagePlayEvent,
  type SignagePublishParams,
  type SignageStateMessage,
  type SignageLiveFields,
} from '@sc/contracts';
import type { CommandBody, DeviceEvent, FamilyHandler } from '@sc/device-runtime';

/** What floor screens report: the declared payloads of SIGNAGE_FAMILY. */
export type SignageReports = { state: SignageStateMessage; event: SignagePlayEvent };
export type SignageEvent = DeviceEvent<SignageReports>;

/** The volume of a dispatch's params, or null when it is not one within bounds. */
export function signageVolumeOf(params: unknown): number | null {
  const volume = (params as { volume?: unknown } | null)?.volume;
  return typeof volume === 'number' && !numberProblem(volume, NUMBER_BOUNDS.volume) ? volume : null;
}

/** The command a floor-screen dispatch sends; null for an action or params players cannot run (the row fails). */
export function signageCommandOf(action: string, params: unknown): CommandBody | null {
  switch (action) {
    case 'volume': {
      const volume = signageVolumeOf(params);
      return volume === null ? null : { type: 'volume', params: { volume } };
    }
    case 'mute':
    case 'unmute':
    case 'reboot':
      return { type: action, params: {} };
    case 'screenshot': {
      // The gateway signs one upload link per player (the row's own params).
      const p = params as { url?: unknown; validUntil?: unknown } | null;
      if (typeof p?.url !== 'string' || p.url.length === 0 || typeof p.validUntil !== 'string') return null;
      return { type: 'screenshot', params: { url: p.url, validUntil: p.validUntil } };
    }
    case 'publish': {
      // The gateway builds the plan against SIGNAGE_PUBLISH_SCHEMA (its files signed per player: the row's params).
      const p = params as Partial<SignagePublishParams> | null;
      if (typeof p?.planId !== 'string' || !Array.isArray(p.ads) || !Array.isArray(p.files) || !p.schedule || typeof p.timeZone !== 'string')
        return null;
      return { type: 'publish', params: p as SignagePublishParams };
    }
    default:
      return null;
  }
}

/**
 * A player after one event. Its reports are the truth of its sound, screen and ad; an acknowledged volume, mute or
 * unmute is recorded at once (the player reports the same right after). A reboot changes nothing here: the player
 * leaves (its Last Will or an offline state) and reports again once it is up. A player silent for three heartbeats is
 * taken offline by the runtime as if its Last Will had come.
 */
export function reduceSignage(device: SignageLiveFields, event: SignageEvent): SignageLiveFields {
  switch (event.kind) {
    case 'report': {
      // A play is proof of play (PlayRecorder), and says the player is up; its sound and screen are in its state.
      if (event.channel === 'event') return { ...device, networkStatus: OnlineState.Online, reportedAt: event.at };
      const s = event.report;
      return {
        ...device,
        networkStatus: OnlineState.Online,
        volume: s.volume,
        muted: s.muted,
        screenState: s.screenState,
        orientation: s.orientation,
        resolution: s.resolution ?? device.resolution,
        currentAd: s.currentAd === undefined ? device.currentAd : s.currentAd,
        serialNumber: s.serialNumber ?? device.serialNumber,
        softwareVersion: s.softwareVersion ?? device.softwareVersion,
        reportedAt: event.at,
      };
    }
    case 'offline':
      return { ...device, networkStatus: OnlineState.Offline };
    case 'sending':
      return device;
    case 'answered': {
      if (!event.delivered) return device;
      if (event.action === 'mute') return { ...device, muted: true };
      if (event.action === 'unmute') return { ...device, muted: false };
      const volume = event.action === 'volume' ? signageVolumeOf(event.params) : null;
      return volume === null ? device : { ...device, volume };
    }
  }
}

/** Floor screens on the device runtime: their columns in `signage_device`, their sound and their commands. */
export const signageHandler: FamilyHandler<typeof SIGNAGE_FAMILY.family, SignageReports> = {
  declaration: SIGNAGE_FAMILY,
  columns: {
    networkStatus: { column: 'network_status', type: 'smallint' },
    volume: { column: 'volume', type: 'smallint' },
    muted: { column: 'muted', type: 'boolean' },
    screenState: { column: 'screen_state', type: 'text' },
    orientation: { column: 'orientation', type: 'text' },
    resolution: { column: 'resolution', type: 'text' },
    currentAd: { column: 'current_ad', type: 'jsonb' },
    serialNumber: { column: 'serial_number', type: 'text' },
    softwareVersion: { column: 'software_version', type: 'text' },
    reportedAt: { column: 'reported_at', type: 'timestamptz' },
    // The gateway writes it when a screenshot arrives; the reports leave it as it is.
    lastScreenshotAt: { column: 'last_screenshot_at', type: 'timestamptz' },
  },
  reduce: reduceSignage,
  command: signageCommandOf,
};
