// For the realtime specs: a list query watched as by a page on screen, against a real query client, whose reads the
// test answers (or fails) one by one.
import { QueryClient, QueryObserver, type QueryKey } from '@tanstack/react-query';

export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

export interface WatchedList<T> {
  client: QueryClient;
  /** The list's reads, in the order they were made. */
  reads: Array<{ answer: (data: T) => void; fail: (error: Error) => void; signal: AbortSignal }>;
  observer: QueryObserver<T>;
  /** Answers a read and lets the answer land. */
  answer(index: number, data: T): Promise<void>;
  stop(): void;
}

export async function watchedList<T>(queryKey: QueryKey): Promise<WatchedList<T>> {
  const client = new QueryClient();
  const reads: WatchedList<T>['reads'] = [];
  const observer = new QueryObserver<T>(client, {
    queryKey,
    queryFn: ({ signal }) => new Promise<T>((answer, fail) => reads.push({ answer, fail, signal })),
    retry: false,
    staleTime: Infinity,
  });
  // Watched, as by a page on screen: invalidated queries are read again.
  const unsubscribe = observer.subscribe(() => undefined);
  await settle();
  return {
    client,
    reads,
    observer,
    answer: async (index, data) => {
      reads[index].answer(data);
      await settle();
    },
    stop: () => {
      unsubscribe();
      client.clear();
    },
  };
}
