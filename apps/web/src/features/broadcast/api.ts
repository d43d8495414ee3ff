import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  terminalStatusOf,
  type LampControlResult,
  type PageResult,
  type TerminalAddOrEditRequest,
  type TerminalHistory,
  type TerminalPageQuery,
  type TerminalPlaybackRequest,
  type TerminalRow,
  type TerminalVolumeRequest,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { useLiveRows } from '@/realtime/live-rows';

export const terminalKeys = {
  all: ['terminals'] as const,
  page: (query: TerminalPageQuery) => ['terminals', 'page', query] as const,
  detail: (id: number) => ['terminals', 'detail', id] as const,
  history: (id: number, date: string) => ['terminals', 'history', id, date] as const,
};

/** The terminal list's route; its total for a region is what a region-wide terminal command reaches. */
export const TERMINAL_PAGE_PATH = '/broadcast/terminalPage';

export function useTerminalPage(query: TerminalPageQuery) {
  return useQuery({
    queryKey: terminalKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<TerminalRow>>(TERMINAL_PAGE_PATH, query, { signal }),
    placeholderData: keepPreviousData,
    // Live events keep the rows current; the list is fetched again only when asked or after a reconnect.
    staleTime: Infinity,
  });
}

export function useTerminal(id: number) {
  return useQuery({
    queryKey: terminalKeys.detail(id),
    queryFn: ({ signal }) => get<TerminalRow>('/broadcast/terminalDetail', { id }, { signal }),
    staleTime: Infinity,
  });
}

/** A terminal's day ('' for today by its clock); the page fetches it again when the terminal's occupancy changes. */
export function useTerminalHistory(id: number, date: string) {
  return useQuery({
    queryKey: terminalKeys.history(id, date),
    queryFn: ({ signal }) => get<TerminalHistory>('/broadcast/terminalHistory', date ? { id, date } : { id }, { signal }),
    placeholderData: keepPreviousData,
    enabled: id > 0,
  });
}

export function useSaveTerminal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TerminalAddOrEditRequest) => post<{ id: number }>('/broadcast/terminalAddOrEdit', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: terminalKeys.all }),
  });
}

export function useDeleteTerminal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => get<null>('/broadcast/terminalDel', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: terminalKeys.all }),
  });
}

export function useTerminalVolume() {
  return useMutation({ mutationFn: (body: TerminalVolumeRequest) => post<LampControlResult>('/broadcast/terminalVolume', body) });
}

export function useTerminalPlayback() {
  return useMutation({ mutationFn: (body: TerminalPlaybackRequest) => post<LampControlResult>('/broadcast/terminalPlayback', body) });
}

/** One object for the page's lifetime: the live feed's handler depends on it. */
const LIVE_TERMINALS = {
  derive: (row: TerminalRow): Partial<TerminalRow> => ({ status: terminalStatusOf(row.networkStatus, row.occupancy) }),
  detailKey: terminalKeys.detail,
};

/** Keeps the terminal lists and details live without polling: occupancy, network status and volumes as they change. */
export function useLiveTerminals(): void {
  useLiveRows<TerminalRow>(DeviceFamily.Broadcast, terminalKeys.all, LIVE_TERMINALS);
}
