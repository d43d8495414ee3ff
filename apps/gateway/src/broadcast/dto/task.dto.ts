import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsObject, IsOptional } from 'class-validator';
import {
  BroadcastTaskMode,
  NUMBER_BOUNDS,
  PLAYLIST_MAX_ITEMS,
  PlayAction,
  PlaybackMode,
  TASK_NAME_MAX,
  TASK_PRIORITY,
  type BroadcastSchedule,
  type BroadcastTaskPageQuery,
  type ImmediateBroadcastRequest,
  type TaskStopRequest,
  type ScheduledTaskRequest,
  type TaskControlRequest,
  type TaskTerminalPageQuery,
} from '@sc/contracts';
import { EachId, EnumField, IdArrayField, IdQueryDto, IntField, PageDto, TextField, msg } from '../../common/fields';
import { TERMINAL_COMMAND_MAX_IDS, TerminalSelectionDto } from './terminal.dto';

/** POST /api/broadcast/immediateBroadcast: a playlist or chosen media, now, on terminals chosen by ids, region or groups. */
export class ImmediateBroadcastDto extends TerminalSelectionDto implements ImmediateBroadcastRequest {
  @TextField({ max: TASK_NAME_MAX, example: 'Storm warning', emptyKey: 'nameEmpty' })
  taskName!: string;

  @IntField({ min: 1, required: false, description: 'The playlist to play, in its playback mode; or give mediaIds' })
  playlistId?: number;

  @IsOptional()
  @IsArray({ message: msg('invalidValue') })
  @ArrayMinSize(1, { message: msg('taskMediaEmpty') })
  @ArrayMaxSize(PLAYLIST_MAX_ITEMS, { message: msg('playlistTooLong', () => ({ max: PLAYLIST_MAX_ITEMS })) })
  @ArrayUnique({ message: msg('materialAlreadyInPlaylist') })
  @EachId()
  @ApiPropertyOptional({ type: [Number], description: 'Approved media in playing order; or give playlistId' })
  mediaIds?: number[];

  @EnumField(Object.values(PlaybackMode), { required: false, description: 'With mediaIds: normal_mode (default), list_cycle_mode or random_mode' })
  playbackMode?: PlaybackMode;

  @IntField({
    min: TASK_PRIORITY.min,
    max: TASK_PRIORITY.max,
    description: '1 (first) to 10: a first priority pre-empts a later one on the terminal',
  })
  priority!: number;

  @IntField({
    min: NUMBER_BOUNDS.volume.min,
    max: NUMBER_BOUNDS.volume.max,
    emptyKey: 'volumeEmpty',
    description: 'Broadcast volume while it plays, percent',
  })
  volume!: number;
}

class TaskFilters {
  @TextField({ max: TASK_NAME_MAX, required: false, description: 'Part of the task name, any case' })
  taskName?: string;

  @EnumField(Object.values(BroadcastTaskMode), { required: false, description: 'scheduled or immediate' })
  taskMode?: BroadcastTaskMode;
}

export class BroadcastTaskPageDto extends IntersectionType(PageDto, TaskFilters) implements BroadcastTaskPageQuery {}

/** POST /api/broadcast/taskStop. */
export class TaskStopDto extends IdQueryDto implements TaskStopRequest {}

/**
 * POST /api/broadcast/taskAddOrEdit: a scheduled task, as an immediate broadcast plus its schedule. The schedule's
 * shape only: its periods (times required, ordered, not repeated), weekdays and dates are checked by
 * `broadcastScheduleProblems`, the rules the console checks its form with.
 */
export class ScheduledTaskDto extends ImmediateBroadcastDto implements ScheduledTaskRequest {
  @IntField({ min: 1, required: false, description: 'The scheduled task to change; omit to add one' })
  id?: number;

  @IsObject({ message: msg('timeEmpty') })
  @ApiProperty({
    description:
      "weekdays ('1' Monday to '7' Sunday; none: every day), periods ('HH:mm' of the terminal's clock, ordered), startDate, endDate (null: no end)",
    example: { weekdays: ['1', '2', '3', '4', '5'], periods: [{ start: '08:00', end: '08:30' }], startDate: '2026-12-01', endDate: null },
  })
  schedule!: BroadcastSchedule;
}

/** POST /api/broadcast/taskTerminalPage: a page of one task's terminals. */
export class TaskTerminalPageDto extends PageDto implements TaskTerminalPageQuery {
  @IntField({ min: 1, description: 'The task' })
  id!: number;
}

/** POST /api/broadcast/taskControl: a play action on one task, on all its terminals or some of them. */
export class TaskControlDto implements TaskControlRequest {
  @IntField({ min: 1, description: 'The task' })
  id!: number;

  @EnumField(Object.values(PlayAction), { description: 'play (now, its list once), pause, cancelPause, stop (until its next period)' })
  action!: PlayAction;

  @IdArrayField({ max: TERMINAL_COMMAND_MAX_IDS, description: "Some of the task's terminals (device ids); all of them without" })
  ids?: number[];
}
