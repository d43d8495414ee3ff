import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { ACCESS_CHANGES_CHANNEL } from '@sc/database';
import type { Caller } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** What changed about sessions, users or groups (announced by database triggers, or applied locally by a writer). */
export type AccessChange =
  { kind: 'session'; id: string } | { kind: 'user'; id: number } | { kind: 'sessions' } | { kind: 'users' } | { kind: 'groups' } | { kind: 'reset' };

export function parseAccessChange(payload: string): AccessChange {
  const [kind, id] = payload.split(':');
  if (kind === 'session' && id) return { kind, id };
  if (kind === 'user' && id && Number.isInteger(Number(id))) return { kind, id: Number(id) };
  if (kind === 'sessions' || kind === 'users' || kind === 'groups') return { kind };
  // Something this version does not know: forget everything rather than guess.
  return { kind: 'reset' };
}

interface CachedSession {
  caller: Caller;
  storedAt: number;
}

const SESSION_TTL_MS = 60_000;
const PAGE_TTL_MS = 30_000;
const MAX_SESSIONS = 20_000;
const MAX_PAGES = 2_000;

/**
 * Keeps, in this process, the callers of recently seen tokens and recent user-list pages, so a busy console does not
 * ask PostgreSQL the same thing thousands of times a second. Correctness comes from the database: triggers announce
 * every change to sessions, users and groups on a LISTEN connection (whoever made it: another replica, the command
 * line, psql), and the matching entries are dropped. Three rules keep it exact:
 * - nothing is served from the cache while the LISTEN connection is down (and it is emptied when it comes back);
 * - a value read while any change arrived is not stored (the epoch moved), so a late read cannot resurrect old data;
 * - this gateway's own writes are applied at once, before their answer leaves, so a caller always sees its own change.
 */
@Injectable()
export class AccessCache implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(AccessCache.name);
  private readonly sessions = new Map<string, CachedSession>();
  private readonly pages = new Map<string, { value: unknown; storedAt: number }>();
  private client: Client | null = null;
  private listening = false;
  private stopped = false;
  private retryTimer?: NodeJS.Timeout;
  private readonly listeners = new Set<(change: AccessChange) => void>();
  /** Moves on every change; a read that started in an older epoch is not stored. */
  epoch = 0;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    await this.listen();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.client?.end().catch(() => undefined);
  }

  get isListening(): boolean {
    return this.listening;
  }

  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.config.databaseUrl, keepAlive: true, connectionTimeoutMillis: 5000 });
    const lost = (err?: Error) => {
      if (this.client !== client && this.client !== null) return;
      if (this.listening) this.logger.warn(`Change notifications interrupted${err ? `: ${err.message}` : ''}; caching paused`);
      this.client = null;
      this.listening = false;
      this.apply({ kind: 'reset' });
      void client.end().catch(() => undefined);
      if (!this.stopped) this.retryTimer = setTimeout(() => void this.listen(), 1000).unref();
    };
    client.on('notification', (msg) => {
      if (msg.channel === ACCESS_CHANGES_CHANNEL) this.apply(parseAccessChange(msg.payload ?? ''));
    });
    client.on('error', lost);
    client.on('end', () => lost());
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${ACCESS_CHANGES_CHANNEL}`);
      if (this.stopped) return void (await client.end());
      this.apply({ kind: 'reset' });
      this.listening = true;
    } catch (err) {
      lost(err as Error);
    }
  }

  /** Calls `listener` after every change (the socket gateway re-checks the sessions it holds). Returns an unsubscribe. */
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
        this.logger.error({ err }, 'access change listener failed');
      }
    }
  }

  private forget(change: AccessChange): void {
    this.epoch++;
    switch (change.kind) {
      case 'session':
        for (const [token, entry] of this.sessions) if (entry.caller.sessionId === change.id) this.sessions.delete(token);
        return;
      case 'user':
        for (const [token, entry] of this.sessions) if (entry.caller.userId === change.id) this.sessions.delete(token);
        this.pages.clear();
        return;
      case 'sessions':
        this.sessions.clear();
        return;
      case 'users':
        this.pages.clear();
        return;
      case 'groups':
      case 'reset':
        this.sessions.clear();
        this.pages.clear();
        return;
    }
  }

  /** Whether cached answers may be served now: caching is on and change notifications arrive. */
  private get serving(): boolean {
    return this.listening && this.config.accessCache;
  }

  session(token: string): Caller | undefined {
    if (!this.serving) return undefined;
    const entry = this.sessions.get(token);
    if (!entry) return undefined;
    const now = Date.now();
    if (entry.caller.expiresAt <= now || now - entry.storedAt > SESSION_TTL_MS) {
      this.sessions.delete(token);
      return undefined;
    }
    return entry.caller;
  }

  storeSession(token: string, caller: Caller, readInEpoch: number): void {
    if (!this.serving || readInEpoch !== this.epoch) return;
    if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    this.sessions.set(token, { caller, storedAt: Date.now() });
  }

  page<T>(key: string): T | undefined {
    if (!this.serving) return undefined;
    const entry = this.pages.get(key);
    if (!entry) return undefined;
    if (Date.now() - entry.storedAt > PAGE_TTL_MS) {
      this.pages.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  storePage(key: string, value: unknown, readInEpoch: number): void {
    if (!this.serving || readInEpoch !== this.epoch) return;
    if (this.pages.size >= MAX_PAGES) this.pages.delete(this.pages.keys().next().value as string);
    this.pages.set(key, { value, storedAt: Date.now() });
  }
}
