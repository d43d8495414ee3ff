import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { BROADCAST_FAMILY, Button, type PageResult, type PlaylistDetail, type PlaylistRow } from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import type { Caller } from '../common/request-context';
import { PlaylistAddOrEditDto, PlaylistPageDto } from './dto/playlist.dto';
import { PlaylistsService } from './playlists.service';

/** Broadcast playlists (/broadcastManage/playList): the broadcast pages' roles; Add or Edit to save, Delete to delete. */
@ApiTags('broadcast playlists')
@ApiBearerAuth()
@RequireRoles(...BROADCAST_FAMILY.eventRoles)
@Controller('broadcast')
export class PlaylistsController {
  constructor(private readonly playlists: PlaylistsService) {}

  @Post('playlistPage')
  @HttpCode(200)
  page(@Body() dto: PlaylistPageDto): Promise<PageResult<PlaylistRow>> {
    return this.playlists.page(dto);
  }

  /** One playlist with its media in playing order. */
  @Get('playlistDetail')
  @RequireButton(Button.View)
  detail(@Query() q: IdQueryDto): Promise<PlaylistDetail> {
    return this.playlists.detail(q.id);
  }

  /** Adds a playlist (no id, Add button) or replaces one's name, mode and ordered media (Edit button). */
  @Post('playlistAddOrEdit')
  @HttpCode(200)
  @Audit('Save playlist')
  save(@CurrentCaller() caller: Caller, @Body() dto: PlaylistAddOrEditDto): Promise<{ id: number }> {
    return this.playlists.save(caller, dto);
  }

  @Get('playlistDel')
  @RequireButton(Button.Delete)
  @Audit('Delete playlist')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.playlists.remove(q.id);
    return null;
  }
}
