import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  Button,
  SIGNAGE_FAMILY,
  type AdPlanCalendarEntry,
  type AdPlanDetail,
  type AdPlanPage,
  type AdPlanReceiversPage,
  type LampControlResult,
} from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import type { Caller } from '../common/request-context';
import type { RetryResult } from '../dispatch/dispatch.service';
import { AdPlanAddDto, AdPlanCalendarDto, AdPlanEditDto, AdPlanIdDto, AdPlanPageDto, AdPlanReceiversDto } from './dto/plans.dto';
import { AdPlansService } from './plans.service';

/**
 * Floor-screen ad plans (/floor-screen/ad-plan, Ad Plan Management): the roles of the floor screens they are published
 * to (SIGNAGE_FAMILY.eventRoles: administrators and editors). Adding needs Add, editing Edit, deleting Delete;
 * publishing and retrying need the `publish` action's button (docs/signage-plans.md).
 */
@ApiTags('floor-screen ad plans')
@ApiBearerAuth()
@RequireRoles(...SIGNAGE_FAMILY.eventRoles)
@Controller('signage/plan')
export class AdPlansController {
  constructor(private readonly plans: AdPlansService) {}

  /** Plans by part of their publish name, their status and a day they play on, newest first. */
  @Post('page')
  @HttpCode(200)
  page(@Body() dto: AdPlanPageDto): Promise<AdPlanPage> {
    return this.plans.page(dto);
  }

  /** One plan with its receive totals. */
  @Get('detail')
  detail(@Query() q: IdQueryDto): Promise<AdPlanDetail> {
    return this.plans.detail(q.id);
  }

  @Post('add')
  @HttpCode(200)
  @RequireButton(Button.Add)
  @Audit('Add floor-screen ad plan')
  add(@CurrentCaller() caller: Caller, @Body() dto: AdPlanAddDto): Promise<AdPlanDetail> {
    return this.plans.add(caller, dto);
  }

  @Post('edit')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Edit floor-screen ad plan')
  edit(@Body() dto: AdPlanEditDto): Promise<AdPlanDetail> {
    return this.plans.edit(dto);
  }

  @Post('delete')
  @HttpCode(200)
  @RequireButton(Button.Delete)
  @Audit('Delete floor-screen ad plan')
  async remove(@Body() dto: AdPlanIdDto): Promise<null> {
    await this.plans.remove(dto.id);
    return null;
  }

  /** Sends the plan to its screens (chosen, or its group's players) through the ledger; answers the dispatch. */
  @Post('publish')
  @HttpCode(200)
  @RequireButton(SIGNAGE_FAMILY.actions.publish)
  @Audit('Publish floor-screen ad plan')
  publish(@CurrentCaller() caller: Caller, @Body() dto: AdPlanIdDto): Promise<LampControlResult> {
    return this.plans.publish(caller, dto.id);
  }

  /** Sends the plan again to the screens whose rows failed or expired only, with fresh file links. */
  @Post('retryFailed')
  @HttpCode(200)
  @RequireButton(SIGNAGE_FAMILY.actions.publish)
  @Audit('Retry floor-screen ad plan')
  retryFailed(@CurrentCaller() caller: Caller, @Body() dto: AdPlanIdDto): Promise<RetryResult> {
    return this.plans.retryFailed(caller, dto.id);
  }

  /** A page of the plan's screens, each with its receive status; DispatchRowsChanged moves them live. */
  @Post('receivers')
  @HttpCode(200)
  receivers(@Body() dto: AdPlanReceiversDto): Promise<AdPlanReceiversPage> {
    return this.plans.receivers(dto);
  }

  /** The plans playing from one day to another, with the days they play and the plans they conflict with. */
  @Get('calendar')
  calendar(@Query() q: AdPlanCalendarDto): Promise<AdPlanCalendarEntry[]> {
    return this.plans.calendar(q);
  }
}
