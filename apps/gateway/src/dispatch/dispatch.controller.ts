import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Role, type DispatchDetail } from '@sc/contracts';
import { Audit, CurrentCaller, RequireRoles } from '../common/decorators';
import type { Caller } from '../common/request-context';
import { DispatchDetailDto, DispatchIdDto } from './dto/dispatch.dto';
import { DispatchService, type RetryResult } from './dispatch.service';

/**
 * The command ledger: a dispatch's progress, and sending its failed commands again, for every family. The roles that
 * open any family's pages pass here; each dispatch is then shown only to the roles of its family (lamps and strip
 * lights: administrators; broadcast terminals: administrators, editors and visitors), and retried only with the
 * button of its action.
 */
@ApiTags('dispatch')
@ApiBearerAuth()
@RequireRoles(Role.Admin, Role.Editor, Role.Visit)
@Controller('dispatch')
export class DispatchController {
  constructor(private readonly dispatches: DispatchService) {}

  /** The batch status, its counts by state, and its rows (one per target device): all, or a page. */
  @Get('detail')
  detail(@CurrentCaller() caller: Caller, @Query() q: DispatchDetailDto): Promise<DispatchDetail> {
    return this.dispatches.detail(caller, q);
  }

  /** Queues the failed and expired commands again (the same button as the original action). */
  @Post('retryFailed')
  @HttpCode(200)
  @Audit('Retry failed commands')
  retryFailed(@CurrentCaller() caller: Caller, @Body() dto: DispatchIdDto): Promise<RetryResult> {
    return this.dispatches.retryFailed(caller, dto.id);
  }
}
