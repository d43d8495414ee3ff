import { io, type Socket } from 'socket.io-client';
import { SOCKET_PATH, rooms, type ClientToServerEvents, type LiveTopic, type ServerToClientEvents } from '@sc/contracts';
import { getToken } from '@/auth/token';
import { session } from '@/auth/session-store';
import { confirmLoggedOut } from '@/auth/logged-out-dialog';
import { feedJoinStarted } from './feed-gate';

export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: RealtimeSocket | null = null;

/** Told when a feed this component watches has been joined after a gap (its first watch, or a reconnect). */
export type FeedResync = () => void;

/**
 * The live feeds the open pages watch: the resync of each component that watches one, and whether the server has
 * confirmed that this socket receives it. Events sent before that confirmation never reach the tab, so whatever a
 * page fetched before it may already be out of date.
 */
const watched = new Map<string, { topic: LiveTopic; watchers: Map<symbol, FeedResync>; joined: boolean }>();

/** Joins asked of the server and not answered yet: a lost socket never answers them. */
const unanswered = new Set<() => void>();

function forgetUnanswered(): void {
  for (const answered of [...unanswered]) answered();
}

/** Asks the server for feeds; once it answers, their watchers that were waiting load again what they show. */
function join(live: RealtimeSocket, keys: string[]): void {
  const entries = keys.flatMap((key) => {
    const entry = watched.get(key);
    return entry ? [entry] : [];
  });
  if (entries.length === 0) return;
  const joined = feedJoinStarted();
  const answered = () => {
    unanswered.delete(answered);
    joined();
  };
  unanswered.add(answered);
  live.emit(
    'watch',
    entries.map((entry) => entry.topic),
    () => {
      for (const entry of entries) {
        // Unwatched meanwhile, or joined by a later answer: nothing is missing.
        if (watched.get(rooms.live(entry.topic)) !== entry || entry.joined) continue;
        entry.joined = true;
        for (const resync of entry.watchers.values()) resync();
      }
      // After the reloads: the lists that waited for this answer have been replaced by them.
      answered();
    },
  );
}

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
  opened.on('disconnect', () => {
    for (const entry of watched.values()) entry.joined = false;
    forgetUnanswered();
  });
  opened.on('connect', () => join(opened, [...watched.keys()]));
  return opened;
}

/**
 * Starts a feed for one more component; the server hears of it only when the first component asks. `resync` is called
 * once the feed is joined if the component had to wait for it (and after each reconnect), since whatever the
 * component fetched meanwhile may have missed events. Returns the call that stops it for this component.
 */
export function watchFeed(live: RealtimeSocket, topic: LiveTopic, resync: FeedResync): () => void {
  const key = rooms.live(topic);
  const watcher = Symbol(key);
  const entry = watched.get(key) ?? { topic, watchers: new Map<symbol, FeedResync>(), joined: false };
  const first = entry.watchers.size === 0;
  entry.watchers.set(watcher, resync);
  watched.set(key, entry);
  if (first && live.connected) join(live, [key]);
  return () => {
    entry.watchers.delete(watcher);
    if (entry.watchers.size > 0 || watched.get(key) !== entry) return;
    watched.delete(key);
    if (live.connected) live.emit('unwatch', [topic]);
  };
}

export function disconnectRealtime(): void {
  socket?.removeAllListeners();
  socket?.disconnect();
  socket = null;
  watched.clear();
  forgetUnanswered();
}

session.onReset(disconnectRealtime);
