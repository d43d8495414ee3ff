import { useCallback } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  type AlarmActionRequest,
  type AlarmActionResult,
  type AlarmChangedEvent,
  type AlarmPageQuery,
  type AlarmRow,
  type AlarmSummary,
  type FamilyName,
  type PageResult,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { patchLive } from '@/realtime/live-patch';
import { reloadQueries } from '@/realtime/reload';
import { useLiveFeed } from '@/realtime/use-socket';

/**
 * Where a page's alarms come from: the lamps' (/smartLamp/lampAlarm, `/light/alarm*`, administrators) or every
 * family's the caller's roles see (/alarmManage/deviceAlarms, `/alarms/*`), with the families whose events keep it live.
 */
export interface AlarmSource {
  id: 'lamp' | 'device';
  path: (call: 'Page' | 'Summary' | 'Acknowledge' | 'Clear') => string;
}

export const LAMP_ALARM_SOURCE: AlarmSource = { id: 'lamp', path: (call) => `/light/alarm${call}` };
export const DEVICE_ALARM_SOURCE: AlarmSource = { id: 'device', path: (call) => `/alarms/${call.toLowerCase()}` };

export const alarmKeys = {
  all: ['alarms'] as const,
  pages: ['alarms', 'page'] as const,
  page: (source: AlarmSource, query: AlarmPageQuery) => ['alarms', 'page', source.id, query] as const,
  summary: (source: AlarmSource, family?: FamilyName) => ['alarms', 'summary', source.id, family ?? null] as const,
  /** Apart from `all`: what the caller may see does not change with the alarms. */
  families: ['alarm-families'] as const,
};

export function useAlarmPage(source: AlarmSource, query: AlarmPageQuery & { family?: FamilyName }) {
  return useQuery({
    queryKey: alarmKeys.page(source, query),
    queryFn: ({ signal }) => post<PageResult<AlarmRow>>(source.path('Page'), query, { signal }),
    placeholderData: keepPreviousData,
    // AlarmChanged events keep the list current (useLiveAlarms); no polling.
    staleTime: Infinity,
  });
}

export function useAlarmSummary(source: AlarmSource, family?: FamilyName) {
  return useQuery({
    queryKey: alarmKeys.summary(source, family),
    queryFn: ({ signal }) => get<AlarmSummary>(source.path('Summary'), family ? { family } : undefined, { signal }),
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

export const useAcknowledgeAlarms = (source: AlarmSource) => useAlarmAction(source.path('Acknowledge'));
export const useClearAlarms = (source: AlarmSource) => useAlarmAction(source.path('Clear'));

/** The families whose alarms the caller sees (the device alarms page's family filter and its live feeds). */
export function useAlarmFamilies() {
  return useQuery({
    queryKey: alarmKeys.families,
    queryFn: ({ signal }) => get<FamilyName[]>('/alarms/families', undefined, { signal }),
    staleTime: Infinity,
  });
}

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
export function useLiveAlarms(family: FamilyName): void {
  const queryClient = useQueryClient();
  useLiveFeed(
    'AlarmChanged',
    family,
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
