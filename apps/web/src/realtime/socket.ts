import { io, type Socket } from 'socket.io-client';
import { SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@sc/contracts';
import { getToken } from '@/auth/token';
import { session } from '@/auth/session-store';
import { confirmLoggedOut } from '@/auth/logged-out-dialog';

export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: RealtimeSocket | null = null;

/**
 * One socket per signed-in tab, authenticated by the token at the handshake. The server decides what it receives
 * from the user's roles; the browser never asks.
 */
export function connectRealtime(): RealtimeSocket {
  if (socket) return socket;
  socket = io({
    path: SOCKET_PATH,
    transports: ['websocket'],
    auth: (cb) => cb({ token: getToken() ?? '' }),
  });
  // The session ended elsewhere (revoked, expired, password changed): offer to log in again, as a code -1 answer does.
  socket.on('SessionEnded', () => {
    disconnectRealtime();
    confirmLoggedOut();
  });
  return socket;
}

export function disconnectRealtime(): void {
  socket?.removeAllListeners();
  socket?.disconnect();
  socket = null;
}

session.onReset(disconnectRealtime);
