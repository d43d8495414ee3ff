import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import {
  AD_PUBLISH_NAME_MAX,
  AdPlanStatus,
  AdPlayMode,
  AdPublishMode,
  PublishType,
  type AdPlanPageQuery,
  type AdPlanRequest,
  type AdPlanSchedule,
} from '@sc/contracts';
import { DateField, EnumField, IdPageDto, IntField, PageDto, TextField } from '../../common/fields';

class AdPlanFilters {
  @TextField({ max: AD_PUBLISH_NAME_MAX, required: false, description: 'Part of the publish name, any case' })
  publishName?: string;

  @EnumField(Object.values(AdPlanStatus), { required: false, description: 'unpublished, published or expired' })
  status?: AdPlanStatus;

  @DateField({ required: false, description: "'yyyy-MM-dd': plans whose date range holds this day" })
  date?: string;
}

export class AdPlanPageDto extends IntersectionType(PageDto, AdPlanFilters) implements AdPlanPageQuery {}

/**
 * An ad plan as the editor sends it. Its fields are only let through here: adPlanProblems (libs/contracts/src/signage-plans.ts),
 * the rules the editor checks with too, judges them all; then the service checks the screens, the group and the ads.
 */
export class AdPlanAddDto implements AdPlanRequest {
  @Allow()
  @ApiProperty({ example: 'Winter sale', maxLength: AD_PUBLISH_NAME_MAX })
  publishName!: string;

  @Allow()
  @ApiProperty({ enum: Object.values(AdPublishMode) })
  publishMode!: AdPublishMode;

  @Allow()
  @ApiPropertyOptional({ type: [Number], description: 'The screens, with publishMode devices' })
  deviceIds?: number[];

  @Allow()
  @ApiPropertyOptional({ type: Number, description: 'The group, with publishMode group' })
  groupId?: number | null;

  @Allow()
  @ApiProperty({ type: [Number], description: 'The ads in playing order; none with publishType clear' })
  adIds!: number[];

  @Allow()
  @ApiProperty({
    type: 'object',
    description: "{ startDate, endDate ('yyyy-MM-dd'), allDay, startTime, endTime ('HH:mm'), weekdays ('1' Monday to '7' Sunday) }",
    properties: {
      startDate: { type: 'string', example: '2026-12-01' },
      endDate: { type: 'string', example: '2026-12-31' },
      allDay: { type: 'boolean' },
      startTime: { type: 'string', example: '09:00' },
      endTime: { type: 'string', example: '18:00' },
      weekdays: { type: 'array', items: { type: 'string' } },
    },
  })
  schedule!: AdPlanSchedule;

  @Allow()
  @ApiProperty({ enum: Object.values(AdPlayMode) })
  playMode!: AdPlayMode;

  @Allow()
  @ApiPropertyOptional({ type: Number })
  playLimitCount?: number | null;

  @Allow()
  @ApiPropertyOptional({ type: Number })
  playIntervalSeconds?: number | null;

  @Allow()
  @ApiPropertyOptional({ type: Number, description: 'On demand: 2' })
  onDemandType?: number | null;

  @Allow()
  @ApiProperty({ enum: Object.values(PublishType) })
  publishType!: PublishType;
}

export class AdPlanEditDto extends AdPlanAddDto {
  @IntField({ min: 1 })
  id!: number;
}

export class AdPlanIdDto {
  @IntField({ min: 1 })
  id!: number;
}

export class AdPlanReceiversDto extends IdPageDto {}

export class AdPlanCalendarDto {
  @DateField({ description: "First day, 'yyyy-MM-dd'" })
  from!: string;

  @DateField({ description: "Last day, 'yyyy-MM-dd' (at most 62 days after the first)" })
  to!: string;
}
