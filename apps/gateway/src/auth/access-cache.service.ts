import { Inject, Injectable, Logger } from '@nestjs/common';
import { ACCESS_CHANGES_CHANNEL, NotificationListener } from '@sc/database';
import type { Caller } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * What changed (announced by the database triggers of migration 1732170000000, or applied by a writer here).
 * Without ids: possibly all of that kind.
 */
export type AccessChange =
  { kind: 'sessions'; ids?: string[] } | { kind: 'access'; userIds?: number[] } | { kind: 'users' } | { kind: 'groups' } | { kind: 'reset' };

export function parseAccessChange(payload: string): AccessChange {
  const at = payload.indexOf(':');
  const kind = at < 0 ? payload : payload.slice(0, at);
  const ids =
    at < 0
      ? undefined
      : payload
          .slice(at + 1)
          .split(',')
          .filter(Boolean);
  if (kind === 'sessions') return { kind, ids };
  if (kind === 'access') {
    const userIds = ids?.map(Number);
    return userIds?.every(Number.isInteger) === false ? { kind: 'reset' } : { kind, userIds };
  }
  if (kind === 'users' || kind === 'groups') return { kind };
  // Something this version does not know: forget everything rather than guess.
  return { kind: 'reset' };
}

/** Deep-freezes a value handed to many requests, so no handler can change what the next one reads. */
function freeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) freeze(child);
  }
  return value;
}

const SESSION_TTL_MS = 60_000;
const PAGE_TTL_MS = 30_000;
const MAX_SESSIONS = 20_000;
/** Pages are bounded by the rows they hold, not their number. */
const MAX_PAGE_ROWS = 50_000;
const HEARTBEAT_MS = 1000;
/** The LISTEN connection's application_name, as pg_stat_activity shows it. */
export const ACCESS_CHANGES_LISTENER = 'sc-access-changes';
/** Without an answer on the LISTEN connection for this long, nothing is served from the cache. */
const STALE_AFTER_MS = 2500;

/**
 * Keeps, in this process, the callers of recently seen tokens and recently served user-list pages, so a busy console
 * does not ask PostgreSQL the same thing thousands of times a second. One instance serves every application of the
 * process. Correctness comes from the database: triggers announce every change to sessions, users and groups on a
 * LISTEN connection (whoever made it: another replica, the command line, psql), and what a change touches is dropped.
 * - Nothing is served while the LISTEN connection is down or silent: it is pinged every second and must have answered
 *   within 2.5 s (a dropped connection can look alive for hours); the cache is emptied when it comes back.
 * - A value read while a change of its kind arrived is not stored (the epoch moved), so a late read cannot bring
 *   back old data.
 * - This gateway's own writes are applied at once, before their answer leaves, so a caller always sees their change.
 */
