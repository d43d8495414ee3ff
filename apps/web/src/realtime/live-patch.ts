import type { Query, QueryCacheNotifyEvent, QueryClient, QueryKey } from '@tanstack/react-query';

type Update = (data: unknown) => unknown;

/** Live changes that arrived while a query was being read, written into that read's answer when it lands. */
const pending = new WeakMap<Query, Update[]>();
const watching = new WeakSet<QueryClient>();

function watch(queryClient: QueryClient): void {
  if (watching.has(queryClient)) return;
  watching.add(queryClient);
  queryClient.getQueryCache().subscribe((event: QueryCacheNotifyEvent) => {
    if (event.type !== 'updated') return;
    const { action, query } = event;
    // A read's answer (not a write of the console's own, which already holds the change) or a failed read.
    if (action.type === 'error') pending.delete(query);
    if (action.type !== 'success' || action.manual) return;
    const updates = pending.get(query);
    if (!updates) return;
    pending.delete(query);
    queryClient.setQueryData(query.queryKey, (data: unknown) =>
      data === undefined ? data : updates.reduce<unknown>((next, update) => update(next), data),
    );
  });
}

/**
 * Writes a live change into the cached data under `queryKey` (nothing is fetched), and also into the answer of every
 * read of it still on its way: such a read may have been answered before the change, and its answer would otherwise
 * replace the patched data with older data (a task started by the console is read again while its terminals already
 * report playing it). Live changes set values, so writing one into an answer that already holds it changes nothing.
 */
export function patchLive<T>(queryClient: QueryClient, queryKey: QueryKey, update: (data: T) => T): void {
  watch(queryClient);
  for (const query of queryClient.getQueryCache().findAll({ queryKey })) {
    if (query.state.fetchStatus === 'fetching') pending.set(query, [...(pending.get(query) ?? []), update as Update]);
    if (query.state.data !== undefined) queryClient.setQueryData<T>(query.queryKey, (data) => (data === undefined ? data : update(data)));
  }
}
