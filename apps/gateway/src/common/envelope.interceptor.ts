import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { map, type Observable } from 'rxjs';
import { ResultCode, type ApiResponse } from '@sc/contracts';

/** Wraps every successful handler result as `{ code: 200, data, message: 'success' }`. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(_ctx: ExecutionContext, next: CallHandler): Observable<ApiResponse> {
    return next.handle().pipe(map((data: unknown) => ({ code: ResultCode.Success, data: data ?? null, message: 'success' })));
  }
}
