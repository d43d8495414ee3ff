import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsOptional } from 'class-validator';
import {
  BroadcastTaskMode,
  NUMBER_BOUNDS,
  PLAYLIST_MAX_ITEMS,
  PlaybackMode,
  TASK_NAME_MAX,
  TASK_PRIORITY,
  type BroadcastTaskPageQuery,
  type ImmediateBroadcastRequest,
  type TaskStopRequest,
} from '@sc/contracts';
import { EachId, EnumField, IdQueryDto, IntField, PageDto, TextField, msg } from '../../common/fields';
import { TerminalSelectionDto } from './terminal.dto';

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
