import { useCallback, useRef } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  type LampControlResult,
  type LampScheduleView,
  type PageResult,
  type ScheduleMismatches,
  type StrategyAddOrEditRequest,
  type StrategyDistributeRequest,
  type StrategyFamily,
  type StrategyPageQuery,
  type StrategyRow,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { reloadQueries } from '@/realtime/reload';
import { useLiveFeed } from '@/realtime/use-socket';

export const strategyKeys = {
  all: ['strategy'] as const,
  pages: ['strategy', 'pages'] as const,
  page: (query: StrategyPageQuery) => ['strategy', 'pages', query] as const,
  mismatches: ['strategy', 'mismatches'] as const,
  lampSchedule: (id: number) => ['strategy', 'lampSchedule', id] as const,
};

export function useStrategyPage(query: StrategyPageQuery) {
  return useQuery({
    queryKey: strategyKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<StrategyRow>>('/light/strategyPage', query, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Saves a lamp strategy, or a strip light strategy (/smartLamp/lightStrategy) on the same engine. */
export function useSaveStrategy(family: StrategyFamily = 'lamp') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StrategyAddOrEditRequest) =>
      post<{ id: number }>(family === 'strip' ? '/light/stripStrategyAddOrEdit' : '/light/strategyAddOrEdit', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: strategyKeys.pages }),
  });
}

export function useDeleteStrategy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => get<null>('/light/strategyDel', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: strategyKeys.pages }),
  });
}

export function useDistributeStrategy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StrategyDistributeRequest) => post<LampControlResult>('/light/strategyDistribute', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: strategyKeys.all }),
  });
}

export function useMismatches() {
  return useQuery({
    queryKey: strategyKeys.mismatches,
    queryFn: ({ signal }) => get<ScheduleMismatches>('/light/scheduleMismatches', {}, { signal }),
    staleTime: Infinity,
  });
}

export function useLampSchedule(id: number | null) {
  return useQuery({
    queryKey: strategyKeys.lampSchedule(id ?? 0),
    queryFn: ({ signal }) => get<LampScheduleView>('/light/lampSchedule', { id: id! }, { signal }),
    enabled: id !== null,
    staleTime: Infinity,
  });
}

/** Lamp events arrive in bursts (a whole region switching at dusk): the comparison is fetched again once they settle. */
const MISMATCH_REFRESH_MS = 2_000;

/**
 * Keeps the schedule comparison live without polling: a lamp that reports a new state may now agree or disagree
 * with its schedule, so the mismatch list (and an open lamp schedule) is fetched again after a burst of lamp events.
 */
export function useLiveSchedules(): void {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refresh = useCallback(() => {
    timer.current = null;
    void reloadQueries(queryClient, strategyKeys.mismatches);
    void reloadQueries(queryClient, ['strategy', 'lampSchedule']);
  }, [queryClient]);
  useLiveFeed(
    'DeviceStateChanged',
    DeviceFamily.Lamp,
    useCallback(() => {
      if (!timer.current) timer.current = setTimeout(refresh, MISMATCH_REFRESH_MS);
    }, [refresh]),
    useCallback(() => void reloadQueries(queryClient, strategyKeys.all), [queryClient]),
  );
}
