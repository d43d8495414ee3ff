import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  SubscribeMessage,
  WebSocketGateway,
  WebSocketServer,
  type OnGatewayConnection,
  type OnGatewayDisconnect,
  type OnGatewayInit,
} from '@nestjs/websockets';
import type { Server, Socket } from 'socket.io';
import {
  BUS_EVENT_NAMES,
  SOCKET_PATH,
  SessionEndReason,
  familyEventRoles,
  isFamilyName,
  rooms,
  type ClientToServerEvents,
  type LiveTopic,
  type ServerToClientEvents,
} from '@sc/contracts';
import { AccessCache, type AccessChange } from '../auth/access-cache.service';
import { bearerToken } from '../auth/auth.guard';
import { SessionService } from '../auth/session.service';
import { UserPresence } from './user-presence.service';
import type { Caller } from '../common/request-context';

interface SocketData {
  caller: Caller;
  /** The session epoch when the handshake began reading the session. */
  epoch: number;
  /** The live feeds the socket asked for, by room (it is in the rooms its roles allow). */
  watched: Map<string, LiveTopic>;
}
type TypedServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type TypedSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** Every open socket is re-checked this often even without a change (a safety net; changes arrive at once). */
const RECHECK_ALL_EVERY_MS = 60_000;
const RETRY_AFTER_MS = 1000;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The token comes from the handshake's `auth.token` (the browser) or an Authorization header (other clients). */
export function handshakeToken(socket: Pick<Socket, 'handshake'>): string {
  const fromAuth = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
  return typeof fromAuth === 'string' ? bearerToken(fromAuth) : bearerToken(socket.handshake.headers.authorization);
}

function roleRooms(caller: Caller): string[] {
  return caller.roles.map(rooms.role);
}

/** At most this many feeds per watch message (every event of every family is far fewer). */
const MAX_TOPICS = 100;

/** The well-formed feeds of a watch message; anything else in it is ignored. */
export function liveTopicsOf(body: unknown): LiveTopic[] {
  if (!Array.isArray(body)) return [];
  return body.slice(0, MAX_TOPICS).filter((t): t is LiveTopic => {
    const topic = t as Partial<LiveTopic> | null;
    return !!topic && BUS_EVENT_NAMES.includes(topic.event as LiveTopic['event']) && isFamilyName(topic.family);
  });
}

/** Whether a caller's roles may see a family's live events (spec section 6: the roles of its pages). */
export function mayWatch(caller: Caller, topic: LiveTopic): boolean {
  const allowed = familyEventRoles(topic.family);
  return caller.roles.some((role) => allowed.includes(role));
}

/**
 * socket.io for the console. A socket is accepted only with a live session and joins the rooms of its user, its
 * session and its roles, so it receives what its roles allow without asking. Whenever sessions, users or groups
 * change (on any replica, or in the database directly), the sockets concerned are re-checked against the database:
 * a socket whose session ended is told why and closed; a live one moves to the rooms of its current roles.
 */
@WebSocketGateway({ path: SOCKET_PATH, serveClient: false, cors: false, transports: ['websocket', 'polling'] })
export class RealtimeGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect, OnApplicationShutdown {
  private readonly logger = new Logger(RealtimeGateway.name);
  private unsubscribe?: () => void;
  private timer?: NodeJS.Timeout;
  private readonly expiryTimers = new Map<string, NodeJS.Timeout>();
  /** Session ids waiting to be re-checked, and whether the re-check loop runs. */
  private readonly due = new Set<string>();
  private draining = false;
  private stopped = false;

  @WebSocketServer()
  server!: TypedServer;

  constructor(
    private readonly sessions: SessionService,
    private readonly cache: AccessCache,
    private readonly presence: UserPresence,
  ) {}

  afterInit(server: TypedServer): void {
    server.use((socket: TypedSocket, next) => {
      const epoch = this.cache.sessionEpoch;
      this.sessions
        .resolve(handshakeToken(socket))
        .then((caller) => {
          if (!caller) return next(new Error('loggedOut'));
          socket.data.caller = caller;
          socket.data.epoch = epoch;
          socket.data.watched = new Map();
          void socket.join([rooms.user(caller.userId), rooms.session(caller.sessionId), ...roleRooms(caller)]);
          next();
        })
        .catch((err: unknown) => {
          this.logger.warn(`socket handshake failed: ${String(err)}`);
          next(new Error('unavailable'));
        });
    });
    this.unsubscribe = this.cache.onChange((change) => this.recheckAffected(change));
    this.timer = setInterval(() => this.recheckAffected({ kind: 'reset' }), RECHECK_ALL_EVERY_MS).unref();
  }

  handleConnection(socket: TypedSocket): void {
    const { caller, epoch } = socket.data;
    if (!caller) return;
    this.presence.connected(caller.userId, socket.id);
    // A change that arrived while the handshake was reading the session may not show in what it read.
    if (epoch !== this.cache.sessionEpoch) this.schedule([caller.sessionId]);
    const untilExpiry = caller.expiresAt - Date.now();
    if (untilExpiry < MAX_TIMER_MS) {
      this.expiryTimers.set(socket.id, setTimeout(() => this.schedule([caller.sessionId]), Math.max(0, untilExpiry) + 50).unref());
    }
  }

