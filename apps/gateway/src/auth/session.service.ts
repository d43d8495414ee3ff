import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { buttonsOf, rolesOf } from '@sc/contracts';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { Caller } from '../common/request-context';
import { AccessCache } from './access-cache.service';
import { InjectDb } from '../infra/database';

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

const LIVE_SESSION_COLUMNS = `s.id AS session_id, s.expires_at, u.id AS user_id, u.username, g.is_admin, g.permission_menu
   FROM sys_session s
   JOIN sys_user u ON u.id = s.user_id
   JOIN sys_group g ON g.id = u.group_id`;
const LIVE = `s.revoked_at IS NULL AND s.expires_at > now() AND u.enabled`;

/**
 * The lookup behind every authenticated request the cache cannot answer. It runs as a named (prepared) statement:
 * PostgreSQL plans it once per connection, and planning this join costs about three times what running it does.
 */
const RESOLVE_STATEMENT = { name: 'sc-session-resolve-v2', text: `SELECT ${LIVE_SESSION_COLUMNS} WHERE s.token_hash = $1 AND ${LIVE}` };

interface SessionRow {
  session_id: string;
  expires_at: Date;
  user_id: number;
  username: string;
  is_admin: boolean;
  permission_menu: string[];
}

function toCaller(row: SessionRow): Caller {
  const roles = rolesOf(row.is_admin, row.permission_menu);
  return {
    userId: row.user_id,
    username: row.username,
    sessionId: row.session_id,
    isAdmin: row.is_admin,
    roles,
    buttons: buttonsOf(roles),
    expiresAt: row.expires_at.getTime(),
  };
}

/** Sessions ended longer ago than this are deleted. */
const PURGE_AFTER = '7 days';
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * Opaque bearer tokens: 32 random bytes, stored only as their SHA-256 with an expiry.
 * A lookup checks expiry, revocation, that the user is still enabled and the group's current permissions.
 */
@Injectable()
export class SessionService {
  private readonly logger = new Logger(SessionService.name);
  private purgeTimer?: NodeJS.Timeout;

  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly cache: AccessCache,
  ) {}

  /** Deletes long-ended sessions every hour until stopped (one caller per process is enough). */
  startPurging(): () => void {
    this.purgeTimer = setInterval(() => void this.purge(), PURGE_EVERY_MS).unref();
    return () => clearInterval(this.purgeTimer);
  }

  async create(userId: number, ip: string, userAgent: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.db.query(
      `INSERT INTO sys_session (token_hash, user_id, expires_at, ip, user_agent) VALUES ($1, $2, now() + make_interval(secs => $3), $4, $5)`,
      [hashToken(token), userId, this.config.sessionTtlSeconds, ip.slice(0, 64), userAgent.slice(0, 255)],
    );
    return token;
  }

  /** The caller of a token, or null when it is unknown, expired, revoked, or its user is disabled. */
  async resolve(token: string): Promise<Caller | null> {
    if (!token || token.length > 128) return null;
    const cached = this.cache.session(token);
    if (cached) return cached;
    const epoch = this.cache.sessionEpoch;
    // Straight on the pool TypeORM opened: TypeORM's query() cannot name a statement.
    const pool = (this.db.driver as PostgresDriver).master as Pool;
    const { rows } = await pool.query<SessionRow>({ ...RESOLVE_STATEMENT, values: [hashToken(token)] });
    const row = rows[0];
    if (!row) return null;
    const caller = toCaller(row);
    this.cache.storeSession(token, caller, epoch);
    return caller;
  }

  /** The callers of those sessions that are still live, by session id (for re-checking open sockets). */
  async liveSessions(sessionIds: string[]): Promise<Map<string, Caller>> {
    if (sessionIds.length === 0) return new Map();
    const rows: SessionRow[] = await this.db.query(`SELECT ${LIVE_SESSION_COLUMNS} WHERE s.id = ANY($1::uuid[]) AND ${LIVE}`, [sessionIds]);
    return new Map(rows.map((row) => [row.session_id, toCaller(row)]));
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db.query(`UPDATE sys_session SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [sessionId]);
    this.cache.apply({ kind: 'sessions', ids: [sessionId] });
  }

  /**
   * Ends every live session of a user, except optionally the one making the call, and answers their ids. Inside a
   * caller's transaction (`tx`), the caller applies the change to the cache once it has committed.
   */
  async revokeAllOf(userId: number, options: { except?: string; tx?: EntityManager } = {}): Promise<string[]> {
    // For UPDATE, TypeORM's query() answers [rows, rowCount].
    const [rows] = (await (options.tx ?? this.db.manager).query(
      `UPDATE sys_session SET revoked_at = now()
        WHERE user_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR id <> $2::uuid)
        RETURNING id`,
      [userId, options.except ?? null],
    )) as [{ id: string }[], number];
    const ids = rows.map((r) => r.id);
    // This gateway drops them at once; other replicas hear it from the database.
    if (!options.tx && ids.length > 0) this.cache.apply({ kind: 'sessions', ids });
    return ids;
  }

  private async purge(): Promise<void> {
    try {
      const [, removed] = (await this.db.query(
        `DELETE FROM sys_session WHERE expires_at < now() - interval '${PURGE_AFTER}' OR revoked_at < now() - interval '${PURGE_AFTER}'`,
      )) as [unknown, number];
      if (removed) this.logger.log(`Deleted ${removed} sessions that ended over ${PURGE_AFTER} ago`);
    } catch (err) {
      this.logger.warn(`Session purge failed: ${(err as Error).message}`);
    }
  }
}
