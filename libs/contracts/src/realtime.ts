import type { AlarmChangedEvent } from './alarms';
import type { DeviceStateChangedEvent, DispatchProgressEvent } from './events';

/** socket.io, served by the gateway beside the REST API. */
export const SOCKET_PATH = '/socket.io';

export enum SessionEndReason {
  /** Logged out, password changed elsewhere, user disabled. */
  Revoked = 'revoked',
  Expired = 'expired',
}

/**
 * Events the server pushes. One map, used by the gateway (`Server<ClientToServerEvents, ServerToClientEvents>`)
 * and the browser (`Socket<ServerToClientEvents, ClientToServerEvents>`).
 */
export interface ServerToClientEvents {
  /** The session behind this socket ended; the socket is closed right after. */
  SessionEnded: (payload: { reason: SessionEndReason }) => void;
  /** A device's stored state changed (only to roles that may see its family). */
  DeviceStateChanged: (payload: DeviceStateChangedEvent) => void;
  /** A dispatch's rows moved (only to roles that may see its family). */
  DispatchProgress: (payload: DispatchProgressEvent) => void;
  /** An alarm was raised, acknowledged or cleared (only to roles that may see its family). */
  AlarmChanged: (payload: AlarmChangedEvent) => void;
}

// Clients send nothing: the token at the handshake decides what they receive.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ClientToServerEvents {}

/** Rooms a socket joins at connection, so events can be addressed by user, session or role. */
export const rooms = {
  user: (userId: number) => `user:${userId}`,
  session: (sessionId: string) => `session:${sessionId}`,
  role: (role: string) => `role:${role}`,
};