@Injectable()
export class AccessCache {
  private readonly logger = new Logger(AccessCache.name);
  private readonly sessions = new Map<string, { caller: Caller; storedAt: number }>();
  private readonly tokenOfSession = new Map<string, string>();
  private readonly tokensOfUser = new Map<number, Set<string>>();
  private readonly pages = new Map<string, { value: unknown; rows: number; storedAt: number }>();
  private pageRows = 0;
  private readonly listeners = new Set<(change: AccessChange) => void>();
  private readonly changes: NotificationListener;
  private started = false;
  /** Move on every change that can make a stored session, or page, stale. */
  sessionEpoch = 0;
  pageEpoch = 0;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.changes = new NotificationListener({
      databaseUrl: config.databaseUrl,
      channel: ACCESS_CHANGES_CHANNEL,
      applicationName: ACCESS_CHANGES_LISTENER,
      heartbeatMs: HEARTBEAT_MS,
      onNotification: (payload) => this.apply(parseAccessChange(payload)),
      onReset: () => this.apply({ kind: 'reset' }),
      onInterrupted: (err) => this.logger.warn(`Change notifications interrupted${err ? `: ${err.message}` : ''}; caching paused`),
    });
  }

  /** Opens the LISTEN connection (once per process; later calls do nothing). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.changes.start();
  }

  async stop(): Promise<void> {
    await this.changes.stop();
  }

  /** Whether cached answers may be served now. */
  get serving(): boolean {
    return this.config.accessCache && this.changes.listening && Date.now() - this.changes.lastAnswer < STALE_AFTER_MS;
  }

  get isListening(): boolean {
    return this.changes.listening;
  }

  /** Calls `listener` after every change (the socket gateway re-checks the sockets it touches). Returns an unsubscribe. */
  onChange(listener: (change: AccessChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Drops what a change makes stale. Writers call it for their own changes; the LISTEN connection for everyone's. */
  apply(change: AccessChange): void {
    this.forget(change);
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (err) {
        this.logger.error({ err: (err as Error).message }, 'access change listener failed');
      }
    }
  }

  private forget(change: AccessChange): void {
    const all = (change.kind === 'sessions' || change.kind === 'access') && (change.kind === 'sessions' ? !change.ids : !change.userIds);
    if (change.kind !== 'users') this.sessionEpoch++;
    if (change.kind !== 'sessions') this.pageEpoch++;
    if (change.kind === 'groups' || change.kind === 'reset' || all) this.clearSessions();
    else if (change.kind === 'sessions') for (const id of change.ids ?? []) this.dropToken(this.tokenOfSession.get(id));
    else if (change.kind === 'access')
      for (const userId of change.userIds ?? []) for (const token of [...(this.tokensOfUser.get(userId) ?? [])]) this.dropToken(token);
    if (change.kind !== 'sessions') this.clearPages();
  }

  private clearSessions(): void {
    this.sessions.clear();
    this.tokenOfSession.clear();
    this.tokensOfUser.clear();
  }

  private clearPages(): void {
    this.pages.clear();
    this.pageRows = 0;
  }

  private dropToken(token: string | undefined): void {
    const entry = token === undefined ? undefined : this.sessions.get(token);
    if (!entry || token === undefined) return;
    this.sessions.delete(token);
    this.tokenOfSession.delete(entry.caller.sessionId);
    const tokens = this.tokensOfUser.get(entry.caller.userId);
    tokens?.delete(token);
    if (tokens?.size === 0) this.tokensOfUser.delete(entry.caller.userId);
  }

  session(token: string): Caller | undefined {
    if (!this.serving) return undefined;
    const entry = this.sessions.get(token);
    if (!entry) return undefined;
    const now = Date.now();
    if (entry.caller.expiresAt <= now || now - entry.storedAt > SESSION_TTL_MS) {
      this.dropToken(token);
      return undefined;
    }
    return entry.caller;
  }

  /** Stores what a read that began in `readInEpoch` found, unless a session change arrived since. */
  storeSession(token: string, caller: Caller, readInEpoch: number): void {
    if (!this.serving || readInEpoch !== this.sessionEpoch) return;
    this.dropToken(token);
    if (this.sessions.size >= MAX_SESSIONS) this.dropToken(this.sessions.keys().next().value);
    this.sessions.set(token, { caller: freeze(caller), storedAt: Date.now() });
    this.tokenOfSession.set(caller.sessionId, token);
    const tokens = this.tokensOfUser.get(caller.userId) ?? new Set<string>();
    tokens.add(token);
    this.tokensOfUser.set(caller.userId, tokens);
  }

  page<T>(key: string): T | undefined {
    if (!this.serving) return undefined;
    const entry = this.pages.get(key);
    if (!entry) return undefined;
    if (Date.now() - entry.storedAt > PAGE_TTL_MS) {
      this.dropPage(key);
      return undefined;
    }
    return entry.value as T;
  }

  /** Stores a page a read that began in `readInEpoch` found, unless a user or group change arrived since. */
  storePage(key: string, value: unknown, rows: number, readInEpoch: number): void {
    if (!this.serving || readInEpoch !== this.pageEpoch || rows > MAX_PAGE_ROWS) return;
    this.dropPage(key);
    while (this.pageRows + rows > MAX_PAGE_ROWS && this.pages.size > 0) this.dropPage(this.pages.keys().next().value as string);
    this.pages.set(key, { value: freeze(value), rows, storedAt: Date.now() });
    this.pageRows += rows;
  }

  private dropPage(key: string): void {
    const entry = this.pages.get(key);
    if (!entry) return;
    this.pages.delete(key);
    this.pageRows -= entry.rows;
  }
}
