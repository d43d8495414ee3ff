import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Button, Role, type LampControlResult, type PageResult, type StrategyRow } from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import type { Caller } from '../common/request-context';
import { StrategyAddOrEditDto, StrategyDistributeDto, StrategyPageDto } from '../strategies/dto/strategy.dto';
import { StripStrategiesService } from './strip-strategies.service';

/** Strip light strategies (/smartLamp/lightStrategy): administrators only, buttons as for lamp strategies. */
@ApiTags('strip lights')
@ApiBearerAuth()
@RequireRoles(Role.Admin)
@Controller('light')
export class StripStrategiesController {
  constructor(private readonly strategies: StripStrategiesService) {}

  @Post('stripStrategyPage')
  @HttpCode(200)
  page(@Body() dto: StrategyPageDto): Promise<PageResult<StrategyRow>> {
    return this.strategies.page(dto);
  }

  /** Adds a strip strategy (no id, Add button) or changes one (Edit button). */
  @Post('stripStrategyAddOrEdit')
  @HttpCode(200)
  @Audit('Save strip light strategy')
  save(@CurrentCaller() caller: Caller, @Body() dto: StrategyAddOrEditDto): Promise<{ id: number }> {
    return this.strategies.save(caller, dto);
  }

  @Get('stripStrategyDel')
  @RequireButton(Button.Delete)
  @Audit('Delete strip light strategy')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.strategies.remove(q.id);
    return null;
  }

  /** Sends the strategy's schedule to strip lights (Open and close button); answers the dispatch to follow. */
  @Post('stripStrategyDistribute')
  @HttpCode(200)
  @Audit('Distribute strip light strategy')
  distribute(@CurrentCaller() caller: Caller, @Body() dto: StrategyDistributeDto): Promise<LampControlResult> {
    return this.strategies.distribute(caller, dto);
  }
}
