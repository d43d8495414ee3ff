import { useCallback } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  stripStatusLabels,
  type DeviceStateChangedEvent,
  type LampControlResult,
  type PageResult,
  type StripAddOrEditRequest,
  type StripEffectRequest,
  type StrategyDistributeRequest,
  type StrategyPageQuery,
  type StrategyRow,
  type StripPageQuery,
  type StripRow,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { useSocketEvent, useSocketReconnect } from '@/realtime/use-socket';

export const stripKeys = {
  all: ['strips'] as const,
  page: (query: StripPageQuery) => ['strips', query] as const,
  /** Under the lamp strategies' 'strategy/pages', so the shared strategy form refreshes these lists too. */
  strategies: ['strategy', 'pages', 'strip'] as const,
  strategyPage: (query: StrategyPageQuery) => ['strategy', 'pages', 'strip', query] as const,
};

export function useStripPage(query: StripPageQuery) {
  return useQuery({
    queryKey: stripKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<StripRow>>('/light/stripPage', query, { signal }),
    placeholderData: keepPreviousData,
    // Live events keep the rows current; the list is fetched again only when asked or after a reconnect.
    staleTime: Infinity,
  });
}

export function useSaveStrip() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StripAddOrEditRequest) => post<{ id: number }>('/light/stripAddOrEdit', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: stripKeys.all }),
  });
}

export function useDeleteStrip() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => get<null>('/light/stripDel', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: stripKeys.all }),
  });
}

export function useStripEffect() {
  return useMutation({ mutationFn: (body: StripEffectRequest) => post<LampControlResult>('/light/stripEffect', body) });
}

/** Writes a strip's changed fields into every cached list page that shows it; the status labels follow. */
export function patchStripRows(queryClient: QueryClient, event: DeviceStateChangedEvent): void {
  queryClient.setQueriesData<PageResult<StripRow>>({ queryKey: stripKeys.all }, (page) => {
    if (!page || !page.list.some((row) => row.id === event.recordId)) return page;
    return {
      ...page,
      list: page.list.map((row) => {
        if (row.id !== event.recordId) return row;
        const next = { ...row, ...(event.changed as Partial<StripRow>) };
        return { ...next, statusLabels: stripStatusLabels(next.status, next.faults) };
      }),
    };
  });
}

/** Strip events patch the cached strip lists; a socket that reconnects reloads them. */
export function useLiveStrips(): void {
  const queryClient = useQueryClient();
  useSocketEvent(
    'DeviceStateChanged',
    useCallback(
      (event: DeviceStateChangedEvent) => {
        if (event.family === DeviceFamily.Strip) patchStripRows(queryClient, event);
      },
      [queryClient],
    ),
  );
  useSocketReconnect(useCallback(() => void queryClient.invalidateQueries({ queryKey: stripKeys.all }), [queryClient]));
}

export function useStripStrategyPage(query: StrategyPageQuery) {
  return useQuery({
    queryKey: stripKeys.strategyPage(query),
    queryFn: ({ signal }) => post<PageResult<StrategyRow>>('/light/stripStrategyPage', query, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useDeleteStripStrategy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => get<null>('/light/stripStrategyDel', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: stripKeys.strategies }),
  });
}

export function useDistributeStripStrategy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StrategyDistributeRequest) => post<LampControlResult>('/light/stripStrategyDistribute', body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: stripKeys.strategies });
      void queryClient.invalidateQueries({ queryKey: stripKeys.all });
    },
  });
}
