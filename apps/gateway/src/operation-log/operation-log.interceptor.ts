import { Injectable, Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { catchError, from, mergeMap, throwError, type Observable } from 'rxjs';
import type { DataSource } from 'typeorm';
import { OperationStatus } from '@sc/contracts';
import { renderError, toAppException } from '../common/all-exceptions.filter';
import { AUDIT_KEY } from '../common/decorators';
import { clientIp, type AppRequest } from '../common/request-context';
import { redact } from './redact';

/**
 * Writes one operation-log row for every handler marked @Audit, whether it succeeds or fails.
 * The row is written before the answer leaves, so a client that sees the answer also finds the entry.
 */
@Injectable()
export class OperationLogInterceptor implements NestInterceptor {
  private readonly logger = new Logger('OperationLog');

  constructor(
    private readonly reflector: Reflector,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const description = this.reflector.get<string | undefined>(AUDIT_KEY, ctx.getHandler());
    if (!description) return next.handle();
    const req = ctx.switchToHttp().getRequest<AppRequest>();
    const started = Date.now();
    const methodName = `${ctx.getClass().name}.${ctx.getHandler().name}`;
    const write = (status: OperationStatus, error: string | null) => this.write(req, description, methodName, status, error, Date.now() - started);
    return next.handle().pipe(
      mergeMap((result) => from(write(OperationStatus.Success, null).then(() => result))),
      catchError((err: unknown) => {
        // Not logged here: the exception filter logs unexpected errors once.
        const ex = toAppException(err, req.url);
        // The same text the caller gets (field errors included), in English.
        return from(write(OperationStatus.Failure, renderError(ex, 'en-US').message)).pipe(mergeMap(() => throwError(() => err)));
      }),
    );
  }

  private async write(
    req: AppRequest,
    description: string,
    methodName: string,
    status: OperationStatus,
    error: string | null,
    durationMs: number,
  ): Promise<void> {
    const body = req.body as Record<string, unknown> | undefined;
    const operator = req.caller?.username ?? (typeof body?.username === 'string' ? body.username.trim() : '') ?? '';
    try {
      await this.db.query(
        `INSERT INTO operation_log (description, method_name, request_params, operator, operator_id, operation_ip, status, error_message, duration_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          description,
          methodName,
          JSON.stringify(redact({ query: req.query ?? {}, body: body ?? {} })),
          (operator || 'anonymous').slice(0, 64),
          req.caller?.userId ?? null,
          clientIp(req).slice(0, 64),
          status,
          error?.slice(0, 512) ?? null,
          durationMs,
        ],
      );
    } catch (err) {
      this.logger.error({ err, description }, 'Could not write the operation log');
    }
  }
}
