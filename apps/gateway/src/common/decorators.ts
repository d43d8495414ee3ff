import { SetMetadata, UseInterceptors, applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuditDescription, Button, Role } from '@sc/contracts';
import { OperationLogInterceptor } from '../operation-log/operation-log.interceptor';
import type { AppRequest, Caller } from './request-context';

export const PUBLIC_KEY = 'sc:public';
export const ROLES_KEY = 'sc:roles';
export const BUTTON_KEY = 'sc:button';
export const AUDIT_KEY = 'sc:audit';

/** Reachable without a session (login, health). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_KEY, true);

/** Only callers holding one of these roles. */
export const RequireRoles = (...roles: Role[]): MethodDecorator & ClassDecorator => SetMetadata(ROLES_KEY, roles);

/** Only callers whose roles grant this button (spec section 6 button-level permissions). */
export const RequireButton = (button: Button): MethodDecorator & ClassDecorator => SetMetadata(BUTTON_KEY, button);

/**
 * Records the call in the operation log with this description. Put it on every state-changing handler.
 * The interceptor is attached to these handlers only: a read pays nothing for it.
 */
/** Records the call in the operation log under one of the declared AUDITED_ACTIONS (translated in the console). */
export const Audit = (description: AuditDescription): MethodDecorator =>
  applyDecorators(SetMetadata(AUDIT_KEY, description), UseInterceptors(OperationLogInterceptor));

export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => {
  const req = ctx.switchToHttp().getRequest<AppRequest>();
  if (!req.caller) throw new Error('CurrentCaller used on a public route');
  return req.caller;
});
