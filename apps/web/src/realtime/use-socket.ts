import { useEffect } from 'react';
import type { ServerToClientEvents } from '@sc/contracts';
import type { RealtimeSocket } from './socket';

type Listener = (...args: never[]) => void;
/** socket.io's typed overloads cannot narrow a generic event name; ServerToClientEvents types both ends. */
type LooseSocket = { on(name: string, listener: Listener): unknown; off(name: string, listener: Listener): unknown; connected: boolean };

/**
 * Runs `use` with the tab's socket once the socket client has loaded (it is not part of any page's first download)
 * and undoes it when the component unmounts.
 */
function withSocket(use: (socket: LooseSocket) => () => void): () => void {
  let undo: (() => void) | undefined;
  let cancelled = false;
  void import('./socket').then(({ connectRealtime }) => {
    if (!cancelled) undo = use(connectRealtime() as RealtimeSocket as unknown as LooseSocket);
  });
  return () => {
    cancelled = true;
    undo?.();
  };
}

/** Subscribes a component to one typed server event for as long as it is mounted. */
export function useSocketEvent<E extends keyof ServerToClientEvents>(event: E, handler: ServerToClientEvents[E]): void {
  useEffect(
    () =>
      withSocket((socket) => {
        socket.on(event, handler as Listener);
        return () => socket.off(event, handler as Listener);
      }),
    [event, handler],
  );
}

/**
 * Runs `handler` each time the socket connects again after a drop. Pub/sub events sent meanwhile are lost, so pages
 * reload what they show from the API (which is the source of truth) instead of guessing what they missed.
 */
export function useSocketReconnect(handler: () => void): void {
  useEffect(
    () =>
      withSocket((socket) => {
        let connectedBefore = socket.connected;
        const onConnect = () => {
          if (connectedBefore) handler();
          connectedBefore = true;
        };
        socket.on('connect', onConnect);
        return () => socket.off('connect', onConnect);
      }),
    [handler],
  );
}
