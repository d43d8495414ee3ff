import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Role, type Button } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { BUTTON_KEY, PUBLIC_KEY, ROLES_KEY } from '../common/decorators';
import type { AppRequest } from '../common/request-context';
import { SessionService } from './session.service';

/** Reads the bearer token from the Authorization header. The Token cookie is never trusted (no CSRF). */
export function bearerToken(header: string | undefined): string {
  if (!header) return '';
  const value = header.trim();
  return /^bearer\s+/i.test(value) ? value.replace(/^bearer\s+/i, '').trim() : value;
}

/**
 * Runs on every route: resolves the caller's session, then checks the route's role and button requirements.
 * Routes are private unless marked @Public().
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionService,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const req = ctx.switchToHttp().getRequest<AppRequest>();
    const caller = await this.sessions.resolve(bearerToken(req.headers.authorization));
    if (!caller) throw AppException.loggedOut();
    req.caller = caller;

    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, targets);
    if (roles && !caller.roles.some((r) => roles.includes(r as Role))) throw AppException.forbidden();
    const button = this.reflector.getAllAndOverride<Button | undefined>(BUTTON_KEY, targets);
    if (button && !caller.buttons.includes(button)) throw AppException.forbidden();
    return true;
  }
}
