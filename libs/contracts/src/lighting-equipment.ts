import type { PageQuery } from './envelope';
import { DeviceType, type OnlineState } from './devices';

/** Lamp gateways (concentrators), their loops, and device groups: the equipment the lamps hang off and are sorted into. */

export const GATEWAY_NAME_MAX = 64;
export const DEVICE_GROUP_NAME_MAX = 64;

/** Device types whose groups the lighting pages manage. */
export type LightingGroupType = DeviceType.SingleLamp | DeviceType.LightStrip;
export const LIGHTING_GROUP_TYPES: readonly LightingGroupType[] = [DeviceType.SingleLamp, DeviceType.LightStrip];

/** One row of the gateway list (POST /api/light/gatewayPage). */
export interface GatewayRow {
  id: number;
  /** The gateway's code: what its lamps report as gatewayId, and its MQTT client id. */
  gatewayId: string;
  name: string;
  regionId: number | null;
  regionName: string | null;
  addr: string;
  latitude: number | null;
  longitude: number | null;
  /** From the gateway's own MQTT state and Last Will. */
  networkStatus: OnlineState;
  hardwareVersion: string;
  softwareVersion: string;
  reportedAt: string | null;
  loopCount: number;
  lampCount: number;
  onlineLampCount: number;
}

export interface GatewayPageQuery extends PageQuery {
  /** Part of the name or code, any case. */
  name?: string;
  regionId?: number;
  networkStatus?: OnlineState;
}

export interface GatewayAddOrEditRequest {
  id?: number;
  /** The gateway code; changing it on an existing gateway needs the Edit MQTT button. */
  gatewayId: string;
  name: string;
  regionId?: number | null;
  addr?: string;
  latitude?: number | null;
  longitude?: number | null;
}

/** A gateway as a choice in a select (GET /api/light/gatewayList). */
export interface GatewayOption {
  gatewayId: string;
  name: string;
}

/** One row of the loop list (POST /api/light/loopPage). */
export interface LoopRow {
  id: number;
  code: string;
  name: string;
  /** The gateway's code. */
  gatewayId: string;
  gatewayName: string;
  remark: string;
  lampCount: number;
}

export interface LoopPageQuery extends PageQuery {
  gatewayId?: string;
  name?: string;
}

export interface LoopAddOrEditRequest {
  id?: number;
  gatewayId: string;
  code: string;
  name: string;
  remark?: string;
}

/** A loop as a choice (GET /api/light/loopList?gatewayId=). */
export interface LoopOption {
  id: number;
  code: string;
  name: string;
}

/** POST /api/light/lampBindGateway: every part is required ('Device binding needs complete information'). */
export interface LampBindGatewayRequest {
  id: number;
  gatewayId: string;
  lampControlId: string;
  loopId: number;
}

/** POST /api/light/lampBatchUpdateGateway: the selected lamps move to another gateway (and leave their loop). */
export interface LampBatchUpdateGatewayRequest {
  ids: number[];
  gatewayId: string;
}

/** POST /api/light/lampEditMqtt: the lamp's MQTT identity. */
export interface LampEditMqttRequest {
  id: number;
  clientId: string;
}

/** POST /api/light/lampBatchDel. */
export interface LampIdsRequest {
  ids: number[];
}

/** GET /api/light/groupList?type= */
export interface DeviceGroupRow {
  id: number;
  type: LightingGroupType;
  name: string;
  deviceCount: number;
}

export interface DeviceGroupAddOrEditRequest {
  id?: number;
  type: LightingGroupType;
  name: string;
}

/**
 * POST /api/light/groupMove: the selected devices, or every device of a source group, into the target group. The
 * target is required ('Please select a group'); an empty source group cannot be chosen.
 */
export interface DeviceGroupMoveRequest {
  type: LightingGroupType;
  ids?: number[];
  fromGroupId?: number;
  groupId: number;
}

export interface DeviceGroupMoveResult {
  moved: number;
}
