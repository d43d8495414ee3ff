import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Button, Role, type LampControlResult, type PageResult, type StripRow } from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import type { Caller } from '../common/request-context';
import { StripAddOrEditDto, StripEffectDto, StripPageDto } from './dto/strip.dto';
import { StripsService } from './strips.service';

/**
 * Strip lights (/smartLamp/lightManage): administrators only (spec section 6), with the buttons checked as for
 * lamps — Add or Edit for saving, Delete, and for effects Open lamp (-1 on), Close lamp (-2 off) or Open and close
 * (switch, breathing, flashing, colour).
 */
@ApiTags('strip lights')
@ApiBearerAuth()
@RequireRoles(Role.Admin)
@Controller('light')
export class StripsController {
  constructor(private readonly strips: StripsService) {}

  /** Adds a strip light (no id) or changes one (Add or Edit button). */
  @Post('stripAddOrEdit')
  @HttpCode(200)
  @Audit('Save strip light')
  save(@CurrentCaller() caller: Caller, @Body() dto: StripAddOrEditDto): Promise<{ id: number }> {
    return this.strips.save(caller, dto);
  }

  @Post('stripPage')
  @HttpCode(200)
  page(@Body() dto: StripPageDto): Promise<PageResult<StripRow>> {
    return this.strips.page(dto);
  }

  @Get('stripDel')
  @RequireButton(Button.Delete)
  @Audit('Delete strip light')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.strips.remove(q.id);
    return null;
  }

  /** Runs a light effect on strip lights; answers the dispatch to follow. */
  @Post('stripEffect')
  @HttpCode(200)
  @Audit('Strip light effect')
  effect(@CurrentCaller() caller: Caller, @Body() dto: StripEffectDto): Promise<LampControlResult> {
    return this.strips.effect(caller, dto);
  }
}
