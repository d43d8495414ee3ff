import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { IsArray, IsObject } from 'class-validator';
import {
  STRATEGY_NAME_MAX,
  StrategyMode,
  type StrategyDistributeRequest,
  type StrategyModeData,
  type StrategyPageQuery,
  type StrategyPeriod,
} from '@sc/contracts';
import { EnumField, IdArrayField, IntField, PageDto, TextField, msg } from '../../common/fields';
import { LAMP_CONTROL_MAX_IDS } from '../../lighting/dto/lamp.dto';

const MODES = [StrategyMode.SunriseSunset, StrategyMode.Date, StrategyMode.Week, StrategyMode.Sensing] as const;

/**
 * The shape only: what the mode data and periods must hold (times, levels, order, repeats) is checked by
 * `strategyProblems` of @sc/schedule, the same rules the lamps run.
 */
export class StrategyAddOrEditDto {
  @IntField({ min: 1, required: false, description: 'The strategy to change; omit to add one' })
  id?: number;

  @TextField({ max: STRATEGY_NAME_MAX, emptyKey: 'nameEmpty', example: 'Weeknights' })
  name!: string;

  @EnumField(MODES, { description: '0 sunrise/sunset, 1 date, 2 week, 3 sensing' })
  mode!: StrategyMode;

  @IsObject({ message: msg('invalidValue') })
  @ApiProperty({
    description:
      'Mode 0 {sunsetOffset, sunriseOffset, level}; 1 {startDate, endDate}; 2 {weekdays: ["1".."7"], none = all}; 3 {radarCodes, brightness, holdSeconds}',
    example: { weekdays: ['1', '2', '3', '4', '5'] },
  })
  modeData!: StrategyModeData;

  @IsArray({ message: msg('timeEmpty') })
  @ApiProperty({ description: "Local 'HH:mm' periods of a night (noon to noon), in order", example: [{ start: '18:00', end: '23:00', level: 100 }] })
  periods!: StrategyPeriod[];
}

class StrategyFilters {
  @TextField({ max: STRATEGY_NAME_MAX, required: false, description: 'Part of the name, any case' })
  name?: string;

  @EnumField(MODES, { required: false })
  mode?: StrategyMode;
}

export class StrategyPageDto extends IntersectionType(PageDto, StrategyFilters) implements StrategyPageQuery {}

export class StrategyDistributeDto implements StrategyDistributeRequest {
  @IntField({ min: 1, description: 'The strategy to distribute' })
  id!: number;

  // Exactly one of ids and regionId, checked with the selection (as lamp control does).
  @IdArrayField({ max: LAMP_CONTROL_MAX_IDS, description: 'The lamps (device ids); or give regionId' })
  ids?: number[];

  @IntField({ min: 1, required: false, description: 'Every lamp of this region and of its sub-regions; or give ids' })
  regionId?: number;
}

export class MismatchQueryDto {
  @IntField({ min: 1, required: false, description: 'Only lamps holding this strategy' })
  strategyId?: number;
}
