import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, Matches } from 'class-validator';
import {
  DEVICE_CODE_PATTERN,
  NUMBER_BOUNDS,
  POLE_MOUNTABLE_TYPES,
  POLE_NAME_MAX,
  type DeviceType,
  type PoleAddOrEditRequest,
  type PoleMountRequest,
  type PoleMountableQuery,
  type PolePageQuery,
} from '@sc/contracts';
import { Coordinate, EachId, EnumField, IntField, PageDto, TextField, msg } from '../../common/fields';

/** One mount or unmount names at most this many devices. */
export const POLE_MOUNT_MAX_IDS = 100;

class PoleFilterDto {
  @TextField({ max: POLE_NAME_MAX, required: false, description: 'Part of the name or code, any case' })
  name?: string;

  @IntField({ min: 1, required: false, description: 'Poles of this region and of its sub-regions' })
  regionId?: number;

  @IntField({ min: 1, required: false })
  groupId?: number;
}

export class PolePageDto extends IntersectionType(PageDto, PoleFilterDto) implements PolePageQuery {}

export class PoleAddOrEditDto implements PoleAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The pole to change; omit to add one' })
  id?: number;

  @TextField({ max: POLE_NAME_MAX, example: 'Shennan Avenue pole 1' })
  name!: string;

  @TextField({ max: 64, example: 'POLE-00001', description: 'The device code: unique among poles' })
  @Matches(DEVICE_CODE_PATTERN, { message: msg('clientIdInvalid') })
  code!: string;

  @IntField({ min: 1, required: false, description: 'null for no region' })
  regionId?: number | null;

  @IntField({ min: 1, required: false, description: 'A device group of lamp poles; null for none' })
  groupId?: number | null;

  @Coordinate(NUMBER_BOUNDS.latitude)
  @ApiProperty({ required: false, nullable: true, example: 22.5431 })
  latitude?: number | null;

  @Coordinate(NUMBER_BOUNDS.longitude)
  @ApiProperty({ required: false, nullable: true, example: 114.0579 })
  longitude?: number | null;

  @TextField({ max: 255, required: false })
  address?: string;

  @TextField({ max: 255, required: false })
  remark?: string;
}

export class PoleMountDto implements PoleMountRequest {
  @IntField({ min: 1 })
  poleId!: number;

  @IsArray({ message: msg('invalidValue') })
  @ArrayMinSize(1, { message: msg('selectListItem') })
  @ArrayMaxSize(POLE_MOUNT_MAX_IDS, { message: msg('invalidValue') })
  @EachId()
  @ApiProperty({ type: [Number], description: 'Device ids' })
  deviceIds!: number[];
}

export class PoleMountableDto implements PoleMountableQuery {
  @TextField({ max: 64, required: false, description: 'Part of the name or code' })
  keyword?: string;

  @EnumField(POLE_MOUNTABLE_TYPES as DeviceType[], { required: false })
  type?: DeviceType;
}

export class PoleGroupAddDto {
  @TextField({ max: 64, example: 'Futian poles' })
  name!: string;
}