  handleDisconnect(socket: TypedSocket): void {
    if (socket.data.caller) this.presence.disconnected(socket.data.caller.userId, socket.id);
    clearTimeout(this.expiryTimers.get(socket.id));
    this.expiryTimers.delete(socket.id);
  }

  private socketsIn(room: string): TypedSocket[] {
    const ids = this.server?.sockets.adapter.rooms.get(room);
    if (!ids) return [];
    return [...ids].map((id) => this.server.sockets.sockets.get(id)).filter((s): s is TypedSocket => !!s);
  }

  private recheckAffected(change: AccessChange): void {
    if (change.kind === 'users' || !this.server) return; // list changes do not touch anyone's access
    const sessionIds: string[] = [];
    if (change.kind === 'sessions' && change.ids) {
      for (const id of change.ids) if (this.server.sockets.adapter.rooms.has(rooms.session(id))) sessionIds.push(id);
    } else if (change.kind === 'access' && change.userIds) {
      for (const userId of change.userIds) for (const socket of this.socketsIn(rooms.user(userId))) sessionIds.push(socket.data.caller.sessionId);
    } else {
      for (const socket of this.server.sockets.sockets.values()) if (socket.data.caller) sessionIds.push(socket.data.caller.sessionId);
    }
    this.schedule(sessionIds);
  }

  private schedule(sessionIds: Iterable<string>): void {
    for (const id of sessionIds) this.due.add(id);
    if (this.due.size === 0 || this.draining || this.stopped) return;
    this.draining = true;
    setImmediate(() => void this.drain());
  }

  /** One re-check at a time, so an older answer can never overwrite a newer one; changes meanwhile are batched. */
  private async drain(): Promise<void> {
    try {
      while (this.due.size > 0 && !this.stopped) {
        const ids = [...this.due];
        this.due.clear();
        let live: Map<string, Caller>;
        try {
          live = await this.sessions.liveSessions(ids);
        } catch (err) {
          this.logger.warn(`could not re-check sockets, retrying: ${(err as Error).message}`);
          for (const id of ids) this.due.add(id);
          await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS).unref());
          continue;
        }
        for (const id of ids) this.settle(id, live.get(id));
      }
    } finally {
      this.draining = false;
    }
  }

  private settle(sessionId: string, now: Caller | undefined): void {
    for (const socket of this.socketsIn(rooms.session(sessionId))) {
      const before = socket.data.caller;
      if (!now) {
        socket.emit('SessionEnded', { reason: before.expiresAt <= Date.now() ? SessionEndReason.Expired : SessionEndReason.Revoked });
        socket.disconnect(true);
        continue;
      }
      socket.data.caller = now;
      const keep = new Set(roleRooms(now));
      for (const room of socket.rooms) if (room.startsWith(rooms.role('')) && !keep.has(room)) void socket.leave(room);
      void socket.join([...keep]);
      // A feed the new roles may not see is left; one they may see again is joined again.
      for (const [room, topic] of socket.data.watched) {
        if (mayWatch(now, topic)) void socket.join(room);
        else void socket.leave(room);
      }
    }
  }

  /** A page opened: its feeds are joined, those the socket's roles may see (the others are ignored, not an error). */
  @SubscribeMessage('watch')
  watch(@ConnectedSocket() socket: TypedSocket, @MessageBody() body: unknown): LiveTopic[] {
    const { caller, watched } = socket.data;
    if (!caller) return [];
    for (const topic of liveTopicsOf(body)) {
      const room = rooms.live(topic);
      watched.set(room, topic);
      if (mayWatch(caller, topic)) void socket.join(room);
    }
    return [...watched.values()].filter((topic) => socket.rooms.has(rooms.live(topic)));
  }

  /** A page closed: its feeds are left. */
  @SubscribeMessage('unwatch')
  unwatch(@ConnectedSocket() socket: TypedSocket, @MessageBody() body: unknown): LiveTopic[] {
    const topics = liveTopicsOf(body);
    for (const topic of topics) {
      const room = rooms.live(topic);
      socket.data.watched?.delete(room);
      void socket.leave(room);
    }
    return topics;
  }

  /** Whether any socket of this process watches a feed. */
  isWatched(topic: LiveTopic): boolean {
    return (this.server?.sockets.adapter.rooms.get(rooms.live(topic))?.size ?? 0) > 0;
  }

  /** Pushes an event to the sockets watching its feed (they joined only feeds their roles may see). */
  sendToWatchers<E extends LiveTopic['event']>(event: E, family: LiveTopic['family'], ...args: Parameters<ServerToClientEvents[E]>): void {
    if (!this.server) return;
    (this.server.to(rooms.live({ event, family })).emit as (event: E, ...args: Parameters<ServerToClientEvents[E]>) => boolean)(event, ...args);
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    this.unsubscribe?.();
    clearInterval(this.timer);
    for (const timer of this.expiryTimers.values()) clearTimeout(timer);
    this.server?.disconnectSockets(true);
  }
}
