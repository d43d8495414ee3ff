import { useCallback } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  type DeviceStateChangedEvent,
  type DispatchDetail,
  type DispatchProgressEvent,
  type LampAddOrEditRequest,
  type LampControlRequest,
  type LampControlResult,
  type LampPageQuery,
  type LampRow,
  type PageResult,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { useSocketEvent, useSocketReconnect } from '@/realtime/use-socket';

export const lightingKeys = {
  all: ['lighting'] as const,
  lamps: ['lighting', 'lamps'] as const,
  lampPage: (query: LampPageQuery) => ['lighting', 'lamps', query] as const,
  /** Outside 'lamps', whose entries are all list pages. */
  lampDetail: (id: number) => ['lighting', 'lampDetail', id] as const,
  dispatch: (id: string) => ['lighting', 'dispatch', id] as const,
};

export function useLampPage(query: LampPageQuery) {
  return useQuery({
    queryKey: lightingKeys.lampPage(query),
    queryFn: ({ signal }) => post<PageResult<LampRow>>('/light/lampPage', query, { signal }),
    placeholderData: keepPreviousData,
    // Live events keep the rows current; the list is fetched again only when asked or after a reconnect.
    staleTime: Infinity,
  });
}

export function useSaveLamp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LampAddOrEditRequest) => post<{ id: number }>('/light/lampAddOrEdit', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: lightingKeys.lamps }),
  });
}

export function useDeleteLamp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => get<null>('/light/lampDel', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: lightingKeys.lamps }),
  });
}

export function useLampControl() {
  return useMutation({ mutationFn: (body: LampControlRequest) => post<LampControlResult>('/light/lampControl', body) });
}

export function useRetryFailed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => post<null>('/dispatch/retryFailed', { id }),
    onSuccess: (_data, id) => queryClient.invalidateQueries({ queryKey: lightingKeys.dispatch(id) }),
  });
}

export function useDispatchDetail(id: string | null) {
  return useQuery({
    queryKey: lightingKeys.dispatch(id ?? ''),
    queryFn: ({ signal }) => get<DispatchDetail>('/dispatch/detail', { id: id! }, { signal }),
    enabled: Boolean(id),
    staleTime: Infinity,
  });
}

/** Writes a lamp's changed fields into every cached list page that shows it. */
export function patchLampRows(queryClient: QueryClient, event: DeviceStateChangedEvent): void {
  queryClient.setQueriesData<PageResult<LampRow>>({ queryKey: lightingKeys.lamps }, (page) => {
    if (!page || !page.list.some((row) => row.id === event.recordId)) return page;
    return { ...page, list: page.list.map((row) => (row.id === event.recordId ? { ...row, ...(event.changed as Partial<LampRow>) } : row)) };
  });
  queryClient.setQueryData<LampRow>(lightingKeys.lampDetail(event.recordId), (row) =>
    row ? { ...row, ...(event.changed as Partial<LampRow>) } : row,
  );
}

/** Moves a cached dispatch to the counts and status of a progress event. */
export function patchDispatch(queryClient: QueryClient, event: DispatchProgressEvent): void {
  queryClient.setQueryData<DispatchDetail>(lightingKeys.dispatch(event.dispatchId), (detail) =>
    detail ? { ...detail, counts: event.counts, status: event.status, total: event.total } : detail,
  );
}

/** The per-lamp rows of an open dispatch are fetched again at most this often while progress events arrive. */
const DISPATCH_ROWS_REFRESH_MS = 1_000;
const pendingRowRefresh = new Map<string, ReturnType<typeof setTimeout>>();

/** Fetches a dispatch's rows once the current burst of progress events has had a second to settle. */
function refreshDispatchRows(queryClient: QueryClient, dispatchId: string): void {
  if (pendingRowRefresh.has(dispatchId)) return;
  pendingRowRefresh.set(
    dispatchId,
    setTimeout(() => {
      pendingRowRefresh.delete(dispatchId);
      void queryClient.invalidateQueries({ queryKey: lightingKeys.dispatch(dispatchId) });
    }, DISPATCH_ROWS_REFRESH_MS),
  );
}

/**
 * Keeps the lighting pages live without polling: lamp and dispatch events patch the cached answers, and a socket
 * that reconnects reloads them, since events sent while it was away are gone.
 */
export function useLiveLighting(): void {
  const queryClient = useQueryClient();
  useSocketEvent(
    'DeviceStateChanged',
    useCallback(
      (event: DeviceStateChangedEvent) => {
        if (event.family === DeviceFamily.Lamp) patchLampRows(queryClient, event);
      },
      [queryClient],
    ),
  );
  useSocketEvent(
    'DispatchProgress',
    useCallback(
      (event: DispatchProgressEvent) => {
        patchDispatch(queryClient, event);
        // Counts come with the event; the per-lamp rows behind them are fetched again, at most once a second, and
        // only for a dispatch someone has open.
        if (queryClient.getQueryData(lightingKeys.dispatch(event.dispatchId))) refreshDispatchRows(queryClient, event.dispatchId);
      },
      [queryClient],
    ),
  );
  useSocketReconnect(useCallback(() => void queryClient.invalidateQueries({ queryKey: lightingKeys.all }), [queryClient]));
}
