import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Role, type OperationLogRow, type PageResult } from '@sc/contracts';
import { RequireRoles } from '../common/decorators';
import { likeContains } from '../users/users.service';
import { OperationLogPageDto } from './dto/operation-log.dto';

@ApiTags('operation log')
@ApiBearerAuth()
@RequireRoles(Role.Admin)
@Controller('log')
export class OperationLogController {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  @Post('operationPage')
  @HttpCode(200)
  async page(@Body() q: OperationLogPageDto): Promise<PageResult<OperationLogRow>> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (q.operator) add(`lower(operator) LIKE ?`, likeContains(q.operator));
    if (q.status) add(`status = ?`, q.status);
    if (q.startTime) add(`operation_time >= ?`, q.startTime);
    if (q.endTime) add(`operation_time <= ?`, q.endTime);
    if (q.description) add(`lower(description) LIKE ?`, likeContains(q.description));
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [list, count] = await Promise.all([
      this.db.query(
        `SELECT id::int AS id, description, method_name AS "methodName", request_params AS "requestParams", operator,
                operation_ip AS "operationIp", operation_time AS "operationTime", status, error_message AS "errorMessage", duration_ms AS "durationMs"
           FROM operation_log ${filter} ORDER BY operation_time DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, q.pageSize, (q.pageNum - 1) * q.pageSize],
      ) as Promise<OperationLogRow[]>,
      this.db.query(`SELECT count(*)::int AS total FROM operation_log ${filter}`, params) as Promise<{ total: number }[]>,
    ]);
    return { list, total: count[0]?.total ?? 0 };
  }
}
