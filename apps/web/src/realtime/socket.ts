import { useEffect } from 'react';
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

/** Subscribes a component to one typed server event for as long as it is mounted. */
export function useSocketEvent<E extends keyof ServerToClientEvents>(event: E, handler: ServerToClientEvents[E]): void {
  useEffect(() => {
    const target = connectRealtime();
    // socket.io's typed overloads cannot narrow a generic event name; the map above already types both ends.
    const on = target.on.bind(target) as (name: string, listener: (...args: never[]) => void) => void;
    const off = target.off.bind(target) as (name: string, listener: (...args: never[]) => void) => void;
    on(event, handler as (...args: never[]) => void);
    return () => off(event, handler as (...args: never[]) => void);
  }, [event, handler]);
}
