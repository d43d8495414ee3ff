import { useCallback, useRef } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  type BroadcastTaskPageQuery,
  type BroadcastTaskRow,
  type DeviceStateChangedEvent,
  type DispatchProgressEvent,
  type ImmediateBroadcastRequest,
  type LampControlResult,
  type PageResult,
  type TaskStopResult,
} from '@sc/contracts';
import { post } from '@/api/request';
import { useLiveFeed } from '@/realtime/use-socket';
import { patchTaskDispatch, patchTaskPlayers, playerNames } from './task-live';

export const taskKeys = {
  all: ['broadcastTasks'] as const,
  page: (query: BroadcastTaskPageQuery) => ['broadcastTasks', 'page', query] as const,
};

export function useTaskPage(query: BroadcastTaskPageQuery) {
  return useQuery({
    queryKey: taskKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<BroadcastTaskRow>>('/broadcast/taskPage', query, { signal }),
    placeholderData: keepPreviousData,
    // Live events keep the rows current (useLiveTasks); the list is read again after a change of ours or a reconnect.
    staleTime: Infinity,
  });
}

export function useImmediateBroadcast() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ImmediateBroadcastRequest) => post<LampControlResult & { id: number }>('/broadcast/immediateBroadcast', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}

export function useStopTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => post<TaskStopResult>('/broadcast/taskStop', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}

/**
 * Keeps the cached task pages live without polling: a dispatch's progress moves its task's dispatch status, and the
 * terminals' pushed changes say who plays which task now (and so whether an immediate broadcast still plays). The
 * pages are read again when events may have been missed.
 */
export function useLiveTasks(): void {
  const queryClient = useQueryClient();
  const names = useRef(new Map<number, string>());
  const resync = useCallback(() => void queryClient.invalidateQueries({ queryKey: taskKeys.all }), [queryClient]);
  useLiveFeed(
    'DispatchProgress',
    DeviceFamily.Broadcast,
    useCallback(
      (event: DispatchProgressEvent) =>
        queryClient.setQueriesData<PageResult<BroadcastTaskRow>>({ queryKey: taskKeys.all }, (page) => page && patchTaskDispatch(page, event)),
      [queryClient],
    ),
    resync,
  );
  useLiveFeed(
    'DeviceStateChanged',
    DeviceFamily.Broadcast,
    useCallback(
      (event: DeviceStateChangedEvent) => {
        const pages = queryClient.getQueriesData<PageResult<BroadcastTaskRow>>({ queryKey: taskKeys.all }).map(([, page]) => page);
        playerNames(pages, names.current);
        queryClient.setQueriesData<PageResult<BroadcastTaskRow>>(
          { queryKey: taskKeys.all },
          (page) => page && patchTaskPlayers(page, event, names.current),
        );
      },
      [queryClient],
    ),
    resync,
  );
}
