import { useCallback } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { DeviceStateChangedEvent, FamilyName, PageResult } from '@sc/contracts';
import { patchLive } from './live-patch';
import { reloadQueries } from './reload';
import { useLiveFeed } from './use-socket';

export interface LiveRowsOptions<Row> {
  /** Fields of a row computed from others (a strip's status labels), recomputed after each patch. */
  derive?: (row: Row) => Partial<Row>;
  /** Where a single device's cached record lives (a detail drawer), patched like the rows. */
  detailKey?: (recordId: number) => QueryKey;
}

/**
 * Writes a family's changed fields into every cached page under `queryKey` that shows the devices (and into their
 * cached details): the rows change in place, nothing is fetched, and reads on their way get the change too (patchLive).
 * Pages that show none of them are left as they are.
 */
export function patchLiveRows<Row extends { id: number }>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  event: DeviceStateChangedEvent,
  options: LiveRowsOptions<Row> = {},
): void {
  const changes = new Map<number, Partial<Row>>(event.changes.map((c) => [c.recordId, c.changed as Partial<Row>]));
  const patch = (row: Row): Row => {
    const next = { ...row, ...changes.get(row.id) };
    return options.derive ? { ...next, ...options.derive(next) } : next;
  };
  patchLive<PageResult<Row>>(queryClient, queryKey, (page) => {
    if (!Array.isArray(page.list) || !page.list.some((row) => changes.has(row.id))) return page;
    return { ...page, list: page.list.map((row) => (changes.has(row.id) ? patch(row) : row)) };
  });
  if (options.detailKey) {
    for (const id of changes.keys()) patchLive<Row>(queryClient, options.detailKey(id), patch);
  }
}

/**
 * Keeps a family's cached list pages live without polling: the family's device changes patch them as they come (at
 * most one push per frame), and they are reloaded whenever changes may have been missed (the feed joined after
 * the page began loading, or the socket reconnected).
 */
export function useLiveRows<Row extends { id: number }>(family: FamilyName, queryKey: QueryKey, options: LiveRowsOptions<Row> = {}): void {
  const queryClient = useQueryClient();
  const { derive, detailKey } = options;
  useLiveFeed(
    'DeviceStateChanged',
    family,
    useCallback(
      (event: DeviceStateChangedEvent) => patchLiveRows<Row>(queryClient, queryKey, event, { derive, detailKey }),
      [queryClient, queryKey, derive, detailKey],
    ),
    useCallback(() => void reloadQueries(queryClient, queryKey), [queryClient, queryKey]),
  );
}
