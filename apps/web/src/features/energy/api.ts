import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EnergyLampPageQuery, EnergyLampRow, EnergyQuery, EnergySeries, EnergySeriesQuery, EnergyTree, PageResult } from '@sc/contracts';
import { get, post } from '@/api/request';

export const energyKeys = {
  all: ['energy'] as const,
  tree: (query: EnergyQuery) => ['energy', 'tree', query] as const,
  series: (query: EnergySeriesQuery) => ['energy', 'series', query] as const,
  lamps: (query: EnergyLampPageQuery) => ['energy', 'lamps', query] as const,
};

/** Energy moves by the hour: an answer is kept a minute (the shell's refresh and auto-refresh fetch it again). */
const STALE_MS = 60_000;

export function useEnergyTree(query: EnergyQuery) {
  return useQuery({
    queryKey: energyKeys.tree(query),
    queryFn: ({ signal }) => get<EnergyTree>('/light/energyTree', { ...query }, { signal }),
    placeholderData: keepPreviousData,
    staleTime: STALE_MS,
  });
}

export function useEnergySeries(query: EnergySeriesQuery) {
  return useQuery({
    queryKey: energyKeys.series(query),
    queryFn: ({ signal }) => get<EnergySeries>('/light/energySeries', { ...query }, { signal }),
    placeholderData: keepPreviousData,
    staleTime: STALE_MS,
  });
}

export function useEnergyLamps(query: EnergyLampPageQuery) {
  return useQuery({
    queryKey: energyKeys.lamps(query),
    queryFn: ({ signal }) => post<PageResult<EnergyLampRow>>('/light/energyLampPage', query, { signal }),
    placeholderData: keepPreviousData,
    staleTime: STALE_MS,
  });
}

/** POST /api/light/lampRatedPower: full power and saving are measured against it, so every energy answer is read again. */
export function useSetRatedPower() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids: number[]; ratedPower: number }) => post<{ changed: number }>('/light/lampRatedPower', body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: energyKeys.all }),
  });
}
