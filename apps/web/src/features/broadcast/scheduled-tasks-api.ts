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
  type LampControlResult,
  type PageResult,
  type ScheduledTaskRequest,
  type TaskControlRequest,
  type TaskTerminal,
  type TaskTerminalPageQuery,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { patchLiveRows } from '@/realtime/live-rows';
import { useLiveFeed } from '@/realtime/use-socket';

export const taskKeys = {
  all: ['broadcastTasks'] as const,
  pages: ['broadcastTasks', 'page'] as const,
  page: (query: BroadcastTaskPageQuery) => ['broadcastTasks', 'page', query] as const,
  detail: (id: number) => ['broadcastTasks', 'detail', id] as const,
  terminals: ['broadcastTasks', 'terminals'] as const,
  terminalPage: (query: TaskTerminalPageQuery) => ['broadcastTasks', 'terminals', query] as const,
};

export function useTaskPage(query: BroadcastTaskPageQuery) {
  return useQuery({
    queryKey: taskKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<BroadcastTaskRow>>('/broadcast/taskPage', query, { signal }),
    placeholderData: keepPreviousData,
    // Live events keep the rows current (useLiveTasks): fetched again only when they say so or after a reconnect.
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

export function useSaveTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ScheduledTaskRequest) => post<LampControlResult & { id: number }>('/broadcast/taskAddOrEdit', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}

export function useDeleteTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => get<{ dispatchId: string | null }>('/broadcast/taskDel', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}

export function useTaskControl() {
  return useMutation({ mutationFn: (body: TaskControlRequest) => post<LampControlResult>('/broadcast/taskControl', body) });
}

/**
 * Writes a dispatch's new result into the cached task rows it delivered (nothing is fetched); an open task it
 * delivered has its terminals' delivery read again.
 */
export function patchTaskDispatch(queryClient: QueryClient, event: DispatchProgressEvent): void {
  const patch = <R extends BroadcastTaskRow>(row: R): R => (row.dispatchId === event.dispatchId ? { ...row, dispatchStatus: event.status } : row);
  queryClient.setQueriesData<PageResult<BroadcastTaskRow>>({ queryKey: taskKeys.pages }, (page) =>
    page?.list.some((row) => row.dispatchId === event.dispatchId) ? { ...page, list: page.list.map(patch) } : page,
  );
  let open = false;
  queryClient.setQueriesData<BroadcastTaskDetail>({ queryKey: ['broadcastTasks', 'detail'] }, (task) => {
    if (task?.dispatchId !== event.dispatchId) return task;
    open = true;
    return patch(task);
  });
  if (open) void queryClient.invalidateQueries({ queryKey: taskKeys.terminals });
}

/** Terminal changes arrive in bursts (a programme starting on a whole region): play statuses are read again once they settle. */
const PLAY_STATUS_REFRESH_MS = 1_000;

/**
 * Keeps the task list live without polling: a dispatch's progress patches its task's delivery result in place, and
 * when terminals start, pause or stop playing, the list (its play statuses) is read again once the burst settles.
 */
export function useLiveTasks(): void {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const resync = useCallback(() => void queryClient.invalidateQueries({ queryKey: taskKeys.all }), [queryClient]);
  useLiveFeed(
    'DispatchProgress',
    DeviceFamily.Broadcast,
    useCallback((event: DispatchProgressEvent) => patchTaskDispatch(queryClient, event), [queryClient]),
    resync,
  );
  useLiveFeed(
    'DeviceStateChanged',
    DeviceFamily.Broadcast,
    useCallback(
      (event: DeviceStateChangedEvent) => {
        // A task's terminals shown in its detail change in place.
        patchLiveRows<TaskTerminal>(queryClient, taskKeys.terminals, event, LIVE_TERMINALS);
        if (timer.current || !event.changes.some((c) => 'playing' in c.changed)) return;
        timer.current = setTimeout(() => {
          timer.current = null;
          void queryClient.invalidateQueries({ queryKey: taskKeys.pages });
        }, PLAY_STATUS_REFRESH_MS);
      },
      [queryClient],
    ),
    resync,
  );
}

const LIVE_TERMINALS = {
  derive: (row: TaskTerminal): Partial<TaskTerminal> => ({ status: terminalStatusOf(row.networkStatus, row.occupancy) }),
};
