import { useCallback, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  type MqttCredentials,
  type PageQuery,
  type PageResult,
  type RadarDetectedEvent,
  type RadarLampsChangedEvent,
  type RadarAddOrEditRequest,
  type RadarGroupDetail,
  type RadarGroupRequest,
  type RadarGroupRow,
  type RadarLampOption,
  type RadarPageQuery,
  type RadarRow,
  type RadarStrategyRequest,
  type RadarStrategyRow,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { useLiveRows } from '@/realtime/live-rows';
import { useLiveFeed } from '@/realtime/use-socket';
import { detectionArrived, lampsMoved, type FeedDetection } from './detection-feed';

export const radarKeys = {
  all: ['radar'] as const,
  page: (query: RadarPageQuery) => ['radar', 'page', query] as const,
  detail: (id: number) => ['radar', 'detail', id] as const,
  groups: ['radar-groups'] as const,
  strategies: ['radar-strategies'] as const,
};

/** Radars, groups and strategies: one query and its invalidation per list. */
function usePageOf<Q extends PageQuery, R>(key: readonly unknown[], path: string, query: Q, live = false) {
  return useQuery({
    queryKey: [...key, 'page', query],
    queryFn: ({ signal }) => post<PageResult<R>>(path, query, { signal }),
    placeholderData: keepPreviousData,
    // Radar rows are kept current by their live events; groups and strategies change only through these pages.
    ...(live ? { staleTime: Infinity } : {}),
  });
}

function useSaveOf<B, A>(key: readonly unknown[], path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => post<A>(path, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

function useDeleteOf(keys: readonly (readonly unknown[])[], path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => get<null>(path, { id }),
    onSuccess: () => Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export const useRadarPage = (query: RadarPageQuery) => usePageOf<RadarPageQuery, RadarRow>(radarKeys.all, '/radar/radarPage', query, true);
export const useSaveRadar = () => useSaveOf<RadarAddOrEditRequest, { id: number; mqtt?: MqttCredentials }>(radarKeys.all, '/radar/radarAddOrEdit');
export const useDeleteRadar = () => useDeleteOf([radarKeys.all, radarKeys.groups], '/radar/radarDel');

export const useRadarGroupPage = (query: PageQuery & { name?: string }) =>
  usePageOf<PageQuery & { name?: string }, RadarGroupRow>(radarKeys.groups, '/radar/groupPage', query);
export const useSaveRadarGroup = () => useSaveOf<RadarGroupRequest, { id: number }>(radarKeys.groups, '/radar/groupAddOrEdit');
export const useDeleteRadarGroup = () => useDeleteOf([radarKeys.groups], '/radar/groupDel');

export function useRadarGroup(id: number) {
  return useQuery({
    queryKey: [...radarKeys.groups, 'detail', id],
    queryFn: ({ signal }) => get<RadarGroupDetail>('/radar/groupDetail', { id }, { signal }),
    enabled: id > 0,
  });
}

export function useRadarGroupOptions() {
  return useQuery({
    queryKey: [...radarKeys.groups, 'options'],
    queryFn: ({ signal }) => get<RadarGroupRow[]>('/radar/groupOptions', undefined, { signal }),
  });
}

export function useRadarLampOptions(keyword: string | undefined) {
  return useQuery({
    queryKey: ['radar-lamps', keyword ?? ''],
    queryFn: ({ signal }) => get<RadarLampOption[]>('/radar/lampOptions', keyword ? { keyword } : undefined, { signal }),
    placeholderData: keepPreviousData,
  });
}

export const useRadarStrategyPage = (query: PageQuery & { name?: string }) =>
  usePageOf<PageQuery & { name?: string }, RadarStrategyRow>(radarKeys.strategies, '/radar/strategyPage', query);
export const useSaveRadarStrategy = () => useSaveOf<RadarStrategyRequest, { id: number }>(radarKeys.strategies, '/radar/strategyAddOrEdit');
export const useDeleteRadarStrategy = () => useDeleteOf([radarKeys.strategies, radarKeys.groups], '/radar/strategyDel');

/** One object for the page's lifetime: the live feed's handler depends on it. */
const LIVE_RADAR = { detailKey: radarKeys.detail };

/** Keeps the radar lists live without polling: online or offline, count, rate, versions, link. */
export function useLiveRadar(): void {
  useLiveRows<RadarRow>(DeviceFamily.Radar, radarKeys.all, LIVE_RADAR);
}

/**
 * The latest detections pushed since the page opened (newest first) and the lamps each raised, each lamp moving live
 * from waiting to raised to returned (RadarLampsChanged); nothing is polled.
 */
export function useRadarDetections(): readonly FeedDetection[] {
  const [detections, setDetections] = useState<readonly FeedDetection[]>([]);
  const add = useCallback((event: RadarDetectedEvent) => setDetections((held) => detectionArrived(held, event)), []);
  const move = useCallback((event: RadarLampsChangedEvent) => setDetections((held) => lampsMoved(held, event)), []);
  // Detections missed while the socket was away are not fetched again: the counts on the rows are (useLiveRadar).
  useLiveFeed('RadarDetected', DeviceFamily.Radar, add, () => undefined);
  useLiveFeed('RadarLampsChanged', DeviceFamily.Radar, move, () => undefined);
  return detections;
}
