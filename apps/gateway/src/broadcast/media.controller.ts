import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { BROADCAST_FAMILY, Button, MEDIA_LINK_PARAMS, Role, type MediaLink, type MediaRow, type PageResult } from '@sc/contracts';
import { Audit, CurrentCaller, Public, RequireButton, RequireRoles } from '../common/decorators';
import { sendFile } from '../common/file-response';
import { IdQueryDto } from '../common/fields';
import type { AppRequest, Caller } from '../common/request-context';
import { MediaAuditDto, MediaPageDto, MediaRenameDto } from './dto/media.dto';
import { MediaService } from './media.service';

/**
 * The broadcast media library (/broadcastManage/mediaLibrary) on the console port. Opened by the roles of the broadcast
 * pages (administrators, editors, visitors); renaming needs Edit, deleting Delete, and only administrators audit.
 * Uploads go to the upload port (MediaUploadController).
 */
@ApiTags('broadcast media')
@ApiBearerAuth()
@RequireRoles(...BROADCAST_FAMILY.eventRoles)
@Controller('broadcast')
export class MediaController {
  constructor(private readonly media: MediaService) {}

  @Post('mediaPage')
  @HttpCode(200)
  page(@Body() dto: MediaPageDto): Promise<PageResult<MediaRow>> {
    return this.media.page(dto);
  }

  @Post('mediaRename')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Rename broadcast media')
  rename(@Body() dto: MediaRenameDto): Promise<MediaRow> {
    return this.media.rename(dto);
  }

  /** Refused while a playlist holds the medium. */
  @Get('mediaDel')
  @RequireButton(Button.Delete)
  @Audit('Delete broadcast media')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.media.remove(q.id);
    return null;
  }

  /** Approves or rejects a medium: administrators only. */
  @Post('mediaAudit')
  @HttpCode(200)
  @RequireRoles(Role.Admin)
  @Audit('Audit broadcast media')
  audit(@CurrentCaller() caller: Caller, @Body() dto: MediaAuditDto): Promise<MediaRow> {
    return this.media.audit(caller, dto);
  }

  /** A signed link to play the medium in the console (an audio element cannot send the session's header). */
  @Get('mediaPreview')
  @RequireButton(Button.View)
  preview(@Query() q: IdQueryDto): Promise<MediaLink> {
    return this.media.previewLink(q.id);
  }

  /**
   * The medium's file, for a signed link (no session): the console's player and the terminals. One byte range per
   * request (206); 403 for a missing, tampered with or expired signature.
   */
  @Get('mediaFile')
  @Public()
  @ApiProduces('audio/mpeg')
  @ApiQuery({ name: MEDIA_LINK_PARAMS.id, type: String, required: false })
  @ApiQuery({ name: MEDIA_LINK_PARAMS.expires, type: String, required: false, description: 'Seconds since the epoch' })
  @ApiQuery({ name: MEDIA_LINK_PARAMS.signature, type: String, required: false })
  async file(@Req() req: AppRequest, @Res() reply: FastifyReply): Promise<void> {
    const file = await this.media.fileOf(req.query as Record<string, unknown>);
    sendFile(reply, req.headers as { range?: string; 'if-range'?: string }, file);
  }
}
