import { useEffect, useRef } from 'react';
import type { BusEventName, BusEvents, FamilyName } from '@sc/contracts';
import { feedJoinStarted } from './feed-gate';
import type { RealtimeSocket } from './socket';

type Listener = (...args: never[]) => void;
/** socket.io's typed overloads cannot narrow a generic event name; ServerToClientEvents types both ends. */
type LooseSocket = { on(name: string, listener: Listener): unknown; off(name: string, listener: Listener): unknown; connected: boolean };

/**
 * Runs `use` with the tab's socket once the socket client has loaded (it is not part of any page's first download)
 * and undoes it when the component unmounts.
 */
function withSocket(use: (socket: RealtimeSocket, loose: LooseSocket, realtime: typeof import('./socket')) => () => void): () => void {
  let undo: (() => void) | undefined;
  let cancelled = false;
  // The page's lists wait (feed-gate.ts) while its feeds are set up: the socket client may still be on its way, and a
  // feed it asks for then holds them until the server answers.
  const setUp = feedJoinStarted();
  void import('./socket')
    .then((realtime) => {
      if (cancelled) return;
      const socket = realtime.connectRealtime();
      undo = use(socket, socket as unknown as LooseSocket, realtime);
    })
    .finally(setUp);
  return () => {
    cancelled = true;
    setUp();
    undo?.();
  };
}

/**
 * Receives one live feed (an event of one device family) for as long as the component is mounted: the server is
 * asked for it while any component watches it, so a page gets only what it shows. The latest `handler` is called
 * with each event. The latest `resync` is called when events may have been missed: the feed was joined after the
 * component had started loading what it shows, or the socket connected again after a drop (pub/sub events sent
 * meanwhile are lost). It reloads from the API, the source of truth, rather than guessing what was missed.
 */
export function useLiveFeed<E extends BusEventName>(
  event: E,
  family: FamilyName,
  handler: (payload: BusEvents[E]) => void,
  resync: () => void,
): void {
  const latest = useRef({ handler, resync });
  useEffect(() => {
    latest.current = { handler, resync };
  });
  useEffect(
    () =>
      withSocket((socket, loose, realtime) => {
        const listener = (payload: BusEvents[E]) => {
          if (payload.family === family) latest.current.handler(payload);
        };
        loose.on(event, listener as Listener);
        const stop = realtime.watchFeed(socket, { event, family }, () => latest.current.resync());
        return () => {
          loose.off(event, listener as Listener);
          stop();
        };
      }),
    [event, family],
  );
}
