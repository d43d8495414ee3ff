import { HttpStatus, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { catchError, from, mergeMap, throwError, type Observable } from 'rxjs';
import { OperationStatus, moduleOfPath } from '@sc/contracts';
import { renderError, toAppException } from '../common/all-exceptions.filter';
import { AUDIT_KEY } from '../common/decorators';
import { clientIp, type AppRequest } from '../common/request-context';
import { OperationLogService } from './operation-log.service';
import { loggedParams } from './redact';

/**
 * Writes one operation-log row for every handler marked @Audit, whether it succeeds or fails.
 * The row is written before the answer leaves, so a client that sees the answer also finds the entry.
 */
@Injectable()
export class OperationLogInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly log: OperationLogService,
  ) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const description = this.reflector.get<string | undefined>(AUDIT_KEY, ctx.getHandler());
    if (!description) return next.handle();
    const req = ctx.switchToHttp().getRequest<AppRequest>();
    const started = Date.now();
    const methodName = `${ctx.getClass().name}.${ctx.getHandler().name}`;
    // The route's path as declared (not as called: no query string), whose first segment names the module.
    const module = moduleOfPath(req.routeOptions?.url ?? req.url);
    const write = (status: OperationStatus, errorMessage: string | null) => {
      const body: unknown = req.body;
      const named = body && typeof body === 'object' ? (body as Record<string, unknown>).username : undefined;
      return this.log.record({
        description,
        module,
        methodName,
        requestParams: loggedParams(req.query, body),
        // A sign-in has no caller yet: the user name it was for.
        operator: req.caller?.username ?? (typeof named === 'string' ? named.trim().slice(0, 64) : ''),
        operatorId: req.caller?.userId ?? null,
        operationIp: clientIp(req),
        status,
        errorMessage,
        durationMs: Date.now() - started,
      });
    };
    return next.handle().pipe(
      mergeMap((result) => from(write(OperationStatus.Success, null).then(() => result))),
      catchError((err: unknown) => {
        // Not logged here: the exception filter logs unexpected errors once.
        const ex = toAppException(err, req.url);
        // Throttled attempts are not written: the failures that led to the limit are, and a flood stops there.
        if (ex.status === HttpStatus.TOO_MANY_REQUESTS) return throwError(() => err);
        // The same text the caller gets (field errors included), in English.
        return from(write(OperationStatus.Failure, renderError(ex, 'en-US').message)).pipe(mergeMap(() => throwError(() => err)));
      }),
    );
  }
}
