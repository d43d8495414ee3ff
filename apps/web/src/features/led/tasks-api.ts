import { useCallback } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  type DeviceStateChangedEvent,
  type DispatchRowsChangedEvent,
  type LampControlResult,
  type LedTaskDetail,
  type LedTaskPageQuery,
  type LedTaskRequest,
  type LedTaskRow,
  type LedTaskScreenRow,
  type PageResult,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { withRowChanges } from '@/features/dispatch/api';
import { patchLive } from '@/realtime/live-patch';
import { reloadQueries } from '@/realtime/reload';
import { useLiveFeed } from '@/realtime/use-socket';

export const ledTaskKeys = {
  all: ['ledTasks'] as const,
  page: (query: LedTaskPageQuery) => ['ledTasks', 'page', query] as const,
  screens: (id: number) => ['ledTasks', 'screens', id] as const,
  detail: (id: number) => ['ledTasks', 'detail', id] as const,
};

export function useLedTaskPage(query: LedTaskPageQuery) {
  return useQuery({
    queryKey: ledTaskKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<LedTaskRow>>('/led/taskPage', query, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** A task with the names of the screens chosen one by one (its form shows them); nothing asked without an id. */
export function useLedTaskDetail(id: number | null) {
  return useQuery({
    queryKey: ledTaskKeys.detail(id ?? 0),
    queryFn: ({ signal }) => get<LedTaskDetail>('/led/taskDetail', { id: id ?? 0 }, { signal }),
    enabled: id !== null,
  });
}

export function useLedTaskScreens(id: number) {
  return useQuery({
    queryKey: ledTaskKeys.screens(id),
    queryFn: ({ signal }) => get<LedTaskScreenRow[]>('/led/taskScreens', { id }, { signal }),
    // Receipts, acks and what the screens play arrive live; read again only after a reconnect or a new publication.
    staleTime: Infinity,
  });
}

export function useLedTaskActions() {
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: ledTaskKeys.all });
  return {
    save: useMutation({ mutationFn: (body: LedTaskRequest) => post<{ id: number }>('/led/taskAddOrEdit', body), onSuccess: invalidate }),
    remove: useMutation({ mutationFn: (id: number) => post<null>('/led/taskDel', { id }), onSuccess: invalidate }),
    publish: useMutation({ mutationFn: (id: number) => post<LampControlResult>('/led/taskPublish', { id }), onSuccess: invalidate }),
    retry: useMutation({ mutationFn: (dispatchId: string) => post<unknown>('/dispatch/retryFailed', { id: dispatchId }), onSuccess: invalidate }),
  };
}

/** A task's screen rows as its publication's ledger rows moved (DispatchRowsChanged), also in a read on its way. */
export function patchTaskScreenRows(queryClient: QueryClient, id: number, dispatchId: string | null, event: DispatchRowsChangedEvent): void {
  if (event.dispatchId !== dispatchId) return;
  patchLive<LedTaskScreenRow[]>(queryClient, ledTaskKeys.screens(id), (rows) => withRowChanges({ rows }, 'rows', event).rows);
}

/** A task's screen rows with what the screens report playing (DeviceStateChanged), also in a read on its way. */
export function patchTaskScreensPlaying(queryClient: QueryClient, id: number, event: DeviceStateChangedEvent): void {
  if (event.family !== DeviceFamily.Led) return;
  const changed = new Map(event.changes.filter((c) => c.changed.playing !== undefined).map((c) => [c.recordId, c.changed.playing ?? null]));
  if (changed.size === 0) return;
  patchLive<LedTaskScreenRow[]>(queryClient, ledTaskKeys.screens(id), (rows) =>
    rows.map((row) => (changed.has(row.deviceId) ? { ...row, playingTaskId: changed.get(row.deviceId)?.taskId ?? null } : row)),
  );
}

/**
 * Keeps a task's screen rows moving without polling: the ledger's rows of its publication as they move
 * (DispatchRowsChanged: receipts, acks, failures), and what each screen reports playing (DeviceStateChanged).
 */
export function useLiveTaskScreens(id: number, dispatchId: string | null): void {
  const queryClient = useQueryClient();
  const resync = useCallback(() => void reloadQueries(queryClient, ledTaskKeys.screens(id)), [queryClient, id]);
  useLiveFeed(
    'DispatchRowsChanged',
    DeviceFamily.Led,
    useCallback((event: DispatchRowsChangedEvent) => patchTaskScreenRows(queryClient, id, dispatchId, event), [queryClient, id, dispatchId]),
    resync,
  );
  useLiveFeed(
    'DeviceStateChanged',
    DeviceFamily.Led,
    useCallback((event: DeviceStateChangedEvent) => patchTaskScreensPlaying(queryClient, id, event), [queryClient, id]),
    resync,
  );
}
