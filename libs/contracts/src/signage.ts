import type { OnlineState } from './devices';
import type { PageQuery } from './envelope';
import { ScreenOrientation } from './statuses';

/**
 * Floor-standing advertising screens ("floor screens", MQTT family `signage`): players with records of their own
 * (`signage_device`), in at most one group each (`signage_group`). docs/signage-devices.md.
 */

/**
 * What a floor screen shows (spec section 4's screen states): its normal picture, a black screen, or a bright (test)
 * screen. (LED screens have their own two, ScreenState.)
 */
export enum SignageScreenState {
  Normal = 'normal',
  Black = 'black',
  Bright = 'bright',
}
export const SIGNAGE_SCREEN_STATES: readonly SignageScreenState[] = [SignageScreenState.Normal, SignageScreenState.Black, SignageScreenState.Bright];

/** How a panel is mounted: portrait (9:16) or landscape (16:9), the spec's ad orientations. */
export const SCREEN_ORIENTATIONS: readonly ScreenOrientation[] = [ScreenOrientation.Portrait, ScreenOrientation.Landscape];

/** Longest names and texts (the columns' widths). */
export const SIGNAGE_NAME_MAX = 64;
export const SIGNAGE_CMARK_MAX = 64;
export const SIGNAGE_ADDRESS_MAX = 255;
export const SIGNAGE_SERIAL_MAX = 64;
export const SIGNAGE_GROUP_NAME_MAX = 64;

/** The ad a player shows now, as it reports it; null when it shows none. */
export interface SignageCurrentAd {
  id: number;
  name: string;
}

/** One floor screen (POST /api/signage/devicePage). */
export interface SignageDeviceRow {
  id: number;
  name: string;
  /** The device code: its MQTT identity (`signage/{code}`), unique among floor screens. */
  code: string;
  /** The cMark identifier printed on the cabinet. */
  cMark: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  regionId: number | null;
  regionName: string | null;
  /** Its group; null: not bound to one. */
  groupId: number | null;
  groupName: string | null;
  /** From the player's own MQTT state and Last Will (or three heartbeats of silence). */
  networkStatus: OnlineState;
  /** Percent, 0 to 100: the player's volume as it reports it; kept while muted. */
  volume: number;
  muted: boolean;
  screenState: SignageScreenState;
  orientation: ScreenOrientation;
  /** `{width}x{height}` in pixels as the player reports it; '' until it has reported. */
  resolution: string;
  currentAd: SignageCurrentAd | null;
  /** Reported by the player (entered when it is added, until it reports). */
  serialNumber: string;
  softwareVersion: string;
  reportedAt: string | null;
  /** When its latest screenshot came in; null until one has (the console's viewer waits for it to move). */
  lastScreenshotAt: string | null;
}

export interface SignageDevicePageQuery extends PageQuery {
  /** Part of the name or code, any case. */
  name?: string;
  /** Players of this group; 0: players bound to no group. */
  groupId?: number;
  networkStatus?: OnlineState;
}

/** POST /api/signage/deviceAddOrEdit: adds a player (no id) or changes one. */
export interface SignageDeviceAddOrEditRequest {
  id?: number;
  name: string;
  code: string;
  cMark?: string;
  address?: string;
  latitude?: number | null;
  longitude?: number | null;
  regionId?: number | null;
  serialNumber?: string;
  orientation?: ScreenOrientation;
}

/**
 * The fields a player needs before it can be bound to a group ('device binding needs complete information'): the
 * ones that place it and identify it on site (name and code are required anyway).
 */
export const SIGNAGE_BINDING_FIELDS = ['cMark', 'address', 'latitude', 'longitude'] as const satisfies readonly (keyof SignageDeviceRow)[];

/** Whether a player has everything binding needs. */
export function signageBindable(device: Pick<SignageDeviceRow, (typeof SIGNAGE_BINDING_FIELDS)[number]>): boolean {
  return device.cMark.trim() !== '' && device.address.trim() !== '' && device.latitude !== null && device.longitude !== null;
}

/** POST /api/signage/bind: binds players bound to no group to one. */
export interface SignageBindRequest {
  ids: number[];
  groupId: number;
}

/** POST /api/signage/move: moves players to another group ('A target group is required to move a device'). */
export interface SignageMoveRequest {
  ids: number[];
  groupId: number;
}

/** One floor-screen group (GET /api/signage/groupList). */
export interface SignageGroupRow {
  id: number;
  name: string;
  deviceCount: number;
  onlineCount: number;
}

/** POST /api/signage/groupAddOrEdit. */
export interface SignageGroupAddOrEditRequest {
  id?: number;
  name: string;
}

/** POST /api/signage/volume: sets the volume of the chosen players. */
export interface SignageVolumeRequest {
  ids: number[];
  volume: number;
}

/** How many times the console asks again when no screenshot comes (spec section 8's "maximum retry count"). */
export const SCREENSHOT_RETRIES = 3;
/** How long the console waits for one screenshot before it asks again, ms. */
export const SCREENSHOT_WAIT_MS = 15_000;
/** Largest screenshot a player may upload. */
export const SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * The latest screenshot a player sent (GET /api/signage/screenshot?deviceId=; null when none came yet). Its arrival
 * is announced live as the player's `lastScreenshotAt` (DeviceStateChanged).
 */
export interface SignageScreenshot {
  id: number;
  deviceId: number;
  /** Where the console loads the image from: a short-lived signed link on the console port (an img cannot send the session). */
  url: string;
  width: number;
  height: number;
  bytes: number;
  requestedAt: string;
  receivedAt: string;
}
