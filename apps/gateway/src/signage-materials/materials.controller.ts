import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Button, type MaterialRow, type MediaLink, type PageResult } from '@sc/contracts';
import { Audit, RequireButton, RequireRoles } from '../common/decorators';
import { SignedQuery } from '../common/signed-query';
import { sendFile } from '../common/file-response';
import { IdQueryDto } from '../common/fields';
import type { AppRequest } from '../common/request-context';
import { MaterialPageDto, MaterialRenameDto, MaterialStatusDto, MaterialStorageAreaDto } from './dto/materials.dto';
import { MATERIAL_ROLES } from './material-roles';
import { MaterialsService } from './materials.service';

/**
 * Floor-screen materials (/floor-screen/advert, Material Management) on the console port: administrators and editors;
 * changes need Edit, deleting Delete. Uploads go to the upload port (MaterialUploadController).
 */
@ApiTags('floor-screen materials')
@ApiBearerAuth()
@RequireRoles(...MATERIAL_ROLES)
@Controller('signage/material')
export class MaterialsController {
  constructor(private readonly materials: MaterialsService) {}

  @Post('page')
  @HttpCode(200)
  page(@Body() dto: MaterialPageDto): Promise<PageResult<MaterialRow>> {
    return this.materials.page(dto);
  }

  @Get('detail')
  detail(@Query() q: IdQueryDto): Promise<MaterialRow> {
    return this.materials.detail(q.id);
  }

  @Post('rename')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Rename floor-screen material')
  rename(@Body() dto: MaterialRenameDto): Promise<MaterialRow> {
    return this.materials.rename(dto);
  }

  @Post('status')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Set floor-screen material status')
  status(@Body() dto: MaterialStatusDto): Promise<MaterialRow> {
    return this.materials.setStatus(dto);
  }

  @Post('storageArea')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Set floor-screen material storage area')
  storageArea(@Body() dto: MaterialStorageAreaDto): Promise<MaterialRow> {
    return this.materials.setStorageArea(dto);
  }

  /** Refused while an ad uses the material (MaterialUsage). */
  @Get('del')
  @RequireButton(Button.Delete)
  @Audit('Delete floor-screen material')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.materials.remove(q.id);
    return null;
  }

  /** A signed link to play or show the material in the console (media elements cannot send the session's header). */
  @Get('preview')
  @RequireButton(Button.View)
  preview(@Query() q: IdQueryDto): Promise<MediaLink> {
    return this.materials.previewLink(q.id);
  }

  /** The material's file, for a signed link (no session): one byte range per request (206), so a video can seek. */
  @Get('file')
  @ApiProduces('image/jpeg', 'image/png', 'image/webp', 'image/gif', 'video/mp4', 'video/webm', 'audio/mpeg', 'audio/mp4')
  @SignedQuery
  async file(@Req() req: AppRequest, @Res() reply: FastifyReply): Promise<void> {
    sendFile(reply, req.headers as { range?: string; 'if-range'?: string }, await this.materials.fileOf(req.query as Record<string, unknown>));
  }

  /** The material's cover (JPEG), for a signed link as the list gives them. */
  @Get('cover')
  @ApiProduces('image/jpeg')
  @SignedQuery
  async cover(@Req() req: AppRequest, @Res() reply: FastifyReply): Promise<void> {
    sendFile(reply, req.headers as { range?: string; 'if-range'?: string }, await this.materials.coverOf(req.query as Record<string, unknown>));
  }
}
