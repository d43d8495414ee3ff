import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Button, LED_FAMILY, type LedMediaRow, type MediaLink, type PageResult } from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { sendFile } from '../common/file-response';
import { IdQueryDto } from '../common/fields';
import type { AppRequest, Caller } from '../common/request-context';
import { SignedQuery } from '../common/signed-query';
import { LedMediaPageDto } from './dto/led-media.dto';
import { LedMediaService } from './led-media.service';

/**
 * The LED media library (/ledManage/ledMediaLib) on the console port: administrators and editors, like the screens;
 * deleting needs Delete. Uploads go to the upload port (LedMediaUploadController).
 */
@ApiTags('LED media')
@ApiBearerAuth()
@RequireRoles(...LED_FAMILY.eventRoles)
@Controller('led')
export class LedMediaController {
  constructor(private readonly media: LedMediaService) {}

  @Post('mediaPage')
  @HttpCode(200)
  page(@Body() dto: LedMediaPageDto): Promise<PageResult<LedMediaRow>> {
    return this.media.page(dto);
  }

  @Get('mediaDetail')
  detail(@Query() q: IdQueryDto): Promise<LedMediaRow> {
    return this.media.detail(q.id);
  }

  /** Refused while an LED task plays the medium or an open real-time play or task send names it. */
  @Post('mediaDel')
  @HttpCode(200)
  @RequireButton(Button.Delete)
  @Audit('Delete LED media')
  async remove(@Body() dto: IdQueryDto): Promise<null> {
    await this.media.remove(dto.id);
    return null;
  }

  /** A signed link to show or play the medium in the console (media elements cannot send the session's header). */
  @Get('mediaPreview')
  preview(@Query() q: IdQueryDto): Promise<MediaLink> {
    return this.media.previewLink(q.id);
  }

  /** The medium's file, for a signed link (no session): one byte range per request (206), so a video can seek. */
  @Get('mediaFile')
  @ApiProduces('image/jpeg', 'image/png', 'image/webp', 'image/gif', 'video/mp4', 'video/webm')
  @SignedQuery
  async file(@Req() req: AppRequest, @Res() reply: FastifyReply): Promise<void> {
    sendFile(reply, req.headers as { range?: string; 'if-range'?: string }, await this.media.fileOf(req.query as Record<string, unknown>));
  }

  /** The medium's cover (JPEG), for a signed link as the list gives them. */
  @Get('mediaCover')
  @ApiProduces('image/jpeg')
  @SignedQuery
  async cover(@Req() req: AppRequest, @Res() reply: FastifyReply): Promise<void> {
    sendFile(reply, req.headers as { range?: string; 'if-range'?: string }, await this.media.coverOf(req.query as Record<string, unknown>));
  }
}

/**
 * LED media uploads on the upload port (8888, the spec's `mediaUpload` under /api/led): multipart with `file` (a
 * picture or a video, checked by content, within its type's size) and an optional `name`. With the Add button.
 */
@ApiTags('LED media')
@ApiBearerAuth()
@RequireRoles(...LED_FAMILY.eventRoles)
@Controller('led')
export class LedMediaUploadController {
  constructor(private readonly media: LedMediaService) {}

  @Post('mediaUpload')
  @HttpCode(200)
  @RequireButton(Button.Add)
  @ApiConsumes('multipart/form-data')
  @Audit('Upload LED media')
  upload(@Req() req: AppRequest, @CurrentCaller() caller: Caller): Promise<LedMediaRow> {
    return this.media.upload(req, caller);
  }
}
