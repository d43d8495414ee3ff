import type { BusEventName, BusEvents } from './events';
import type { FamilyName } from './families';

/** socket.io, served by the gateway beside the REST API. */
export const SOCKET_PATH = '/socket.io';

export enum SessionEndReason {
  /** Logged out, password changed elsewhere, user disabled. */
  Revoked = 'revoked',
  Expired = 'expired',
}

/** One live feed a page can watch: an event of one device family (the state of its devices, its dispatches, its alarms). */
export interface LiveTopic {
  event: BusEventName;
  family: FamilyName;
}

/**
 * Events the server pushes. One map, used by the gateway (`Server<ClientToServerEvents, ServerToClientEvents>`)
 * and the browser (`Socket<ServerToClientEvents, ClientToServerEvents>`): every bus event under its own name, sent
 * only to sockets that watch it and whose roles may see the family (spec section 6), and the end of the session.
 */
export type ServerToClientEvents = { [E in BusEventName]: (payload: BusEvents[E]) => void } & {
  /** The session behind this socket ended; the socket is closed right after. */
  SessionEnded: (payload: { reason: SessionEndReason }) => void;
};

/**
 * What a socket asks for: the live feeds of the pages it has open, so a page receives only what it shows. A feed of
 * a family the socket's roles may not see is ignored; the acknowledgement lists the feeds the socket now receives.
 * A socket that reconnects watches again (the server forgets).
 */
export interface ClientToServerEvents {
  watch: (topics: LiveTopic[], joined?: (feeds: LiveTopic[]) => void) => void;
  unwatch: (topics: LiveTopic[], left?: (feeds: LiveTopic[]) => void) => void;
}

/** Rooms a socket joins, so events can be addressed by user, session, role or live feed. */
export const rooms = {
  user: (userId: number) => `user:${userId}`,
  session: (sessionId: string) => `session:${sessionId}`,
  role: (role: string) => `role:${role}`,
  live: (topic: LiveTopic) => `live:${topic.event}:${topic.family}`,
};
