import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type {
  DispatchDetail,
  DispatchDetailQuery,
  DispatchItemState,
  DispatchProgressEvent,
  DispatchRowChange,
  DispatchRowsChangedEvent,
  FamilyName,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { patchLive } from '@/realtime/live-patch';
import { reloadQueries } from '@/realtime/reload';
import { useLiveFeed } from '@/realtime/use-socket';

export const dispatchKeys = {
  all: ['dispatch'] as const,
  /** Every cached page of one dispatch. */
  detail: (id: string) => ['dispatch', id] as const,
  page: (id: string, page: DispatchRowsPage) => ['dispatch', id, page] as const,
};

/** The panel shows a dispatch's rows this many at a time (a dispatch may have tens of thousands). */
export const DISPATCH_ROWS_PAGE = 50;

export interface DispatchRowsPage {
  pageNum: number;
  state?: DispatchItemState;
}

export function useDispatchDetail(id: string | null, page: DispatchRowsPage = { pageNum: 1 }) {
  return useQuery({
    queryKey: dispatchKeys.page(id ?? '', page),
    queryFn: ({ signal }) => {
      const query: DispatchDetailQuery = {
        id: id!,
        pageNum: page.pageNum,
        pageSize: DISPATCH_ROWS_PAGE,
        ...(page.state ? { state: page.state } : {}),
      };
      return get<DispatchDetail>('/dispatch/detail', { ...query }, { signal });
    },
    enabled: Boolean(id),
    placeholderData: (previous) => previous,
    // Progress events keep it current (useLiveDispatches).
    staleTime: Infinity,
  });
}

export function useRetryFailed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => post<null>('/dispatch/retryFailed', { id }),
    onSuccess: (_data, id) => queryClient.invalidateQueries({ queryKey: dispatchKeys.detail(id) }),
  });
}

/** An open dispatch is read again at most this often while its progress events arrive. */
export const DISPATCH_RELOAD_MS = 500;
const reloading = new Map<string, { again: boolean }>();

/**
 * Reads an open dispatch again for a progress event: at once for the first event, then at most once per
 * DISPATCH_RELOAD_MS (the last event of a burst is never dropped). Its status, counts and rows come from that one
 * answer, read in one snapshot, so the totals never run ahead of the rows. A dispatch nobody has open costs nothing.
 */
export function reloadOpenDispatch(queryClient: QueryClient, event: Pick<DispatchProgressEvent, 'dispatchId' | 'status' | 'counts'>): void {
  const { dispatchId } = event;
  const open = queryClient.getQueriesData<DispatchDetail>({ queryKey: dispatchKeys.detail(dispatchId) });
  if (open.length === 0) return;
  // An event that reports exactly what every open page already shows (a late or repeated one) has nothing to read.
  if (open.every(([, shown]) => shown && sameProgress(shown, event))) return;
  const pending = reloading.get(dispatchId);
  if (pending) {
    pending.again = true;
    return;
  }
  const state = { again: false };
  reloading.set(dispatchId, state);
  const reload = () => void reloadQueries(queryClient, dispatchKeys.detail(dispatchId));
  const settle = () => {
    if (!state.again) {
      reloading.delete(dispatchId);
      return;
    }
    state.again = false;
    reload();
    setTimeout(settle, DISPATCH_RELOAD_MS);
  };
  reload();
  setTimeout(settle, DISPATCH_RELOAD_MS);
}

function sameProgress(shown: DispatchDetail, event: Pick<DispatchProgressEvent, 'status' | 'counts'>): boolean {
  if (shown.status !== event.status) return false;
  return (Object.keys(event.counts) as DispatchItemState[]).every((state) => shown.counts[state] === event.counts[state]);
}

/**
 * Keeps a family's open dispatches live without polling: a progress event reads an open dispatch again
 * (reloadOpenDispatch). They are also reloaded whenever progress may have been missed: the feed was confirmed after
 * the panel began loading (a fast dispatch can finish in between), or the socket reconnected.
 */
