import { applyDecorators } from '@nestjs/common';
import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, Matches } from 'class-validator';
import {
  DEVICE_CODE_PATTERN,
  OnlineState,
  RADAR_BOUNDS,
  RADAR_NAME_MAX,
  type RadarAddOrEditRequest,
  type RadarEventInfo,
  type RadarGroupRequest,
  type RadarPageQuery,
  type RadarStrategyRequest,
} from '@sc/contracts';
import { EachId, EnumField, IntField, PageDto, TextField, msg } from '../../common/fields';
import type { RadarFilters } from '../radar-filters';

export class RadarAddOrEditDto implements RadarAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The radar to change; omit to add one' })
  id?: number;

  @TextField({ max: RADAR_NAME_MAX, emptyKey: 'nameEmpty', example: 'Lianhua Road radar 1' })
  radarName!: string;

  @TextField({ max: 64, example: 'RADAR-0001', description: 'The device code, also its MQTT topic level; unique among radars' })
  @Matches(DEVICE_CODE_PATTERN, { message: msg('clientIdInvalid') })
  code!: string;

  @IntField({ min: 1, required: false, description: 'null for no region; omitted on edit keeps the current one' })
  regionId?: number | null;

  @IntField({ min: 1, required: false, description: 'The lamp pole it is mounted on; null for none; omitted on edit keeps it' })
  poleId?: number | null;
}

/** The radar list's filters (the page's, and GET /api/radar/radarExport's). */
export class RadarFiltersDto implements RadarFilters {
  @TextField({ max: RADAR_NAME_MAX, required: false, description: 'Part of the name or the code, any case' })
  radarName?: string;

  @IntField({ min: 1, required: false, description: 'Radars of this region and of its sub-regions' })
  regionId?: number;

  @EnumField([OnlineState.Offline, OnlineState.Online], { required: false, description: '0 offline, 1 online' })
  networkStatus?: OnlineState;

  @IntField({ min: 1, required: false, description: 'Radars of this radar group' })
  groupId?: number;
}

export class RadarPageDto extends IntersectionType(PageDto, RadarFiltersDto) implements RadarPageQuery {}

/** A group's radars or lamps: the whole list, each a device id. */
function MemberIds(description: string): PropertyDecorator {
  return applyDecorators(
    IsArray({ message: msg('invalidValue') }),
    ArrayMaxSize(RADAR_BOUNDS.members.max, { message: msg('invalidValue') }),
    EachId(),
    ApiProperty({ type: [Number], description }),
  );
}

export class RadarGroupDto implements RadarGroupRequest {
  @IntField({ min: 1, required: false, description: 'The group to change; omit to add one' })
  id?: number;

  @TextField({ max: RADAR_NAME_MAX, emptyKey: 'enterGroupName', example: 'Lianhua Road north' })
  name!: string;

  @TextField({ max: 255, required: false })
  remark?: string;

  @MemberIds('The radars whose detections count for the group (device ids)')
  radarIds!: number[];

  @MemberIds('The lamps its strategy raises (device ids)')
  lampIds!: number[];
}

export class RadarGroupPageDto extends PageDto {
  @TextField({ max: RADAR_NAME_MAX, required: false, description: 'Part of the name, any case' })
  name?: string;
}

/** A strategy: what its events must hold is checked by radarStrategyProblems (@sc/contracts), as the form does. */
export class RadarStrategyDto implements RadarStrategyRequest {
  @IntField({ min: 1, required: false, description: 'The strategy to change; omit to add one' })
  id?: number;

  @TextField({ max: RADAR_NAME_MAX, emptyKey: 'nameEmpty', example: 'Night walkers' })
  name!: string;

  @IntField({
    min: 1,
    required: false,
    emptyKey: 'selectGroup',
    description: "The radar group it is bound to ('Please select a group' when missing)",
  })
  groupId?: number;

  @IsOptional()
  @ApiProperty({
    description: 'Its events, in order: event ID (1 pedestrian, 2 non-motor vehicle, 3 motor vehicle), brightness, open and close intervals (s)',
    example: [{ event: 1, brightness: 100, openInterval: 0, closeInterval: 30 }],
  })
  radarEventInfos!: Partial<RadarEventInfo>[];
}

export class RadarStrategyPageDto extends PageDto {
  @TextField({ max: RADAR_NAME_MAX, required: false, description: 'Part of the name, any case' })
  name?: string;
}
