import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  type LampControlResult,
  type LedAddOrEditRequest,
  type LedBrightnessRequest,
  type LedDaylightRequest,
  type LedDaylightResult,
  type LedPageQuery,
  type LedRealTimePlayRequest,
  type LedRow,
  type LedScreenRequest,
  type LedSelection,
  type LedVolumeRequest,
  type MqttCredentials,
  type PageResult,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { useLiveRows } from '@/realtime/live-rows';

export const ledKeys = {
  all: ['led'] as const,
  page: (query: LedPageQuery) => ['led', 'page', query] as const,
  detail: (id: number) => ['led', 'detail', id] as const,
};

/** The screen list's route; its total for a region is what a region-wide command reaches. */
export const LED_PAGE_PATH = '/led/ledPage';

export function useLedPage(query: LedPageQuery) {
  return useQuery({
    queryKey: ledKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<LedRow>>(LED_PAGE_PATH, query, { signal }),
    placeholderData: keepPreviousData,
    // Live events keep the rows current; the list is fetched again only when asked or after a reconnect.
    staleTime: Infinity,
  });
}

export function useSaveLed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LedAddOrEditRequest) => post<{ id: number; mqtt?: MqttCredentials }>('/led/ledAddOrEdit', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ledKeys.all }),
  });
}

export function useDeleteLed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => get<null>('/led/ledDel', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ledKeys.all }),
  });
}

/** The screens' commands, each through the command ledger (its dispatch followed on the page). */
export function useLedCommands() {
  const command = <B extends LedSelection>(path: string) => ({ mutationFn: (body: B) => post<LampControlResult>(`/led/${path}`, body) });
  return {
    brightness: useMutation(command<LedBrightnessRequest>('ledBrightness')),
    volume: useMutation(command<LedVolumeRequest>('ledVolume')),
    screen: useMutation(command<LedScreenRequest>('ledScreen')),
    reboot: useMutation(command<LedSelection>('ledReboot')),
    syncTime: useMutation(command<LedSelection>('ledSyncTime')),
  };
}

export function useLedDaylight() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LedDaylightRequest) => post<LedDaylightResult>('/led/ledDaylight', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ledKeys.all }),
  });
}

/** One object for the page's lifetime: the live feed's handler depends on it. */
const LIVE_LED = { detailKey: ledKeys.detail };

/** Keeps the screen lists live without polling: online or offline, brightness, volume, bright or black, heartbeat. */
export function useLiveLed(): void {
  useLiveRows<LedRow>(DeviceFamily.Led, ledKeys.all, LIVE_LED);
}

/** Real-time play: one medium on the selected screens now, or back to their tasks. */
export function useRealTimePlay() {
  return {
    play: useMutation({ mutationFn: (body: LedRealTimePlayRequest) => post<LampControlResult>('/led/realTimePlay', body) }),
    stop: useMutation({ mutationFn: (body: LedSelection) => post<LampControlResult>('/led/realTimeStop', body) }),
  };
}
