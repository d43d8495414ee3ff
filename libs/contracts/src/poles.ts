import type { PageQuery } from './envelope';
import { DeviceType } from './devices';

export const POLE_NAME_MAX = 64;

/**
 * What can be mounted on a lamp pole: single lamps, strip lights, broadcast terminals, LED screens, radars, APs and
 * one-key alarm columns (spec section 3 device types), Wi-Fi access controllers in their pole cabinets, and cameras.
 */
export const POLE_MOUNTABLE_TYPES: readonly DeviceType[] = [
  DeviceType.SingleLamp,
  DeviceType.LightStrip,
  DeviceType.Broadcast,
  DeviceType.LedScreen,
  DeviceType.Radar,
  DeviceType.AccessPoint,
  DeviceType.OneKeyAlarm,
  DeviceType.AccessController,
  DeviceType.VideoEquipment,
];

/** Where a registry device is: its region and the lamp pole it is mounted on (device.pole_id), as lists show them. */
export interface DevicePlacement {
  regionId: number | null;
  regionName: string | null;
  poleId: number | null;
  poleCode: string | null;
  poleName: string | null;
}

/** One row of the pole list (POST /api/lamp/polePage). */
export interface PoleRow {
  id: number;
  name: string;
  code: string;
  regionId: number | null;
  regionName: string | null;
  groupId: number | null;
  groupName: string | null;
  latitude: number | null;
  longitude: number | null;
  address: string;
  remark: string;
  /** How many devices are mounted on it. */
  mountedCount: number;
  createdAt: string;
}

export interface PolePageQuery extends PageQuery {
  /** Part of the name or code, any case. */
  name?: string;
  regionId?: number;
  groupId?: number;
}

export interface PoleAddOrEditRequest {
  id?: number;
  name: string;
  code: string;
  regionId?: number | null;
  groupId?: number | null;
  latitude?: number | null;
  longitude?: number | null;
  address?: string;
  remark?: string;
}

/** A device mounted on a pole (or one that could be). */
export interface MountedDevice {
  id: number;
  type: DeviceType;
  code: string;
  name: string;
  /** The pole it is mounted on, if any. */
  poleId: number | null;
}

/** GET /api/lamp/poleDetail?id= */
export interface PoleDetail extends PoleRow {
  devices: MountedDevice[];
}

/** POST /api/lamp/poleMount and poleUnmount. */
export interface PoleMountRequest {
  poleId: number;
  deviceIds: number[];
}

/** POST /api/lamp/poleMountable: devices that are on no pole, to pick from. */
export interface PoleMountableQuery {
  keyword?: string;
  type?: DeviceType;
}

/** GET /api/lamp/poleGroups: the device groups poles can belong to. */
export interface DeviceGroupOption {
  id: number;
  name: string;
}
