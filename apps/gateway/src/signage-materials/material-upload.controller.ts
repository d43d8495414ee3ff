import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { Button, type MaterialRow } from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import type { AppRequest, Caller } from '../common/request-context';
import { MATERIAL_ROLES } from './material-roles';
import { MaterialsService } from './materials.service';

/**
 * Material uploads on the upload port (8888): multipart with `file` (an image, a video or music, checked by content,
 * within its type's size) and an optional `name`. Administrators and editors, with the Add button.
 */
@ApiTags('floor-screen materials')
@ApiBearerAuth()
@RequireRoles(...MATERIAL_ROLES)
@Controller('signage/material')
export class MaterialUploadController {
  constructor(private readonly materials: MaterialsService) {}

  @Post('upload')
  @HttpCode(200)
  @RequireButton(Button.Add)
  @ApiConsumes('multipart/form-data')
  @Audit('Upload floor-screen material')
  upload(@Req() req: AppRequest, @CurrentCaller() caller: Caller): Promise<MaterialRow> {
    return this.materials.upload(req, caller);
  }
}
