import { IntersectionType } from '@nestjs/swagger';
import { IsIn, Matches } from 'class-validator';
import {
  DEVICE_CODE_PATTERN,
  DIMMING_LEVELS,
  LAMP_NAME_MAX,
  NUMBER_BOUNDS,
  LampStatus,
  ONLINE_STATES,
  OnlineState,
  type DimmingLevel,
  type LampAction,
  type LampAddOrEditRequest,
  type LampControlRequest,
  type LampPageQuery,
} from '@sc/contracts';
import { Coordinate, IdArrayField, EnumField, IntField, PageDto, TextField, msg } from '../../common/fields';

const LAMP_STATUSES = Object.values(LampStatus).filter((v): v is LampStatus => typeof v === 'number');
const LAMP_ACTIONS: readonly LampAction[] = ['on', 'off', 'dim', 'sync'];

/** One dispatch may name this many lamps; a larger fleet is addressed by region. */
export const LAMP_CONTROL_MAX_IDS = 10_000;

export class LampAddOrEditDto implements LampAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The lamp to change; omit to add one' })
  id?: number;

  @TextField({ max: LAMP_NAME_MAX, example: 'Shennan Avenue 12' })
  lampName!: string;

  @TextField({ max: 64, example: 'LAMP-00001', description: 'The device code, also its MQTT topic level: unique among lamps' })
  @Matches(DEVICE_CODE_PATTERN, { message: msg('clientIdInvalid') })
  clientId!: string;

  @IntField({ min: 1, required: false, description: 'null for no region; omitted on edit keeps the current one' })
  regionId?: number | null;

  @TextField({ max: 64, required: false })
  gatewayId?: string;

  @TextField({ max: 64, required: false })
  lampControlId?: string;

  @TextField({ max: 255, required: false })
  addr?: string;

  @TextField({ max: 32, required: false, example: '02:00:00:00:00:01' })
  mac?: string;

  @IntField({ min: 1, required: false, description: 'Its device group (type single lamp); null for none; omitted on edit keeps it' })
  groupId?: number | null;

  @Coordinate(NUMBER_BOUNDS.latitude)
  latitude?: number | null;

  @Coordinate(NUMBER_BOUNDS.longitude)
  longitude?: number | null;

  @TextField({ max: 16, required: false, example: '#ffd27f', description: "'' for none" })
  @Matches(/^(#[0-9a-f]{6})?$/i, { message: msg('colorInvalid') })
  color?: string;
}

class LampFilters {
  @TextField({ max: LAMP_NAME_MAX, required: false, description: 'Part of the lamp name, any case' })
  lampName?: string;

  @IntField({ min: 1, required: false, description: 'Lamps of this region and of its sub-regions' })
  regionId?: number;

  @EnumField(LAMP_STATUSES, { required: false })
  status?: LampStatus;

  @EnumField(ONLINE_STATES, { required: false })
  networkStatus?: OnlineState;

  @TextField({ max: 64, required: false, description: 'Lamps of this gateway (its code)' })
  gatewayId?: string;

  @IntField({ min: 1, required: false })
  loopId?: number;

  @IntField({ min: 1, required: false })
  groupId?: number;
}

export class LampPageDto extends IntersectionType(PageDto, LampFilters) implements LampPageQuery {}

export class LampControlDto implements LampControlRequest {
  // Checked by hand beyond its shape: exactly one of ids and regionId, and every id a lamp (LightingService.control).
  @IdArrayField({ max: LAMP_CONTROL_MAX_IDS, description: 'The lamps (device ids) to control; or give regionId' })
  ids?: number[];

  @IntField({ min: 1, required: false, description: 'Every lamp of this region and of its sub-regions; or give ids' })
  regionId?: number;

  @EnumField(LAMP_ACTIONS)
  action!: LampAction;

  @IntField({ required: false, description: `Required for dim: one of ${DIMMING_LEVELS.join(', ')}` })
  @IsIn(DIMMING_LEVELS, { message: msg('dimmingLevelInvalid', () => ({ levels: DIMMING_LEVELS.join(', ') })) })
  level?: DimmingLevel;
}