export function useLiveDispatches(family: FamilyName): void {
  const queryClient = useQueryClient();
  useLiveFeed(
    'DispatchProgress',
    family,
    useCallback((event: DispatchProgressEvent) => reloadOpenDispatch(queryClient, event), [queryClient]),
    useCallback(() => void reloadQueries(queryClient, dispatchKeys.all), [queryClient]),
  );
}

/**
 * Moves the rows of the open pages of a dispatch as their devices report (DispatchRowsChanged: receipts, acks,
 * refusals, expiry, for commands declared with receipts), without reading the dispatch again; its counts follow
 * with DispatchProgress. Rows not on an open page are left for when that page is read.
 */
export function patchDispatchRows(queryClient: QueryClient, event: DispatchRowsChangedEvent): void {
  patchLive<DispatchDetail>(queryClient, dispatchKeys.detail(event.dispatchId), (page) => withRowChanges(page, 'items', event));
}

/**
 * `page` with the rows under `field` moved by a DispatchRowsChanged event: each changed row takes its ledger row's
 * state, receipt, error and time, and what `more` works out from that row (a family's receive status); the page
 * itself when none of its rows changed. Shared by every view of ledger rows kept live.
 */
export function withRowChanges<P, K extends keyof P>(
  page: P,
  field: K,
  event: DispatchRowsChangedEvent,
  more: (row: DispatchRowChange, item: RowOf<P[K]>) => Partial<RowOf<P[K]>> = () => ({}),
): P {
  const items = page[field] as unknown as readonly RowOf<P[K]>[];
  const changed = new Map(event.rows.map((row) => [row.deviceId, row]));
  if (!items.some((item) => changed.has(item.deviceId))) return page;
  const moved = items.map((item) => {
    const row = changed.get(item.deviceId);
    return row ? { ...item, state: row.state, receipt: row.receipt, lastError: row.lastError, updatedAt: row.updatedAt, ...more(row, item) } : item;
  });
  return { ...page, [field]: moved };
}

type RowOf<L> = L extends readonly (infer R extends { deviceId: number })[] ? R : never;

/**
 * Keeps the open pages of one record's dispatch rows live without polling (a plan's receivers, a task's screens): rows
 * move with DispatchRowsChanged (`patchRows`); the pages, with their totals, are read again when the dispatch's counts
 * move (DispatchProgress) and when the feed may have missed events. Answers that read again, for other feeds.
 */
export function useLiveDispatchPages(
  family: FamilyName,
  queryKey: QueryKey,
  dispatchId: string | null,
  patchRows: (event: DispatchRowsChangedEvent) => void,
): () => void {
  const queryClient = useQueryClient();
  const keyText = JSON.stringify(queryKey);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the key is compared by its contents
  const resync = useCallback(() => void reloadQueries(queryClient, queryKey), [queryClient, keyText]);
  useLiveFeed('DispatchRowsChanged', family, patchRows, resync);
  useLiveFeed(
    'DispatchProgress',
    family,
    useCallback((event: DispatchProgressEvent) => (event.dispatchId === dispatchId ? resync() : undefined), [dispatchId, resync]),
    resync,
  );
  return resync;
}

/** Keeps the open pages' rows of a family's dispatches moving row by row (patchDispatchRows). */
export function useLiveDispatchRows(family: FamilyName): void {
  const queryClient = useQueryClient();
  useLiveFeed(
    'DispatchRowsChanged',
    family,
    useCallback((event: DispatchRowsChangedEvent) => patchDispatchRows(queryClient, event), [queryClient]),
    useCallback(() => void reloadQueries(queryClient, dispatchKeys.all), [queryClient]),
  );
}

/**
 * How many devices a region-wide command reaches: the total of the family's list (`listPath`) for the region, which
 * counts its sub-regions too, as the command's selection does. Asked when the operator is about to confirm.
 */
export async function devicesInRegion(listPath: string, regionId: number): Promise<number> {
  const page = await post<{ total: number }>(listPath, { regionId, pageNum: 1, pageSize: 1 });
  return page.total;
}
