import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { WebSocketGateway, WebSocketServer, type OnGatewayInit } from '@nestjs/websockets';
import type { Server, Socket } from 'socket.io';
import { SOCKET_PATH, SessionEndReason, rooms, type ClientToServerEvents, type ServerToClientEvents } from '@sc/contracts';
import { AccessCache, type AccessChange } from '../auth/access-cache.service';
import { bearerToken } from '../auth/auth.guard';
import { SessionService } from '../auth/session.service';
import type { Caller } from '../common/request-context';

type TypedServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, { caller: Caller }>;
type TypedSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, { caller: Caller }>;

/** Open sockets are re-checked this often even without a change, so expired sessions close too. */
const RECHECK_EVERY_MS = 30_000;

/** The token comes from the handshake's `auth.token` (the browser) or an Authorization header (other clients). */
export function handshakeToken(socket: Pick<Socket, 'handshake'>): string {
  const fromAuth = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
  return typeof fromAuth === 'string' ? bearerToken(fromAuth) : bearerToken(socket.handshake.headers.authorization);
}

function roleRooms(caller: Caller): string[] {
  return caller.roles.map(rooms.role);
}

/**
 * socket.io for the console. A socket is accepted only with a live session and joins the rooms of its user, its
 * session and its roles, so it receives what its roles allow without asking. Whenever sessions, users or groups
 * change (on any replica, or in the database directly), the affected sockets are re-checked: a socket whose session
 * ended is told why and closed; a live one moves to the rooms of its current roles.
 */
@WebSocketGateway({ path: SOCKET_PATH, serveClient: false, cors: false, transports: ['websocket', 'polling'] })
export class RealtimeGateway implements OnGatewayInit, OnApplicationShutdown {
  private readonly logger = new Logger(RealtimeGateway.name);
  private unsubscribe?: () => void;
  private timer?: NodeJS.Timeout;
  private readonly due = new Set<string>();
  private scheduled = false;

  @WebSocketServer()
  server!: TypedServer;

  constructor(
    private readonly sessions: SessionService,
    private readonly cache: AccessCache,
  ) {}

  afterInit(server: TypedServer): void {
    server.use((socket: TypedSocket, next) => {
      this.sessions
        .resolve(handshakeToken(socket))
        .then((caller) => {
          if (!caller) return next(new Error('loggedOut'));
          socket.data.caller = caller;
          void socket.join([rooms.user(caller.userId), rooms.session(caller.sessionId), ...roleRooms(caller)]);
          next();
        })
        .catch((err: unknown) => {
          this.logger.warn(`socket handshake failed: ${String(err)}`);
          next(new Error('unavailable'));
        });
    });
    this.unsubscribe = this.cache.onChange((change) => this.recheckAffected(change));
    this.timer = setInterval(() => this.recheckAffected({ kind: 'reset' }), RECHECK_EVERY_MS).unref();
  }

  private sockets(): TypedSocket[] {
    return [...(this.server?.sockets.sockets.values() ?? [])] as TypedSocket[];
  }

  private recheckAffected(change: AccessChange): void {
    if (change.kind === 'users') return; // new users have no sockets yet
    for (const socket of this.sockets()) {
      const caller = socket.data.caller;
      if (!caller) continue;
      const affected = change.kind === 'session' ? caller.sessionId === change.id : change.kind === 'user' ? caller.userId === change.id : true;
      if (affected) this.due.add(caller.sessionId);
    }
    if (this.due.size === 0 || this.scheduled) return;
    // Changes that arrive together are checked with one query.
    this.scheduled = true;
    setImmediate(() => void this.recheck());
  }

  private async recheck(): Promise<void> {
    const ids = [...this.due];
    this.due.clear();
    this.scheduled = false;
    let live: Map<string, Caller>;
    try {
      live = await this.sessions.liveSessions(ids);
    } catch (err) {
      this.logger.warn(`could not re-check sockets: ${(err as Error).message}`);
      return;
    }
    const wanted = new Set(ids);
    for (const socket of this.sockets()) {
      const before = socket.data.caller;
      if (!before || !wanted.has(before.sessionId)) continue;
      const now = live.get(before.sessionId);
      if (!now) {
        socket.emit('SessionEnded', { reason: before.expiresAt <= Date.now() ? SessionEndReason.Expired : SessionEndReason.Revoked });
        socket.disconnect(true);
        continue;
      }
      socket.data.caller = now;
      const keep = new Set(roleRooms(now));
      for (const room of socket.rooms) if (room.startsWith(rooms.role('')) && !keep.has(room)) void socket.leave(room);
      void socket.join([...keep]);
    }
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
    clearInterval(this.timer);
    this.server?.disconnectSockets(true);
  }
}
