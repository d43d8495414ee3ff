import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Reads the queries under `queryKey` again because something changed that their last read may not have seen (a live
 * event, a feed joined after the page began loading, a reconnect). invalidateQueries alone does not do it for a query
 * whose first read is still on its way: react-query hands the refetch that read instead of starting another (it only
 * replaces reads of queries that already hold data), and that read may have been answered before the change. Such a
 * first read is dropped (its page stays in its loading state) and made again; the others are replaced as usual.
 */
export function reloadQueries(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  void queryClient.cancelQueries({ queryKey, predicate: (query) => query.state.data === undefined && query.state.fetchStatus === 'fetching' });
  return queryClient.invalidateQueries({ queryKey });
}
