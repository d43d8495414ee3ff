import { IntersectionType, ApiProperty } from '@nestjs/swagger';
import { IsArray } from 'class-validator';
import {
  LED_PLAY_MODES,
  LED_TASK_MAX_REGIONS,
  LED_TASK_NAME_MAX,
  type LedPlayMode,
  type LedRealTimePlayRequest,
  type LedTaskPageQuery,
  type LedTaskPeriod,
  type LedTaskRequest,
  type LedTaskScreensQuery,
  type LedTimePeriod,
} from '@sc/contracts';
import { EachId, EnumField, IdArrayField, IdPageDto, IntField, PageDto, TextField, msg } from '../../common/fields';
import { LED_COMMAND_MAX_IDS, LedSelectionDto } from './led.dto';

/** Real-time play: one medium on the selected screens (or a region's) now. */
export class LedRealTimePlayDto extends LedSelectionDto implements LedRealTimePlayRequest {
  @IntField({ min: 1, emptyKey: 'ledTaskNeedsFile', description: 'The medium of the library to show' })
  mediaId!: number;
}

/**
 * The shape only: the rules (1 to 7 time periods ordered and not repeated, at most 1 file, 1 to 7 task periods) are
 * checked by ledTaskProblems, the console's own check, so that both answer with the same messages.
 */
export class LedTaskDto implements LedTaskRequest {
  @IntField({ min: 1, required: false, description: 'The task to change; omit to add one' })
  id?: number;

  @TextField({ max: LED_TASK_NAME_MAX, example: 'Evening programme', emptyKey: 'nameEmpty' })
  name!: string;

  @IsArray({ message: msg('ledTaskNeedsFile') })
  @EachId()
  @ApiProperty({ type: [Number], description: 'The file: one medium of the library (at most 1)', example: [1] })
  mediaIds!: number[];

  @EnumField(LED_PLAY_MODES, { description: '1 synchronous, 2 asynchronous' })
  playMode!: LedPlayMode;

  @IsArray({ message: msg('timeEmpty') })
  @ApiProperty({ description: "1 to 7 local 'HH:mm' periods of the day, in order", example: [{ start: '18:00', end: '22:00' }] })
  timePeriods!: LedTimePeriod[];

  @IsArray({ message: msg('timeEmpty') })
  @ApiProperty({
    description: "1 to 7 date ranges ('yyyy-MM-dd', both included), in order",
    example: [{ startDate: '2026-12-01', endDate: '2026-12-31' }],
  })
  taskPeriods!: LedTaskPeriod[];

  @IdArrayField({ max: LED_COMMAND_MAX_IDS, description: 'Screens (device ids) chosen one by one; may be empty with regionIds' })
  screenIds!: number[];

  @IdArrayField({
    max: LED_TASK_MAX_REGIONS,
    description: 'Regions: every screen of each and of its sub-regions, read when the task is published; with or instead of screenIds',
  })
  regionIds?: number[];
}

class LedTaskFilters {
  @TextField({ max: LED_TASK_NAME_MAX, required: false, description: 'Part of the name, any case' })
  name?: string;
}

export class LedTaskPageDto extends IntersectionType(PageDto, LedTaskFilters) implements LedTaskPageQuery {}

export class LedTaskScreensDto extends IdPageDto implements LedTaskScreensQuery {}
