import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { DispatchDetail, DispatchProgressEvent, FamilyName } from '@sc/contracts';
import { get, post } from '@/api/request';
import { useLiveFeed, useSocketReconnect } from '@/realtime/use-socket';

export const dispatchKeys = {
  all: ['dispatch'] as const,
  detail: (id: string) => ['dispatch', id] as const,
};

export function useDispatchDetail(id: string | null) {
  return useQuery({
    queryKey: dispatchKeys.detail(id ?? ''),
    queryFn: ({ signal }) => get<DispatchDetail>('/dispatch/detail', { id: id! }, { signal }),
    enabled: Boolean(id),
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

/** Moves a cached dispatch to the counts and status of a progress event. */
export function patchDispatch(queryClient: QueryClient, event: DispatchProgressEvent): void {
  queryClient.setQueryData<DispatchDetail>(dispatchKeys.detail(event.dispatchId), (detail) =>
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
 * the rows behind them are fetched again at most once a second, only for a dispatch someone has open. A socket that
 * reconnects reloads them.
 */
export function useLiveDispatches(family: FamilyName): void {
  const queryClient = useQueryClient();
  useLiveFeed(
    'DispatchProgress',
    family,
    useCallback(
      (event: DispatchProgressEvent) => {
        patchDispatch(queryClient, event);
        if (queryClient.getQueryData(dispatchKeys.detail(event.dispatchId))) refreshDispatchRows(queryClient, event.dispatchId);
      },
      [queryClient],
    ),
  );
  useSocketReconnect(useCallback(() => void queryClient.invalidateQueries({ queryKey: dispatchKeys.all }), [queryClient]));
}
