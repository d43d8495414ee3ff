import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Allow, Matches } from 'class-validator';
import {
  DEVICE_CODE_PATTERN,
  LAMP_NAME_MAX,
  LIGHT_EFFECT_TYPES,
  LampStatus,
  ONLINE_STATES,
  OnlineState,
  type LightEffectType,
  type StripAddOrEditRequest,
  type StripEffectRequest,
  type StripPageQuery,
  type Zone,
} from '@sc/contracts';
import { EnumField, IdArrayField, IntField, PageDto, TextField, msg } from '../../common/fields';

const LAMP_STATUSES = Object.values(LampStatus).filter((v): v is LampStatus => typeof v === 'number');

/** One effect may name this many strips; a larger set is addressed by region. */
export const STRIP_EFFECT_MAX_IDS = 10_000;

export class StripAddOrEditDto implements StripAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The strip light to change; omit to add one' })
  id?: number;

  @TextField({ max: LAMP_NAME_MAX, example: 'Civic Square facade' })
  lampName!: string;

  @TextField({ max: 64, example: 'STRIP-0001', description: 'The device code, also its MQTT topic level: unique among strip lights' })
  @Matches(DEVICE_CODE_PATTERN, { message: msg('clientIdInvalid') })
  clientId!: string;

  @IntField({ min: 1, required: false, description: 'null for no region; omitted on edit keeps the current one' })
  regionId?: number | null;

  @IntField({ min: 1, required: false, description: 'A device group of strip lights; null for none; omitted on edit keeps it' })
  groupId?: number | null;

  @TextField({ max: 64, required: false })
  gatewayId?: string;

  @TextField({ max: 255, required: false })
  addr?: string;

  @TextField({ max: 32, required: false, example: '02:00:00:00:00:01' })
  mac?: string;
}

class StripFilters {
  @TextField({ max: LAMP_NAME_MAX, required: false, description: 'Part of the strip light name, any case' })
  lampName?: string;

  @IntField({ min: 1, required: false, description: 'Strip lights of this region and of its sub-regions' })
  regionId?: number;

  @IntField({ min: 1, required: false })
  groupId?: number;

  @EnumField(LAMP_STATUSES, { required: false })
  status?: LampStatus;

  @EnumField(ONLINE_STATES, { required: false })
  networkStatus?: OnlineState;
}

export class StripPageDto extends IntersectionType(PageDto, StripFilters) implements StripPageQuery {}

/** The effect itself (type, effect, colour, zones) is checked by hand (checkStripEffect), for one precise message each. */
export class StripEffectDto implements StripEffectRequest {
  @IdArrayField({ max: STRIP_EFFECT_MAX_IDS, description: 'The strip lights (device ids); or give regionId' })
  ids?: number[];

  @IntField({ min: 1, required: false, description: 'Every strip light of this region and of its sub-regions; or give ids' })
  regionId?: number;

  @Allow()
  @ApiProperty({ enum: LIGHT_EFFECT_TYPES, description: '1 on/off, 2 breathing, 3 explosive flash, 6 set colour' })
  type!: LightEffectType;

  @Allow()
  @ApiPropertyOptional({ description: 'Type 1: -1 on, -2 off, -3 switch; type 2: 1 to 7; type 3: 8 to 15; none for type 6' })
  effect?: number;

  @Allow()
  @ApiPropertyOptional({ example: '#ff8800', description: 'Type 6 only' })
  color?: string;

  @Allow()
  @ApiProperty({ type: [String], enum: ['L', 'R'], description: 'L, R or both' })
  zones!: Zone[];
}
