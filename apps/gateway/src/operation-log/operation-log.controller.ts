import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Role, type OperationLogRow, type PageResult } from '@sc/contracts';
import { RequireRoles } from '../common/decorators';
import { OperationLogPageDto } from './dto/operation-log.dto';
import { OperationLogService } from './operation-log.service';

@ApiTags('operation log')
@ApiBearerAuth()
@RequireRoles(Role.Admin)
@Controller('log')
export class OperationLogController {
  constructor(private readonly log: OperationLogService) {}

  @Post('operationPage')
  @HttpCode(200)
  page(@Body() q: OperationLogPageDto): Promise<PageResult<OperationLogRow>> {
    return this.log.page(q);
  }
}
