import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { WebSocketGateway, WebSocketServer, type OnGatewayInit } from '@nestjs/websockets';
import type Redis from 'ioredis';
import type { Server, Socket } from 'socket.io';
import { SOCKET_PATH, SessionEndReason, rooms, type ClientToServerEvents, type ServerToClientEvents } from '@sc/contracts';
import { bearerToken } from '../auth/auth.guard';
import { SESSION_REVOKED_CHANNEL, SessionService } from '../auth/session.service';
import type { Caller } from '../common/request-context';
import { RedisService } from '../infra/redis.service';

type TypedServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, { caller: Caller }>;
type TypedSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, { caller: Caller }>;

/** The token comes from the handshake's `auth.token` (the browser) or an Authorization header (other clients). */
export function handshakeToken(socket: Pick<Socket, 'handshake'>): string {
  const fromAuth = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
  return typeof fromAuth === 'string' ? bearerToken(fromAuth) : bearerToken(socket.handshake.headers.authorization);
}

/**
 * socket.io for the console. A socket is accepted only with a live session and joins the rooms of its user,
 * its session and its roles, so it receives what its roles allow without asking. When a session is revoked
 * (logout, password change, user disabled), every replica closes that session's sockets.
 */
@WebSocketGateway({ path: SOCKET_PATH, serveClient: false, cors: false, transports: ['websocket', 'polling'] })
export class RealtimeGateway implements OnGatewayInit, OnModuleDestroy {
  private readonly logger = new Logger(RealtimeGateway.name);
  private subscriber?: Redis;

  @WebSocketServer()
  server!: TypedServer;

  constructor(
    private readonly sessions: SessionService,
    private readonly redis: RedisService,
  ) {}

  afterInit(server: TypedServer): void {
    server.use((socket: TypedSocket, next) => {
      this.sessions
        .resolve(handshakeToken(socket))
        .then((caller) => {
          if (!caller) return next(new Error('loggedOut'));
          socket.data.caller = caller;
          void socket.join([rooms.user(caller.userId), rooms.session(caller.sessionId), ...caller.roles.map(rooms.role)]);
          next();
        })
        .catch((err: unknown) => {
          this.logger.warn(`socket handshake failed: ${String(err)}`);
          next(new Error('unavailable'));
        });
    });
    this.subscriber = this.redis.client.duplicate();
    this.subscriber.on('error', (err: Error) => this.logger.warn(`Redis subscriber: ${err.message}`));
    const channel = this.redis.key(SESSION_REVOKED_CHANNEL);
    void this.subscriber.subscribe(channel);
    this.subscriber.on('message', (from: string, message: string) => {
      if (from !== channel) return;
      try {
        const { sessionIds } = JSON.parse(message) as { sessionIds: string[] };
        for (const id of sessionIds) this.endSession(id);
      } catch (err) {
        this.logger.warn(`bad revocation message: ${String(err)}`);
      }
    });
  }

  private endSession(sessionId: string): void {
    const room = rooms.session(sessionId);
    this.server.to(room).emit('SessionEnded', { reason: SessionEndReason.Revoked });
    this.server.in(room).disconnectSockets(true);
  }

  async onModuleDestroy(): Promise<void> {
    this.server?.disconnectSockets(true);
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }
}
