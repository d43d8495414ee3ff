import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  Button,
  Role,
  type LampControlResult,
  type LampScheduleView,
  type PageResult,
  type ScheduleMismatches,
  type StrategyRow,
} from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import type { Caller } from '../common/request-context';
import { MismatchQueryDto, StrategyAddOrEditDto, StrategyDistributeDto, StrategyPageDto } from './dto/strategy.dto';
import { StrategiesService } from './strategies.service';

/** Lamp strategies (/smartLamp/lampStrategy): administrators only, like every smart-lamp page (spec section 6). */
@ApiTags('lighting strategies')
@ApiBearerAuth()
@RequireRoles(Role.Admin)
@Controller('light')
export class StrategiesController {
  constructor(private readonly strategies: StrategiesService) {}

  @Post('strategyPage')
  @HttpCode(200)
  page(@Body() dto: StrategyPageDto): Promise<PageResult<StrategyRow>> {
    return this.strategies.page('lamp', dto);
  }

  /** Adds a strategy (no id, Add button) or changes one (Edit button). */
  @Post('strategyAddOrEdit')
  @HttpCode(200)
  @Audit('Save lamp strategy')
  save(@CurrentCaller() caller: Caller, @Body() dto: StrategyAddOrEditDto): Promise<{ id: number }> {
    return this.strategies.save(caller, 'lamp', dto);
  }

  @Get('strategyDel')
  @RequireButton(Button.Delete)
  @Audit('Delete lamp strategy')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.strategies.remove('lamp', q.id);
    return null;
  }

  /** Sends the strategy's schedule to lamps (Open and close button); answers the dispatch to follow. */
  @Post('strategyDistribute')
  @HttpCode(200)
  @Audit('Distribute lamp strategy')
  distribute(@CurrentCaller() caller: Caller, @Body() dto: StrategyDistributeDto): Promise<LampControlResult> {
    return this.strategies.distribute(caller, dto);
  }

  /** A lamp's effective schedule tonight. */
  @Get('lampSchedule')
  lampSchedule(@Query() q: IdQueryDto): Promise<LampScheduleView> {
    return this.strategies.lampSchedule(q.id);
  }

  /** Lamps whose reported state disagrees with what their schedule says now. */
  @Get('scheduleMismatches')
  mismatches(@Query() q: MismatchQueryDto): Promise<ScheduleMismatches> {
    return this.strategies.mismatches(q);
  }
}
