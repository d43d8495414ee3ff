import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, Matches } from 'class-validator';
import {
  DEVICE_CODE_PATTERN,
  GATEWAY_NAME_MAX,
  NUMBER_BOUNDS,
  DEVICE_GROUP_NAME_MAX,
  LIGHTING_GROUP_TYPES,
  ONLINE_STATES,
  OnlineState,
  type DeviceGroupAddOrEditRequest,
  type DeviceGroupMoveRequest,
  type GatewayAddOrEditRequest,
  type GatewayPageQuery,
  type LampBatchUpdateGatewayRequest,
  type LampBindGatewayRequest,
  type LampEditMqttRequest,
  type LampIdsRequest,
  type LightingGroupType,
  type LoopAddOrEditRequest,
  type LoopPageQuery,
} from '@sc/contracts';
import { Coordinate, EachId, EnumField, IdQueryDto, IntField, PageDto, TextField, msg } from '../../common/fields';

/** One batch call may name this many devices. */
export const EQUIPMENT_MAX_IDS = 10_000;

/** A list of device ids: at least one ('Please select a list item'), each a positive integer. */
export function IdList(description: string, required = true): PropertyDecorator {
  return (target, key) => {
    if (!required) IsOptional()(target, key);
    IsArray({ message: msg('selectListItem') })(target, key);
    ArrayMinSize(1, { message: msg('selectListItem') })(target, key);
    ArrayMaxSize(EQUIPMENT_MAX_IDS, { message: msg('invalidValue') })(target, key);
    EachId()(target, key);
    (required ? ApiProperty : ApiPropertyOptional)({ type: [Number], description })(target, key);
  };
}

function DeviceCode(description: string, required = true): PropertyDecorator {
  return (target, key) => {
    TextField({ max: 64, required, description })(target, key);
    Matches(DEVICE_CODE_PATTERN, { message: msg('clientIdInvalid') })(target, key);
  };
}

export class GatewayAddOrEditDto implements GatewayAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The gateway to change; omit to add one' })
  id?: number;

  @DeviceCode('The gateway code: what its lamps report as gatewayId, and its MQTT client id')
  gatewayId!: string;

  @TextField({ max: GATEWAY_NAME_MAX, example: 'Huaqiang North concentrator' })
  name!: string;

  @IntField({ min: 1, required: false, description: 'null for no region; omitted on edit keeps the current one' })
  regionId?: number | null;

  @TextField({ max: 255, required: false })
  addr?: string;

  @Coordinate(NUMBER_BOUNDS.latitude)
  latitude?: number | null;

  @Coordinate(NUMBER_BOUNDS.longitude)
  longitude?: number | null;
}

class GatewayFilters {
  @TextField({ max: 64, required: false, description: 'Part of the name or code, any case' })
  name?: string;

  @IntField({ min: 1, required: false, description: 'Gateways of this region and of its sub-regions' })
  regionId?: number;

  @EnumField(ONLINE_STATES, { required: false })
  networkStatus?: OnlineState;
}

export class GatewayPageDto extends IntersectionType(PageDto, GatewayFilters) implements GatewayPageQuery {}

export class LoopAddOrEditDto implements LoopAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The loop to change; omit to add one' })
  id?: number;

  @TextField({ max: 64, emptyKey: 'pleaseSelect', description: 'The code of the gateway the loop belongs to' })
  gatewayId!: string;

  @DeviceCode('The loop code, unique within its gateway')
  code!: string;

  @TextField({ max: GATEWAY_NAME_MAX })
  name!: string;

  @TextField({ max: 255, required: false })
  remark?: string;
}

class LoopFilters {
  @TextField({ max: 64, required: false, description: 'Loops of this gateway (its code)' })
  gatewayId?: string;

  @TextField({ max: 64, required: false, description: 'Part of the name or code, any case' })
  name?: string;
}

export class LoopPageDto extends IntersectionType(PageDto, LoopFilters) implements LoopPageQuery {}

export class LoopListDto {
  @TextField({ max: 64, emptyKey: 'pleaseSelect' })
  gatewayId!: string;
}

/** Every part is required, each with the spec's message 'Device binding needs complete information'. */
export class LampBindGatewayDto implements LampBindGatewayRequest {
  @IntField({ min: 1 })
  id!: number;

  @TextField({ max: 64, emptyKey: 'bindingIncomplete' })
  gatewayId!: string;

  @TextField({ max: 64, emptyKey: 'bindingIncomplete' })
  lampControlId!: string;

  @IntField({ min: 1, emptyKey: 'bindingIncomplete' })
  loopId!: number;
}

export class LampBatchUpdateGatewayDto implements LampBatchUpdateGatewayRequest {
  @IdList('The lamps (device ids) to move')
  ids!: number[];

  @TextField({ max: 64, emptyKey: 'pleaseSelect', description: 'The code of the gateway they move to' })
  gatewayId!: string;
}

export class LampEditMqttDto implements LampEditMqttRequest {
  @IntField({ min: 1 })
  id!: number;

  @DeviceCode('The new client ID: the device code and MQTT topic level')
  clientId!: string;
}

export class LampIdsDto implements LampIdsRequest {
  @IdList('The lamps (device ids)')
  ids!: number[];
}

export class GroupListDto {
  @EnumField(LIGHTING_GROUP_TYPES)
  type!: LightingGroupType;
}

export class GroupDelDto extends IntersectionType(IdQueryDto, GroupListDto) {}

export class DeviceGroupAddOrEditDto implements DeviceGroupAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The group to rename; omit to add one' })
  id?: number;

  @EnumField(LIGHTING_GROUP_TYPES)
  type!: LightingGroupType;

  @TextField({ max: DEVICE_GROUP_NAME_MAX, emptyKey: 'enterGroupName' })
  name!: string;
}

export class GroupMoveDto implements DeviceGroupMoveRequest {
  @EnumField(LIGHTING_GROUP_TYPES)
  type!: LightingGroupType;

  @IdList('The devices to move; or give fromGroupId', false)
  ids?: number[];

  @IntField({ min: 1, required: false, description: 'Move every device of this group; or give ids' })
  fromGroupId?: number;

  @IntField({ min: 1, emptyKey: 'selectGroup', description: 'The target group' })
  groupId!: number;
}
