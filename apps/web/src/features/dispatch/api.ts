import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { DispatchDetail, DispatchDetailQuery, DispatchItemState, DispatchProgressEvent, FamilyName } from '@sc/contracts';
import { get, post } from '@/api/request';
import { useLiveFeed } from '@/realtime/use-socket';

export const dispatchKeys = {
  all: ['dispatch'] as const,
  /** Every cached page of one dispatch. */
  detail: (id: string) => ['dispatch', id] as const,
  page: (id: string, page: DispatchRowsPage) => ['dispatch', id, page] as const,
};

/** The panel shows a dispatch's rows this many at a time (a dispatch may have tens of thousands). */
export const DISPATCH_ROWS_PAGE = 50;

export interface DispatchRowsPage {
  pageNum: number;
  state?: DispatchItemState;
}

export function useDispatchDetail(id: string | null, page: DispatchRowsPage = { pageNum: 1 }) {
  return useQuery({
    queryKey: dispatchKeys.page(id ?? '', page),
    queryFn: ({ signal }) => {
      const query: DispatchDetailQuery = {
        id: id!,
        pageNum: page.pageNum,
        pageSize: DISPATCH_ROWS_PAGE,
        ...(page.state ? { state: page.state } : {}),
      };
      return get<DispatchDetail>('/dispatch/detail', { ...query }, { signal });
    },
    enabled: Boolean(id),
    placeholderData: (previous) => previous,
    // Progress events keep it current (useLiveDispatches).
    staleTime: Infinity,
  });
}

export function useRetryFailed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => post<null>('/dispatch/retryFailed', { id }),
    onSuccess: (_data, id) => queryClient.invalidateQueries({ queryKey: dispatchKeys.detail(id) }),
  });
}

/** Moves every cached page of a dispatch to the counts and status of a progress event. */
export function patchDispatch(queryClient: QueryClient, event: DispatchProgressEvent): void {
  queryClient.setQueriesData<DispatchDetail>({ queryKey: dispatchKeys.detail(event.dispatchId) }, (detail) =>
    detail ? { ...detail, counts: event.counts, status: event.status, total: event.total } : detail,
  );
}

/** The per-device rows of an open dispatch are fetched again at most this often while progress events arrive. */
const DISPATCH_ROWS_REFRESH_MS = 1_000;
const pendingRowRefresh = new Map<string, ReturnType<typeof setTimeout>>();

/** Fetches a dispatch's rows once the current burst of progress events has had a second to settle. */
function refreshDispatchRows(queryClient: QueryClient, dispatchId: string): void {
  if (pendingRowRefresh.has(dispatchId)) return;
  pendingRowRefresh.set(
    dispatchId,
    setTimeout(() => {
      pendingRowRefresh.delete(dispatchId);
      void queryClient.invalidateQueries({ queryKey: dispatchKeys.detail(dispatchId) });
    }, DISPATCH_ROWS_REFRESH_MS),
  );
}

/**
 * Keeps a family's open dispatches live without polling: progress events patch the counts and status at once, and
 * the rows behind them are fetched again at most once a second, only for a dispatch someone has open. They are
 * reloaded whenever progress may have been missed: the feed was confirmed after the panel began loading (a fast
 * dispatch can finish in between), or the socket reconnected.
 */
export function useLiveDispatches(family: FamilyName): void {
  const queryClient = useQueryClient();
  useLiveFeed(
    'DispatchProgress',
    family,
    useCallback(
      (event: DispatchProgressEvent) => {
        patchDispatch(queryClient, event);
        if (queryClient.getQueriesData({ queryKey: dispatchKeys.detail(event.dispatchId) }).length > 0)
          refreshDispatchRows(queryClient, event.dispatchId);
      },
      [queryClient],
    ),
    useCallback(() => void queryClient.invalidateQueries({ queryKey: dispatchKeys.all }), [queryClient]),
  );
}
