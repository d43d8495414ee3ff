import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { BROADCAST_FAMILY, Button, type MediaRow } from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import type { AppRequest, Caller } from '../common/request-context';
import { MediaService } from './media.service';

/**
 * Media uploads on the upload port (8888), spec section 7: multipart with `file` (MP3, at most 50 MB, checked by
 * content) and an optional `materialName`. The broadcast pages' roles, with the Add button.
 */
@ApiTags('broadcast media')
@ApiBearerAuth()
@RequireRoles(...BROADCAST_FAMILY.eventRoles)
@Controller('broadcast')
export class MediaUploadController {
  constructor(private readonly media: MediaService) {}

  @Post('mediaUpload')
  @HttpCode(200)
  @RequireButton(Button.Add)
  @ApiConsumes('multipart/form-data')
  @Audit('Upload broadcast media')
  upload(@Req() req: AppRequest, @CurrentCaller() caller: Caller): Promise<MediaRow> {
    return this.media.upload(req, caller);
  }
}
