import { useCallback, useRef } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  terminalStatusOf,
  type BroadcastTaskDetail,
  type BroadcastTaskPageQuery,
  type BroadcastTaskRow,
  type DeviceStateChangedEvent,
  type DispatchProgressEvent,
  type ImmediateBroadcastRequest,
  type LampControlResult,
  type PageResult,
  type ScheduledTaskRequest,
  type TaskControlRequest,
  type TaskStopResult,
  type TaskTerminal,
  type TaskTerminalPageQuery,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { patchLive } from '@/realtime/live-patch';
import { patchLiveRows } from '@/realtime/live-rows';
import { reloadQueries } from '@/realtime/reload';
import { useLiveFeed } from '@/realtime/use-socket';
import { patchTaskDispatch, patchTaskPlayers, playerNames } from './task-live';

// The broadcast tasks' calls, for both task pages (scheduled tasks, immediate broadcasts).
export const taskKeys = {
  all: ['broadcastTasks'] as const,
  pages: ['broadcastTasks', 'page'] as const,
  page: (query: BroadcastTaskPageQuery) => ['broadcastTasks', 'page', query] as const,
  details: ['broadcastTasks', 'detail'] as const,
  detail: (id: number) => ['broadcastTasks', 'detail', id] as const,
  terminals: ['broadcastTasks', 'terminals'] as const,
  terminalPage: (query: TaskTerminalPageQuery) => ['broadcastTasks', 'terminals', query] as const,
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

export function useTask(id: number | null) {
  return useQuery({
    queryKey: taskKeys.detail(id ?? 0),
    queryFn: ({ signal }) => get<BroadcastTaskDetail>('/broadcast/taskDetail', { id: id ?? 0 }, { signal }),
    enabled: id !== null,
  });
}

/** A page of a task's terminals (none asked for a task not chosen yet); live through useLiveTasks. */
export function useTaskTerminals(query: TaskTerminalPageQuery) {
  return useQuery({
    queryKey: taskKeys.terminalPage(query),
    queryFn: ({ signal }) => post<PageResult<TaskTerminal>>('/broadcast/taskTerminalPage', query, { signal }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    enabled: query.id > 0,
  });
}

/** A change of the console's own to the tasks: the lists are read again once it is answered. */
function useTaskChange<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.all }) });
}

export const useImmediateBroadcast = () =>
  useTaskChange((body: ImmediateBroadcastRequest) => post<LampControlResult & { id: number }>('/broadcast/immediateBroadcast', body));
export const useSaveTask = () =>
  useTaskChange((body: ScheduledTaskRequest) => post<LampControlResult & { id: number }>('/broadcast/taskAddOrEdit', body));
export const useDeleteTask = () => useTaskChange((id: number) => get<{ dispatchId: string | null }>('/broadcast/taskDel', { id }));
export const useStopTask = () => useTaskChange((id: number) => post<TaskStopResult>('/broadcast/taskStop', { id }));

export function useTaskControl() {
  return useMutation({ mutationFn: (body: TaskControlRequest) => post<LampControlResult>('/broadcast/taskControl', body) });
}

/**
 * Writes a dispatch's new result into the cached task rows it delivered (nothing is fetched); an open task it
 * delivered has its terminals' delivery read again.
 */
function patchDispatchEverywhere(queryClient: QueryClient, event: DispatchProgressEvent): void {
  patchLive<PageResult<BroadcastTaskRow>>(queryClient, taskKeys.pages, (page) => patchTaskDispatch(page, event));
  let open = false;
  patchLive<BroadcastTaskDetail>(queryClient, taskKeys.details, (task) => {
    if (task.dispatchId !== event.dispatchId) return task;
    open = true;
    return { ...task, dispatchStatus: event.status };
  });
  if (open) void reloadQueries(queryClient, taskKeys.terminals);
}

const LIVE_TERMINALS = {
  derive: (row: TaskTerminal): Partial<TaskTerminal> => ({ status: terminalStatusOf(row.networkStatus, row.occupancy) }),
};

/**
 * Keeps the cached task pages live without polling: a dispatch's progress moves its task's dispatch status, and the
 * terminals' pushed changes say who plays which task now (its players, its play status, and so whether an immediate
 * broadcast still plays), and change a task's terminals in its detail in place. Read again when events may have been
 * missed.
 */
export function useLiveTasks(): void {
  const queryClient = useQueryClient();
  const names = useRef(new Map<number, string>());
  const resync = useCallback(() => void reloadQueries(queryClient, taskKeys.all), [queryClient]);
  useLiveFeed(
    'DispatchProgress',
    DeviceFamily.Broadcast,
    useCallback((event: DispatchProgressEvent) => patchDispatchEverywhere(queryClient, event), [queryClient]),
    resync,
  );
  useLiveFeed(
    'DeviceStateChanged',
    DeviceFamily.Broadcast,
    useCallback(
      (event: DeviceStateChangedEvent) => {
        patchLiveRows<TaskTerminal>(queryClient, taskKeys.terminals, event, LIVE_TERMINALS);
        patchLive<PageResult<BroadcastTaskRow>>(queryClient, taskKeys.pages, (page) => {
          playerNames([page], names.current);
          return patchTaskPlayers(page, event, names.current);
        });
      },
      [queryClient],
    ),
    resync,
  );
}
