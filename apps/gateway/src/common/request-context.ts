import type { FastifyRequest } from 'fastify';
import { resolveLanguage, type Language } from '@sc/contracts';

/** The signed-in caller, attached to the request by the auth guard. */
export interface Caller {
  userId: number;
  username: string;
  sessionId: string;
  isAdmin: boolean;
  roles: string[];
  buttons: string[];
  /** When the session expires (ms since the epoch). */
  expiresAt: number;
}

export type AppRequest = FastifyRequest & { caller?: Caller; startedAt?: number };

export function languageOf(req: { headers: Record<string, string | string[] | undefined> }): Language {
  const header = req.headers['accept-language'];
  return resolveLanguage(Array.isArray(header) ? header[0] : header);
}

export function clientIp(req: FastifyRequest): string {
  return req.ip ?? '';
}
