import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, Matches } from 'class-validator';
import { LAMP_NAME_MAX, NUMBER_BOUNDS, type EnergyLampPageQuery, type EnergyPeriod, type EnergyQuery, type EnergySeriesQuery } from '@sc/contracts';
import { EachId, EnumField, IntField, PageDto, TextField, msg } from '../../common/fields';

export const ENERGY_PERIODS: readonly EnergyPeriod[] = ['day', 'month'];

export class EnergyQueryDto implements EnergyQuery {
  @EnumField(ENERGY_PERIODS)
  period!: EnergyPeriod;

  @TextField({ max: 10, example: '2026-11-21', description: 'The day, or any day of the month, in the installation time zone' })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: msg('energyDateInvalid') })
  date!: string;
}

class EnergyLampFilters {
  @IntField({ min: 1, required: false, description: 'Lamps of this region and of its sub-regions' })
  regionId?: number;

  @TextField({ max: LAMP_NAME_MAX, required: false, description: 'Part of the lamp name, any case' })
  lampName?: string;
}

export class EnergyLampPageDto extends IntersectionType(PageDto, EnergyQueryDto, EnergyLampFilters) implements EnergyLampPageQuery {}

export class EnergySeriesDto extends EnergyQueryDto implements EnergySeriesQuery {
  @IntField({ min: 1, required: false, description: 'Lamps of this region and of its sub-regions' })
  regionId?: number;

  @IntField({ min: 1, required: false, description: 'One lamp' })
  id?: number;
}

/** Lamps whose rated power one call may set. */
export const RATED_POWER_MAX_IDS = 10_000;

export class LampRatedPowerDto {
  @IsArray({ message: msg('selectListItem') })
  @ArrayNotEmpty({ message: msg('selectListItem') })
  @ArrayMaxSize(RATED_POWER_MAX_IDS, { message: msg('outOfRange', () => ({ min: 1, max: RATED_POWER_MAX_IDS })) })
  @EachId()
  @ApiProperty({ type: [Number], description: 'The lamps (device ids)' })
  ids!: number[];

  @IntField({ min: NUMBER_BOUNDS.ratedPower.min, max: NUMBER_BOUNDS.ratedPower.max, description: 'Watts at full brightness', example: 100 })
  ratedPower!: number;
}
