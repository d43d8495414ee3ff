import { useCallback } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  adReceiveStatusOf,
  type AdPlanCalendarEntry,
  type AdPlanDetail,
  type AdPlanPage,
  type AdPlanPageQuery,
  type AdPlanReceiversPage,
  type AdPlanRequest,
  type DeviceStateChangedEvent,
  type DispatchRowsChangedEvent,
  type LampControlResult,
  type OnlineState,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { useLiveDispatchPages, withRowChanges } from '@/features/dispatch/api';
import { patchLive } from '@/realtime/live-patch';
import { useLiveFeed } from '@/realtime/use-socket';

export const planKeys = {
  all: ['signagePlans'] as const,
  page: (query: AdPlanPageQuery) => ['signagePlans', 'page', query] as const,
  detail: (id: number) => ['signagePlans', 'detail', id] as const,
  receiversOf: (id: number) => ['signagePlans', 'receivers', id] as const,
  receivers: (id: number, pageNum: number) => ['signagePlans', 'receivers', id, pageNum] as const,
  calendar: (from: string, to: string) => ['signagePlans', 'calendar', from, to] as const,
};

/** The receive-status view shows this many screens at a time. */
export const RECEIVERS_PAGE = 50;

export function usePlanPage(query: AdPlanPageQuery) {
  return useQuery({
    queryKey: planKeys.page(query),
    queryFn: ({ signal }) => post<AdPlanPage>('/signage/plan/page', query, { signal }),
    placeholderData: keepPreviousData,
  });
}

/**
 * The installation's time zone as the plan page last answered it (AdPlanPage.timeZone), read from the pages already
 * held; undefined before any was read.
 */
export function installationZoneIn(queryClient: QueryClient): string | undefined {
  return queryClient
    .getQueriesData<AdPlanPage>({ queryKey: [...planKeys.all, 'page'] })
    .map(([, page]) => page?.timeZone)
    .find((zone) => zone !== undefined);
}

export function useInstallationZone(): string | undefined {
  return installationZoneIn(useQueryClient());
}

export function usePlanDetail(id: number | null) {
  return useQuery({
    queryKey: planKeys.detail(id ?? 0),
    queryFn: ({ signal }) => get<AdPlanDetail>('/signage/plan/detail', { id: id! }, { signal }),
    enabled: id !== null,
    gcTime: 0,
  });
}

export function usePlanCalendar(from: string, to: string) {
  return useQuery({
    queryKey: planKeys.calendar(from, to),
    queryFn: ({ signal }) => get<AdPlanCalendarEntry[]>('/signage/plan/calendar', { from, to }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** A page of a plan's screens with their receive status; the socket keeps it moving (useLivePlanReceivers). */
export function usePlanReceivers(id: number, pageNum: number) {
  return useQuery({
    queryKey: planKeys.receivers(id, pageNum),
    queryFn: ({ signal }) => post<AdPlanReceiversPage>('/signage/plan/receivers', { id, pageNum, pageSize: RECEIVERS_PAGE }, { signal }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

function useInvalidatePlans() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: planKeys.all });
}

/** Adds (no id) or edits a plan; the server checks it again and answers its field errors. */
export function useSavePlan() {
  const invalidate = useInvalidatePlans();
  return useMutation({
    mutationFn: (plan: AdPlanRequest & { id?: number }) =>
      post<AdPlanDetail>(plan.id === undefined ? '/signage/plan/add' : '/signage/plan/edit', plan),
    onSuccess: invalidate,
  });
}

export function useDeletePlan() {
  const invalidate = useInvalidatePlans();
  return useMutation({ mutationFn: (id: number) => post<null>('/signage/plan/delete', { id }), onSuccess: invalidate });
}

export function usePublishPlan() {
  const invalidate = useInvalidatePlans();
  return useMutation({ mutationFn: (id: number) => post<LampControlResult>('/signage/plan/publish', { id }), onSuccess: invalidate });
}

export function useRetryPlan() {
  const invalidate = useInvalidatePlans();
  return useMutation({ mutationFn: (id: number) => post<{ retried: number }>('/signage/plan/retryFailed', { id }), onSuccess: invalidate });
}

/**
 * Moves the open receive-status pages of a plan as its screens report (DispatchRowsChanged of the plan's dispatch):
 * each row takes its new ledger state and receipt and its receive status from them (adReceiveStatusOf), nothing
 * fetched. The pages are the plan's, and each is checked for the event's dispatch when the change is written: a page
 * still being read for a new publication takes the change when its answer lands (patchLive).
 */
export function patchReceivers(queryClient: QueryClient, planId: number, event: DispatchRowsChangedEvent): void {
  patchLive<AdPlanReceiversPage>(queryClient, planKeys.receiversOf(planId), (page) =>
    page.dispatchId !== event.dispatchId
      ? page
      : withRowChanges(page, 'list', event, (row, item) => ({
          receiveStatus: adReceiveStatusOf(row),
          expiresAt: row.state === 'queued' || row.state === 'sent' ? item.expiresAt : null,
        })),
  );
}

/**
 * Moves the online/offline of the screens on a plan's open receive-status pages as they report it (DeviceStateChanged
 * of the floor screens), nothing fetched; pages showing none of them are left as they are.
 */
export function patchReceiverNetwork(queryClient: QueryClient, planId: number, event: DeviceStateChangedEvent): void {
  const network = new Map<number, OnlineState>();
  for (const change of event.changes) {
    const status = (change.changed as { networkStatus?: OnlineState }).networkStatus;
    if (status !== undefined) network.set(change.recordId, status);
  }
  if (network.size === 0) return;
  patchLive<AdPlanReceiversPage>(queryClient, planKeys.receiversOf(planId), (page) =>
    page.list.some((row) => network.has(row.deviceId))
      ? { ...page, list: page.list.map((row) => (network.has(row.deviceId) ? { ...row, networkStatus: network.get(row.deviceId)! } : row)) }
      : page,
  );
}

/**
 * Keeps a plan's receive-status view live without polling: rows move with DispatchRowsChanged, their screens'
 * online/offline with DeviceStateChanged; the totals are read again when the dispatch's counts move
 * (DispatchProgress), and everything when the feed may have missed events.
 */
export function useLivePlanReceivers(id: number, dispatchId: string | null): void {
  const queryClient = useQueryClient();
  const resync = useLiveDispatchPages(
    DeviceFamily.Signage,
    planKeys.receiversOf(id),
    dispatchId,
    useCallback((event: DispatchRowsChangedEvent) => patchReceivers(queryClient, id, event), [queryClient, id]),
  );
  useLiveFeed(
    'DeviceStateChanged',
    DeviceFamily.Signage,
    useCallback((event: DeviceStateChangedEvent) => patchReceiverNetwork(queryClient, id, event), [queryClient, id]),
    resync,
  );
}
