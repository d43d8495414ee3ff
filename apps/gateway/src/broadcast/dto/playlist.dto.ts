import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray } from 'class-validator';
import { PLAYLIST_MAX_ITEMS, PLAYLIST_NAME_MAX, PlaybackMode, type PlaylistAddOrEditRequest, type PlaylistPageQuery } from '@sc/contracts';
import { EachId, EnumField, IntField, PageDto, TextField, msg } from '../../common/fields';

export class PlaylistAddOrEditDto implements PlaylistAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The playlist to change; omit to add one' })
  id?: number;

  @TextField({ max: PLAYLIST_NAME_MAX, example: 'Morning notices', emptyKey: 'nameEmpty' })
  name!: string;

  @EnumField(Object.values(PlaybackMode), { description: 'normal_mode, list_cycle_mode or random_mode' })
  playbackMode!: PlaybackMode;

  @IsArray({ message: msg('invalidValue') })
  @ArrayMinSize(1, { message: msg('playlistNeedsMedia') })
  @ArrayMaxSize(PLAYLIST_MAX_ITEMS, { message: msg('playlistTooLong', () => ({ max: PLAYLIST_MAX_ITEMS })) })
  @ArrayUnique({ message: msg('materialAlreadyInPlaylist') })
  @EachId()
  @ApiProperty({ type: [Number], description: 'The media in playing order; each at most once, approved only' })
  mediaIds!: number[];
}

class PlaylistFilters {
  @TextField({ max: PLAYLIST_NAME_MAX, required: false, description: 'Part of the playlist name, any case' })
  name?: string;
}

export class PlaylistPageDto extends IntersectionType(PageDto, PlaylistFilters) implements PlaylistPageQuery {}
