import { Injectable, Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { OperationLogRow, OperationModule, OperationStatus, PageResult } from '@sc/contracts';
import { Where, likeContains, pagedQuery } from '../common/sql';
import type { OperationLogPageDto } from './dto/operation-log.dto';
import { InjectDb } from '../infra/database';

export interface OperationRecord {
  description: string;
  module: OperationModule | null;
  methodName: string;
  requestParams: unknown;
  operator: string;
  operatorId: number | null;
  operationIp: string;
  status: OperationStatus;
  errorMessage: string | null;
  durationMs: number;
}

@Injectable()
export class OperationLogService {
  private readonly logger = new Logger(OperationLogService.name);

  constructor(@InjectDb() private readonly db: DataSource) {}

  /** Writes one entry; a failure to write is logged, never passed to the caller whose operation it records. */
  async record(entry: OperationRecord): Promise<void> {
    try {
      await this.db.query(
        `INSERT INTO operation_log (description, method_name, request_params, operator, operator_id, operation_ip, status, error_message, duration_ms, module)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          entry.description,
          entry.methodName,
          JSON.stringify(entry.requestParams),
          (entry.operator || 'anonymous').slice(0, 64),
          entry.operatorId,
          entry.operationIp.slice(0, 64),
          entry.status,
          entry.errorMessage?.slice(0, 512) ?? null,
          entry.durationMs,
          entry.module,
        ],
      );
    } catch (err) {
      this.logger.error({ err: (err as Error).message, description: entry.description }, 'Could not write the operation log');
    }
  }

  page(q: OperationLogPageDto): Promise<PageResult<OperationLogRow>> {
    return pagedQuery<OperationLogRow>(this.db, {
      select: `id::int AS id, module, description, method_name AS "methodName", request_params AS "requestParams", operator,
               operation_ip AS "operationIp", operation_time AS "operationTime", status, error_message AS "errorMessage",
               duration_ms AS "durationMs"`,
      from: 'operation_log',
      where: new Where()
        .addIf(q.operator, `lower(operator) LIKE ?`, q.operator && likeContains(q.operator))
        .addIf(q.status, `status = ?`)
        .addIf(q.startTime, `operation_time >= ?`)
        .addIf(q.endTime, `operation_time <= ?`)
        .addIf(q.description, `lower(description) LIKE ?`, q.description && likeContains(q.description))
        .addIf(q.module, `module = ?`)
        // The calls that name the record: its id in the query or the body, or among the body's ids.
        .addIf(
          q.deviceId,
          `EXISTS (SELECT 1 FROM (SELECT ?::int AS id) d WHERE d.id::text IN (request_params->'query'->>'id', request_params->'body'->>'id')
             OR jsonb_typeof(request_params->'body'->'ids') = 'array' AND request_params->'body'->'ids' @> to_jsonb(d.id))`,
        ),
      orderBy: 'operation_time DESC, id DESC',
      outerOrderBy: 'page."operationTime" DESC, page.id DESC',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }
}
