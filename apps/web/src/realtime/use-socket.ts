import { useEffect, useRef } from 'react';
import type { BusEventName, BusEvents, FamilyName } from '@sc/contracts';
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
  void import('./socket').then((realtime) => {
    if (cancelled) return;
    const socket = realtime.connectRealtime();
    undo = use(socket, socket as unknown as LooseSocket, realtime);
  });
  return () => {
    cancelled = true;
    undo?.();
  };
}

/**
 * Receives one live feed (an event of one device family) for as long as the component is mounted: the server is
 * asked for it while any component watches it, so a page gets only what it shows. The latest `handler` is called.
 */
export function useLiveFeed<E extends BusEventName>(event: E, family: FamilyName, handler: (payload: BusEvents[E]) => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(
    () =>
      withSocket((socket, loose, realtime) => {
        const topic = { event, family };
        const listener = (payload: BusEvents[E]) => {
          if (payload.family === family) latest.current(payload);
        };
        loose.on(event, listener as Listener);
        realtime.watchFeed(socket, topic);
        return () => {
          loose.off(event, listener as Listener);
          realtime.unwatchFeed(socket, topic);
        };
      }),
    [event, family],
  );
}

/**
 * Runs `handler` each time the socket connects again after a drop. Pub/sub events sent meanwhile are lost, so pages
 * reload what they show from the API (which is the source of truth) instead of guessing what they missed.
 */
export function useSocketReconnect(handler: () => void): void {
  useEffect(
    () =>
      withSocket((_socket, loose) => {
        let connectedBefore = loose.connected;
        const onConnect = () => {
          if (connectedBefore) handler();
          connectedBefore = true;
        };
        loose.on('connect', onConnect);
        return () => loose.off('connect', onConnect);
      }),
    [handler],
  );
}
