import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
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
import { useLiveRows } from '@/realtime/live-rows';

export const stripKeys = {
  all: ['strips'] as const,
  page: (query: StripPageQuery) => ['strips', query] as const,
  /** Under the lamp strategies' 'strategy/pages', so the shared strategy form refreshes these lists too. */
  strategies: ['strategy', 'pages', 'strip'] as const,
  strategyPage: (query: StrategyPageQuery) => ['strategy', 'pages', 'strip', query] as const,
};

/** The strip list's route; its total for a region is what a region-wide strip command reaches. */
export const STRIP_PAGE_PATH = '/light/stripPage';

export function useStripPage(query: StripPageQuery) {
  return useQuery({
    queryKey: stripKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<StripRow>>(STRIP_PAGE_PATH, query, { signal }),
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

/** Keeps the strip lists live without polling (the worker announces the status labels and colour with the fields behind them). */
export function useLiveStrips(): void {
  useLiveRows<StripRow>(DeviceFamily.Strip, stripKeys.all);
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
