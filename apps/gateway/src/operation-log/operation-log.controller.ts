import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Role, type OperationLogRow, type PageResult } from '@sc/contracts';
import { RequireRoles } from '../common/decorators';
import { ModuleLogPageDto, OperationLogPageDto } from './dto/operation-log.dto';
import { OperationLogService } from './operation-log.service';

@ApiTags('operation log')
@ApiBearerAuth()
@Controller('log')
export class OperationLogController {
  constructor(private readonly log: OperationLogService) {}

  /** The whole log, every module's (the system's among them): administrators'. */
  @Post('operationPage')
  @RequireRoles(Role.Admin)
  @HttpCode(200)
  page(@Body() q: OperationLogPageDto): Promise<PageResult<OperationLogRow>> {
    return this.log.page(q);
  }

  /** The log of one module of devices (the floor screens' page): its operators read it too. */
  @Post('modulePage')
  @RequireRoles(Role.Admin, Role.Editor)
  @HttpCode(200)
  modulePage(@Body() q: ModuleLogPageDto): Promise<PageResult<OperationLogRow>> {
    return this.log.page(q);
  }
}
