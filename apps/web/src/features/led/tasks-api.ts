import { useCallback } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  LedReceiveStatus,
  type DeviceStateChangedEvent,
  type DispatchRowsChangedEvent,
  type LampControlResult,
  type LedTaskDetail,
  type LedTaskPageQuery,
  type LedTaskRequest,
  type LedTaskRow,
  type LedTaskScreensPage,
  type PageResult,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { useLiveDispatchPages, withRowChanges } from '@/features/dispatch/api';
import { patchLive } from '@/realtime/live-patch';
import { useLiveFeed } from '@/realtime/use-socket';

export const ledTaskKeys = {
  all: ['ledTasks'] as const,
  page: (query: LedTaskPageQuery) => ['ledTasks', 'page', query] as const,
  screensOf: (id: number) => ['ledTasks', 'screens', id] as const,
  screens: (id: number, pageNum: number) => ['ledTasks', 'screens', id, pageNum] as const,
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

/** The screens drawer shows this many of a task's screens at a time. */
export const TASK_SCREENS_PAGE = 50;

/** A page of a task's screens with the receive totals over all of them; the socket keeps it moving (useLiveTaskScreens). */
export function useLedTaskScreens(id: number, pageNum: number) {
  return useQuery({
    queryKey: ledTaskKeys.screens(id, pageNum),
    queryFn: ({ signal }) => post<LedTaskScreensPage>('/led/taskScreens', { id, pageNum, pageSize: TASK_SCREENS_PAGE }, { signal }),
    placeholderData: keepPreviousData,
    // Receipts, acks and what the screens play arrive live; read again after a reconnect, a new publication or when the totals move.
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

/**
 * Moves the open pages of a task's screens as its publication's ledger rows move (DispatchRowsChanged), also in a read
 * on its way; each page is checked for the event's publication when the change is written.
 */
export function patchTaskScreenRows(queryClient: QueryClient, id: number, event: DispatchRowsChangedEvent): void {
  patchLive<LedTaskScreensPage>(queryClient, ledTaskKeys.screensOf(id), (page) =>
    page.dispatchId !== event.dispatchId ? page : withRowChanges(page, 'list', event),
  );
}

/**
 * The open pages of a task's screens with what the screens report playing (DeviceStateChanged), also in a read on its
 * way. True when the change may move the totals (a screen started or stopped playing this task), to read them again:
 * a screen that now plays it, a shown screen that played it, or a screen no page shows while the totals count screens
 * playing it that no page shows (the change may be one of them stopping: it does not say what the screen played before).
 */
export function patchTaskScreensPlaying(queryClient: QueryClient, id: number, event: DeviceStateChangedEvent): boolean {
  if (event.family !== DeviceFamily.Led) return false;
  const changed = new Map(event.changes.filter((c) => c.changed.playing !== undefined).map((c) => [c.recordId, c.changed.playing?.taskId ?? null]));
  if (changed.size === 0) return false;
  const pages = queryClient.getQueriesData<LedTaskScreensPage>({ queryKey: ledTaskKeys.screensOf(id) }).flatMap(([, page]) => (page ? [page] : []));
  const cached = pages.flatMap((page) => page.list);
  const shown = new Set(cached.map((row) => row.deviceId));
  const playingUnseen =
    Math.max(0, ...pages.map((page) => page.receiveCounts[LedReceiveStatus.Playing] ?? 0)) > cached.filter((row) => row.playingTaskId === id).length;
  const moves =
    [...changed.values()].includes(id) ||
    cached.some((row) => changed.has(row.deviceId) && row.playingTaskId === id) ||
    (playingUnseen && [...changed.keys()].some((deviceId) => !shown.has(deviceId)));
  patchLive<LedTaskScreensPage>(queryClient, ledTaskKeys.screensOf(id), (page) =>
    page.list.some((row) => changed.has(row.deviceId))
      ? { ...page, list: page.list.map((row) => (changed.has(row.deviceId) ? { ...row, playingTaskId: changed.get(row.deviceId) ?? null } : row)) }
      : page,
  );
  return moves;
}

/**
 * Keeps a task's screens drawer moving without polling: the ledger's rows of its publication as they move
 * (DispatchRowsChanged: receipts, acks, failures) and what each screen reports playing (DeviceStateChanged); the totals
 * are read again when the publication's counts move (DispatchProgress) or a screen starts or stops playing the task.
 */
export function useLiveTaskScreens(id: number, dispatchId: string | null): void {
  const queryClient = useQueryClient();
  const resync = useLiveDispatchPages(
    DeviceFamily.Led,
    ledTaskKeys.screensOf(id),
    dispatchId,
    useCallback((event: DispatchRowsChangedEvent) => patchTaskScreenRows(queryClient, id, event), [queryClient, id]),
  );
  useLiveFeed(
    'DeviceStateChanged',
    DeviceFamily.Led,
    useCallback(
      (event: DeviceStateChangedEvent) => (patchTaskScreensPlaying(queryClient, id, event) ? resync() : undefined),
      [queryClient, id, resync],
    ),
    resync,
  );
}
