import type { OnlineState } from './devices';
import type { PageQuery } from './envelope';
import type { DevicePlacement } from './poles';

/** Longest Wi-Fi device name (devName, the device name column). */
export const WIFI_NAME_MAX = 64;
/** Longest model and type label (devModel, devType). */
export const WIFI_LABEL_MAX = 32;
/** Longest SSID (IEEE 802.11: 32 octets). */
export const SSID_MAX = 32;

/** A MAC address as the console writes it: six pairs of hex digits with colons (any case on input). */
export const MAC_PATTERN = /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/;

/** Ratios are percent, one decimal. */
export const RATIO_BOUNDS = { min: 0, max: 100 } as const;
/** A client's received signal strength, dBm. */
export const SIGNAL_BOUNDS = { min: -120, max: 0 } as const;

/** The session history is read a window at a time: at most this many days between its from and to dates. */
export const WIFI_HISTORY_MAX_DAYS = 31;
/**
 * The history page counts its sessions up to this many (then says "more than"): a city's month holds millions, and an
 * exact count would read every one of them for each page.
 */
export const WIFI_HISTORY_COUNT_CAP = 10_000;

/** What the console records of an access controller or an access point (the spec's Wi-Fi device fields). */
export interface WifiDeviceRecord {
  devName: string;
  /** The serial number: the device code, its MQTT identity, unique within its kind. */
  devSN: string;
  devMac: string;
  devModel: string;
  devType: string;
}

/** What a Wi-Fi device reports of itself, live. */
export interface WifiDeviceLive {
  networkStatus: OnlineState;
  cpuRatio: number | null;
  memoryRatio: number | null;
  diskRatio: number | null;
  softwareVersion: string;
  /** When it was last heard from (its heartbeat, or any report). */
  reportedAt: string | null;
}

/** One row of the access controller list (POST /api/wifi/acPage). */
export interface AcRow extends WifiDeviceRecord, WifiDeviceLive, DevicePlacement {
  id: number;
  /** Its access points, and how many of them are online. */
  apCount: number;
  apOnline: number;
}

/** One row of the access point list (POST /api/wifi/apPage). */
export interface ApRow extends WifiDeviceRecord, WifiDeviceLive, DevicePlacement {
  id: number;
  /** The access controller it is managed by. */
  acId: number;
  acName: string;
  acSN: string;
  /** Wi-Fi clients associated with it now. */
  clientCount: number;
}

export interface WifiDevicePageQuery extends PageQuery {
  /** Part of the name, the serial number or the MAC address, any case. */
  name?: string;
  /** Devices of this region and of its sub-regions. */
  regionId?: number;
  networkStatus?: OnlineState;
}

export interface ApPageQuery extends WifiDevicePageQuery {
  /** Only the access points of this controller. */
  acId?: number;
}

/** POST /api/wifi/acAddOrEdit (model and type may be left empty). */
export interface AcAddOrEditRequest extends Omit<WifiDeviceRecord, 'devModel' | 'devType'> {
  devModel?: string;
  devType?: string;
  id?: number;
  regionId?: number | null;
  poleId?: number | null;
}

/** POST /api/wifi/apAddOrEdit: an access point always belongs to a controller. */
export interface ApAddOrEditRequest extends AcAddOrEditRequest {
  acId: number;
}

/** The devices a reboot is for: exactly one of the devices (device ids) or every one of a region and below. */
export interface WifiSelection {
  ids?: number[];
  regionId?: number;
}

/** One Wi-Fi client associated now (terminalManage, online tab). */
export interface WifiClientRow {
  apId: number;
  apName: string;
  apSN: string;
  clientMac: string;
  clientIp: string;
  clientSsid: string;
  /** dBm, as the access point last measured it. */
  signalStrength: number;
  onLineDate: string;
}

/** One ended session (terminalManage, history tab). */
export interface WifiSessionRow {
  id: string;
  apId: number;
  apName: string | null;
  apSN: string | null;
  clientMac: string;
  clientIp: string;
  clientSsid: string;
  signalStrength: number;
  onLineDate: string;
  offLineDate: string;
  /** Seconds online. */
  duration: number;
}

/** Filters of both tabs of terminalManage. */
export interface WifiClientFilters {
  /** Part of the client's MAC or IP address, any case. */
  client?: string;
  apId?: number;
  acId?: number;
  /** Exactly this SSID. */
  clientSsid?: string;
  /** Clients of the access points of this region and of its sub-regions. */
  regionId?: number;
}

export interface WifiClientPageQuery extends PageQuery, WifiClientFilters {}

/** The history tab: sessions that ended between `from` and `to` (ISO times, at most WIFI_HISTORY_MAX_DAYS apart). */
export interface WifiSessionPageQuery extends PageQuery, WifiClientFilters {
  from: string;
  to: string;
  /** Sessions at least this many seconds long. */
  minDuration?: number;
}

/** The charts cover the last day, in points of this many minutes. */
export const WIFI_SERIES_HOURS = 24;
export const WIFI_SERIES_STEP_MINUTES = 15;

/** POST /api/wifi/loadSeries: one device's load over the last day. */
export interface WifiLoadSeriesRequest {
  kind: 'ac' | 'ap';
  id: number;
}

/** The device's mean load in one step (null ratios: it reported nothing then). */
export interface WifiLoadPoint {
  at: string;
  cpuRatio: number | null;
  memoryRatio: number | null;
  diskRatio: number | null;
  /** Access points: their mean client count. */
  clientCount: number | null;
}

/** POST /api/wifi/clientSeries: how many clients the access points of a selection had over the last day. */
export interface WifiClientSeriesRequest {
  regionId?: number;
  acId?: number;
  apId?: number;
}

/** The clients of the selection's access points in one step (the sum of each one's mean). */
export interface WifiClientPoint {
  at: string;
  clients: number;
}

/** POST /api/wifi/regionClientSeries compares at most this many regions at a time. */
export const WIFI_REGION_SERIES_MAX = 20;

/**
 * POST /api/wifi/regionClientSeries (and GET regionClientsExport, `regionIds` there as `1,2,3`): the clients of the
 * access points of each region and of its sub-regions over the last day, one series per region, side by side.
 */
export interface WifiRegionSeriesRequest {
  /** 1 to WIFI_REGION_SERIES_MAX regions, each its own series (in this order). */
  regionIds: number[];
}

/** A region compared: its id and its name in the caller's language. */
export interface WifiSeriesRegion {
  regionId: number;
  regionName: string;
}

/** One step of the comparison: the clients of each region, in the order of `regions` (0: none then). */
export interface WifiRegionPoint {
  at: string;
  clients: number[];
}

export interface WifiRegionSeries {
  regions: WifiSeriesRegion[];
  points: WifiRegionPoint[];
}
