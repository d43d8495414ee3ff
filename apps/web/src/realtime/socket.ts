import { io, type Socket } from 'socket.io-client';
import { SOCKET_PATH, rooms, type ClientToServerEvents, type LiveTopic, type ServerToClientEvents } from '@sc/contracts';
import { getToken } from '@/auth/token';
import { session } from '@/auth/session-store';
import { confirmLoggedOut } from '@/auth/logged-out-dialog';

export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: RealtimeSocket | null = null;

/** The live feeds the open pages watch, with how many components watch each. */
const watched = new Map<string, { topic: LiveTopic; count: number }>();

/**
 * One socket per signed-in tab, authenticated by the token at the handshake. It receives the live feeds the open
 * pages watch, as far as the user's roles allow (the server decides).
 */
export function connectRealtime(): RealtimeSocket {
  if (socket) return socket;
  const opened: RealtimeSocket = io({
    path: SOCKET_PATH,
    transports: ['websocket'],
    auth: (cb) => cb({ token: getToken() ?? '' }),
  });
  socket = opened;
  // The session ended elsewhere (revoked, expired, password changed): offer to log in again, as a code -1 answer does.
  opened.on('SessionEnded', () => {
    disconnectRealtime();
    confirmLoggedOut();
  });
  // A new connection (the first one, or after a drop) knows no feeds: the server forgets a socket's feeds with it.
  opened.on('connect', () => {
    if (watched.size > 0)
      opened.emit(
        'watch',
        [...watched.values()].map((w) => w.topic),
      );
  });
  return opened;
}

/** Starts a feed for one more component; the server hears of it only when the first component asks. */
export function watchFeed(live: RealtimeSocket, topic: LiveTopic): void {
  const key = rooms.live(topic);
  const entry = watched.get(key);
  if (entry) {
    entry.count++;
    return;
  }
  watched.set(key, { topic, count: 1 });
  if (live.connected) live.emit('watch', [topic]);
}

/** Stops a feed for one component; the server hears of it once no component watches it. */
export function unwatchFeed(live: RealtimeSocket, topic: LiveTopic): void {
  const key = rooms.live(topic);
  const entry = watched.get(key);
  if (!entry || --entry.count > 0) return;
  watched.delete(key);
  if (live.connected) live.emit('unwatch', [topic]);
}

export function disconnectRealtime(): void {
  socket?.removeAllListeners();
  socket?.disconnect();
  socket = null;
  watched.clear();
}

session.onReset(disconnectRealtime);
