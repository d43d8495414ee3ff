import { useCallback } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  type AlarmActionRequest,
  type AlarmActionResult,
  type AlarmChangedEvent,
  type AlarmPageQuery,
  type AlarmRow,
  type AlarmSummary,
  type PageResult,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { patchLive } from '@/realtime/live-patch';
import { reloadQueries } from '@/realtime/reload';
import { useLiveFeed } from '@/realtime/use-socket';

export const alarmKeys = {
  all: ['alarms'] as const,
  pages: ['alarms', 'page'] as const,
  page: (query: AlarmPageQuery) => ['alarms', 'page', query] as const,
  summary: ['alarms', 'summary'] as const,
};

export function useAlarmPage(query: AlarmPageQuery) {
  return useQuery({
    queryKey: alarmKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<AlarmRow>>('/light/alarmPage', query, { signal }),
    placeholderData: keepPreviousData,
    // AlarmChanged events keep the list current (useLiveAlarms); no polling.
    staleTime: Infinity,
  });
}

export function useAlarmSummary() {
  return useQuery({
    queryKey: alarmKeys.summary,
    queryFn: ({ signal }) => get<AlarmSummary>('/light/alarmSummary', undefined, { signal }),
    staleTime: Infinity,
  });
}

function useAlarmAction(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlarmActionRequest) => post<AlarmActionResult>(path, body),
    // The events of the change patch the rows; the summary and filtered lists are read again.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: alarmKeys.all }),
  });
}

export const useAcknowledgeAlarms = () => useAlarmAction('/light/alarmAcknowledge');
export const useClearAlarms = () => useAlarmAction('/light/alarmClear');

/** Writes an alarm's new state into every cached page that shows it. */
export function patchAlarmRows(queryClient: QueryClient, alarm: AlarmRow): void {
  patchLive<PageResult<AlarmRow>>(queryClient, alarmKeys.pages, (page) => {
    if (!page.list.some((row) => row.id === alarm.id)) return page;
    return { ...page, list: page.list.map((row) => (row.id === alarm.id ? { ...row, ...alarm } : row)) };
  });
}

/** The alarm pages are read again at most this often while events arrive (a storm of faults costs one read a second). */
const RELOAD_MS = 1_000;
let lastReload = 0;
let trailingReload: ReturnType<typeof setTimeout> | null = null;

/** Reads the alarm pages and the summary again: at once after a quiet spell, else once the second is over. */
function reloadSoon(queryClient: QueryClient): void {
  const reload = () => {
    lastReload = Date.now();
    void reloadQueries(queryClient, alarmKeys.all);
  };
  const wait = lastReload + RELOAD_MS - Date.now();
  if (wait <= 0 && !trailingReload) return reload();
  trailingReload ??= setTimeout(
    () => {
      trailingReload = null;
      reload();
    },
    Math.max(0, wait),
  );
}

/**
 * Keeps the alarm page live without polling: a change to a shown alarm is written into the rows at once; a raised
 * alarm (which may belong on the page, by filters only the server applies) reloads the page and the summary, at once
 * and then at most once a second. Whenever events may have been missed (the feed
 * joined after the page began loading, or a reconnect), everything is reloaded. A reload always reads anew, also
 * while the page's first read is on its way (an alarm raised as the page opens may be missing from that read's answer).
 */
export function useLiveAlarms(): void {
  const queryClient = useQueryClient();
  useLiveFeed(
    'AlarmChanged',
    DeviceFamily.Lamp,
    useCallback(
      (event: AlarmChangedEvent) => {
        patchAlarmRows(queryClient, event.alarm);
        reloadSoon(queryClient);
      },
      [queryClient],
    ),
    useCallback(() => void reloadQueries(queryClient, alarmKeys.all), [queryClient]),
  );
}
