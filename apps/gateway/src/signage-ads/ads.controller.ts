import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Button, Role, type AdDetail, type AdRow, type PageResult } from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import type { Caller } from '../common/request-context';
import { MATERIAL_ROLES } from '../signage-materials/material-roles';
import { AdAddDto, AdAuditDto, AdDeleteDto, AdEditDto, AdPageDto } from './dto/ads.dto';
import { AdsService } from './ads.service';

/**
 * Floor-screen ads (/floor-screen/advert, Ad Management): administrators and editors, as the materials they are made
 * of; adding needs Add, editing Edit, deleting Delete. Auditing is for administrators only (docs/signage-ads.md).
 */
@ApiTags('floor-screen ads')
@ApiBearerAuth()
@RequireRoles(...MATERIAL_ROLES)
@Controller('signage/ad')
export class AdsController {
  constructor(private readonly ads: AdsService) {}

  @Post('page')
  @HttpCode(200)
  page(@Body() dto: AdPageDto): Promise<PageResult<AdRow>> {
    return this.ads.page(dto);
  }

  @Get('detail')
  detail(@Query() q: IdQueryDto): Promise<AdDetail> {
    return this.ads.detail(q.id);
  }

  @Post('add')
  @HttpCode(200)
  @RequireButton(Button.Add)
  @Audit('Add floor-screen ad')
  add(@CurrentCaller() caller: Caller, @Body() dto: AdAddDto): Promise<AdDetail> {
    return this.ads.add(caller, dto);
  }

  @Post('edit')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Edit floor-screen ad')
  edit(@Body() dto: AdEditDto): Promise<AdDetail> {
    return this.ads.edit(dto);
  }

  /** One ad or many; refused while an ad plan uses any of them (AdPlanUsage). */
  @Post('delete')
  @HttpCode(200)
  @RequireButton(Button.Delete)
  @Audit('Delete floor-screen ads')
  async remove(@Body() dto: AdDeleteDto): Promise<null> {
    await this.ads.remove(dto);
    return null;
  }

  /**
   * Marks an ad audited or not audited. Administrators only: the audit is the check that an ad may go on public
   * screens, so those who make ads (editors) do not approve their own, as with the broadcast media's audit.
   */
  @Post('audit')
  @HttpCode(200)
  @RequireRoles(Role.Admin)
  @Audit('Audit floor-screen ad')
  audit(@Body() dto: AdAuditDto): Promise<AdDetail> {
    return this.ads.audit(dto);
  }
}
