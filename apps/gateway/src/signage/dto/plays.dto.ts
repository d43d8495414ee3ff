import { IntersectionType } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { PLAY_REPORT_BYS, type PlayReportBy, type PlayReportFilters, type PlayReportQuery } from '@sc/contracts';
import { EnumField, IntField, PageDto, TextField, msg } from '../../common/fields';

/** A day as YYYY-MM-DD (whether it exists, and the range, the service checks). */
const DAY = /^(19[7-9]\d|[2-9]\d{3})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** The plays a proof-of-play report reads (its page and its xlsx export take the same). */
export class PlayReportFiltersDto implements PlayReportFilters {
  @TextField({ max: 10, example: '2026-11-01', description: 'The first day, on the installation clock' })
  @Matches(DAY, { message: msg('dateInvalid') })
  startDate!: string;

  @TextField({ max: 10, example: '2026-11-30', description: 'The last day (inclusive), on the installation clock' })
  @Matches(DAY, { message: msg('dateInvalid') })
  endDate!: string;

  @EnumField(PLAY_REPORT_BYS, { description: "Sums per 'ad', per 'device', per 'day', or per ad, device and day ('detail')" })
  by!: PlayReportBy;

  @IntField({ min: 1, required: false, description: 'Players of this region and of its sub-regions' })
  regionId?: number;

  @IntField({ min: 1, required: false, description: 'Players of this group' })
  groupId?: number;

  @IntField({ min: 1, required: false, description: 'One player' })
  deviceId?: number;

  @IntField({ min: 1, required: false, description: 'One ad' })
  adId?: number;
}

export class PlayReportDto extends IntersectionType(PageDto, PlayReportFiltersDto) implements PlayReportQuery {}
